// Indexing ops: Gather, GatherElements, GatherND, ScatterElements, ScatterND. Indices are int32
// or int64 and may be negative (counted from the end). create: shape inference; tiling records
// the data and index geometry. run: gathers split the output over blocks; scatters run in one
// block (duplicate indices with a reduction must apply in order).
#include "ops/op_util_ext.h"

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

int64_t IndexAt(const void* p, int32_t dt, int64_t i, int64_t dim) {
  int64_t v = dt == ge::DT_INT32 ? static_cast<const int32_t*>(p)[i] : static_cast<const int64_t*>(p)[i];
  return v < 0 ? v + dim : v;
}

// ---- create ----------------------------------------------------------------------------------
template <G kOp>
ge::graphStatus InferShape(gert::InferShapeContext* ctx) {
  const gert::Shape& d = *ctx->GetInputShape(0);
  const gert::Shape& idx = *ctx->GetInputShape(1);
  std::vector<int64_t> out;
  int64_t ax = 0;
  if (kOp == G::kGather) {
    if (!NormalizeAxis(AttrInt(ctx->GetAttrs(), 0, 0), d.GetDimNum(), &ax)) return ge::GRAPH_FAILED;
    for (int64_t i = 0; i < ax; ++i) out.push_back(d.GetDim(i));
    for (size_t i = 0; i < idx.GetDimNum(); ++i) out.push_back(idx.GetDim(i));
    for (size_t i = ax + 1; i < d.GetDimNum(); ++i) out.push_back(d.GetDim(i));
  } else if (kOp == G::kGatherElements) {
    out = DimsOf(idx);
  } else if (kOp == G::kGatherND) {
    int64_t b = AttrInt(ctx->GetAttrs(), 0, 0), k = idx.GetDim(idx.GetDimNum() - 1);
    for (size_t i = 0; i + 1 < idx.GetDimNum(); ++i) out.push_back(idx.GetDim(i));
    for (size_t i = b + k; i < d.GetDimNum(); ++i) out.push_back(d.GetDim(i));
  } else {
    out = DimsOf(d);
  }
  SetDims(ctx->GetOutputShape(0), out);
  return ge::GRAPH_SUCCESS;
}

int32_t ReductionCode(const std::string& r) {
  return r == "add" ? 1 : r == "mul" ? 2 : r == "max" ? 3 : r == "min" ? 4 : 0;
}

template <G kOp>
ge::graphStatus Tiling(gert::TilingContext* ctx) {
  const gert::Shape& d = ctx->GetInputShape(0)->GetStorageShape();
  const gert::Shape& idx = ctx->GetInputShape(1)->GetStorageShape();
  if (d.GetDimNum() > static_cast<size_t>(kMaxRank) || idx.GetDimNum() > static_cast<size_t>(kMaxRank))
    return ge::GRAPH_FAILED;
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
    t.reduction = ReductionCode(AttrStr(a, 0, "none"));
  } else if (!NormalizeAxis(AttrInt(a, 0, 0), t.data_rank, &ax)) {
    return ge::GRAPH_FAILED;
  }
  t.axis = static_cast<int32_t>(ax);
  if (kOp == G::kScatterElements) t.reduction = ReductionCode(AttrStr(a, 1, "none"));
  t.out_numel = ctx->GetOutputShape(0)->GetStorageShape().GetShapeSize();
  t.idx_numel = idx.GetShapeSize();
  t.data_numel = d.GetShapeSize();
  bool scatter = kOp == G::kScatterElements || kOp == G::kScatterND;
  ctx->SetBlockDim(scatter ? 1 : ChooseBlockDim(ctx, t.out_numel, 1 << 14));
  return SetTiling(ctx, t);
}

// ---- run -------------------------------------------------------------------------------------
template <typename T>
void RunGather(const GatherTiling& t, const T* x, const void* idx, T* y, int64_t b, int64_t e) {
  int64_t inner = 1, dim = t.data_dims[t.axis];
  for (int i = t.axis + 1; i < t.data_rank; ++i) inner *= t.data_dims[i];
  for (int64_t o = b; o < e; ++o) {
    int64_t in_off = o % inner, rest = o / inner;
    int64_t k = rest % t.idx_numel, outer = rest / t.idx_numel;
    y[o] = x[(outer * dim + IndexAt(idx, t.idx_dtype, k, dim)) * inner + in_off];
  }
}

template <typename T>
void RunGatherElements(const GatherTiling& t, const T* x, const void* idx, T* y, int64_t b, int64_t e) {
  int64_t ds[kMaxRank];
  ContiguousStrides(t.data_dims, t.data_rank, ds);
  for (int64_t o = b; o < e; ++o) {
    int64_t rem = o, src = 0;
    for (int d = t.idx_rank - 1; d >= 0; --d) {
      int64_t c = rem % t.idx_dims[d];
      rem /= t.idx_dims[d];
      src += (d == t.axis ? IndexAt(idx, t.idx_dtype, o, t.data_dims[d]) : c) * ds[d];
    }
    y[o] = x[src];
  }
}

// GatherND: each index tuple (after batch dims) selects a slice of `slice` elements.
template <typename T>
void RunGatherND(const GatherTiling& t, const T* x, const void* idx, T* y, int64_t b, int64_t e) {
  int64_t k = t.idx_dims[t.idx_rank - 1], slice = 1, batch = 1, ds[kMaxRank];
  for (int i = t.batch_dims + static_cast<int>(k); i < t.data_rank; ++i) slice *= t.data_dims[i];
  for (int i = 0; i < t.batch_dims; ++i) batch *= t.data_dims[i];
  ContiguousStrides(t.data_dims, t.data_rank, ds);
  int64_t tuples_per_batch = t.idx_numel / k / std::max<int64_t>(batch, 1);
  int64_t batch_stride = t.batch_dims ? ds[t.batch_dims - 1] : 0;
  for (int64_t o = b; o < e; ++o) {
    int64_t tuple = o / slice, off = o % slice;
    int64_t src = (tuple / tuples_per_batch) * batch_stride;
    for (int64_t j = 0; j < k; ++j)
      src += IndexAt(idx, t.idx_dtype, tuple * k + j, t.data_dims[t.batch_dims + j]) * ds[t.batch_dims + j];
    y[o] = x[src + off];
  }
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
void RunScatter(const GatherTiling& t, void* const* a) {
  const T* x = static_cast<const T*>(a[0]);
  const void* idx = a[1];
  const T* upd = static_cast<const T*>(a[2]);
  T* y = static_cast<T*>(a[3]);
  std::copy(x, x + t.data_numel, y);
  int64_t ds[kMaxRank];
  ContiguousStrides(t.data_dims, t.data_rank, ds);
  if (static_cast<G>(t.op) == G::kScatterElements) {
    for (int64_t i = 0; i < t.idx_numel; ++i) {
      int64_t rem = i, dst = 0;
      for (int d = t.idx_rank - 1; d >= 0; --d) {
        int64_t c = rem % t.idx_dims[d];
        rem /= t.idx_dims[d];
        dst += (d == t.axis ? IndexAt(idx, t.idx_dtype, i, t.data_dims[d]) : c) * ds[d];
      }
      Reduce(&y[dst], upd[i], t.reduction);
    }
    return;
  }
  int64_t k = t.idx_dims[t.idx_rank - 1], slice = 1;
  for (int i = static_cast<int>(k); i < t.data_rank; ++i) slice *= t.data_dims[i];
  for (int64_t tuple = 0; tuple < t.idx_numel / k; ++tuple) {
    int64_t dst = 0;
    for (int64_t j = 0; j < k; ++j) dst += IndexAt(idx, t.idx_dtype, tuple * k + j, t.data_dims[j]) * ds[j];
    for (int64_t s = 0; s < slice; ++s) Reduce(&y[dst + s], upd[tuple * slice + s], t.reduction);
  }
}

void Kernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<GatherTiling>(args);
  int64_t b, e;
  BlockRange(t.out_numel, args->blockIdx, args->blockDim, &b, &e);
  void* const* a = args->addrs;
  G op = static_cast<G>(t.op);
  GE_DISPATCH_ALL(static_cast<ge::DataType>(t.dtype), {
    using T = scalar_t;
    const T* x = static_cast<const T*>(a[0]);
    if (op == G::kGather)
      RunGather(t, x, a[1], static_cast<T*>(a[2]), b, e);
    else if (op == G::kGatherElements)
      RunGatherElements(t, x, a[1], static_cast<T*>(a[2]), b, e);
    else if (op == G::kGatherND)
      RunGatherND(t, x, a[1], static_cast<T*>(a[2]), b, e);
    else if constexpr (!std::is_same_v<T, bool>)
      RunScatter<T>(t, a);
    else if (args->blockIdx == 0)
      RunScatter<uint8_t>(t, a);
  });
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
    this->SetInferDataType(InferDataTypeSameAsInput0);
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
