// Softmax over one axis (opset 13 semantics) and Relu. Tiling: outer x inner rows split over
// the cores; each row of the axis is max-subtracted, exponentiated and normalized.
#include <cmath>

#include <fmt/format.h>

#include "ops/op_util.h"
#include "ops/vec_math.h"

namespace ge::ops_softmax {
using namespace ge::ops_util;

struct SoftmaxTiling {
  int32_t dtype;
  int64_t outer, axis_len, inner;
};

ge::graphStatus Tiling(gert::TilingContext* ctx) {
  const gert::Shape& s = ctx->GetInputShape(0)->GetStorageShape();
  int64_t axis;
  if (!NormalizeAxis(*ctx->GetAttrs()->GetInt(0), static_cast<int64_t>(s.GetDimNum()), &axis)) {
    if (s.GetDimNum() != 0)
      return InferFail(
          fmt::format("axis {} is out of range for the input {}", *ctx->GetAttrs()->GetInt(0), ShapeToString(s)));
    axis = 0;
  }
  SoftmaxTiling t{ctx->GetInputDesc(0)->GetDataType(), 1, 1, 1};
  for (size_t i = 0; i < s.GetDimNum(); ++i) {
    int64_t d = s.GetDim(i);
    if (static_cast<int64_t>(i) < axis)
      t.outer *= d;
    else if (static_cast<int64_t>(i) == axis)
      t.axis_len = d;
    else
      t.inner *= d;
  }
  ctx->SetBlockDim(ChooseBlockDim(ctx, t.outer * t.inner * t.axis_len, 1 << 14));
  return SetTiling(ctx, t);
}

// float rows over the last axis: max, vectorized exp (ops/vec_math.h), one scale.
void RunLastAxisFloat(const SoftmaxTiling& t, const float* x, float* y, int64_t begin, int64_t end) {
  for (int64_t r = begin; r < end; ++r) VecSoftmax(x + r * t.axis_len, y + r * t.axis_len, t.axis_len);
}

template <typename T>
void Run(const SoftmaxTiling& t, const T* x, T* y, int64_t begin, int64_t end) {
  if constexpr (std::is_same_v<T, float>) {
    if (t.inner == 1) return RunLastAxisFloat(t, x, y, begin, end);
  }
  for (int64_t r = begin; r < end; ++r) {
    int64_t o = r / t.inner, i = r % t.inner;
    const T* xp = x + o * t.axis_len * t.inner + i;
    T* yp = y + o * t.axis_len * t.inner + i;
    T mx = xp[0];
    for (int64_t a = 1; a < t.axis_len; ++a) mx = std::max(mx, xp[a * t.inner]);
    T sum = 0;
    for (int64_t a = 0; a < t.axis_len; ++a) {
      T e = std::exp(xp[a * t.inner] - mx);
      yp[a * t.inner] = e;
      sum += e;
    }
    for (int64_t a = 0; a < t.axis_len; ++a) yp[a * t.inner] /= sum;
  }
}

void Kernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<SoftmaxTiling>(args);
  int64_t b, e;
  BlockRange(t.outer * t.inner, args->blockIdx, args->blockDim, &b, &e);
  GE_DISPATCH(
      Floats, static_cast<ge::DataType>(t.dtype),
      Run<scalar_t>(t, static_cast<const scalar_t*>(args->addrs[0]), static_cast<scalar_t*>(args->addrs[1]), b, e));
}

// ---- Relu ------------------------------------------------------------------------------------
struct ReluTiling {
  int32_t dtype;
  int64_t numel;
};

ge::graphStatus ReluTilingFunc(gert::TilingContext* ctx) {
  ReluTiling t{ctx->GetInputDesc(0)->GetDataType(), ctx->GetInputDesc(0)->GetShapeSize()};
  ctx->SetBlockDim(ChooseBlockDim(ctx, t.numel, 1 << 15));
  return SetTiling(ctx, t);
}

void ReluKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<ReluTiling>(args);
  int64_t b, e;
  BlockRange(t.numel, args->blockIdx, args->blockDim, &b, &e);
  GE_DISPATCH(Numerics, static_cast<ge::DataType>(t.dtype), {
    const auto* x = static_cast<const scalar_t*>(args->addrs[0]);
    auto* y = static_cast<scalar_t*>(args->addrs[1]);
    for (int64_t i = b; i < e; ++i) y[i] = x[i] > scalar_t(0) ? x[i] : scalar_t(0);
  });
}

}  // namespace ge::ops_softmax

namespace ops {
using namespace ge::ops_softmax;

class Softmax : public OpDef {
 public:
  explicit Softmax(const char* name) : OpDef(name) {
    this->Input("input").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_DOUBLE});
    this->Output("output").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_DOUBLE});
    this->Attr("axis").AttrType(OPTIONAL).Int(-1);
    this->SetInferShape(ge::ops_util::InferShapeSameAsInput0);
    this->SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    this->AICore().SetTiling(Tiling).SetKernel(Kernel).AddConfig("ascend910b");
    this->EnableFallBack();
  }
};
OP_ADD(Softmax);

class Relu : public OpDef {
 public:
  explicit Relu(const char* name) : OpDef(name) {
    const std::vector<ge::DataType> types = {ge::DT_FLOAT, ge::DT_DOUBLE, ge::DT_INT8,
                                             ge::DT_INT16, ge::DT_INT32,  ge::DT_INT64};
    this->Input("X").ParamType(REQUIRED).DataType(types);
    this->Output("Y").ParamType(REQUIRED).DataType(types);
    this->SetInferShape(ge::ops_util::InferShapeSameAsInput0);
    this->SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    this->AICore().SetTiling(ReluTilingFunc).SetKernel(ReluKernel).AddConfig("ascend910b");
    this->OutputInplace(0, 0);
  }
};
OP_ADD(Relu);
}  // namespace ops
