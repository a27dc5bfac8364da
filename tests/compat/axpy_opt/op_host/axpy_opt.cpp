/**
 * AxpyOpt: y = alpha * x + bias, then max(y, 0) when with_relu. bias is an optional input of the
 * same shape as x; alpha and with_relu are optional attributes. The output follows x (dtype,
 * format and shape): the op has no inference functions of its own.
 */
#include <algorithm>
#include "axpy_opt_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr int64_t MIN_ELEMS_PER_CORE = 1024;
constexpr size_t INPUT_X = 0;
constexpr size_t INPUT_BIAS = 1;
constexpr size_t ATTR_ALPHA = 0;
constexpr size_t ATTR_WITH_RELU = 1;

static ge::graphStatus AxpyOptTiling(gert::TilingContext* context)
{
    const gert::StorageShape* xShape = context->GetInputShape(INPUT_X);
    if (xShape == nullptr) {
        return ge::GRAPH_FAILED;
    }
    int64_t total = xShape->GetStorageShape().GetShapeSize();
    const gert::StorageShape* biasShape = context->GetOptionalInputShape(INPUT_BIAS);
    if (biasShape != nullptr && biasShape->GetStorageShape().GetShapeSize() != total) {
        return ge::GRAPH_FAILED;
    }
    auto attrs = context->GetAttrs();
    const float* alpha = attrs->GetAttrPointer<float>(ATTR_ALPHA);
    const bool* withRelu = attrs->GetAttrPointer<bool>(ATTR_WITH_RELU);

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    int64_t coreNum = ascendcPlatform.GetCoreNum();
    int64_t blockNum = std::max<int64_t>(1, std::min<int64_t>(coreNum, total / MIN_ELEMS_PER_CORE));
    int64_t blockFactor = (total + blockNum - 1) / blockNum;

    AxpyOptTilingData tiling;
    tiling.set_totalLength(total);
    tiling.set_blockFactor(blockFactor);
    tiling.set_alpha(alpha == nullptr ? 1.0f : *alpha);
    tiling.set_hasBias(biasShape != nullptr ? 1 : 0);
    tiling.set_withRelu(withRelu != nullptr && *withRelu ? 1 : 0);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(static_cast<uint32_t>(blockNum));
    size_t* workspaces = context->GetWorkspaceSizes(1);
    workspaces[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class AxpyOpt : public OpDef {
public:
    explicit AxpyOpt(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .AutoContiguous();
        this->Input("bias")
            .ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .Follow("x");
        this->Attr("alpha").AttrType(OPTIONAL).Float(1.0);
        this->Attr("with_relu").AttrType(OPTIONAL).Bool(false);

        OpAICoreConfig aicoreConfig;
        aicoreConfig.DynamicCompileStaticFlag(true)
            .DynamicFormatFlag(false)
            .DynamicRankSupportFlag(true)
            .DynamicShapeSupportFlag(true)
            .NeedCheckSupportFlag(false)
            .PrecisionReduceFlag(true);
        this->AICore().AddConfig("ascend910b", aicoreConfig);
        this->EnableFallBack();
    }
};
OP_ADD(AxpyOpt);
}  // namespace ops

IMPL_OP_OPTILING(AxpyOpt).Tiling(optiling::AxpyOptTiling);
