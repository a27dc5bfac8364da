// Ops along one axis or over positions: CumSum, TopK, OneHot, Trilu, NonZero, ReverseSequence.
// create: shape inference (TopK's k, OneHot's depth and NonZero's data are value-depend
// inputs); tiling = (outer, axis, inner) geometry. run: per line of the axis.
#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "ops/op_util.h"

namespace ge::ops_index {
using namespace ge::ops_util;

struct AxisTiling {
  int32_t dtype;
  int32_t flag0, flag1;  // CumSum: exclusive, reverse; TopK: largest, sorted; Trilu: upper
  int64_t outer, axis, inner;
  int64_t k;  // TopK: k; Trilu: diagonal; OneHot: depth
};

template <typename Ctx>
bool ScalarInput(const Ctx* ctx, size_t i, int64_t* v) {
  std::vector<int64_t> vals;
  if (ctx->GetComputeNodeInputNum() <= i || ctx->GetInputTensor(i) == nullptr) return false;
  if (!ReadInt64s(ctx->GetInputTensor(i), &vals) || vals.size() != 1) return false;
  *v = vals[0];
  return true;
}

void Geometry(const gert::Shape& x, int64_t ax, AxisTiling* t) {
  t->outer = 1;
  t->inner = 1;
  t->axis = x.GetDimNum() ? x.GetDim(ax) : 1;
  for (int64_t d = 0; d < ax; ++d) t->outer *= x.GetDim(d);
  for (size_t d = ax + 1; d < x.GetDimNum(); ++d) t->inner *= x.GetDim(d);
}

// ---- CumSum: x, axis; attrs exclusive, reverse --------------------------------------------------
ge::graphStatus CumSumTiling(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  int64_t ax;
  if (!ScalarInput(ctx, 1, &ax) || !NormalizeAxis(ax, x.GetDimNum(), &ax)) return ge::GRAPH_FAILED;
  AxisTiling t{ctx->GetInputDesc(0)->GetDataType(), static_cast<int32_t>(AttrInt(ctx->GetAttrs(), 0, 0)),
               static_cast<int32_t>(AttrInt(ctx->GetAttrs(), 1, 0))};
  Geometry(x, ax, &t);
  return SetTiling(ctx, t);
}

void CumSumKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<AxisTiling>(args);
  if (args->blockIdx != 0) return;
  GE_DISPATCH(AllTypes, static_cast<ge::DataType>(t.dtype), {
    using C = ComputeT<scalar_t>;
    const auto* x = static_cast<const scalar_t*>(args->addrs[0]);
    auto* y = static_cast<scalar_t*>(args->addrs[2]);
    for (int64_t line = 0; line < t.outer * t.inner; ++line) {
      int64_t base = (line / t.inner) * t.axis * t.inner + line % t.inner;
      C acc = C(0);
      for (int64_t s = 0; s < t.axis; ++s) {
        int64_t i = base + (t.flag1 ? t.axis - 1 - s : s) * t.inner;
        C v = static_cast<C>(x[i]);
        if (!t.flag0) acc = C(acc + v);
        y[i] = static_cast<scalar_t>(acc);
        if (t.flag0) acc = C(acc + v);
      }
    }
  });
}

// ---- TopK: X, K; attrs axis, largest, sorted; outputs Values, Indices ---------------------------
template <typename Ctx>
bool TopKParams(const Ctx* ctx, const gert::Shape& x, int64_t* ax, int64_t* k) {
  return ScalarInput(ctx, 1, k) && NormalizeAxis(AttrInt(ctx->GetAttrs(), 0, -1), x.GetDimNum(), ax) && *k >= 0 &&
         *k <= x.GetDim(*ax);
}

ge::graphStatus TopKShape(gert::InferShapeContext* ctx) {
  const gert::Shape& x = *ctx->GetInputShape(0);
  int64_t ax, k;
  if (!TopKParams(ctx, x, &ax, &k)) return ge::GRAPH_FAILED;
  for (size_t o = 0; o < 2; ++o) {
    *ctx->GetOutputShape(o) = x;
    ctx->GetOutputShape(o)->SetDim(ax, k);
  }
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus TopKDataType(gert::InferDataTypeContext* ctx) {
  ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
  return ctx->SetOutputDataType(1, ge::DT_INT64);
}

ge::graphStatus TopKTiling(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  int64_t ax, k;
  if (!TopKParams(ctx, x, &ax, &k)) return ge::GRAPH_FAILED;
  AxisTiling t{ctx->GetInputDesc(0)->GetDataType(), static_cast<int32_t>(AttrInt(ctx->GetAttrs(), 1, 1))};
  Geometry(x, ax, &t);
  t.k = k;
  ctx->SetBlockDim(ChooseBlockDim(ctx, t.outer * t.inner * t.axis, 1 << 14));
  return SetTiling(ctx, t);
}

void TopKKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<AxisTiling>(args);
  int64_t b, e;
  BlockRange(t.outer * t.inner, args->blockIdx, args->blockDim, &b, &e);
  GE_DISPATCH(AllTypes, static_cast<ge::DataType>(t.dtype), {
    using C = ComputeT<scalar_t>;
    const auto* x = static_cast<const scalar_t*>(args->addrs[0]);
    auto* y = static_cast<scalar_t*>(args->addrs[2]);
    auto* yi = static_cast<int64_t*>(args->addrs[3]);
    std::vector<int64_t> order(t.axis);
    for (int64_t line = b; line < e; ++line) {
      int64_t base = (line / t.inner) * t.axis * t.inner + line % t.inner,
              obase = (line / t.inner) * t.k * t.inner + line % t.inner;
      std::iota(order.begin(), order.end(), 0);
      auto val = [&](int64_t i) { return static_cast<C>(x[base + i * t.inner]); };
      std::stable_sort(order.begin(), order.end(),
                       [&](int64_t p, int64_t q) { return t.flag0 ? val(p) > val(q) : val(p) < val(q); });
      for (int64_t j = 0; j < t.k; ++j) {
        y[obase + j * t.inner] = x[base + order[j] * t.inner];
        yi[obase + j * t.inner] = order[j];
      }
    }
  });
}

// ---- Trilu: input, k; attr upper -------------------------------------------------------------
ge::graphStatus TriluTiling(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  if (x.GetDimNum() < 2) return ge::GRAPH_FAILED;
  AxisTiling t{ctx->GetInputDesc(0)->GetDataType(), static_cast<int32_t>(AttrInt(ctx->GetAttrs(), 0, 1))};
  t.axis = x.GetDim(x.GetDimNum() - 2);
  t.inner = x.GetDim(x.GetDimNum() - 1);
  t.outer = t.axis * t.inner == 0 ? 0 : x.GetShapeSize() / (t.axis * t.inner);
  if (!ScalarInput(ctx, 1, &t.k)) t.k = 0;
  return SetTiling(ctx, t);
}

void TriluKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<AxisTiling>(args);
  if (args->blockIdx != 0) return;
  GE_DISPATCH(UInts, kernels::UIntOfSize(ge::GetSizeByDataType(static_cast<ge::DataType>(t.dtype))), {
    const auto* x = static_cast<const scalar_t*>(args->addrs[0]);
    auto* y = static_cast<scalar_t*>(args->addrs[2]);
    for (int64_t m = 0; m < t.outer; ++m)
      for (int64_t r = 0; r < t.axis; ++r)
        for (int64_t c = 0; c < t.inner; ++c) {
          int64_t i = (m * t.axis + r) * t.inner + c;
          bool keep = t.flag0 ? (c - r >= t.k) : (c - r <= t.k);
          y[i] = keep ? x[i] : scalar_t(0);
        }
  });
}

// ---- OneHot: indices, depth, values; attr axis --------------------------------------------------
template <typename Ctx>
bool OneHotParams(const Ctx* ctx, const gert::Shape& idx, int64_t* ax, int64_t* depth) {
  double d = 0;
  if (!ReadScalar(ctx->GetInputTensor(1), &d)) return false;
  if (!(d >= 1 && d <= 9.0e18)) return false;  // ONNX: depth > 0 (also NaN and out of int64 range)
  *depth = static_cast<int64_t>(d);
  return NormalizeAxis(AttrInt(ctx->GetAttrs(), 0, -1), idx.GetDimNum() + 1, ax);
}

ge::graphStatus OneHotShape(gert::InferShapeContext* ctx) {
  const gert::Shape& idx = *ctx->GetInputShape(0);
  int64_t ax, depth;
  if (!OneHotParams(ctx, idx, &ax, &depth))
    return InferFail("'depth' must be one value >= 1 and 'axis' within the output rank");
  if (ctx->GetInputShape(2)->GetShapeSize() != 2)
    return InferFail(
        fmt::format("'values' must have 2 elements (off, on), not {}", ctx->GetInputShape(2)->GetShapeSize()));
  auto dims = DimsOf(idx);
  dims.insert(dims.begin() + ax, depth);
  SetDims(ctx->GetOutputShape(0), dims);
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus OneHotDataType(gert::InferDataTypeContext* ctx) {
  return ctx->SetOutputDataType(0, ctx->GetInputDataType(2));
}

struct OneHotTiling {
  int32_t idx_dtype, val_dtype;
  int64_t outer, depth, inner;
};

ge::graphStatus OneHotTilingFn(gert::TilingContext* ctx) {
  const gert::Shape& idx = ctx->GetInputShape(0)->GetStorageShape();
  int64_t ax, depth;
  if (!OneHotParams(ctx, idx, &ax, &depth)) return ge::GRAPH_FAILED;
  OneHotTiling t{ctx->GetInputDesc(0)->GetDataType(), ctx->GetInputDesc(2)->GetDataType(), 1, depth, 1};
  for (int64_t d = 0; d < ax; ++d) t.outer *= idx.GetDim(d);
  for (size_t d = ax; d < idx.GetDimNum(); ++d) t.inner *= idx.GetDim(d);
  return SetTiling(ctx, t);
}

void OneHotKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<OneHotTiling>(args);
  if (args->blockIdx != 0) return;
  const void* idx = args->addrs[0];
  auto idx_dt = static_cast<ge::DataType>(t.idx_dtype);
  GE_DISPATCH(UInts, kernels::UIntOfSize(ge::GetSizeByDataType(static_cast<ge::DataType>(t.val_dtype))), {
    const auto* vals = static_cast<const scalar_t*>(args->addrs[2]);
    auto* y = static_cast<scalar_t*>(args->addrs[3]);
    for (int64_t o = 0; o < t.outer; ++o)
      for (int64_t i = 0; i < t.inner; ++i) {
        double raw = 0;
        GE_DISPATCH(AllTypes, idx_dt,
                    raw = static_cast<double>(
                        static_cast<ComputeT<scalar_t>>(static_cast<const scalar_t*>(idx)[o * t.inner + i])));
        // ONNX: an index outside [-depth, depth-1] gives all off values.
        int64_t v = raw >= -static_cast<double>(t.depth) && raw < static_cast<double>(t.depth)
                        ? WrapIndex(static_cast<int64_t>(raw), t.depth)
                        : -1;
        for (int64_t d = 0; d < t.depth; ++d) y[(o * t.depth + d) * t.inner + i] = vals[d == v ? 1 : 0];
      }
  });
}

// ---- NonZero: output [rank, count] of int64 coordinates --------------------------------------
int64_t CountNonZero(const gert::Tensor* x) {
  int64_t n = 0, total = x->GetShapeSize();
  GE_DISPATCH(AllTypes, x->GetDataType(), {
    for (int64_t i = 0; i < total; ++i) n += static_cast<ComputeT<scalar_t>>(x->GetData<scalar_t>()[i]) != 0;
  });
  return n;
}

ge::graphStatus NonZeroShape(gert::InferShapeContext* ctx) {
  const gert::Tensor* x = ctx->GetInputTensor(0);
  if (x == nullptr || x->GetAddr() == nullptr) return ge::GRAPH_FAILED;
  SetDims(ctx->GetOutputShape(0), {static_cast<int64_t>(x->GetStorageShape().GetDimNum()), CountNonZero(x)});
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus NonZeroTiling(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  TensorMeta m{};
  if (!ToMeta(x, ctx->GetInputDesc(0)->GetDataType(), &m)) return ge::GRAPH_FAILED;
  return SetTiling(ctx, m);
}

void NonZeroKernel(const aclrtKernelArgs* args) {
  const auto& m = GetTiling<TensorMeta>(args);
  if (args->blockIdx != 0) return;
  int64_t total = m.Numel(), count = 0;
  GE_DISPATCH(AllTypes, static_cast<ge::DataType>(m.dtype), {
    const auto* x = static_cast<const scalar_t*>(args->addrs[0]);
    for (int64_t i = 0; i < total; ++i) count += static_cast<ComputeT<scalar_t>>(x[i]) != 0;
    auto* y = static_cast<int64_t*>(args->addrs[1]);
    for (int64_t i = 0, j = 0; i < total; ++i) {
      if (static_cast<ComputeT<scalar_t>>(x[i]) == 0) continue;
      for (int64_t d = m.rank - 1, rem = i; d >= 0; --d) {
        y[d * count + j] = rem % m.dims[d];
        rem /= m.dims[d];
      }
      ++j;
    }
  });
}

ge::graphStatus Int64Out(gert::InferDataTypeContext* ctx) { return ctx->SetOutputDataType(0, ge::DT_INT64); }

const std::vector<ge::DataType> kIdx = {ge::DT_INT64, ge::DT_INT32};

// ---- ReverseSequence: input, sequence_lens; attrs batch_axis, time_axis --------------------
struct ReverseSeqGeometry {
  int32_t elem_size;
  int64_t total, time_dim, time_stride, batch_dim, batch_stride;
};

ge::graphStatus ReverseSeqTiling(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  const int64_t batch_axis = AttrInt(ctx->GetAttrs(), 0, 1), time_axis = AttrInt(ctx->GetAttrs(), 1, 0);
  const int64_t rank = static_cast<int64_t>(x.GetDimNum());
  if (rank < 2 || batch_axis == time_axis || batch_axis < 0 || batch_axis > 1 || time_axis < 0 || time_axis > 1)
    return ge::GRAPH_FAILED;
  const gert::Shape& lens = ctx->GetInputShape(1)->GetStorageShape();
  if (lens.GetDimNum() != 1 || lens.GetDim(0) != x.GetDim(batch_axis)) return ge::GRAPH_FAILED;
  ReverseSeqGeometry t{static_cast<int32_t>(ge::GetSizeByDataType(ctx->GetInputDesc(0)->GetDataType()))};
  int64_t strides[kMaxRank];
  if (rank > kMaxRank) return ge::GRAPH_FAILED;
  ContiguousStrides(x.GetDims(), x.GetDimNum(), strides);
  t.total = x.GetShapeSize();
  t.time_dim = x.GetDim(time_axis);
  t.time_stride = strides[time_axis];
  t.batch_dim = x.GetDim(batch_axis);
  t.batch_stride = strides[batch_axis];
  return SetTiling(ctx, t);
}

void ReverseSeqKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<ReverseSeqGeometry>(args);
  if (args->blockIdx != 0) return;
  const auto* lens = static_cast<const int64_t*>(args->addrs[1]);
  GE_DISPATCH(UInts, kernels::UIntOfSize(t.elem_size), {
    const auto* x = static_cast<const scalar_t*>(args->addrs[0]);
    auto* y = static_cast<scalar_t*>(args->addrs[2]);
    for (int64_t i = 0; i < t.total; ++i) {
      const int64_t tt = (i / t.time_stride) % t.time_dim, b = (i / t.batch_stride) % t.batch_dim;
      const int64_t len = std::clamp<int64_t>(lens[b], 0, t.time_dim);
      y[i] = tt < len ? x[i + (len - 1 - 2 * tt) * t.time_stride] : x[i];
    }
  });
}

}  // namespace ge::ops_index

namespace ops {
using namespace ge::ops_index;
using ge::ops_util::kAllTypes;
struct CumSum : OpDef {
  explicit CumSum(const char* n) : OpDef(n) {
    Input("x").ParamType(REQUIRED).DataType(kAllTypes);
    Input("axis").ParamType(REQUIRED).DataType(kIdx).ValueDepend(REQUIRED);
    Output("y").ParamType(REQUIRED).DataType(kAllTypes);
    Attr("exclusive").AttrType(OPTIONAL).Int(0);
    Attr("reverse").AttrType(OPTIONAL).Int(0);
    SetInferShape(ge::ops_util::InferShapeSameAsInput0).SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    AICore().SetTiling(CumSumTiling).SetKernel(CumSumKernel).AddConfig("ascend910b");
  }
};
struct TopK : OpDef {
  explicit TopK(const char* n) : OpDef(n) {
    Input("X").ParamType(REQUIRED).DataType(kAllTypes);
    Input("K").ParamType(REQUIRED).DataType({ge::DT_INT64}).ValueDepend(REQUIRED);
    Output("Values").ParamType(REQUIRED).DataType(kAllTypes);
    Output("Indices").ParamType(REQUIRED).DataType({ge::DT_INT64});
    Attr("axis").AttrType(OPTIONAL).Int(-1);
    Attr("largest").AttrType(OPTIONAL).Int(1);
    Attr("sorted").AttrType(OPTIONAL).Int(1);
    SetInferShape(TopKShape).SetInferDataType(TopKDataType);
    AICore().SetTiling(TopKTiling).SetKernel(TopKKernel).AddConfig("ascend910b");
  }
};
struct ReverseSequence : OpDef {
  explicit ReverseSequence(const char* n) : OpDef(n) {
    Input("input").ParamType(REQUIRED).DataType(kAllTypes);
    Input("sequence_lens").ParamType(REQUIRED).DataType({ge::DT_INT64});
    Output("Y").ParamType(REQUIRED).DataType(kAllTypes);
    Attr("batch_axis").AttrType(OPTIONAL).Int(1);
    Attr("time_axis").AttrType(OPTIONAL).Int(0);
    SetInferShape(ge::ops_util::InferShapeSameAsInput0).SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    AICore().SetTiling(ReverseSeqTiling).SetKernel(ReverseSeqKernel).AddConfig("ascend910b");
  }
};
struct Trilu : OpDef {
  explicit Trilu(const char* n) : OpDef(n) {
    Input("input").ParamType(REQUIRED).DataType(kAllTypes);
    Input("k").ParamType(OPTIONAL).DataType({ge::DT_INT64}).ValueDepend(OPTIONAL);
    Output("output").ParamType(REQUIRED).DataType(kAllTypes);
    Attr("upper").AttrType(OPTIONAL).Int(1);
    SetInferShape(ge::ops_util::InferShapeSameAsInput0).SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    AICore().SetTiling(TriluTiling).SetKernel(TriluKernel).AddConfig("ascend910b");
  }
};
struct OneHot : OpDef {
  explicit OneHot(const char* n) : OpDef(n) {
    Input("indices").ParamType(REQUIRED).DataType(kAllTypes);
    Input("depth").ParamType(REQUIRED).DataType(kAllTypes).ValueDepend(REQUIRED);
    Input("values").ParamType(REQUIRED).DataType(kAllTypes);
    Output("output").ParamType(REQUIRED).DataType(kAllTypes);
    Attr("axis").AttrType(OPTIONAL).Int(-1);
    SetInferShape(OneHotShape).SetInferDataType(OneHotDataType);
    AICore().SetTiling(OneHotTilingFn).SetKernel(OneHotKernel).AddConfig("ascend910b");
  }
};
struct NonZero : OpDef {
  explicit NonZero(const char* n) : OpDef(n) {
    Input("X").ParamType(REQUIRED).DataType(kAllTypes).ValueDepend(REQUIRED);
    Output("Y").ParamType(REQUIRED).DataType({ge::DT_INT64});
    SetInferShape(NonZeroShape).SetInferDataType(Int64Out);
    AICore().SetTiling(NonZeroTiling).SetKernel(NonZeroKernel).AddConfig("ascend910b");
  }
};
OP_ADD(CumSum);
OP_ADD(TopK);
OP_ADD(Trilu);
OP_ADD(OneHot);
OP_ADD(NonZero);
OP_ADD(ReverseSequence);
}  // namespace ops
