// Indexing ops: Gather, GatherElements, GatherND, ScatterElements, ScatterND. Indices are int32
// or int64 and may be negative (counted from the end). create: shape inference; tiling records
// the data and index geometry. run: gathers split the output over blocks; scatters run in one
// block (duplicate indices with a reduction must apply in order).
#include <fmt/format.h>

#include <algorithm>

#include "ops/attr_choice.h"
#include "ops/op_util.h"

namespace ge::ops_gather {
using namespace ge::ops_util;

enum class G : int32_t { kGather, kGatherElements, kGatherND, kScatterElements, kScatterND };

struct GatherTiling {
  int32_t op;
  int32_t dtype;
  int32_t idx_dtype;
  int32_t axis;
  int32_t reduction;  // 0 none, 1 add, 2 mul, 3 max, 4 min
  int32_t data_rank, idx_rank;
  int32_t batch_dims;
  int64_t data_dims[kMaxRank];
  int64_t idx_dims[kMaxRank];
  int64_t out_numel, idx_numel, data_numel;
};

// ---- create ----------------------------------------------------------------------------------
// Equal dims, an unknown dim (< 0) matching any.
bool SameDims(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] >= 0 && b[i] >= 0 && a[i] != b[i]) return false;
  return true;
}

// GatherElements / ScatterElements: indices of data's rank, no dim larger than data's except
// along the axis (ONNX; ORT checks the same).
ge::graphStatus CheckElementsShapes(gert::InferShapeContext* ctx, const gert::Shape& d, const gert::Shape& idx) {
  if (idx.GetDimNum() != d.GetDimNum())
    return InferFail(fmt::format("'indices' has rank {}, 'data' rank {}", idx.GetDimNum(), d.GetDimNum()));
  int64_t ax = 0;
  if (!NormalizeAxis(AttrInt(ctx->GetAttrs(), 0, 0), d.GetDimNum(), &ax)) return InferFail("axis out of range");
  for (size_t i = 0; i < d.GetDimNum(); ++i)
    if (static_cast<int64_t>(i) != ax && d.GetDim(i) >= 0 && idx.GetDim(i) > d.GetDim(i))
      return InferFail(fmt::format("'indices' dim {} is {}, larger than 'data' dim {}", i, idx.GetDim(i), d.GetDim(i)));
  return ge::GRAPH_SUCCESS;
}

template <G kOp>
ge::graphStatus InferShape(gert::InferShapeContext* ctx) {
  const gert::Shape& d = *ctx->GetInputShape(0);
  const gert::Shape& idx = *ctx->GetInputShape(1);
  std::vector<int64_t> out;
  int64_t ax = 0;
  if (kOp == G::kGather) {
    if (!NormalizeAxis(AttrInt(ctx->GetAttrs(), 0, 0), d.GetDimNum(), &ax))
      return InferFail(
          fmt::format("axis {} is out of range for data {}", AttrInt(ctx->GetAttrs(), 0, 0), ShapeToString(d)));
    for (int64_t i = 0; i < ax; ++i) out.push_back(d.GetDim(i));
    for (size_t i = 0; i < idx.GetDimNum(); ++i) out.push_back(idx.GetDim(i));
    for (size_t i = ax + 1; i < d.GetDimNum(); ++i) out.push_back(d.GetDim(i));
  } else if (kOp == G::kGatherElements || kOp == G::kScatterElements) {
    if (CheckElementsShapes(ctx, d, idx) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
    if (kOp == G::kScatterElements && !SameDims(DimsOf(*ctx->GetInputShape(2)), DimsOf(idx)))
      return InferFail("'updates' must have the shape of 'indices'");
    out = kOp == G::kGatherElements ? DimsOf(idx) : DimsOf(d);
  } else {
    const int64_t r = static_cast<int64_t>(d.GetDimNum()), q = static_cast<int64_t>(idx.GetDimNum());
    const int64_t b = kOp == G::kGatherND ? AttrInt(ctx->GetAttrs(), 0, 0) : 0;
    const int64_t k = q > 0 ? idx.GetDim(q - 1) : -1;
    if (b < 0 || b >= std::min(r, q))
      return InferFail(fmt::format("batch_dims {} must be in [0, {})", b, std::min(r, q)));
    if (k < 1 || k > r - b)
      return InferFail(fmt::format("the last dim of 'indices' ({}) must be in [1, {}]", k, r - b));
    if (kOp == G::kGatherND) {
      for (int64_t i = 0; i + 1 < q; ++i) out.push_back(idx.GetDim(i));
      for (int64_t i = b + k; i < r; ++i) out.push_back(d.GetDim(i));
    } else {  // ScatterND: updates = indices.shape[:-1] + data.shape[k:]
      std::vector<int64_t> want(idx.GetDims(), idx.GetDims() + q - 1);
      for (int64_t i = k; i < r; ++i) want.push_back(d.GetDim(i));
      if (!SameDims(DimsOf(*ctx->GetInputShape(2)), want))
        return InferFail("'updates' must have shape indices.shape[:-1] + data.shape[k:]");
      out = DimsOf(d);
    }
  }
  SetDims(ctx->GetOutputShape(0), out);
  return ge::GRAPH_SUCCESS;
}

// 0 none, 1 add, 2 mul, 3 max, 4 min; -1 (with the reason) for any other.
int32_t ReductionCode(const gert::RuntimeAttrs* a, size_t i) {
  return AttrChoice(a, i, "reduction", {"none", "add", "mul", "max", "min"});
}

template <G kOp>
ge::graphStatus Tiling(gert::TilingContext* ctx) {
  const gert::Shape& d = ctx->GetInputShape(0)->GetStorageShape();
  const gert::Shape& idx = ctx->GetInputShape(1)->GetStorageShape();
  if (d.GetDimNum() > static_cast<size_t>(kMaxRank) || idx.GetDimNum() > static_cast<size_t>(kMaxRank))
    return InferFail(fmt::format("expected at most {} dims, got data {} and indices {}", kMaxRank, ShapeToString(d),
                                 ShapeToString(idx)));
  GatherTiling t{};
  t.op = static_cast<int32_t>(kOp);
  t.dtype = ctx->GetInputDesc(0)->GetDataType();
  t.idx_dtype = ctx->GetInputDesc(1)->GetDataType();
  t.data_rank = static_cast<int32_t>(d.GetDimNum());
  t.idx_rank = static_cast<int32_t>(idx.GetDimNum());
  for (int i = 0; i < t.data_rank; ++i) t.data_dims[i] = d.GetDim(i);
  for (int i = 0; i < t.idx_rank; ++i) t.idx_dims[i] = idx.GetDim(i);
  const auto* a = ctx->GetAttrs();
  int64_t ax = 0;
  if (kOp == G::kGatherND) {
    t.batch_dims = static_cast<int32_t>(AttrInt(a, 0, 0));
  } else if (kOp == G::kScatterND) {
    t.reduction = ReductionCode(a, 0);
  } else if (!NormalizeAxis(AttrInt(a, 0, 0), t.data_rank, &ax)) {
    return InferFail(fmt::format("axis {} is out of range for data {}", AttrInt(a, 0, 0), ShapeToString(d)));
  }
  t.axis = static_cast<int32_t>(ax);
  if (kOp == G::kScatterElements) t.reduction = ReductionCode(a, 1);
  if (t.reduction < 0) return ge::GRAPH_FAILED;
  t.out_numel = ctx->GetOutputShape(0)->GetStorageShape().GetShapeSize();
  t.idx_numel = idx.GetShapeSize();
  t.data_numel = d.GetShapeSize();
  bool scatter = kOp == G::kScatterElements || kOp == G::kScatterND;
  ctx->SetBlockDim(scatter ? 1 : ChooseBlockDim(ctx, t.out_numel, 1 << 14));
  return SetTiling(ctx, t);
}

// ---- run -------------------------------------------------------------------------------------
// Each index is checked (ONNX: negative wraps once, anything else out of range fails the run
// through aclrtReportKernelError) before it addresses memory; a run returns false after a report.
struct IndexReader {
  const aclrtKernelArgs* args;
  const void* idx;
  int32_t dt;
  // Index element i against an axis of size dim; -1 (reported) when out of range.
  int64_t operator()(int64_t i, int64_t dim) const {
    const int64_t v = RawIndex(idx, dt, i);
    const int64_t w = WrapIndex(v, dim);
    if (w < 0) ReportBadIndex(args, "indices", v, dim);
    return w;
  }
};

template <typename T>
bool RunGather(const GatherTiling& t, const IndexReader& at, const T* x, T* y, int64_t b, int64_t e) {
  int64_t inner = 1, dim = t.data_dims[t.axis];
  for (int i = t.axis + 1; i < t.data_rank; ++i) inner *= t.data_dims[i];
  if (inner >= 8) {  // rows (an embedding lookup): one index read and one copy per row
    for (int64_t o = b; o < e;) {
      const int64_t in_off = o % inner, rest = o / inner;
      const int64_t k = rest % t.idx_numel, outer = rest / t.idx_numel;
      const int64_t j = at(k, dim);
      if (j < 0) return false;
      const int64_t n = std::min(inner - in_off, e - o);
      std::copy_n(x + (outer * dim + j) * inner + in_off, n, y + o);
      o += n;
    }
    return true;
  }
  for (int64_t o = b; o < e; ++o) {
    int64_t in_off = o % inner, rest = o / inner;
    int64_t k = rest % t.idx_numel, outer = rest / t.idx_numel;
    const int64_t j = at(k, dim);
    if (j < 0) return false;
    y[o] = x[(outer * dim + j) * inner + in_off];
  }
  return true;
}

// Offset in data of element i of an Elements op's indices (idx dims within data's but the axis).
inline int64_t ElementsOffset(const GatherTiling& t, const IndexReader& at, const int64_t* ds, int64_t i) {
  int64_t rem = i, off = 0;
  for (int d = t.idx_rank - 1; d >= 0; --d) {
    int64_t c = rem % t.idx_dims[d];
    rem /= t.idx_dims[d];
    if (d == t.axis && (c = at(i, t.data_dims[d])) < 0) return -1;
    off += c * ds[d];
  }
  return off;
}

template <typename T>
bool RunGatherElements(const GatherTiling& t, const IndexReader& at, const T* x, T* y, int64_t b, int64_t e) {
  int64_t ds[kMaxRank];
  ContiguousStrides(t.data_dims, t.data_rank, ds);
  for (int64_t o = b; o < e; ++o) {
    const int64_t src = ElementsOffset(t, at, ds, o);
    if (src < 0) return false;
    y[o] = x[src];
  }
  return true;
}

// Offset in data of index tuple `tuple` (k indices over data dims first..first+k).
inline int64_t TupleOffset(const GatherTiling& t, const IndexReader& at, const int64_t* ds, int first, int64_t k,
                           int64_t tuple) {
  int64_t off = 0;
  for (int64_t j = 0; j < k; ++j) {
    const int64_t v = at(tuple * k + j, t.data_dims[first + j]);
    if (v < 0) return -1;
    off += v * ds[first + j];
  }
  return off;
}

// GatherND: each index tuple (after batch dims) selects a slice of `slice` elements.
template <typename T>
bool RunGatherND(const GatherTiling& t, const IndexReader& at, const T* x, T* y, int64_t b, int64_t e) {
  int64_t k = t.idx_dims[t.idx_rank - 1], slice = 1, batch = 1, ds[kMaxRank];
  for (int i = t.batch_dims + static_cast<int>(k); i < t.data_rank; ++i) slice *= t.data_dims[i];
  for (int i = 0; i < t.batch_dims; ++i) batch *= t.data_dims[i];
  ContiguousStrides(t.data_dims, t.data_rank, ds);
  int64_t tuples_per_batch = std::max<int64_t>(t.idx_numel / k / std::max<int64_t>(batch, 1), 1);
  int64_t batch_stride = t.batch_dims ? ds[t.batch_dims - 1] : 0;
  for (int64_t o = b; o < e; ++o) {
    int64_t tuple = o / slice, off = o % slice;
    const int64_t src = TupleOffset(t, at, ds, t.batch_dims, k, tuple);
    if (src < 0) return false;
    y[o] = x[(tuple / tuples_per_batch) * batch_stride + src + off];
  }
  return true;
}

template <typename T>
void Reduce(T* dst, T v, int32_t r) {
  using C = ComputeT<T>;
  C a = static_cast<C>(*dst), u = static_cast<C>(v);
  switch (r) {
    case 1: *dst = static_cast<T>(C(a + u)); break;
    case 2: *dst = static_cast<T>(C(a * u)); break;
    case 3: *dst = static_cast<T>(a > u ? a : u); break;
    case 4: *dst = static_cast<T>(a < u ? a : u); break;
    default: *dst = v; break;
  }
}

template <typename T>
bool RunScatter(const GatherTiling& t, const IndexReader& at, void* const* a) {
  const T* x = static_cast<const T*>(a[0]);
  const T* upd = static_cast<const T*>(a[2]);
  T* y = static_cast<T*>(a[3]);
  std::copy(x, x + t.data_numel, y);
  int64_t ds[kMaxRank];
  ContiguousStrides(t.data_dims, t.data_rank, ds);
  if (static_cast<G>(t.op) == G::kScatterElements) {
    for (int64_t i = 0; i < t.idx_numel; ++i) {
      const int64_t dst = ElementsOffset(t, at, ds, i);
      if (dst < 0) return false;
      Reduce(&y[dst], upd[i], t.reduction);
    }
    return true;
  }
  int64_t k = t.idx_dims[t.idx_rank - 1], slice = 1;
  for (int i = static_cast<int>(k); i < t.data_rank; ++i) slice *= t.data_dims[i];
  for (int64_t tuple = 0; tuple < t.idx_numel / k; ++tuple) {
    const int64_t dst = TupleOffset(t, at, ds, 0, k, tuple);
    if (dst < 0) return false;
    for (int64_t s = 0; s < slice; ++s) Reduce(&y[dst + s], upd[tuple * slice + s], t.reduction);
  }
  return true;
}

void Kernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<GatherTiling>(args);
  int64_t b, e;
  BlockRange(t.out_numel, args->blockIdx, args->blockDim, &b, &e);
  void* const* a = args->addrs;
  const IndexReader at{args, a[1], t.idx_dtype};
  G op = static_cast<G>(t.op);
  GE_DISPATCH(AllTypes, static_cast<ge::DataType>(t.dtype), {
    using T = scalar_t;
    const T* x = static_cast<const T*>(a[0]);
    if (op == G::kGather)
      RunGather(t, at, x, static_cast<T*>(a[2]), b, e);
    else if (op == G::kGatherElements)
      RunGatherElements(t, at, x, static_cast<T*>(a[2]), b, e);
    else if (op == G::kGatherND)
      RunGatherND(t, at, x, static_cast<T*>(a[2]), b, e);
    else if constexpr (!std::is_same_v<T, bool>)
      RunScatter<T>(t, at, a);
    else if (args->blockIdx == 0)
      RunScatter<uint8_t>(t, at, a);
  });
}

// updates are written into data's buffer element for element: one dtype (double data with float
// updates read past the updates: heap-buffer-overflow, onnx_model harness).
inline ge::graphStatus ScatterDataType(gert::InferDataTypeContext* ctx) {
  const ge::DataType d = ctx->GetInputDataType(0), u = ctx->GetInputDataType(2);
  if (d != u)
    return InferFail(
        fmt::format("expected data and updates of one dtype, got {} and {}", ge::DataTypeName(d), ge::DataTypeName(u)));
  return ctx->SetOutputDataType(0, d);
}

template <G kOp>
class GatherOpDef : public ::ops::OpDef {
 public:
  explicit GatherOpDef(const char* name) : OpDef(name) {
    bool scatter = kOp == G::kScatterElements || kOp == G::kScatterND;
    this->Input("data").ParamType(::ops::REQUIRED).DataType(kAllTypes);
    this->Input("indices").ParamType(::ops::REQUIRED).DataType({ge::DT_INT64, ge::DT_INT32});
    if (scatter) this->Input("updates").ParamType(::ops::REQUIRED).DataType(kAllTypes);
    this->Output("output").ParamType(::ops::REQUIRED).DataType(kAllTypes);
    if (kOp == G::kGatherND)
      this->Attr("batch_dims").AttrType(::ops::OPTIONAL).Int(0);
    else if (kOp != G::kScatterND)
      this->Attr("axis").AttrType(::ops::OPTIONAL).Int(0);
    if (scatter) this->Attr("reduction").AttrType(::ops::OPTIONAL).String("none");
    this->SetInferShape(InferShape<kOp>);
    this->SetInferDataType(scatter ? ScatterDataType : InferDataTypeSameAsInput0);
    this->AICore().SetTiling(Tiling<kOp>).SetKernel(Kernel).AddConfig("ascend910b");
  }
};

}  // namespace ge::ops_gather

namespace ops {
#define GE_GATHER_OP(Name)                                              \
  using Name = ge::ops_gather::GatherOpDef<ge::ops_gather::G::k##Name>; \
  OP_ADD(Name)
GE_GATHER_OP(Gather);
GE_GATHER_OP(GatherElements);
GE_GATHER_OP(GatherND);
GE_GATHER_OP(ScatterElements);
GE_GATHER_OP(ScatterND);
#undef GE_GATHER_OP
}  // namespace ops
