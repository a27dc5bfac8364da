// LogSoftmax and Hardmax along one axis (opset-13 semantics; Softmax is in softmax.cc).
// create: same shape; tiling = (outer, axis, inner) split, blocks over outer*inner lines.
// run: per line, max then log-sum-exp (LogSoftmax) or first-max one-hot (Hardmax).
#include <cmath>

#include "ops/op_util.h"

namespace ge::ops_log_softmax {
using namespace ge::ops_util;

struct AxisTiling {
  int32_t dtype;
  int32_t hard;
  int64_t outer, axis, inner;
};

template <bool kHard>
ge::graphStatus Tiling(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  int64_t ax;
  if (!NormalizeAxis(AttrInt(ctx->GetAttrs(), 0, -1), x.GetDimNum(), &ax)) return ge::GRAPH_FAILED;
  AxisTiling t{ctx->GetInputDesc(0)->GetDataType(), kHard, 1, x.GetDim(ax), 1};
  for (int64_t d = 0; d < ax; ++d) t.outer *= x.GetDim(d);
  for (size_t d = ax + 1; d < x.GetDimNum(); ++d) t.inner *= x.GetDim(d);
  ctx->SetBlockDim(ChooseBlockDim(ctx, t.outer * t.inner, 64));
  return SetTiling(ctx, t);
}

template <typename T>
void Line(const AxisTiling& t, const T* x, T* y, int64_t line) {
  int64_t base = (line / t.inner) * t.axis * t.inner + line % t.inner;
  double mx = -INFINITY;
  int64_t arg = 0;
  for (int64_t i = 0; i < t.axis; ++i) {
    double v = static_cast<double>(static_cast<ComputeT<T>>(x[base + i * t.inner]));
    if (v > mx) {
      mx = v;
      arg = i;
    }
  }
  if (t.hard) {
    for (int64_t i = 0; i < t.axis; ++i)
      y[base + i * t.inner] = static_cast<T>(static_cast<ComputeT<T>>(i == arg ? 1 : 0));
    return;
  }
  double sum = 0;
  for (int64_t i = 0; i < t.axis; ++i)
    sum += std::exp(static_cast<double>(static_cast<ComputeT<T>>(x[base + i * t.inner])) - mx);
  double lse = mx + std::log(sum);
  for (int64_t i = 0; i < t.axis; ++i) {
    double v = static_cast<double>(static_cast<ComputeT<T>>(x[base + i * t.inner]));
    y[base + i * t.inner] = static_cast<T>(static_cast<ComputeT<T>>(v - lse));
  }
}

void Kernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<AxisTiling>(args);
  int64_t b, e;
  BlockRange(t.outer * t.inner, args->blockIdx, args->blockDim, &b, &e);
  GE_DISPATCH(FloatsAnd16, static_cast<ge::DataType>(t.dtype), {
    for (int64_t l = b; l < e; ++l)
      Line(t, static_cast<const scalar_t*>(args->addrs[0]), static_cast<scalar_t*>(args->addrs[1]), l);
  });
}

template <bool kHard>
class AxisOpDef : public ::ops::OpDef {
 public:
  explicit AxisOpDef(const char* name) : OpDef(name) {
    this->Input("input").ParamType(::ops::REQUIRED).DataType(kFloatTypes);
    this->Output("output").ParamType(::ops::REQUIRED).DataType(kFloatTypes);
    this->Attr("axis").AttrType(::ops::OPTIONAL).Int(-1);
    this->SetInferShape(InferShapeSameAsInput0);
    this->SetInferDataType(InferDataTypeSameAsInput0);
    this->AICore().SetTiling(Tiling<kHard>).SetKernel(Kernel).AddConfig("ascend910b");
  }
};

}  // namespace ge::ops_log_softmax

namespace ops {
using LogSoftmax = ge::ops_log_softmax::AxisOpDef<false>;
using Hardmax = ge::ops_log_softmax::AxisOpDef<true>;
OP_ADD(LogSoftmax);
OP_ADD(Hardmax);
}  // namespace ops
