/**
 * ConcatListCustom: y = concat(x[0], ..., x[n-1]) along concat_dim. x is a dynamic input (any
 * number of tensors, up to 16); concat_dim is a required attribute.
 */
#include "concat_list_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace ge {
static graphStatus InferShapeForConcatList(gert::InferShapeContext* context)
{
    size_t inputNum = context->GetComputeNodeInputNum();
    const int64_t* dimAttr = context->GetAttrs()->GetInt(0);
    const gert::Shape* first = context->GetDynamicInputShape(0, 0);
    if (inputNum == 0 || dimAttr == nullptr || first == nullptr) {
        return GRAPH_FAILED;
    }
    int64_t rank = static_cast<int64_t>(first->GetDimNum());
    int64_t dim = *dimAttr < 0 ? *dimAttr + rank : *dimAttr;
    if (dim < 0 || dim >= rank) {
        return GRAPH_FAILED;
    }
    gert::Shape* yShape = context->GetOutputShape(0);
    *yShape = *first;
    int64_t total = 0;
    for (size_t i = 0; i < inputNum; ++i) {
        const gert::Shape* s = context->GetDynamicInputShape(0, i);
        if (s == nullptr || static_cast<int64_t>(s->GetDimNum()) != rank) {
            return GRAPH_FAILED;
        }
        if ((*s)[dim] < 0) {
            total = -1;
            break;
        }
        total += (*s)[dim];
    }
    yShape->SetDim(dim, total);
    return GRAPH_SUCCESS;
}

static graphStatus InferDataTypeForConcatList(gert::InferDataTypeContext* context)
{
    return context->SetOutputDataType(0, context->GetDynamicInputDataType(0, 0));
}
}  // namespace ge

namespace optiling {
static ge::graphStatus TilingForConcatList(gert::TilingContext* context)
{
    ConcatListTilingData tiling;
    uint32_t inputNum = static_cast<uint32_t>(context->GetComputeNodeInputNum());
    if (inputNum == 0 || inputNum > MAX_INPUT_NUM) {
        return ge::GRAPH_FAILED;
    }
    const gert::Shape& first = context->GetDynamicInputShape(0, 0)->GetStorageShape();
    int64_t rank = static_cast<int64_t>(first.GetDimNum());
    int64_t dim = *context->GetAttrs()->GetInt(0);
    if (dim < 0) dim += rank;
    uint64_t outer = 1;
    for (int64_t d = 0; d < dim; ++d) outer *= static_cast<uint64_t>(first[d]);
    uint64_t rowLength[MAX_INPUT_NUM] = {0};
    uint64_t outRow = 0;
    for (uint32_t i = 0; i < inputNum; ++i) {
        const gert::Shape& s = context->GetDynamicInputShape(0, i)->GetStorageShape();
        rowLength[i] = outer == 0 ? 0 : static_cast<uint64_t>(s.GetShapeSize()) / outer;
        outRow += rowLength[i];
    }
    tiling.set_inputNum(inputNum);
    tiling.set_outerNum(static_cast<uint32_t>(outer));
    tiling.set_outRowLength(outRow);
    tiling.set_rowLength(rowLength);

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t blockDim = platform.GetCoreNum();
    if (blockDim > outer) blockDim = static_cast<uint32_t>(outer == 0 ? 1 : outer);
    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class ConcatListCustom : public OpDef {
public:
    explicit ConcatListCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(DYNAMIC)
            .DataTypeList({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_INT32})
            .FormatList({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataTypeList({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_INT32})
            .FormatList({ge::FORMAT_ND});
        this->Attr("concat_dim").AttrType(REQUIRED).Int();

        this->SetInferShape(ge::InferShapeForConcatList).SetInferDataType(ge::InferDataTypeForConcatList);
        this->AICore().SetTiling(optiling::TilingForConcatList);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
        this->EnableFallBack();
    }
};
OP_ADD(ConcatListCustom);
}  // namespace ops
