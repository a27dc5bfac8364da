/**
 * ReduceSumAxisCustom: y = sum of x over the one axis given by the int64 input "axes" (a value
 * the shape function reads: InputsDataDependency), keeping the axis when keep_dims.
 */
#include "reduce_sum_axis_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace {
constexpr size_t INPUT_X = 0;
constexpr size_t INPUT_AXES = 1;

bool GetAxis(const gert::Tensor* axes, size_t rank, int64_t* axis)
{
    if (axes == nullptr || axes->GetData<int64_t>() == nullptr || axes->GetShapeSize() != 1) {
        return false;
    }
    int64_t a = axes->GetData<int64_t>()[0];
    if (a < 0) a += static_cast<int64_t>(rank);
    if (a < 0 || a >= static_cast<int64_t>(rank)) {
        return false;
    }
    *axis = a;
    return true;
}
}  // namespace

namespace ge {
static graphStatus InferShapeForReduceSumAxis(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(INPUT_X);
    int64_t axis = 0;
    if (x == nullptr || !GetAxis(context->GetInputTensor(INPUT_AXES), x->GetDimNum(), &axis)) {
        return GRAPH_FAILED;
    }
    const bool* keepDims = context->GetAttrs()->GetAttrPointer<bool>(0);
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(0);
    for (size_t d = 0; d < x->GetDimNum(); ++d) {
        if (static_cast<int64_t>(d) != axis) {
            y->AppendDim(x->GetDim(d));
        } else if (keepDims == nullptr || *keepDims) {
            y->AppendDim(1);
        }
    }
    return GRAPH_SUCCESS;
}
static graphStatus InferDataTypeForReduceSumAxis(gert::InferDataTypeContext* context)
{
    return context->SetOutputDataType(0, context->GetInputDataType(INPUT_X));
}
}  // namespace ge

namespace optiling {
static ge::graphStatus ReduceSumAxisTiling(gert::TilingContext* context)
{
    const gert::Shape& x = context->GetInputShape(INPUT_X)->GetStorageShape();
    int64_t axis = 0;
    if (!GetAxis(context->GetRequiredInputTensor(INPUT_AXES), x.GetDimNum(), &axis)) {
        return ge::GRAPH_FAILED;
    }
    uint64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis; ++d) outer *= static_cast<uint64_t>(x[d]);
    for (size_t d = static_cast<size_t>(axis) + 1; d < x.GetDimNum(); ++d) inner *= static_cast<uint64_t>(x[d]);
    ReduceSumAxisTilingData tiling;
    tiling.set_outerNum(outer);
    tiling.set_reduceNum(static_cast<uint64_t>(x[axis]));
    tiling.set_innerNum(inner);
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t blocks = outer < platform.GetCoreNum() ? outer : platform.GetCoreNum();
    context->SetBlockDim(static_cast<uint32_t>(blocks == 0 ? 1 : blocks));
    context->SetScheduleMode(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class ReduceSumAxisCustom : public OpDef {
public:
    explicit ReduceSumAxisCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("axes")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT64})
            .Format({ge::FORMAT_ND})
            .ValueDepend(REQUIRED, DependScope::ALL);
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("keep_dims").AttrType(OPTIONAL).Bool(true);
        this->AICore().AddConfig("ascend910b");
        this->EnableFallBack();
    }
};
OP_ADD(ReduceSumAxisCustom);
}  // namespace ops

IMPL_OP_INFERSHAPE(ReduceSumAxisCustom)
    .InferShape(ge::InferShapeForReduceSumAxis)
    .InferDataType(ge::InferDataTypeForReduceSumAxis)
    .InputsDataDependency({INPUT_AXES});
IMPL_OP_OPTILING(ReduceSumAxisCustom).Tiling(optiling::ReduceSumAxisTiling);
