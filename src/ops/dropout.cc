// Dropout (opset 13) for inference: output = data, mask = all true. Training mode with a
// non-zero ratio draws random numbers; it is refused (the reference values cannot be matched).
#include <fmt/format.h>

#include "ops/op_util.h"

namespace ge::ops_dropout {
using namespace ge::ops_util;

struct DropoutTiling {
  int64_t bytes;
  int64_t numel;
};

// Optional scalar input i: absent (or its value not known yet) leaves *v; present, it must hold
// one value (an empty training_mode was read as false, an empty ratio as 0.5).
bool OptionalScalar(const gert::TilingContext* ctx, size_t i, double* v) {
  const gert::Tensor* t = ctx->GetComputeNodeInputNum() > i ? ctx->GetInputTensor(i) : nullptr;
  if (t == nullptr) return true;
  if (t->GetShapeSize() != 1) return false;  // known from the shape (an empty tensor has no data)
  return t->GetAddr() == nullptr || ReadScalar(t, v);
}

ge::graphStatus DataType(gert::InferDataTypeContext* ctx) {
  ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
  if (ctx->GetComputeNodeOutputNum() > 1) ctx->SetOutputDataType(1, ge::DT_BOOL);
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus Tiling(gert::TilingContext* ctx) {
  double ratio = 0.5, training = 0;
  if (!OptionalScalar(ctx, 1, &ratio)) return InferFail("'ratio' must be one value");
  if (!OptionalScalar(ctx, 2, &training)) return InferFail("'training_mode' must be one value");
  if (training != 0 && ratio != 0)
    return InferFail(
        fmt::format("training_mode with ratio {} draws random numbers: GE runs Dropout for inference "
                    "only",
                    ratio));
  const gert::Tensor* x = ctx->GetInputDesc(0);
  DropoutTiling t{static_cast<int64_t>(x->GetSize()), x->GetShapeSize()};
  return SetTiling(ctx, t);
}

void Kernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<DropoutTiling>(args);
  if (args->blockIdx != 0) return;
  std::memcpy(args->addrs[3], args->addrs[0], t.bytes);
  if (args->numAddrs > 4 && args->addrs[4]) std::memset(args->addrs[4], 1, t.numel);
}

}  // namespace ge::ops_dropout

namespace ops {
struct Dropout : OpDef {
  explicit Dropout(const char* n) : OpDef(n) {
    Input("data").ParamType(REQUIRED).DataType(ge::ops_util::kFloatTypes);
    Input("ratio").ParamType(OPTIONAL).DataType(ge::ops_util::kFloatTypes).ValueDepend(OPTIONAL);
    Input("training_mode").ParamType(OPTIONAL).DataType({ge::DT_BOOL}).ValueDepend(OPTIONAL);
    Output("output").ParamType(REQUIRED).DataType(ge::ops_util::kFloatTypes);
    Output("mask").ParamType(OPTIONAL).DataType({ge::DT_BOOL});
    Attr("seed").AttrType(OPTIONAL).Int(0);
    SetInferShape(ge::ops_util::InferShapeSameAsInput0).SetInferDataType(ge::ops_dropout::DataType);
    AICore().SetTiling(ge::ops_dropout::Tiling).SetKernel(ge::ops_dropout::Kernel).AddConfig("ascend910b");
  }
};
OP_ADD(Dropout);
}  // namespace ops
