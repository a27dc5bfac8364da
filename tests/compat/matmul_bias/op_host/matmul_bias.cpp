/**
 * MatmulBiasCustom: c = op(a) @ op(b) + bias, op = transpose when transpose_a / transpose_b.
 * float32, 2-D only (the check-support function says why otherwise). The output is cut into
 * baseM x baseN blocks; the block dim follows the cube/vector core ratio.
 */
#include <string>

#include "matmul_bias_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BASE_M = 16;
constexpr uint32_t BASE_N = 16;

static ge::graphStatus MatmulBiasTilingFunc(gert::TilingContext* context)
{
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape& aShape = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& bShape = context->GetInputShape(1)->GetStorageShape();
    const bool* transA = context->GetAttrs()->GetAttrPointer<bool>(0);
    const bool* transB = context->GetAttrs()->GetAttrPointer<bool>(1);
    bool ta = transA != nullptr && *transA;
    bool tb = transB != nullptr && *transB;
    uint32_t M = static_cast<uint32_t>(ta ? aShape.GetDim(1) : aShape.GetDim(0));
    uint32_t K = static_cast<uint32_t>(ta ? aShape.GetDim(0) : aShape.GetDim(1));
    uint32_t N = static_cast<uint32_t>(tb ? bShape.GetDim(0) : bShape.GetDim(1));

    MatmulBiasTilingData tiling;
    tiling.shapeInfo.set_M(M);
    tiling.shapeInfo.set_N(N);
    tiling.shapeInfo.set_K(K);
    uint32_t mBlocks = (M + BASE_M - 1) / BASE_M;
    uint32_t nBlocks = (N + BASE_N - 1) / BASE_N;
    tiling.split.set_baseM(BASE_M);
    tiling.split.set_baseN(BASE_N);
    tiling.split.set_mBlocks(mBlocks);
    tiling.split.set_nBlocks(nBlocks);
    tiling.set_transA(ta ? 1 : 0);
    tiling.set_transB(tb ? 1 : 0);
    tiling.set_hasBias(context->GetOptionalInputShape(2) != nullptr ? 1 : 0);

    uint32_t slices = mBlocks * nBlocks;
    uint32_t blockDim = ascendcPlatform.CalcTschBlockDim(slices, ascendcPlatform.GetCoreNumAic(),
                                                         ascendcPlatform.GetCoreNumAiv());
    if (blockDim > ascendcPlatform.GetCoreNumAiv()) {
        blockDim = ascendcPlatform.GetCoreNumAiv();
    }
    context->SetBlockDim(blockDim == 0 ? 1 : blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t userWorkspaceSize = 0;
    size_t systemWorkspaceSize = static_cast<size_t>(ascendcPlatform.GetLibApiWorkSpaceSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = userWorkspaceSize + systemWorkspaceSize;
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus CheckSupported(const ge::Operator& op, ge::AscendString& result)
{
    std::string resultJsonStr;
    if (op.GetInputDesc(0).GetShape().GetDimNum() != 2 || op.GetInputDesc(1).GetShape().GetDimNum() != 2) {
        resultJsonStr = R"({"ret_code": "0", "reason": "a and b must be 2-D"})";
        result = ge::AscendString(resultJsonStr.c_str());
        return ge::GRAPH_SUCCESS;
    }
    if (op.GetInputDesc(0).GetDataType() != ge::DT_FLOAT) {
        resultJsonStr = R"({"ret_code": "0", "reason": "only float32 is supported"})";
        result = ge::AscendString(resultJsonStr.c_str());
        return ge::GRAPH_SUCCESS;
    }
    resultJsonStr = R"({"ret_code": "1", "reason": ""})";
    result = ge::AscendString(resultJsonStr.c_str());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static graphStatus InferShapeForMatmulBias(gert::InferShapeContext* context)
{
    const gert::Shape* a = context->GetInputShape(0);
    const gert::Shape* b = context->GetInputShape(1);
    if (a == nullptr || b == nullptr || a->GetDimNum() < 2 || b->GetDimNum() < 2) {
        return GRAPH_FAILED;
    }
    const bool* transA = context->GetAttrs()->GetBool(0);
    const bool* transB = context->GetAttrs()->GetBool(1);
    gert::Shape* c = context->GetOutputShape(0);
    c->SetDimNum(2);
    c->SetDim(0, (transA != nullptr && *transA) ? a->GetDim(1) : a->GetDim(0));
    c->SetDim(1, (transB != nullptr && *transB) ? b->GetDim(0) : b->GetDim(1));
    return GRAPH_SUCCESS;
}
static graphStatus InferDataTypeForMatmulBias(gert::InferDataTypeContext* context)
{
    return context->SetOutputDataType(0, context->GetRequiredInputDataType(0));
}
}  // namespace ge

namespace ops {
class MatmulBiasCustom : public OpDef {
public:
    explicit MatmulBiasCustom(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(OPTIONAL).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("transpose_a").AttrType(OPTIONAL).Bool(false);
        this->Attr("transpose_b").AttrType(OPTIONAL).Bool(false);

        this->SetInferShape(ge::InferShapeForMatmulBias).SetInferDataType(ge::InferDataTypeForMatmulBias);
        this->AICore().SetTiling(optiling::MatmulBiasTilingFunc);
        this->AICore().SetCheckSupport(optiling::CheckSupported);
        OpAICoreConfig aicConfig;
        aicConfig.DynamicCompileStaticFlag(true)
            .DynamicRankSupportFlag(true)
            .DynamicShapeSupportFlag(true)
            .NeedCheckSupportFlag(true);
        this->AICore().AddConfig("ascend910b", aicConfig);
        this->EnableFallBack();
    }
};
OP_ADD(MatmulBiasCustom);
}  // namespace ops
