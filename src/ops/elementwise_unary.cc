// Unary elementwise math: Abs Neg Sign Exp Log Sqrt Reciprocal Sigmoid Tanh Erf, the
// trigonometric and hyperbolic functions, Floor Ceil Round, Not, IsNaN, IsInf.
// define: one OpDef class parameterized by the op code. create: same-shape inference (bool
// output for Not/IsNaN/IsInf), tiling = block split of the elements. run: one SPMD kernel.
#include <cmath>
#include <type_traits>

#include "kernels/elementwise.h"
#include "ops/op_util.h"
#include "ops/vec_math.h"

namespace ge::ops_unary {
using namespace ge::ops_util;

enum class U : int32_t {
  kAbs,
  kNeg,
  kSign,
  kExp,
  kLog,
  kSqrt,
  kReciprocal,
  kSigmoid,
  kTanh,
  kErf,
  kSin,
  kCos,
  kTan,
  kAsin,
  kAcos,
  kAtan,
  kSinh,
  kCosh,
  kAsinh,
  kAcosh,
  kAtanh,
  kFloor,
  kCeil,
  kRound,
  kNot,
  kIsNaN,
  kIsInf
};

struct UnaryTiling {
  int32_t op;
  int32_t dtype;
  int64_t numel;
  int64_t detect_negative;
  int64_t detect_positive;
};

// ---- create ----------------------------------------------------------------------------------
template <U kOp>
ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx) {
  bool to_bool = kOp == U::kIsNaN || kOp == U::kIsInf;
  return ctx->SetOutputDataType(0, to_bool ? ge::DT_BOOL : ctx->GetInputDataType(0));
}

template <U kOp>
ge::graphStatus Tiling(gert::TilingContext* ctx) {
  UnaryTiling t{};
  t.op = static_cast<int32_t>(kOp);
  t.dtype = ctx->GetInputDesc(0)->GetDataType();
  t.numel = ctx->GetInputShape(0)->GetStorageShape().GetShapeSize();
  t.detect_negative = AttrInt(ctx->GetAttrs(), 0, 1);
  t.detect_positive = AttrInt(ctx->GetAttrs(), 1, 1);
  ctx->SetBlockDim(ChooseBlockDim(ctx, t.numel, 1 << 14));
  return SetTiling(ctx, t);
}

// ---- run -------------------------------------------------------------------------------------
using kernels::MapElements;

// Two's-complement negation, as ONNX defines it for integers: -INT_MIN wraps to INT_MIN instead
// of overflowing (undefined behaviour on a signed type).
template <typename T>
T WrapNeg(T v) {
  if constexpr (std::is_signed_v<T>) {
    using Un = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<Un>(Un{0} - static_cast<Un>(v)));
  } else {
    return static_cast<T>(-v);
  }
}

template <typename T>
void RunInt(U op, const T* x, T* y, int64_t b, int64_t e) {
  if constexpr (std::is_same_v<T, bool>) {
    if (op == U::kNot) MapElements(x, y, b, e, [](bool v) { return !v; });
    return;
  }
  switch (op) {
    case U::kAbs:
      if constexpr (std::is_signed_v<T>)
        MapElements(x, y, b, e, [](T v) { return v < 0 ? WrapNeg(v) : v; });
      else
        MapElements(x, y, b, e, [](T v) { return v; });
      break;
    case U::kNeg: MapElements(x, y, b, e, [](T v) { return WrapNeg(v); }); break;
    case U::kSign: MapElements(x, y, b, e, [](T v) { return T(v > 0 ? 1 : (v < T(0) ? -1 : 0)); }); break;
    case U::kNot: MapElements(x, y, b, e, [](T v) { return T(!v); }); break;
    default: break;
  }
}

template <typename T>
void RunFloat(U op, const T* x, T* y, int64_t b, int64_t e) {
  using C = ComputeT<T>;
  if constexpr (std::is_same_v<T, float>) {  // vectorized (ops/vec_math.h)
    switch (op) {
      case U::kExp: return VecExp(x + b, y + b, e - b);
      case U::kSigmoid: return VecSigmoid(x + b, y + b, e - b);
      case U::kTanh: return VecTanh(x + b, y + b, e - b);
      case U::kErf: return VecErf(x + b, y + b, e - b);
      default: break;
    }
  }
  switch (op) {
    case U::kAbs: MapElements(x, y, b, e, [](C v) { return std::fabs(v); }); break;
    case U::kNeg: MapElements(x, y, b, e, [](C v) { return -v; }); break;
    case U::kSign: MapElements(x, y, b, e, [](C v) { return C(v > 0 ? 1 : (v < 0 ? -1 : 0)); }); break;
    case U::kExp: MapElements(x, y, b, e, [](C v) { return std::exp(v); }); break;
    case U::kLog: MapElements(x, y, b, e, [](C v) { return std::log(v); }); break;
    case U::kSqrt: MapElements(x, y, b, e, [](C v) { return std::sqrt(v); }); break;
    case U::kReciprocal: MapElements(x, y, b, e, [](C v) { return C(1) / v; }); break;
    case U::kSigmoid: MapElements(x, y, b, e, [](C v) { return C(1) / (C(1) + std::exp(-v)); }); break;
    case U::kTanh: MapElements(x, y, b, e, [](C v) { return std::tanh(v); }); break;
    case U::kErf: MapElements(x, y, b, e, [](C v) { return std::erf(v); }); break;
    case U::kSin: MapElements(x, y, b, e, [](C v) { return std::sin(v); }); break;
    case U::kCos: MapElements(x, y, b, e, [](C v) { return std::cos(v); }); break;
    case U::kTan: MapElements(x, y, b, e, [](C v) { return std::tan(v); }); break;
    case U::kAsin: MapElements(x, y, b, e, [](C v) { return std::asin(v); }); break;
    case U::kAcos: MapElements(x, y, b, e, [](C v) { return std::acos(v); }); break;
    case U::kAtan: MapElements(x, y, b, e, [](C v) { return std::atan(v); }); break;
    case U::kSinh: MapElements(x, y, b, e, [](C v) { return std::sinh(v); }); break;
    case U::kCosh: MapElements(x, y, b, e, [](C v) { return std::cosh(v); }); break;
    case U::kAsinh: MapElements(x, y, b, e, [](C v) { return std::asinh(v); }); break;
    case U::kAcosh: MapElements(x, y, b, e, [](C v) { return std::acosh(v); }); break;
    case U::kAtanh: MapElements(x, y, b, e, [](C v) { return std::atanh(v); }); break;
    case U::kFloor: MapElements(x, y, b, e, [](C v) { return std::floor(v); }); break;
    case U::kCeil: MapElements(x, y, b, e, [](C v) { return std::ceil(v); }); break;
    case U::kRound: MapElements(x, y, b, e, [](C v) { return std::nearbyint(v); }); break;
    default: break;
  }
}

template <typename T>
void RunPredicate(const UnaryTiling& t, const T* x, bool* y, int64_t b, int64_t e) {
  for (int64_t i = b; i < e; ++i) {
    auto v = static_cast<ComputeT<T>>(x[i]);
    if (static_cast<U>(t.op) == U::kIsNaN) {
      y[i] = std::isnan(v);
    } else {
      y[i] = std::isinf(v) && ((v > 0 && t.detect_positive) || (v < 0 && t.detect_negative));
    }
  }
}

void Kernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<UnaryTiling>(args);
  int64_t b, e;
  BlockRange(t.numel, args->blockIdx, args->blockDim, &b, &e);
  U op = static_cast<U>(t.op);
  const void* x = args->addrs[0];
  void* y = args->addrs[1];
  if (op == U::kIsNaN || op == U::kIsInf) {
    GE_DISPATCH(FloatsAnd16, static_cast<ge::DataType>(t.dtype),
                RunPredicate(t, static_cast<const scalar_t*>(x), static_cast<bool*>(y), b, e));
    return;
  }
  GE_DISPATCH(AllTypes, static_cast<ge::DataType>(t.dtype), {
    if constexpr (std::is_floating_point_v<ComputeT<scalar_t>>)
      RunFloat(op, static_cast<const scalar_t*>(x), static_cast<scalar_t*>(y), b, e);
    else
      RunInt(op, static_cast<const scalar_t*>(x), static_cast<scalar_t*>(y), b, e);
  });
}

// ---- define ----------------------------------------------------------------------------------
const std::vector<ge::DataType> kSignedAndFloat = {ge::DT_FLOAT, ge::DT_DOUBLE, ge::DT_FLOAT16, ge::DT_BF16,
                                                   ge::DT_INT8,  ge::DT_INT16,  ge::DT_INT32,   ge::DT_INT64};

template <U kOp>
class UnaryOpDef : public ::ops::OpDef {
 public:
  explicit UnaryOpDef(const char* name) : OpDef(name) {
    std::vector<ge::DataType> in = kFloatTypes, out = kFloatTypes;
    if (kOp == U::kAbs || kOp == U::kSign) in = out = kAllTypes;
    if (kOp == U::kNeg) in = out = kSignedAndFloat;
    if (kOp == U::kNot) in = out = {ge::DT_BOOL};
    if (kOp == U::kIsNaN || kOp == U::kIsInf) out = {ge::DT_BOOL};
    this->Input("X").ParamType(::ops::REQUIRED).DataType(in);
    this->Output("Y").ParamType(::ops::REQUIRED).DataType(out);
    if (kOp == U::kIsInf) {
      this->Attr("detect_negative").AttrType(::ops::OPTIONAL).Int(1);
      this->Attr("detect_positive").AttrType(::ops::OPTIONAL).Int(1);
    }
    this->SetInferShape(InferShapeSameAsInput0);
    this->SetInferDataType(InferDataType<kOp>);
    this->AICore().SetTiling(Tiling<kOp>).SetKernel(Kernel).AddConfig("ascend910b");
    this->OutputInplace(0, 0);
  }
};

}  // namespace ge::ops_unary

namespace ops {
#define GE_UNARY_OP(Name)                                            \
  using Name = ge::ops_unary::UnaryOpDef<ge::ops_unary::U::k##Name>; \
  OP_ADD(Name)
GE_UNARY_OP(Abs);
GE_UNARY_OP(Neg);
GE_UNARY_OP(Sign);
GE_UNARY_OP(Exp);
GE_UNARY_OP(Log);
GE_UNARY_OP(Sqrt);
GE_UNARY_OP(Reciprocal);
GE_UNARY_OP(Sigmoid);
GE_UNARY_OP(Tanh);
GE_UNARY_OP(Erf);
GE_UNARY_OP(Sin);
GE_UNARY_OP(Cos);
GE_UNARY_OP(Tan);
GE_UNARY_OP(Asin);
GE_UNARY_OP(Acos);
GE_UNARY_OP(Atan);
GE_UNARY_OP(Sinh);
GE_UNARY_OP(Cosh);
GE_UNARY_OP(Asinh);
GE_UNARY_OP(Acosh);
GE_UNARY_OP(Atanh);
GE_UNARY_OP(Floor);
GE_UNARY_OP(Ceil);
GE_UNARY_OP(Round);
GE_UNARY_OP(Not);
GE_UNARY_OP(IsNaN);
GE_UNARY_OP(IsInf);
#undef GE_UNARY_OP
}  // namespace ops
