// Broadcasting elementwise ops beyond the four arithmetic ones: comparisons (bool output), logic,
// BitShift, Pow (exponent of its own dtype), Mod, PRelu, the variadic Max Min Sum Mean, and
// Where. define: OpDef per op. create: N-ary broadcast shape; tiling holds per-input strides.
// run: one SPMD kernel; variadic ops fold their inputs into the output block by block.
#include <cmath>

#include "base/defined_arith.h"
#include "ops/attr_choice.h"
#include "ops/op_util.h"

namespace ge::ops_nary {
using namespace ge::ops_util;

enum class N : int32_t {
  kEqual,
  kLess,
  kGreater,
  kLessOrEqual,
  kGreaterOrEqual,
  kAnd,
  kOr,
  kXor,
  kBitShift,
  kPow,
  kMod,
  kPRelu,
  kMax,
  kMin,
  kSum,
  kMean,
  kWhere
};
constexpr int kMaxInputs = 8;

struct NaryTiling {
  int32_t op;
  int32_t dtype;   // dtype of the data inputs (input 1 for Where)
  int32_t dtype1;  // Pow: the exponent's dtype
  int32_t n_inputs;
  int32_t rank;
  int32_t flag;  // BitShift: 1 = left; Mod: fmod
  int64_t numel;
  int64_t out_dims[kMaxRank];
  int64_t strides[kMaxInputs][kMaxRank];
};

bool IsCompare(N op) { return op <= N::kXor; }

// ---- create ----------------------------------------------------------------------------------
// Input shapes as broadcast sees them. PRelu keeps the pre-opset-7 form: a 1-D slope of C
// values that does not broadcast numpy-style applies along axis 1 (as [C, 1, ..., 1]).
std::vector<gert::Shape> InputShapes(const gert::ExtendedKernelContext* ctx, const gert::Shape* const* shapes, size_t n,
                                     bool prelu) {
  std::vector<gert::Shape> out;
  for (size_t i = 0; i < n; ++i) out.push_back(shapes[i] ? *shapes[i] : gert::Shape());
  gert::Shape tmp;
  if (prelu && n == 2 && out[1].GetDimNum() == 1 && out[0].GetDimNum() > 2 && out[1].GetDim(0) == out[0].GetDim(1) &&
      !BroadcastShape(out[0], out[1], &tmp)) {
    gert::Shape s;
    s.AppendDim(out[1].GetDim(0));
    for (size_t d = 2; d < out[0].GetDimNum(); ++d) s.AppendDim(1);
    out[1] = s;
  }
  return out;
}

template <N kOp>
ge::graphStatus InferShape(gert::InferShapeContext* ctx) {
  std::vector<const gert::Shape*> raw;
  for (size_t i = 0; i < ctx->GetComputeNodeInputNum(); ++i) raw.push_back(ctx->GetInputShape(i));
  auto shapes = InputShapes(ctx, raw.data(), raw.size(), kOp == N::kPRelu);
  std::vector<const gert::Shape*> in;
  for (const auto& s : shapes) in.push_back(&s);
  return BroadcastShapes(in, ctx->GetOutputShape(0)) ? ge::GRAPH_SUCCESS : ge::GRAPH_FAILED;
}

template <N kOp>
ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx) {
  // The kernels read every data input as the first one's type (Pow's exponent and Where's
  // condition aside): BitShift(uint32, uint8) read the uint8 input 4 bytes at a time.
  if constexpr (kOp != N::kPow) {
    const size_t first = kOp == N::kWhere ? 1 : 0;
    for (size_t i = first + 1; i < ctx->GetComputeNodeInputNum(); ++i)
      if (ctx->GetInputDataType(i) != ctx->GetInputDataType(first))
        return InferFail("input " + std::to_string(i) + " is " + ge::DataTypeName(ctx->GetInputDataType(i)) +
                         ", input " + std::to_string(first) + " is " + ge::DataTypeName(ctx->GetInputDataType(first)) +
                         ": they must have the same type");
  }
  if (IsCompare(kOp)) return ctx->SetOutputDataType(0, ge::DT_BOOL);
  return ctx->SetOutputDataType(0, ctx->GetInputDataType(kOp == N::kWhere ? 1 : 0));
}

template <N kOp>
ge::graphStatus Tiling(gert::TilingContext* ctx) {
  const gert::Shape& out = ctx->GetOutputShape(0)->GetStorageShape();
  size_t n = ctx->GetComputeNodeInputNum();
  if (out.GetDimNum() > static_cast<size_t>(kMaxRank) || n > static_cast<size_t>(kMaxInputs)) return ge::GRAPH_FAILED;
  NaryTiling t{};
  t.op = static_cast<int32_t>(kOp);
  t.dtype = ctx->GetInputDesc(kOp == N::kWhere ? 1 : 0)->GetDataType();
  t.dtype1 = ctx->GetInputDesc(n > 1 ? 1 : 0)->GetDataType();
  t.n_inputs = static_cast<int32_t>(n);
  t.rank = static_cast<int32_t>(out.GetDimNum());
  t.numel = out.GetShapeSize();
  for (int d = 0; d < t.rank; ++d) t.out_dims[d] = out.GetDim(d);
  std::vector<const gert::Shape*> raw;
  for (size_t i = 0; i < n; ++i) raw.push_back(&ctx->GetInputShape(i)->GetStorageShape());
  auto shapes = InputShapes(ctx, raw.data(), n, kOp == N::kPRelu);
  for (size_t i = 0; i < n; ++i) BroadcastStrides(shapes[i], out, t.strides[i]);
  if (kOp == N::kBitShift) {
    t.flag = AttrChoice(ctx->GetAttrs(), 0, "direction", {"RIGHT", "LEFT"});
    if (t.flag < 0) return ge::GRAPH_FAILED;
  }
  if (kOp == N::kMod) t.flag = static_cast<int32_t>(AttrInt(ctx->GetAttrs(), 0, 0));
  ctx->SetBlockDim(ChooseBlockDim(ctx, t.numel, 1 << 14));
  return SetTiling(ctx, t);
}

// ---- run -------------------------------------------------------------------------------------
template <typename T, typename O, typename F>
void Binary(const NaryTiling& t, const T* a, const T* b, O* out, int64_t beg, int64_t end, F f) {
  int64_t s[2][kMaxRank];
  std::copy(t.strides[0], t.strides[0] + kMaxRank, s[0]);
  std::copy(t.strides[1], t.strides[1] + kMaxRank, s[1]);
  ForEachBroadcast<2>(t.rank, t.out_dims, s, beg, end, [&](int64_t i, const int64_t* o) {
    out[i] = static_cast<O>(f(static_cast<ComputeT<T>>(a[o[0]]), static_cast<ComputeT<T>>(b[o[1]])));
  });
}

template <typename T>
void RunCompare(const NaryTiling& t, const T* a, const T* b, bool* y, int64_t beg, int64_t end) {
  using C = ComputeT<T>;
  switch (static_cast<N>(t.op)) {
    case N::kEqual: Binary(t, a, b, y, beg, end, [](C x, C z) { return x == z; }); break;
    case N::kLess: Binary(t, a, b, y, beg, end, [](C x, C z) { return x < z; }); break;
    case N::kGreater: Binary(t, a, b, y, beg, end, [](C x, C z) { return x > z; }); break;
    case N::kLessOrEqual: Binary(t, a, b, y, beg, end, [](C x, C z) { return x <= z; }); break;
    case N::kGreaterOrEqual: Binary(t, a, b, y, beg, end, [](C x, C z) { return x >= z; }); break;
    case N::kAnd: Binary(t, a, b, y, beg, end, [](C x, C z) { return x && z; }); break;
    case N::kOr: Binary(t, a, b, y, beg, end, [](C x, C z) { return x || z; }); break;
    case N::kXor: Binary(t, a, b, y, beg, end, [](C x, C z) { return bool(x) != bool(z); }); break;
    default: break;
  }
}

template <typename C>
C ModOf(C x, C z, bool fmod) {
  if constexpr (std::is_floating_point_v<C>) {
    if (fmod) return std::fmod(x, z);
    C r = std::fmod(x, z);
    return (r != 0 && ((r < 0) != (z < 0))) ? r + z : r;
  } else {
    // Integers: x mod 0 is defined as 0; x mod -1 is 0 (x % -1 traps for the minimum value).
    if (z == 0) return 0;
    if constexpr (std::is_signed_v<C>)
      if (z == C(-1)) return 0;
    C r = x % z;
    if (!fmod && r != 0 && ((r < 0) != (z < 0))) r += z;
    return r;
  }
}

template <typename T>
void RunArith(const NaryTiling& t, const T* a, const T* b, T* y, int64_t beg, int64_t end) {
  using C = ComputeT<T>;
  switch (static_cast<N>(t.op)) {
    case N::kBitShift:
      if constexpr (std::is_integral_v<C> && !std::is_same_v<C, bool>) {
        if (t.flag)
          Binary(t, a, b, y, beg, end, [](C x, C z) { return ShiftLeft<C>(x, z); });
        else
          Binary(t, a, b, y, beg, end, [](C x, C z) { return ShiftRight<C>(x, z); });
      }
      break;
    case N::kMod: Binary(t, a, b, y, beg, end, [&](C x, C z) { return ModOf<C>(x, z, t.flag); }); break;
    case N::kPRelu: Binary(t, a, b, y, beg, end, [](C x, C z) { return x < C(0) ? WrapMul<C>(x, z) : x; }); break;
    case N::kMax:
      Binary(t, a, b, y, beg, end, [](C x, C z) { return (std::isnan(double(x)) || x > z) ? x : z; });
      break;
    case N::kMin:
      Binary(t, a, b, y, beg, end, [](C x, C z) { return (std::isnan(double(x)) || x < z) ? x : z; });
      break;
    case N::kSum:
    case N::kMean: Binary(t, a, b, y, beg, end, [](C x, C z) { return WrapAdd<C>(x, z); }); break;
    default: break;
  }
}

// Reads element i of a tensor of any numeric dtype as double (Pow's exponent).
double LoadDouble(const void* p, ge::DataType dt, int64_t i) {
  double v = 0;
  GE_DISPATCH(AllTypes, dt,
              v = static_cast<double>(static_cast<ComputeT<scalar_t>>(static_cast<const scalar_t*>(p)[i])));
  return v;
}

template <typename T>
void RunPow(const NaryTiling& t, const T* a, const void* b, T* y, int64_t beg, int64_t end) {
  auto dt1 = static_cast<ge::DataType>(t.dtype1);
  ForEachBroadcast<2>(t.rank, t.out_dims, t.strides, beg, end, [&](int64_t i, const int64_t* o) {
    double x = static_cast<double>(static_cast<ComputeT<T>>(a[o[0]]));
    y[i] = static_cast<T>(FromDouble<ComputeT<T>>(std::pow(x, LoadDouble(b, dt1, o[1]))));
  });
}

template <typename T>
void RunWhere(const NaryTiling& t, void* const* addrs, int64_t beg, int64_t end) {
  // The condition's bytes come from the caller: any nonzero byte is true (reading 157 as a C++
  // bool is undefined).
  // Bool values are copied as bytes for the same reason.
  using S = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;
  const uint8_t* c = static_cast<const uint8_t*>(addrs[0]);
  const S* x = static_cast<const S*>(addrs[1]);
  const S* z = static_cast<const S*>(addrs[2]);
  S* y = static_cast<S*>(addrs[3]);
  ForEachBroadcast<3>(t.rank, t.out_dims, t.strides, beg, end,
                      [&](int64_t i, const int64_t* o) { y[i] = c[o[0]] != 0 ? x[o[1]] : z[o[2]]; });
}

// Max/Min/Sum/Mean over n inputs: out = in0 (broadcast), then out = op(out, in_k).
template <typename T>
void RunVariadic(const NaryTiling& t, void* const* addrs, int64_t beg, int64_t end) {
  T* y = static_cast<T*>(addrs[t.n_inputs]);
  const T* x0 = static_cast<const T*>(addrs[0]);
  ForEachBroadcast<1>(t.rank, t.out_dims, t.strides, beg, end, [&](int64_t i, const int64_t* o) { y[i] = x0[o[0]]; });
  NaryTiling pair = t;
  ContiguousStrides(t.out_dims, t.rank, pair.strides[0]);
  for (int k = 1; k < t.n_inputs; ++k) {
    std::copy(t.strides[k], t.strides[k] + kMaxRank, pair.strides[1]);
    RunArith(pair, y, static_cast<const T*>(addrs[k]), y, beg, end);
  }
  if (static_cast<N>(t.op) == N::kMean)
    for (int64_t i = beg; i < end; ++i) y[i] = static_cast<T>(static_cast<ComputeT<T>>(y[i]) / t.n_inputs);
}

void Kernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<NaryTiling>(args);
  int64_t beg, end;
  BlockRange(t.numel, args->blockIdx, args->blockDim, &beg, &end);
  N op = static_cast<N>(t.op);
  void* const* a = args->addrs;
  GE_DISPATCH(AllTypes, static_cast<ge::DataType>(t.dtype), {
    using T = scalar_t;
    if (IsCompare(op)) {
      RunCompare(t, static_cast<const T*>(a[0]), static_cast<const T*>(a[1]), static_cast<bool*>(a[2]), beg, end);
    } else if (op == N::kWhere) {
      RunWhere<T>(t, a, beg, end);
    } else if constexpr (!std::is_same_v<T, bool>) {
      if (op == N::kPow)
        RunPow(t, static_cast<const T*>(a[0]), a[1], static_cast<T*>(a[2]), beg, end);
      else if (op >= N::kMax)
        RunVariadic<T>(t, a, beg, end);
      else
        RunArith(t, static_cast<const T*>(a[0]), static_cast<const T*>(a[1]), static_cast<T*>(a[2]), beg, end);
    }
  });
}

// ---- define ----------------------------------------------------------------------------------
template <N kOp>
class NaryOpDef : public ::ops::OpDef {
 public:
  explicit NaryOpDef(const char* name) : OpDef(name) {
    bool logic = kOp == N::kAnd || kOp == N::kOr || kOp == N::kXor;
    std::vector<ge::DataType> types = logic ? std::vector<ge::DataType>{ge::DT_BOOL} : kAllTypes;
    if (kOp == N::kWhere) {
      this->Input("condition").ParamType(::ops::REQUIRED).DataType({ge::DT_BOOL});
      this->Input("X").ParamType(::ops::REQUIRED).DataType(types);
      this->Input("Y").ParamType(::ops::REQUIRED).DataType(types);
    } else if (kOp >= N::kMax) {
      this->Input("data_0").ParamType(::ops::DYNAMIC).DataType(types);
    } else {
      this->Input("A").ParamType(::ops::REQUIRED).DataType(types);
      this->Input("B").ParamType(::ops::REQUIRED).DataType(types);
    }
    this->Output("C")
        .ParamType(::ops::REQUIRED)
        .DataType(IsCompare(kOp) ? std::vector<ge::DataType>{ge::DT_BOOL} : types);
    if (kOp == N::kBitShift) this->Attr("direction").AttrType(::ops::REQUIRED).String();
    if (kOp == N::kMod) this->Attr("fmod").AttrType(::ops::OPTIONAL).Int(0);
    this->SetInferShape(InferShape<kOp>);
    this->SetInferDataType(InferDataType<kOp>);
    this->AICore().SetTiling(Tiling<kOp>).SetKernel(Kernel).AddConfig("ascend910b");
  }
};

}  // namespace ge::ops_nary

namespace ops {
#define GE_NARY_OP(Name)                                          \
  using Name = ge::ops_nary::NaryOpDef<ge::ops_nary::N::k##Name>; \
  OP_ADD(Name)
GE_NARY_OP(Equal);
GE_NARY_OP(Less);
GE_NARY_OP(Greater);
GE_NARY_OP(LessOrEqual);
GE_NARY_OP(GreaterOrEqual);
GE_NARY_OP(And);
GE_NARY_OP(Or);
GE_NARY_OP(Xor);
GE_NARY_OP(BitShift);
GE_NARY_OP(Pow);
GE_NARY_OP(Mod);
GE_NARY_OP(PRelu);
GE_NARY_OP(Max);
GE_NARY_OP(Min);
GE_NARY_OP(Sum);
GE_NARY_OP(Mean);
GE_NARY_OP(Where);
#undef GE_NARY_OP
}  // namespace ops
