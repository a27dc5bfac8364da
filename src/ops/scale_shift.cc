// ScaleShift: Y = activation(X * scale + shift) with scale and shift per channel, the channel
// being X's last dim (NHWC). Made by the layout pass from an inference BatchNormalization (with
// a following Relu fused) whose input is NHWC: one vectorized pass instead of a Transpose pair.
//
// ConcatScaleShift: the same on the concatenation of its inputs X0..Xn-1 over their last dim,
// written in one pass (a DenseNet layer's Concat -> BatchNormalization -> Relu): the fusion pass
// concat_scale_shift_fusion makes it where the ScaleShift is the Concat's only reader.
#include <fmt/format.h>

#include "ops/dnnl_conv.h"
#include "ops/op_util.h"
#include "ops/simd.h"

namespace ge::ops_scale_shift {
using namespace ge::ops_util;

enum Attr { kActivation };

// y[j] = x[j] * s[j] + b[j] for j < n, then max(y, 0) when `relu`.
void ScaleShiftRow(const float* x, const float* s, const float* b, float* y, int64_t n, bool relu) {
  int64_t j = 0;
#if defined(__AVX512F__) || (defined(__AVX2__) && defined(__FMA__))
  using namespace ge::simd;
  const Vec zero = Zero();
  for (; j + kLanes <= n; j += kLanes) {
    Vec v = Fma(Load(x + j), Load(s + j), Load(b + j));
    Store(y + j, relu ? Max(v, zero) : v);
  }
#endif
  for (; j < n; ++j) y[j] = relu ? std::max(x[j] * s[j] + b[j], 0.f) : x[j] * s[j] + b[j];
}

ge::graphStatus ParseReluAct(const gert::RuntimeAttrs* attrs, int32_t* out) {
  ConvAct act;
  const std::string name = AttrStr(attrs, kActivation, "");
  if (!ParseConvAct(name, &act) || (act != ConvAct::kNone && act != ConvAct::kRelu))
    return InferFail(fmt::format("expected activation \"\" or \"Relu\", got \"{}\"", name));
  *out = static_cast<int32_t>(act);
  return ge::GRAPH_SUCCESS;
}

struct ScaleShiftTiling {
  int64_t rows, c;
  int32_t act;
};

ge::graphStatus InferShape(gert::InferShapeContext* ctx) {
  const gert::Shape* x = ctx->GetInputShape(0);
  const gert::Shape* s = ctx->GetInputShape(1);
  const gert::Shape* b = ctx->GetInputShape(2);
  if (!x || !s || !b || x->GetDimNum() < 1) return InferFail("expected an input X of rank >= 1, a scale and a shift");
  int64_t c = x->GetDim(x->GetDimNum() - 1);
  if (c >= 0 && (s->GetShapeSize() != c || b->GetShapeSize() != c))
    return InferFail(fmt::format("expected scale and shift of {} values (the last dim of X {}), got {} and {}", c,
                                 ShapeToString(*x), ShapeToString(*s), ShapeToString(*b)));
  *ctx->GetOutputShape(0) = *x;
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus Tiling(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  ScaleShiftTiling t{};
  t.c = x.GetDim(x.GetDimNum() - 1);
  t.rows = t.c > 0 ? x.GetShapeSize() / t.c : 0;
  if (ParseReluAct(ctx->GetAttrs(), &t.act) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
  ctx->SetBlockDim(ChooseBlockDim(ctx, t.rows * t.c, 1 << 15));
  return SetTiling(ctx, t);
}

void Kernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<ScaleShiftTiling>(args);
  const auto* x = static_cast<const float*>(args->addrs[0]);
  const auto* s = static_cast<const float*>(args->addrs[1]);
  const auto* b = static_cast<const float*>(args->addrs[2]);
  auto* y = static_cast<float*>(args->addrs[3]);
  int64_t r0, r1;
  BlockRange(t.rows, args->blockIdx, args->blockDim, &r0, &r1);
  const bool relu = t.act == static_cast<int32_t>(ConvAct::kRelu);
  for (int64_t r = r0; r < r1; ++r) ScaleShiftRow(x + r * t.c, s, b, y + r * t.c, t.c, relu);
}

// ---- ConcatScaleShift: inputs scale, shift, X0..Xn-1 --------------------------------------------
constexpr int kMaxParts = 64;
struct ConcatScaleShiftTiling {
  int64_t rows, c;  // rows of the output (all dims but the last), its channels
  int32_t n, act;
  int64_t parts[kMaxParts];  // channels of each input
};

ge::graphStatus ConcatInferShape(gert::InferShapeContext* ctx) {
  const size_t n = ctx->GetComputeNodeInputNum();
  if (n < 3) return InferFail(fmt::format("expected scale, shift and at least one input, got {} inputs", n));
  const gert::Shape* x0 = ctx->GetInputShape(2);
  if (x0 == nullptr || x0->GetDimNum() < 1) return InferFail("expected inputs of rank >= 1");
  const size_t rank = x0->GetDimNum();
  gert::Shape* y = ctx->GetOutputShape(0);
  *y = *x0;
  int64_t c = 0;
  for (size_t i = 2; i < n; ++i) {
    const gert::Shape* s = ctx->GetInputShape(i);
    if (s == nullptr || s->GetDimNum() != rank)
      return InferFail(fmt::format("expected input {} of rank {} like the first", i, rank));
    for (size_t d = 0; d + 1 < rank; ++d)
      if (s->GetDim(d) >= 0 && x0->GetDim(d) >= 0 && s->GetDim(d) != x0->GetDim(d))
        return InferFail(fmt::format("input {} {} differs from the first {} in dim {}", i, ShapeToString(*s),
                                     ShapeToString(*x0), d));
    c = (c < 0 || s->GetDim(rank - 1) < 0) ? -1 : c + s->GetDim(rank - 1);
  }
  y->SetDim(rank - 1, c);
  const gert::Shape* sc = ctx->GetInputShape(0);
  const gert::Shape* sh = ctx->GetInputShape(1);
  if (sc == nullptr || sh == nullptr || (c >= 0 && (sc->GetShapeSize() != c || sh->GetShapeSize() != c)))
    return InferFail(
        fmt::format("expected scale and shift of {} values (the channels of the concatenation), got {} and {}", c,
                    sc ? ShapeToString(*sc) : "none", sh ? ShapeToString(*sh) : "none"));
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus ConcatTiling(gert::TilingContext* ctx) {
  const gert::Shape& y = ctx->GetOutputShape(0)->GetStorageShape();
  ConcatScaleShiftTiling t{};
  const size_t n = ctx->GetComputeNodeInputNum();
  if (n < 3 || n - 2 > static_cast<size_t>(kMaxParts))
    return InferFail(fmt::format("expected 1 to {} inputs to concatenate, got {}", kMaxParts, n < 2 ? 0 : n - 2));
  t.n = static_cast<int32_t>(n - 2);
  t.c = y.GetDim(y.GetDimNum() - 1);
  t.rows = t.c > 0 ? y.GetShapeSize() / t.c : 0;
  for (int32_t i = 0; i < t.n; ++i) {
    const gert::Shape& s = ctx->GetInputShape(i + 2)->GetStorageShape();
    t.parts[i] = s.GetDim(s.GetDimNum() - 1);
  }
  if (ParseReluAct(ctx->GetAttrs(), &t.act) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
  ctx->SetBlockDim(ChooseBlockDim(ctx, t.rows * t.c, 1 << 15));
  return SetTiling(ctx, t);
}

void ConcatKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<ConcatScaleShiftTiling>(args);
  const auto* s = static_cast<const float*>(args->addrs[0]);
  const auto* b = static_cast<const float*>(args->addrs[1]);
  auto* y = static_cast<float*>(args->addrs[2 + t.n]);
  int64_t r0, r1;
  BlockRange(t.rows, args->blockIdx, args->blockDim, &r0, &r1);
  const bool relu = t.act == static_cast<int32_t>(ConvAct::kRelu);
  int64_t off = 0;
  for (int32_t i = 0; i < t.n; ++i) {  // input by input: each is one sequential read
    const int64_t c = t.parts[i];
    const auto* x = static_cast<const float*>(args->addrs[2 + i]);
    for (int64_t r = r0; r < r1; ++r) ScaleShiftRow(x + r * c, s + off, b + off, y + r * t.c + off, c, relu);
    off += c;
  }
}

}  // namespace ge::ops_scale_shift

namespace ops {
class ScaleShift : public OpDef {
 public:
  explicit ScaleShift(const char* name) : OpDef(name) {
    using namespace ge::ops_scale_shift;
    this->Input("X").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Input("scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Input("shift").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Output("Y").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Attr("activation").AttrType(OPTIONAL).String("");  // "" or "Relu"
    this->SetInferShape(InferShape);
    this->SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    this->AICore().SetTiling(Tiling).SetKernel(Kernel).AddConfig("ascend910b");
  }
};
OP_ADD(ScaleShift);

class ConcatScaleShift : public OpDef {
 public:
  explicit ConcatScaleShift(const char* name) : OpDef(name) {
    using namespace ge::ops_scale_shift;
    this->Input("scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Input("shift").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Input("X").ParamType(DYNAMIC).DataType({ge::DT_FLOAT});
    this->Output("Y").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Attr("activation").AttrType(OPTIONAL).String("");  // "" or "Relu"
    this->SetInferShape(ConcatInferShape);
    this->SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    this->AICore().SetTiling(ConcatTiling).SetKernel(ConcatKernel).AddConfig("ascend910b");
  }
};
OP_ADD(ConcatScaleShift);
}  // namespace ops
