/**
 * AttrMixCustom: an elementwise op driven by one attribute of every kind. Along the last dim j:
 *   v = x * scales[j % |scales|] + shifts[j % |shifts|]      (ListFloat, ListInt)
 *   v = -v when negate                                       (Bool)
 *   v = 0 where !mask[j % |mask|]                            (ListBool)
 *   v = clip(v, lo, hi) when mode == "clip"                  (String, Float, Float)
 *   y = v * repeat * |groups|                                (Int, ListListInt)
 */
#include <cstring>

#include "attr_mix_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
enum AttrIndex { SCALES = 0, SHIFTS, NEGATE, MASK, MODE, LO, HI, REPEAT, GROUPS };

static ge::graphStatus AttrMixTiling(gert::TilingContext* context)
{
    auto attrs = context->GetAttrs();
    const gert::TypedContinuousVector<float>* scales = attrs->GetListFloat(SCALES);
    const gert::TypedContinuousVector<int64_t>* shifts = attrs->GetListInt(SHIFTS);
    const bool* negate = attrs->GetBool(NEGATE);
    const std::vector<uint8_t>* mask = attrs->GetListBool(MASK);
    const char* mode = attrs->GetStr(MODE);
    const float* lo = attrs->GetFloat(LO);
    const float* hi = attrs->GetFloat(HI);
    const int64_t* repeat = attrs->GetInt(REPEAT);
    const std::vector<std::vector<int64_t>>* groups = attrs->GetListListInt(GROUPS);
    if (scales == nullptr || shifts == nullptr || negate == nullptr || mask == nullptr || mode == nullptr ||
        lo == nullptr || hi == nullptr || repeat == nullptr || groups == nullptr) {
        return ge::GRAPH_FAILED;
    }
    if (scales->GetSize() == 0 || scales->GetSize() > ATTR_MIX_MAX_LIST || shifts->GetSize() == 0 ||
        shifts->GetSize() > ATTR_MIX_MAX_LIST || mask->empty() || mask->size() > ATTR_MIX_MAX_LIST) {
        return ge::GRAPH_FAILED;
    }
    const gert::Shape& x = context->GetInputShape(0)->GetStorageShape();
    uint32_t cols = x.GetDimNum() == 0 ? 1 : static_cast<uint32_t>(x[x.GetDimNum() - 1]);

    AttrMixTilingData tiling;
    tiling.set_rowNum(cols == 0 ? 0 : static_cast<uint64_t>(x.GetShapeSize()) / cols);
    tiling.set_colNum(cols);
    tiling.set_scaleNum(static_cast<uint32_t>(scales->GetSize()));
    float scaleBuf[ATTR_MIX_MAX_LIST] = {0};  // set_scales copies the whole array
    std::memcpy(scaleBuf, scales->GetData(), scales->GetSize() * sizeof(float));
    tiling.set_scales(scaleBuf);
    tiling.set_shiftNum(static_cast<uint32_t>(shifts->GetSize()));
    int64_t shiftBuf[ATTR_MIX_MAX_LIST] = {0};
    std::memcpy(shiftBuf, shifts->GetData(), shifts->GetSize() * sizeof(int64_t));
    tiling.set_shifts(shiftBuf);
    tiling.set_maskNum(static_cast<uint32_t>(mask->size()));
    uint8_t maskBuf[ATTR_MIX_MAX_LIST] = {0};
    std::memcpy(maskBuf, mask->data(), mask->size());
    tiling.set_mask(maskBuf);
    tiling.set_negate(*negate ? 1 : 0);
    tiling.set_clipMode(std::strcmp(mode, "clip") == 0 ? 1 : 0);
    tiling.set_lo(*lo);
    tiling.set_hi(*hi);
    tiling.set_factor(static_cast<float>(*repeat * static_cast<int64_t>(groups->size())));

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t rows = tiling.get_rowNum();
    context->SetBlockDim(rows < platform.GetCoreNum() ? static_cast<uint32_t>(rows == 0 ? 1 : rows)
                                                      : platform.GetCoreNum());
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class AttrMixCustom : public OpDef {
public:
    explicit AttrMixCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .Comment("the input");
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .Follow("x").Comment("the result");
        this->Attr("scales").AttrType(REQUIRED).ListFloat().Comment("per-column scales");
        this->Attr("shifts").AttrType(OPTIONAL).ListInt({0});
        this->Attr("negate").AttrType(OPTIONAL).Bool(false);
        this->Attr("mask").AttrType(OPTIONAL).ListBool({true});
        this->Attr("mode").AttrType(OPTIONAL).String("none");
        this->Attr("lo").AttrType(OPTIONAL).Float(-1.0);
        this->Attr("hi").AttrType(OPTIONAL).Float(1.0);
        this->Attr("repeat").AttrType(OPTIONAL).Int(1);
        this->Attr("groups").AttrType(OPTIONAL).ListListInt({{0, 1}, {2}});
        this->Comment(CommentSection::BRIEF, "an elementwise op configured by one attribute of every kind");
        this->Comment(CommentSection::CONSTRAINTS, "at most 8 scales, shifts and mask entries");

        this->AICore().SetTiling(optiling::AttrMixTiling);
        this->AICore().AddConfig("ascend910b");
        this->EnableFallBack();
    }
};
OP_ADD(AttrMixCustom);
}  // namespace ops
