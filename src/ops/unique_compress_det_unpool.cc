// Assorted data-dependent and small linear-algebra ops: Unique, Compress, Det, MaxUnpool.
// Unique and Compress have output shapes that depend on input data: those inputs are
// value-depend, shape inference computes the result's size on the host, and the kernel (one
// block) recomputes and writes it. Det is LU with partial pivoting per matrix.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <vector>

#include <fmt/format.h>

#include "base/checked_math.h"
#include "ops/op_util.h"

namespace ge::ops_unique_det {
using namespace ge::ops_util;

// ---- Unique ------------------------------------------------------------------------------------
enum UniqueAttr { kUniqueAxis, kUniqueSorted };

// Slices of x along the axis (or single elements when flattening) as byte rows.
struct UniqueResult {
  std::vector<int64_t> first;    // per unique: index of its first occurrence
  std::vector<int64_t> inverse;  // per slice: unique id
  std::vector<int64_t> counts;
};

struct UniqueGeom {
  int64_t outer, slices, inner, elem;  // x viewed as [outer, slices, inner]
  int32_t dtype, sorted, has_axis, axis;
};

bool UniqueGeometry(const gert::Shape& x, ge::DataType dt, const gert::RuntimeAttrs* a, UniqueGeom* g) {
  g->dtype = dt;
  g->elem = static_cast<int64_t>(ge::GetSizeByDataType(dt));
  g->sorted = static_cast<int32_t>(AttrInt(a, kUniqueSorted, 1));
  g->has_axis = a && a->IsSet(kUniqueAxis);
  g->outer = g->inner = 1;
  if (!g->has_axis) {
    g->slices = x.GetShapeSize();
    return g->elem > 0;
  }
  int64_t axis;
  if (!NormalizeAxis(AttrInt(a, kUniqueAxis, 0), x.GetDimNum(), &axis)) return false;
  g->axis = static_cast<int32_t>(axis);
  for (int64_t d = 0; d < axis; ++d) g->outer *= x.GetDim(d);
  for (size_t d = axis + 1; d < x.GetDimNum(); ++d) g->inner *= x.GetDim(d);
  g->slices = x.GetDim(axis);
  return g->elem > 0;
}

template <typename T>
int CompareSlices(const UniqueGeom& g, const T* x, int64_t a, int64_t b) {
  for (int64_t o = 0; o < g.outer; ++o)
    for (int64_t i = 0; i < g.inner; ++i) {
      T va = x[(o * g.slices + a) * g.inner + i], vb = x[(o * g.slices + b) * g.inner + i];
      if (va < vb) return -1;
      if (vb < va) return 1;
    }
  return 0;
}

template <typename T>
UniqueResult UniqueOf(const UniqueGeom& g, const T* x) {
  std::vector<int64_t> order(g.slices);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return CompareSlices(g, x, a, b) < 0; });
  // Group equal slices; each group's first index is its smallest (stable sort).
  std::vector<int64_t> group(g.slices);
  std::vector<int64_t> group_first;
  for (size_t k = 0; k < order.size(); ++k) {
    if (k == 0 || CompareSlices(g, x, order[k - 1], order[k]) != 0) group_first.push_back(order[k]);
    group[order[k]] = static_cast<int64_t>(group_first.size()) - 1;
  }
  // Unique ids: sorted order, or order of first occurrence.
  std::vector<int64_t> id(group_first.size());
  std::iota(id.begin(), id.end(), 0);
  if (!g.sorted) {
    std::vector<int64_t> by_first(group_first.size());
    std::iota(by_first.begin(), by_first.end(), 0);
    std::sort(by_first.begin(), by_first.end(), [&](int64_t a, int64_t b) { return group_first[a] < group_first[b]; });
    for (size_t k = 0; k < by_first.size(); ++k) id[by_first[k]] = static_cast<int64_t>(k);
  }
  UniqueResult r;
  r.first.assign(group_first.size(), 0);
  r.counts.assign(group_first.size(), 0);
  r.inverse.resize(g.slices);
  for (size_t k = 0; k < group_first.size(); ++k) r.first[id[k]] = group_first[k];
  for (int64_t s = 0; s < g.slices; ++s) {
    r.inverse[s] = id[group[s]];
    ++r.counts[id[group[s]]];
  }
  return r;
}

bool RunUnique(const UniqueGeom& g, const void* x, UniqueResult* r) {
  return GE_DISPATCH(AllTypes, static_cast<ge::DataType>(g.dtype), *r = UniqueOf(g, static_cast<const scalar_t*>(x)));
}

ge::graphStatus UniqueShape(gert::InferShapeContext* ctx) {
  const gert::Tensor* x = ctx->GetInputTensor(0);
  UniqueGeom g{};
  UniqueResult r;
  if (!x || !x->GetAddr() || !UniqueGeometry(x->GetStorageShape(), x->GetDataType(), ctx->GetAttrs(), &g) ||
      !RunUnique(g, x->GetAddr(), &r))
    return ge::GRAPH_FAILED;
  auto n = static_cast<int64_t>(r.first.size());
  std::vector<int64_t> y = {n};
  if (g.has_axis) {
    y = DimsOf(x->GetStorageShape());
    y[g.axis] = n;
  }
  SetDims(ctx->GetOutputShape(0), y);
  for (size_t o = 1; o < 4; ++o)
    if (ctx->GetOutputShape(o)) SetDims(ctx->GetOutputShape(o), {o == 2 ? g.slices : n});
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus UniqueDtype(gert::InferDataTypeContext* ctx) {
  ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
  for (size_t o = 1; o < ctx->GetComputeNodeOutputNum(); ++o) ctx->SetOutputDataType(o, ge::DT_INT64);
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus UniqueTiling(gert::TilingContext* ctx) {
  UniqueGeom g{};
  if (!UniqueGeometry(ctx->GetInputShape(0)->GetStorageShape(), ctx->GetInputDesc(0)->GetDataType(), ctx->GetAttrs(),
                      &g))
    return ge::GRAPH_FAILED;
  ctx->SetBlockDim(1);
  return SetTiling(ctx, g);
}

void UniqueKernel(const aclrtKernelArgs* args) {
  const auto& g = GetTiling<UniqueGeom>(args);
  UniqueResult r;
  if (!RunUnique(g, args->addrs[0], &r)) return;
  auto n = static_cast<int64_t>(r.first.size());
  const auto* x = static_cast<const uint8_t*>(args->addrs[0]);
  auto* y = static_cast<uint8_t*>(args->addrs[1]);
  size_t row = static_cast<size_t>(g.inner * g.elem);
  for (int64_t o = 0; o < g.outer; ++o)
    for (int64_t k = 0; k < n; ++k) std::memcpy(y + (o * n + k) * row, x + (o * g.slices + r.first[k]) * row, row);
  std::copy(r.first.begin(), r.first.end(), static_cast<int64_t*>(args->addrs[2]));
  std::copy(r.inverse.begin(), r.inverse.end(), static_cast<int64_t*>(args->addrs[3]));
  std::copy(r.counts.begin(), r.counts.end(), static_cast<int64_t*>(args->addrs[4]));
}

// ---- Compress ----------------------------------------------------------------------------------
struct CompressGeom {
  int64_t outer, len, inner, elem, cond_len;
  int32_t has_axis, axis;
};

bool CompressGeometry(const gert::Shape& x, ge::DataType dt, const gert::Shape& cond, const gert::RuntimeAttrs* a,
                      CompressGeom* g) {
  g->elem = static_cast<int64_t>(ge::GetSizeByDataType(dt));
  g->has_axis = a && a->IsSet(0);
  g->outer = g->inner = 1;
  g->cond_len = cond.GetShapeSize();
  g->len = x.GetShapeSize();
  if (g->has_axis) {
    int64_t axis;
    if (!NormalizeAxis(AttrInt(a, 0, 0), x.GetDimNum(), &axis)) return false;
    g->axis = static_cast<int32_t>(axis);
    for (int64_t d = 0; d < axis; ++d) g->outer *= x.GetDim(d);
    for (size_t d = axis + 1; d < x.GetDimNum(); ++d) g->inner *= x.GetDim(d);
    g->len = x.GetDim(axis);
  }
  return g->elem > 0 && g->cond_len <= g->len;
}

std::vector<int64_t> Selected(const CompressGeom& g, const uint8_t* cond) {
  std::vector<int64_t> sel;
  for (int64_t i = 0; i < g.cond_len; ++i)
    if (cond[i]) sel.push_back(i);
  return sel;
}

ge::graphStatus CompressShape(gert::InferShapeContext* ctx) {
  const gert::Tensor* cond = ctx->GetInputTensor(1);
  const gert::Shape* x = ctx->GetInputShape(0);
  CompressGeom g{};
  if (!x || !cond || !cond->GetAddr() ||
      !CompressGeometry(*x, ctx->GetInputDataType(0), cond->GetStorageShape(), ctx->GetAttrs(), &g))
    return ge::GRAPH_FAILED;
  auto n = static_cast<int64_t>(Selected(g, cond->GetData<uint8_t>()).size());
  std::vector<int64_t> y = {n};
  if (g.has_axis) {
    y = DimsOf(*x);
    y[g.axis] = n;
  }
  SetDims(ctx->GetOutputShape(0), y);
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus CompressTiling(gert::TilingContext* ctx) {
  CompressGeom g{};
  if (!CompressGeometry(ctx->GetInputShape(0)->GetStorageShape(), ctx->GetInputDesc(0)->GetDataType(),
                        ctx->GetInputShape(1)->GetStorageShape(), ctx->GetAttrs(), &g))
    return ge::GRAPH_FAILED;
  ctx->SetBlockDim(1);
  return SetTiling(ctx, g);
}

void CompressKernel(const aclrtKernelArgs* args) {
  const auto& g = GetTiling<CompressGeom>(args);
  auto sel = Selected(g, static_cast<const uint8_t*>(args->addrs[1]));
  const auto* x = static_cast<const uint8_t*>(args->addrs[0]);
  auto* y = static_cast<uint8_t*>(args->addrs[2]);
  size_t row = static_cast<size_t>(g.inner * g.elem);
  auto n = static_cast<int64_t>(sel.size());
  for (int64_t o = 0; o < g.outer; ++o)
    for (int64_t k = 0; k < n; ++k) std::memcpy(y + (o * n + k) * row, x + (o * g.len + sel[k]) * row, row);
}

// ---- Det ---------------------------------------------------------------------------------------
struct DetTiling {
  int64_t batch, n;
  int32_t dtype;
};

ge::graphStatus DetShape(gert::InferShapeContext* ctx) {
  const gert::Shape* x = ctx->GetInputShape(0);
  size_t r = x ? x->GetDimNum() : 0;
  if (r < 2 || x->GetDim(r - 1) != x->GetDim(r - 2)) return ge::GRAPH_FAILED;
  std::vector<int64_t> y = DimsOf(*x);
  y.resize(r - 2);
  SetDims(ctx->GetOutputShape(0), y);
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus DetTilingFn(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  DetTiling t{};
  t.n = x.GetDim(x.GetDimNum() - 1);
  t.batch = t.n > 0 ? x.GetShapeSize() / (t.n * t.n) : x.GetShapeSize();
  t.dtype = ctx->GetInputDesc(0)->GetDataType();
  ctx->SetBlockDim(ChooseBlockDim(ctx, t.batch * t.n * t.n * t.n, 1 << 14));
  return SetTiling(ctx, t);
}

template <typename T>
void DetRun(const DetTiling& t, const T* x, T* y, int64_t b, int64_t e) {
  std::vector<double> m(t.n * t.n);
  for (int64_t k = b; k < e; ++k) {
    for (int64_t i = 0; i < t.n * t.n; ++i) m[i] = static_cast<float>(x[k * t.n * t.n + i]);
    double det = 1;
    for (int64_t c = 0; c < t.n && det != 0; ++c) {
      int64_t p = c;
      for (int64_t r = c + 1; r < t.n; ++r)
        if (std::fabs(m[r * t.n + c]) > std::fabs(m[p * t.n + c])) p = r;
      if (m[p * t.n + c] == 0) {
        det = 0;
        break;
      }
      if (p != c) {
        for (int64_t j = 0; j < t.n; ++j) std::swap(m[p * t.n + j], m[c * t.n + j]);
        det = -det;
      }
      det *= m[c * t.n + c];
      for (int64_t r = c + 1; r < t.n; ++r) {
        double f = m[r * t.n + c] / m[c * t.n + c];
        for (int64_t j = c; j < t.n; ++j) m[r * t.n + j] -= f * m[c * t.n + j];
      }
    }
    y[k] = static_cast<T>(static_cast<float>(det));
  }
}

void DetKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<DetTiling>(args);
  int64_t b, e;
  BlockRange(t.batch, args->blockIdx, args->blockDim, &b, &e);
  GE_DISPATCH(FloatsAnd16, static_cast<ge::DataType>(t.dtype),
              DetRun(t, static_cast<const scalar_t*>(args->addrs[0]), static_cast<scalar_t*>(args->addrs[1]), b, e));
}

// ---- MaxUnpool ---------------------------------------------------------------------------------
enum UnpoolAttr { kUnpoolKernel, kUnpoolPads, kUnpoolStrides };
struct UnpoolTiling {
  int64_t in_numel, out_numel;
  int32_t dtype, idx_dtype, rank;
  int64_t dflt[kMaxRank], out[kMaxRank];  // the inferred (pooling-inverse) dims and the actual ones
};

// The pooling-inverse dims; with an output_shape input, *out is that shape instead.
bool UnpoolDims(const gert::Shape& x, const gert::Tensor* oshape, const gert::RuntimeAttrs* a,
                std::vector<int64_t>* dflt, std::vector<int64_t>* out) {
  size_t ns = x.GetDimNum() >= 3 ? x.GetDimNum() - 2 : 0;
  std::vector<int64_t> k = AttrInts(a, kUnpoolKernel), p = AttrInts(a, kUnpoolPads), s = AttrInts(a, kUnpoolStrides);
  if (ns == 0 || k.size() != ns || x.GetDimNum() > kMaxRank) return false;
  *dflt = {x.GetDim(0), x.GetDim(1)};
  // Kernel and strides positive, pads non-negative, every inferred dim positive and computed
  // without overflow (the kernel divides flat indices by them: kernel_shape 0 with a 2^62
  // stride was a division by zero, onnx_model harness).
  for (size_t i = 0; i < ns; ++i) {
    int64_t st = s.size() == ns ? s[i] : 1, pb = p.size() == 2 * ns ? p[i] : 0, pe = p.size() == 2 * ns ? p[ns + i] : 0;
    int64_t d;
    if (k[i] < 1 || st < 1 || pb < 0 || pe < 0 || x.GetDim(2 + i) < 1 || !CheckedMul(x.GetDim(2 + i) - 1, st, &d) ||
        !CheckedAdd(d, k[i], &d) || d - pb - pe < 1) {
      InferFail(fmt::format("kernel_shape {}, strides {} and pads {} give no positive output size for the input {}",
                            k[i], st, pb + pe, ShapeToString(x)));
      return false;
    }
    dflt->push_back(d - pb - pe);
  }
  *out = *dflt;
  if (oshape && oshape->GetShapeSize() > 0) {
    if (!oshape->GetAddr() || !ReadInt64s(oshape, out)) return false;
    return out->size() == x.GetDimNum();
  }
  return true;
}

ge::graphStatus UnpoolShape(gert::InferShapeContext* ctx) {
  // I indexes X element for element (an I of another shape than X was read past its end:
  // heap-buffer-overflow, onnx_model harness).
  const gert::Shape* xs = ctx->GetInputShape(0);
  const gert::Shape* is = ctx->GetInputShape(1);
  auto known = [](const gert::Shape& s) {
    for (size_t d = 0; d < s.GetDimNum(); ++d)
      if (s.GetDim(d) < 0) return false;
    return true;
  };
  if (xs && is && known(*xs) && known(*is) && !(*xs == *is))
    return InferFail(fmt::format("expected I of X's shape {}, got {}", ShapeToString(*xs), ShapeToString(*is)));
  std::vector<int64_t> dflt, out;
  if (!UnpoolDims(*ctx->GetInputShape(0), ctx->GetInputTensor(2), ctx->GetAttrs(), &dflt, &out))
    return ge::GRAPH_FAILED;
  SetDims(ctx->GetOutputShape(0), out);
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus UnpoolTilingFn(gert::TilingContext* ctx) {
  UnpoolTiling t{};
  std::vector<int64_t> dflt, out;
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  if (!UnpoolDims(x, ctx->GetInputTensor(2), ctx->GetAttrs(), &dflt, &out)) return ge::GRAPH_FAILED;
  t.rank = static_cast<int32_t>(x.GetDimNum());
  std::copy(dflt.begin(), dflt.end(), t.dflt);
  std::copy(out.begin(), out.end(), t.out);
  t.in_numel = x.GetShapeSize();
  t.out_numel = ctx->GetOutputShape(0)->GetStorageShape().GetShapeSize();
  t.dtype = ctx->GetInputDesc(0)->GetDataType();
  t.idx_dtype = ctx->GetInputDesc(1)->GetDataType();
  ctx->SetBlockDim(1);
  return SetTiling(ctx, t);
}

// Index I[i] is flat over the inferred dims (as MaxPool wrote it); it lands at the same
// coordinates of the output (an output_shape only adds room). Other elements are 0.
void UnpoolKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<UnpoolTiling>(args);
  GE_DISPATCH(AllTypes, static_cast<ge::DataType>(t.dtype), {
    const auto* x = static_cast<const scalar_t*>(args->addrs[0]);
    auto* y = static_cast<scalar_t*>(args->addrs[3]);
    std::fill(y, y + t.out_numel, scalar_t(0));
    for (int64_t i = 0; i < t.in_numel; ++i) {
      int64_t idx = t.idx_dtype == ge::DT_INT32 ? static_cast<const int32_t*>(args->addrs[1])[i]
                                                : static_cast<const int64_t*>(args->addrs[1])[i];
      int64_t off = 0, mul = 1;
      bool inside = idx >= 0;
      for (int d = t.rank - 1; d >= 0 && inside; --d) {
        int64_t c = idx % t.dflt[d];
        idx /= t.dflt[d];
        inside = c < t.out[d];
        off += c * mul;
        mul *= t.out[d];
      }
      if (inside && idx == 0) y[off] = x[i];
    }
  });
}

}  // namespace ge::ops_unique_det

namespace ops {
using namespace ge::ops_unique_det;

class Unique : public OpDef {
 public:
  explicit Unique(const char* name) : OpDef(name) {
    this->Input("X").ParamType(REQUIRED).ValueDepend(REQUIRED);
    this->Output("Y").ParamType(REQUIRED);
    this->Output("indices").ParamType(OPTIONAL).DataType({ge::DT_INT64});
    this->Output("inverse_indices").ParamType(OPTIONAL).DataType({ge::DT_INT64});
    this->Output("counts").ParamType(OPTIONAL).DataType({ge::DT_INT64});
    this->Attr("axis").AttrType(OPTIONAL).Int(0);
    this->Attr("sorted").AttrType(OPTIONAL).Int(1);
    this->SetInferShape(UniqueShape);
    this->SetInferDataType(UniqueDtype);
    this->AICore().SetTiling(UniqueTiling).SetKernel(UniqueKernel).AddConfig("ascend910b");
  }
};
OP_ADD(Unique);

class Compress : public OpDef {
 public:
  explicit Compress(const char* name) : OpDef(name) {
    this->Input("input").ParamType(REQUIRED);
    this->Input("condition").ParamType(REQUIRED).DataType({ge::DT_BOOL}).ValueDepend(REQUIRED);
    this->Output("output").ParamType(REQUIRED);
    this->Attr("axis").AttrType(OPTIONAL).Int(0);
    this->SetInferShape(CompressShape);
    this->SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    this->AICore().SetTiling(CompressTiling).SetKernel(CompressKernel).AddConfig("ascend910b");
  }
};
OP_ADD(Compress);

class Det : public OpDef {
 public:
  explicit Det(const char* name) : OpDef(name) {
    this->Input("X").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_DOUBLE, ge::DT_FLOAT16, ge::DT_BF16});
    this->Output("Y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_DOUBLE, ge::DT_FLOAT16, ge::DT_BF16});
    this->SetInferShape(DetShape);
    this->SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    this->AICore().SetTiling(DetTilingFn).SetKernel(DetKernel).AddConfig("ascend910b");
  }
};
OP_ADD(Det);

class MaxUnpool : public OpDef {
 public:
  explicit MaxUnpool(const char* name) : OpDef(name) {
    this->Input("X").ParamType(REQUIRED);
    this->Input("I").ParamType(REQUIRED).DataType({ge::DT_INT64, ge::DT_INT32});
    this->Input("output_shape").ParamType(OPTIONAL).DataType({ge::DT_INT64}).ValueDepend(OPTIONAL);
    this->Output("output").ParamType(REQUIRED);
    this->Attr("kernel_shape").AttrType(REQUIRED).ListInt();
    this->Attr("pads").AttrType(OPTIONAL).ListInt();
    this->Attr("strides").AttrType(OPTIONAL).ListInt();
    this->SetInferShape(UnpoolShape);
    this->SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    this->AICore().SetTiling(UnpoolTilingFn).SetKernel(UnpoolKernel).AddConfig("ascend910b");
  }
};
OP_ADD(MaxUnpool);
}  // namespace ops
