/**
 * LayerNormCustom: y = (x - mean) / sqrt(var + epsilon) * gamma + beta over the last dim; beta
 * is optional. Rows are split over the cores the compile info records; a row must fit the UB.
 */
#include "layer_norm_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus LayerNormCustomTilingParse(gert::TilingParseContext* context)
{
    auto compileInfo = context->GetCompiledInfo<LayerNormCustomCompileInfo>();
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    compileInfo->coreNum = ascendcPlatform.GetCoreNum();
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, compileInfo->ubSize);
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus LayerNormCustomTiling(gert::TilingContext* context)
{
    const LayerNormCustomCompileInfo* compileInfo = context->GetCompileInfo<LayerNormCustomCompileInfo>();
    if (compileInfo == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const gert::Shape& xShape = context->GetInputShape(0)->GetStorageShape();
    if (xShape.GetDimNum() == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t cols = static_cast<uint32_t>(xShape[xShape.GetDimNum() - 1]);
    uint32_t rows = cols == 0 ? 0 : static_cast<uint32_t>(xShape.GetShapeSize() / cols);
    // x row, y row, gamma and beta in the UB at once
    if (static_cast<uint64_t>(cols) * 4 * sizeof(float) > compileInfo->ubSize) {
        return ge::GRAPH_FAILED;
    }
    const float* epsilon = context->GetAttrs()->GetFloat(0);

    LayerNormCustomTilingData tiling;
    tiling.set_rowNum(rows);
    tiling.set_colNum(cols);
    tiling.set_epsilon(epsilon == nullptr ? 1e-5f : *epsilon);
    tiling.set_hasBeta(context->GetOptionalInputTensor(2) != nullptr ? 1 : 0);
    uint32_t usedCore = rows < compileInfo->coreNum ? rows : compileInfo->coreNum;
    if (usedCore == 0) usedCore = 1;
    uint32_t perCore = (rows + usedCore - 1) / usedCore;
    usedCore = perCore == 0 ? 1 : (rows + perCore - 1) / perCore;
    tiling.rowSplit.set_rowsPerCore(perCore);
    tiling.rowSplit.set_tailCoreRows(rows - perCore * (usedCore - 1));
    tiling.rowSplit.set_usedCoreNum(usedCore);
    context->SetBlockDim(usedCore);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static graphStatus InferShapeForLayerNormCustom(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetRequiredInputShape(0);
    const gert::Shape* gamma = context->GetRequiredInputShape(1);
    if (x == nullptr || gamma == nullptr || x->GetDimNum() == 0) {
        return GRAPH_FAILED;
    }
    *context->GetOutputShape(0) = *x;
    return GRAPH_SUCCESS;
}
static graphStatus InferDataTypeForLayerNormCustom(gert::InferDataTypeContext* context)
{
    return context->SetOutputDataType(0, context->GetRequiredInputDataType(0));
}
}  // namespace ge

namespace ops {
class LayerNormCustom : public OpDef {
public:
    explicit LayerNormCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).Version(1);
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).Version(1);
        this->Input("beta").ParamType(OPTIONAL).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).Version(1);
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f).Version(1);

        this->SetInferShape(ge::InferShapeForLayerNormCustom).SetInferDataType(ge::InferDataTypeForLayerNormCustom);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend310p");
        this->EnableFallBack();
    }
};
OP_ADD(LayerNormCustom);
}  // namespace ops

IMPL_OP_OPTILING(LayerNormCustom)
    .Tiling(optiling::LayerNormCustomTiling)
    .TilingParse<optiling::LayerNormCustomCompileInfo>(optiling::LayerNormCustomTilingParse);
