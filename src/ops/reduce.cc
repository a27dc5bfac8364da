// Reductions: ReduceSum (axes input, opset 13+) and ReduceMean/Max/Min/Prod/L1/L2/LogSum/
// LogSumExp/SumSquare (axes attribute, opset <= 17), ArgMax and ArgMin.
// define: OpDef per op. create: the reduced shape (keepdims, noop_with_empty_axes); tiling
// splits the input into kept dims (one output element each) and reduced dims. run: each block
// computes a range of output elements, accumulating in double (a float Sum/Mean/Max/Min over
// contiguous runs: in float lanes, see Form).
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
  int32_t form;  // Form: how a float Sum/Mean/Max/Min runs
  int64_t out_numel;
  int64_t red_numel;
  int64_t kept_dims[kMaxRank], kept_strides[kMaxRank];  // input strides of the kept dims
  int64_t red_dims[kMaxRank], red_strides[kMaxRank];
};

bool IsArg(R op) { return op == R::kArgMax || op == R::kArgMin; }

// Fast forms of a float Sum / Mean / Max / Min over a contiguous input (dims of size 1 aside):
// the reduced dims all after the kept ones (kInner: each output reduces one contiguous run, as a
// global mean over NCHW's H and W) or all before them (kOuter: rows of kept elements added up,
// as a mean over NHWC's H and W). 16 float lanes (vectorized), summed in double at the end. The
// generic form walks every element through an index and a switch in double: shufflenet_v2's
// final mean over [1, 1024, 7, 7] took 213 us.
enum class Form : int32_t { kGeneric, kInner, kOuter };

Form FormOf(R op, ge::DataType dtype, const gert::Shape& x, const std::vector<bool>& mask) {
  if (dtype != ge::DT_FLOAT || !(op == R::kSum || op == R::kMean || op == R::kMax || op == R::kMin))
    return Form::kGeneric;
  int last_kept = -1, first_kept = -1, last_red = -1, first_red = -1;
  for (int d = 0; d < static_cast<int>(x.GetDimNum()); ++d) {
    if (x.GetDim(d) == 1) continue;
    int& first = mask[d] ? first_red : first_kept;
    if (first < 0) first = d;
    (mask[d] ? last_red : last_kept) = d;
  }
  if (first_red < 0 || first_kept < 0) return first_red < 0 ? Form::kGeneric : Form::kInner;
  if (last_kept < first_red) return Form::kInner;
  if (last_red < first_kept) return Form::kOuter;
  return Form::kGeneric;
}

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
  t.form = static_cast<int32_t>(FormOf(kOp, static_cast<ge::DataType>(t.dtype), x, mask));
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
      case R::kMax: acc = v > acc || v != v ? v : acc; break;  // a NaN stays (numpy, ONNX)
      case R::kMin: acc = v < acc || v != v ? v : acc; break;
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

constexpr int kLanes = 16;

// Max / min that keep a NaN once seen (ONNX: a NaN input gives a NaN output); compiles to a
// compare and a blend.
inline float Max(float a, float v) { return v > a || v != v ? v : a; }
inline float Min(float a, float v) { return v < a || v != v ? v : a; }

float Identity(R op) {
  return op == R::kMax   ? -std::numeric_limits<float>::infinity()
         : op == R::kMin ? std::numeric_limits<float>::infinity()
                         : 0.f;
}

template <typename F>
float Fold(const float* p, int64_t n, float init, F f) {
  float lane[kLanes];
  for (float& l : lane) l = init;
  int64_t k = 0;
  for (; k + kLanes <= n; k += kLanes)
    for (int j = 0; j < kLanes; ++j) lane[j] = f(lane[j], p[k + j]);
  float acc = init;
  for (float l : lane) acc = f(acc, l);
  for (; k < n; ++k) acc = f(acc, p[k]);
  return acc;
}

// Outputs [b, e): each reduces red_numel contiguous floats.
void RunInner(const ReduceTiling& t, const float* x, float* y, int64_t b, int64_t e) {
  const R op = static_cast<R>(t.op);
  const int64_t n = t.red_numel;
  for (int64_t i = b; i < e; ++i) {
    const float* p = x + i * n;
    switch (op) {
      case R::kMax: y[i] = Fold(p, n, Identity(op), Max); break;
      case R::kMin: y[i] = Fold(p, n, Identity(op), Min); break;
      default: {
        const float sum = Fold(p, n, 0.f, [](float a, float v) { return a + v; });
        y[i] = op == R::kMean ? static_cast<float>(static_cast<double>(sum) / static_cast<double>(n)) : sum;
      }
    }
  }
}

// Outputs [b, e) of out_numel kept elements, each reducing the red_numel rows of the input.
void RunOuter(const ReduceTiling& t, const float* x, float* y, int64_t b, int64_t e) {
  const R op = static_cast<R>(t.op);
  const int64_t k = t.out_numel;
  for (int64_t i = b; i < e; ++i) y[i] = Identity(op);
  for (int64_t r = 0; r < t.red_numel; ++r) {
    const float* row = x + r * k;
    if (op == R::kSum || op == R::kMean) {
      for (int64_t i = b; i < e; ++i) y[i] += row[i];
    } else {
      for (int64_t i = b; i < e; ++i) y[i] = op == R::kMax ? Max(y[i], row[i]) : Min(y[i], row[i]);
    }
  }
  if (op == R::kMean) {
    const float inv = 1.f / static_cast<float>(t.red_numel);
    for (int64_t i = b; i < e; ++i) y[i] *= inv;
  }
}

void Kernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<ReduceTiling>(args);
  int64_t b, e;
  BlockRange(t.out_numel, args->blockIdx, args->blockDim, &b, &e);
  if (t.form != static_cast<int32_t>(Form::kGeneric) && t.red_numel > 0) {
    const auto* x = static_cast<const float*>(args->addrs[0]);
    auto* y = static_cast<float*>(args->addrs[args->numAddrs - 1]);
    if (t.form == static_cast<int32_t>(Form::kInner)) {
      RunInner(t, x, y, b, e);
    } else {
      RunOuter(t, x, y, b, e);
    }
    return;
  }
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
