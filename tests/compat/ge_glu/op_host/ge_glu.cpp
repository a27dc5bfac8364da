/**
 * GeGluCustom: x is split in two halves along its last dim, y = a * gelu(b) (approximate = 1:
 * the tanh form, 0: the erf form). Rows are spread over the cores; the core count and UB size
 * come from the compile info TilingParse fills. Per-SoC configs: float32 and float16 on
 * Ascend910B, float16 only on Ascend310P.
 */
#include "ge_glu_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingPrepareForGeGlu(gert::TilingParseContext* context)
{
    auto compileInfo = context->GetCompiledInfo<GeGluCompileInfo>();
    auto platformInfo = context->GetPlatformInfo();
    if (compileInfo == nullptr || platformInfo == nullptr) {
        return ge::GRAPH_FAILED;
    }
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(platformInfo);
    compileInfo->totalCoreNum = ascendcPlatform.GetCoreNumAiv();
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, compileInfo->ubSizePlatForm);
    return compileInfo->totalCoreNum > 0 ? ge::GRAPH_SUCCESS : ge::GRAPH_FAILED;
}

static ge::graphStatus TilingForGeGlu(gert::TilingContext* context)
{
    auto compileInfo = reinterpret_cast<const GeGluCompileInfo*>(context->GetCompileInfo());
    if (compileInfo == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const gert::Shape& xShape = context->GetInputShape(0)->GetStorageShape();
    size_t rank = xShape.GetDimNum();
    const int64_t* dim = context->GetAttrs()->GetInt(0);
    const int64_t* approximate = context->GetAttrs()->GetInt(1);
    if (rank == 0 || dim == nullptr || (*dim != -1 && *dim != static_cast<int64_t>(rank) - 1)) {
        return ge::GRAPH_FAILED;  // only the last dim is split
    }
    int64_t lastDim = xShape[rank - 1];
    if (lastDim % 2 != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t halfCol = static_cast<uint32_t>(lastDim / 2);
    uint32_t rows = static_cast<uint32_t>(xShape.GetShapeSize() / lastDim);
    // a row of each half and of the output must fit the UB
    if (static_cast<uint64_t>(halfCol) * 3 * sizeof(float) > compileInfo->ubSizePlatForm) {
        return ge::GRAPH_FAILED;
    }
    uint32_t coreNum = compileInfo->totalCoreNum;
    if (coreNum > GE_GLU_MAX_BLOCKS) coreNum = GE_GLU_MAX_BLOCKS;
    uint32_t usedCore = rows < coreNum ? rows : coreNum;
    if (usedCore == 0) usedCore = 1;

    GeGluTilingData tiling;
    tiling.set_rowNum(rows);
    tiling.set_halfColNum(halfCol);
    tiling.set_approximate(approximate != nullptr ? static_cast<uint32_t>(*approximate) : 1);
    tiling.set_usedCoreNum(usedCore);
    uint32_t rowStart[GE_GLU_MAX_BLOCKS + 1] = {0};
    for (uint32_t i = 0; i <= usedCore; ++i) {
        rowStart[i] = static_cast<uint32_t>(static_cast<uint64_t>(rows) * i / usedCore);
    }
    tiling.set_rowStart(rowStart);
    context->SetBlockDim(usedCore);
    bool isFp16 = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    context->SetTilingKey(isFp16 ? 1 : 0);
    tiling.set_dtypeSize(isFp16 ? 2 : 4);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static ge::graphStatus InferShapeForGeGlu(gert::InferShapeContext* context)
{
    const gert::Shape* xShape = context->GetInputShape(0);
    gert::Shape* yShape = context->GetOutputShape(0);
    if (xShape == nullptr || yShape == nullptr || xShape->GetDimNum() == 0) {
        return GRAPH_FAILED;
    }
    *yShape = *xShape;
    size_t last = xShape->GetDimNum() - 1;
    if ((*xShape)[last] >= 0) {
        yShape->SetDim(last, (*xShape)[last] / 2);
    }
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class GeGluCustom : public OpDef {
public:
    explicit GeGluCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND})
            .Follow("x", FollowType::DTYPE);
        this->Attr("dim").AttrType(OPTIONAL).Int(-1);
        this->Attr("approximate").AttrType(OPTIONAL).Int(1);

        OpAICoreConfig config910b;
        config910b.Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        config910b.Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND})
            .Follow("x", FollowType::DTYPE);
        config910b.DynamicCompileStaticFlag(true).DynamicRankSupportFlag(true).DynamicShapeSupportFlag(true);
        config910b.ExtendCfgInfo("aclnnSupport.value", "support_aclnn");
        this->AICore().AddConfig("ascend910b", config910b);

        OpAICoreConfig config310p;
        config310p.Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND});
        config310p.Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND});
        config310p.DynamicCompileStaticFlag(true).DynamicRankSupportFlag(true).DynamicShapeSupportFlag(true);
        config310p.ExtendCfgInfo("aclnnSupport.value", "aclnn_only");
        this->AICore().AddConfig("ascend310p", config310p);

        this->SetInferShape(ge::InferShapeForGeGlu);
        this->EnableFallBack();
    }
};
OP_ADD(GeGluCustom);
}  // namespace ops

IMPL_OP_OPTILING(GeGluCustom)
    .Tiling(optiling::TilingForGeGlu)
    .TilingParse<optiling::GeGluCompileInfo>(optiling::TilingPrepareForGeGlu);
