// CustomOp: z = x + y (float32, same shapes). The OpDef is the seed's, as written; the tiling
// function and the SPMD kernel are attached with IMPL_OP. EnableFallBack() makes GE generate
// its fallback function (dynamic shapes run it through the generic single-op API).
#include <algorithm>
#include <cstdint>

#include "register/op_def.h"

namespace ge {
static graphStatus InferShapeFunc(gert::InferShapeContext* ctx) {
  const gert::Shape* x = ctx->GetInputShape(0);
  const gert::Shape* y = ctx->GetInputShape(1);
  if (x == nullptr || y == nullptr || *x != *y) return GRAPH_FAILED;  // same shapes only
  *ctx->GetOutputShape(0) = *x;
  return GRAPH_SUCCESS;
}
static graphStatus InferDataTypeFunc(gert::InferDataTypeContext* ctx) {
  return ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
}
}  // namespace ge

namespace ops {
class CustomOp : public OpDef { public: CustomOp(const char* name) : OpDef(name) {
  this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
  this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
  this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
  this->SetInferShape(ge::InferShapeFunc); this->SetInferDataType(ge::InferDataTypeFunc);
  this->AICore().AddConfig("ascendxxx"); this->EnableFallBack(); } };
OP_ADD(CustomOp);
}  // namespace ops

namespace {

struct CustomOpTiling {
  int64_t total;  // elements
};

// Splits the elements over up to GetCoreNum() blocks of at least 4096 elements.
ge::graphStatus CustomOpTilingFunc(gert::TilingContext* ctx) {
  auto* t = ctx->GetTilingData<CustomOpTiling>();
  if (t == nullptr) return ge::GRAPH_FAILED;
  t->total = ctx->GetInputShape(0)->GetStorageShape().GetShapeSize();
  int64_t blocks = std::clamp<int64_t>(t->total / 4096, 1, ctx->GetCoreNum());
  ctx->SetBlockDim(static_cast<uint32_t>(blocks));
  return ge::GRAPH_SUCCESS;
}

// SPMD: block i adds its contiguous share of the elements. addrs: x, y, z.
void CustomOpKernel(const aclrtKernelArgs* args) {
  const auto* t = static_cast<const CustomOpTiling*>(args->tiling);
  int64_t per = t->total / args->blockDim, rem = t->total % args->blockDim, i = args->blockIdx;
  int64_t begin = i * per + std::min(i, rem), end = begin + per + (i < rem ? 1 : 0);
  const float* x = static_cast<const float*>(args->addrs[0]);
  const float* y = static_cast<const float*>(args->addrs[1]);
  float* z = static_cast<float*>(args->addrs[2]);
  for (int64_t k = begin; k < end; ++k) z[k] = x[k] + y[k];
}

}  // namespace

IMPL_OP(CustomOp).Tiling(CustomOpTilingFunc).Kernel(CustomOpKernel);
