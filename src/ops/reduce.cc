// Reductions: ReduceSum (axes input, opset 13+) and ReduceMean/Max/Min/Prod/L1/L2/LogSum/
// LogSumExp/SumSquare (axes attribute, opset <= 17), ArgMax and ArgMin.
// define: OpDef per op. create: the reduced shape (keepdims, noop_with_empty_axes); tiling
// splits the input into kept dims (one output element each) and reduced dims. run: each block
// computes a range of output elements, accumulating in double.
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "base/defined_arith.h"
#include "ops/op_util.h"

namespace ge::ops_reduce {
using namespace ge::ops_util;

enum class R : int32_t { kSum, kMean, kMax, kMin, kProd, kL1, kL2, kLogSum, kLogSumExp, kSumSquare, kArgMax, kArgMin };

struct ReduceTiling {
  int32_t op;
  int32_t dtype;
  int32_t n_kept, n_red;
  int32_t select_last;
  int64_t out_numel;
  int64_t red_numel;
  int64_t kept_dims[kMaxRank], kept_strides[kMaxRank];  // input strides of the kept dims
  int64_t red_dims[kMaxRank], red_strides[kMaxRank];
};

bool IsArg(R op) { return op == R::kArgMax || op == R::kArgMin; }

// Reduced-axis mask of the input; false on a bad axis. Attribute order: ReduceSum: keepdims,
// noop_with_empty_axes; others: axes, keepdims; Arg*: axis, keepdims, select_last_index.
template <R kOp, typename Ctx>
bool ReducedAxes(const Ctx* ctx, size_t rank, std::vector<bool>* mask, bool* keepdims) {
  const auto* a = ctx->GetAttrs();
  std::vector<int64_t> axes;
  bool noop = false;
  if (kOp == R::kSum) {
    *keepdims = AttrInt(a, 0, 1) != 0;
    noop = AttrInt(a, 1, 0) != 0;
    if (ctx->GetComputeNodeInputNum() > 1 && ctx->GetInputTensor(1) != nullptr &&
        !ReadInt64s(ctx->GetInputTensor(1), &axes))
      return false;
  } else if (IsArg(kOp)) {
    axes = {AttrInt(a, 0, 0)};
    *keepdims = AttrInt(a, 1, 1) != 0;
  } else {
    axes = AttrInts(a, 0);
    *keepdims = AttrInt(a, 1, 1) != 0;
  }
  mask->assign(rank, axes.empty() && !noop);
  for (int64_t ax : axes) {
    int64_t n;
    if (!NormalizeAxis(ax, static_cast<int64_t>(rank), &n)) return false;
    (*mask)[n] = true;
  }
  return true;
}

// ---- create ----------------------------------------------------------------------------------
template <R kOp>
ge::graphStatus InferShape(gert::InferShapeContext* ctx) {
  const gert::Shape& x = *ctx->GetInputShape(0);
  std::vector<bool> mask;
  bool keep;
  if (!ReducedAxes<kOp>(ctx, x.GetDimNum(), &mask, &keep))
    return InferFail(fmt::format("invalid axes for the input {}", ShapeToString(x)));
  gert::Shape* y = ctx->GetOutputShape(0);
  y->SetDimNum(0);
  for (size_t d = 0; d < x.GetDimNum(); ++d) {
    if (!mask[d])
      y->AppendDim(x.GetDim(d));
    else if (keep)
      y->AppendDim(1);
  }
  return ge::GRAPH_SUCCESS;
}

template <R kOp>
ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx) {
  return ctx->SetOutputDataType(0, IsArg(kOp) ? ge::DT_INT64 : ctx->GetInputDataType(0));
}

template <R kOp>
ge::graphStatus Tiling(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  int rank = static_cast<int>(x.GetDimNum());
  if (rank > kMaxRank) return InferFail(fmt::format("expected at most {} dims, got {}", kMaxRank, ShapeToString(x)));
  std::vector<bool> mask;
  bool keep;
  if (!ReducedAxes<kOp>(ctx, rank, &mask, &keep))
    return InferFail(fmt::format("invalid axes for the input {}", ShapeToString(x)));
  ReduceTiling t{};
  t.op = static_cast<int32_t>(kOp);
  t.dtype = ctx->GetInputDesc(0)->GetDataType();
  t.select_last = IsArg(kOp) ? static_cast<int32_t>(AttrInt(ctx->GetAttrs(), 2, 0)) : 0;
  int64_t strides[kMaxRank];
  ContiguousStrides(x.GetDims(), rank, strides);
  t.out_numel = 1;
  t.red_numel = 1;
  for (int d = 0; d < rank; ++d) {
    if (mask[d]) {
      t.red_dims[t.n_red] = x.GetDim(d);
      t.red_strides[t.n_red++] = strides[d];
      t.red_numel *= x.GetDim(d);
    } else {
      t.kept_dims[t.n_kept] = x.GetDim(d);
      t.kept_strides[t.n_kept++] = strides[d];
      t.out_numel *= x.GetDim(d);
    }
  }
  ctx->SetBlockDim(ChooseBlockDim(ctx, t.out_numel * std::max<int64_t>(t.red_numel, 1), 1 << 15));
  return SetTiling(ctx, t);
}

// ---- run -------------------------------------------------------------------------------------
double Finish(R op, double acc, int64_t n) {
  switch (op) {
    case R::kMean: return acc / static_cast<double>(n);
    case R::kL2: return std::sqrt(acc);
    case R::kLogSum: return std::log(acc);
    default: return acc;
  }
}

template <typename T>
double ReduceOne(const ReduceTiling& t, const T* x, int64_t base) {
  R op = static_cast<R>(t.op);
  double acc = op == R::kProd  ? 1.0
               : op == R::kMax ? -std::numeric_limits<double>::infinity()
               : op == R::kMin ? std::numeric_limits<double>::infinity()
                               : 0.0;
  double shift = 0;
  if (op == R::kLogSumExp) {  // max first, for stability
    shift = -std::numeric_limits<double>::infinity();
    ForEachBroadcast<1>(t.n_red, t.red_dims, &t.red_strides, 0, t.red_numel, [&](int64_t, const int64_t* o) {
      shift = std::max(shift, static_cast<double>(static_cast<ComputeT<T>>(x[base + o[0]])));
    });
    if (std::isinf(shift)) shift = 0;
  }
  ForEachBroadcast<1>(t.n_red, t.red_dims, &t.red_strides, 0, t.red_numel, [&](int64_t, const int64_t* o) {
    double v = static_cast<double>(static_cast<ComputeT<T>>(x[base + o[0]]));
    switch (op) {
      case R::kMax: acc = std::max(acc, v); break;
      case R::kMin: acc = std::min(acc, v); break;
      case R::kProd: acc *= v; break;
      case R::kL1: acc += std::fabs(v); break;
      case R::kL2:
      case R::kSumSquare: acc += v * v; break;
      case R::kLogSumExp: acc += std::exp(v - shift); break;
      default: acc += v; break;
    }
  });
  if (op == R::kLogSumExp) return std::log(acc) + shift;
  return Finish(op, acc, t.red_numel);
}

template <typename T>
int64_t ArgOne(const ReduceTiling& t, const T* x, int64_t base) {
  int64_t best = 0, n = t.red_numel, stride = t.n_red ? t.red_strides[0] : 1;
  bool is_max = static_cast<R>(t.op) == R::kArgMax;
  for (int64_t i = 1; i < n; ++i) {
    auto v = static_cast<ComputeT<T>>(x[base + i * stride]);
    auto b = static_cast<ComputeT<T>>(x[base + best * stride]);
    bool better = is_max ? (v > b || (t.select_last && v == b)) : (v < b || (t.select_last && v == b));
    if (better) best = i;
  }
  return best;
}

template <typename T>
void Run(const ReduceTiling& t, const T* x, void* y, int64_t b, int64_t e) {
  bool arg = IsArg(static_cast<R>(t.op));
  ForEachBroadcast<1>(t.n_kept, t.kept_dims, &t.kept_strides, b, e, [&](int64_t i, const int64_t* o) {
    if (arg) {
      static_cast<int64_t*>(y)[i] = ArgOne(t, x, o[0]);
    } else {
      double v = ReduceOne(t, x, o[0]);
      static_cast<T*>(y)[i] = static_cast<T>(FromDouble<ComputeT<T>>(v));  // integers: defined out of range
    }
  });
}

void Kernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<ReduceTiling>(args);
  int64_t b, e;
  BlockRange(t.out_numel, args->blockIdx, args->blockDim, &b, &e);
  GE_DISPATCH(AllTypes, static_cast<ge::DataType>(t.dtype), {
    if constexpr (!std::is_same_v<scalar_t, bool>)
      Run(t, static_cast<const scalar_t*>(args->addrs[0]), args->addrs[args->numAddrs - 1], b, e);
  });
}

// ---- define ----------------------------------------------------------------------------------
template <R kOp>
class ReduceOpDef : public ::ops::OpDef {
 public:
  explicit ReduceOpDef(const char* name) : OpDef(name) {
    this->Input("data").ParamType(::ops::REQUIRED).DataType(kAllTypes);
    if (kOp == R::kSum)
      this->Input("axes").ParamType(::ops::OPTIONAL).DataType({ge::DT_INT64}).ValueDepend(::ops::OPTIONAL);
    this->Output("reduced").ParamType(::ops::REQUIRED).DataType(kAllTypes);
    if (kOp == R::kSum) {
      this->Attr("keepdims").AttrType(::ops::OPTIONAL).Int(1);
      this->Attr("noop_with_empty_axes").AttrType(::ops::OPTIONAL).Int(0);
    } else if (IsArg(kOp)) {
      this->Attr("axis").AttrType(::ops::OPTIONAL).Int(0);
      this->Attr("keepdims").AttrType(::ops::OPTIONAL).Int(1);
      this->Attr("select_last_index").AttrType(::ops::OPTIONAL).Int(0);
    } else {
      this->Attr("axes").AttrType(::ops::OPTIONAL).ListInt();
      this->Attr("keepdims").AttrType(::ops::OPTIONAL).Int(1);
    }
    this->SetInferShape(InferShape<kOp>);
    this->SetInferDataType(InferDataType<kOp>);
    this->AICore().SetTiling(Tiling<kOp>).SetKernel(Kernel).AddConfig("ascend910b");
  }
};

}  // namespace ge::ops_reduce

namespace ops {
#define GE_REDUCE_OP(Name, Code)                                        \
  using Name = ge::ops_reduce::ReduceOpDef<ge::ops_reduce::R::k##Code>; \
  OP_ADD(Name)
GE_REDUCE_OP(ReduceSum, Sum);
GE_REDUCE_OP(ReduceMean, Mean);
GE_REDUCE_OP(ReduceMax, Max);
GE_REDUCE_OP(ReduceMin, Min);
GE_REDUCE_OP(ReduceProd, Prod);
GE_REDUCE_OP(ReduceL1, L1);
GE_REDUCE_OP(ReduceL2, L2);
GE_REDUCE_OP(ReduceLogSum, LogSum);
GE_REDUCE_OP(ReduceLogSumExp, LogSumExp);
GE_REDUCE_OP(ReduceSumSquare, SumSquare);
GE_REDUCE_OP(ArgMax, ArgMax);
GE_REDUCE_OP(ArgMin, ArgMin);
#undef GE_REDUCE_OP
}  // namespace ops
