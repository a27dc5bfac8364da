// Activations with scalar parameters: LeakyRelu Elu Selu Celu HardSigmoid HardSwish Softplus
// Softsign ThresholdedRelu Shrink Mish, and Clip (min/max as optional scalar inputs).
// define: OpDef per op with ONNX attribute defaults. create: same shape; tiling carries the
// parameters (Clip reads its min/max inputs in the kernel). run: one SPMD kernel.
#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "base/defined_arith.h"
#include "base/dims_string.h"
#include "kernels/elementwise.h"
#include "ops/op_util.h"

namespace ge::ops_act {
using namespace ge::ops_util;

enum class A : int32_t {
  kLeakyRelu,
  kElu,
  kSelu,
  kCelu,
  kHardSigmoid,
  kHardSwish,
  kSoftplus,
  kSoftsign,
  kThresholdedRelu,
  kShrink,
  kMish,
  kClip
};

struct ActTiling {
  int32_t op;
  int32_t dtype;
  int64_t numel;
  float p0, p1;  // alpha/beta, or gamma/alpha for Selu, or bias/lambd for Shrink
};

// ---- create ----------------------------------------------------------------------------------
template <A kOp>
ge::graphStatus Tiling(gert::TilingContext* ctx) {
  ActTiling t{};
  t.op = static_cast<int32_t>(kOp);
  t.dtype = ctx->GetInputDesc(0)->GetDataType();
  if constexpr (kOp == A::kClip) {
    // The kernel reads min and max as one element of X's type.
    for (size_t ir = 1; ir <= 2; ++ir) {
      const gert::Tensor* bound = ctx->GetOptionalInputTensor(ir);
      if (bound == nullptr) continue;
      if (bound->GetDataType() != t.dtype || bound->GetShape().GetStorageShape().GetShapeSize() != 1)
        return InferFail(fmt::format("Clip: input '{}' must be one element of the input's type {}, got {} {}",
                                     ir == 1 ? "min" : "max", ge::DataTypeName(static_cast<ge::DataType>(t.dtype)),
                                     ge::DataTypeName(bound->GetDataType()),
                                     ge::ShapeToString(bound->GetShape().GetStorageShape())));
    }
  }
  t.numel = ctx->GetInputShape(0)->GetStorageShape().GetShapeSize();
  const auto* a = ctx->GetAttrs();
  t.p0 = AttrFloat(a, 0, 0.f);
  t.p1 = AttrFloat(a, 1, 0.f);
  ctx->SetBlockDim(ChooseBlockDim(ctx, t.numel, 1 << 14));
  return SetTiling(ctx, t);
}

// ---- run -------------------------------------------------------------------------------------
using kernels::MapElements;

template <typename T>
void RunClip(const aclrtKernelArgs* args, int64_t b, int64_t e) {
  using C = ComputeT<T>;
  C lo = std::numeric_limits<C>::lowest(), hi = std::numeric_limits<C>::max();
  uint32_t n_in = args->numAddrs - 1;  // absent trailing optional inputs are not passed
  if (n_in > 1 && args->addrs[1]) lo = static_cast<C>(*static_cast<const T*>(args->addrs[1]));
  if (n_in > 2 && args->addrs[2]) hi = static_cast<C>(*static_cast<const T*>(args->addrs[2]));
  MapElements(static_cast<const T*>(args->addrs[0]), static_cast<T*>(args->addrs[n_in]), b, e,
              [=](C v) { return v < lo ? lo : (v > hi ? hi : v); });
}

template <typename T>
void RunAct(const ActTiling& t, const T* x, T* y, int64_t b, int64_t e) {
  using C = ComputeT<T>;
  const C p0 = static_cast<C>(t.p0), p1 = static_cast<C>(t.p1);
  switch (static_cast<A>(t.op)) {
    case A::kLeakyRelu: MapElements(x, y, b, e, [=](C v) { return v < 0 ? v * p0 : v; }); break;
    case A::kElu: MapElements(x, y, b, e, [=](C v) { return v < 0 ? p0 * (std::exp(v) - 1) : v; }); break;
    case A::kSelu:  // p0 = alpha, p1 = gamma
      MapElements(x, y, b, e, [=](C v) { return v <= 0 ? p1 * (p0 * std::exp(v) - p0) : p1 * v; });
      break;
    case A::kCelu:
      MapElements(x, y, b, e, [=](C v) { return std::max(C(0), v) + std::min(C(0), p0 * (std::exp(v / p0) - 1)); });
      break;
    case A::kHardSigmoid:
      MapElements(x, y, b, e, [=](C v) { return std::max(C(0), std::min(C(1), p0 * v + p1)); });
      break;
    case A::kHardSwish:
      MapElements(x, y, b, e, [=](C v) { return v * std::max(C(0), std::min(C(1), v / 6 + C(0.5))); });
      break;
    case A::kSoftplus: MapElements(x, y, b, e, [](C v) { return std::log1p(std::exp(v)); }); break;
    case A::kSoftsign: MapElements(x, y, b, e, [](C v) { return v / (1 + std::fabs(v)); }); break;
    case A::kThresholdedRelu: MapElements(x, y, b, e, [=](C v) { return v > p0 ? v : C(0); }); break;
    case A::kShrink:  // p0 = bias, p1 = lambd
      MapElements(x, y, b, e, [=](C v) { return v < -p1 ? v + p0 : (v > p1 ? v - p0 : C(0)); });
      break;
    case A::kMish: MapElements(x, y, b, e, [](C v) { return v * std::tanh(std::log1p(std::exp(v))); }); break;
    default: break;
  }
}

void Kernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<ActTiling>(args);
  int64_t b, e;
  BlockRange(t.numel, args->blockIdx, args->blockDim, &b, &e);
  auto dt = static_cast<ge::DataType>(t.dtype);
  if (static_cast<A>(t.op) == A::kClip) {
    GE_DISPATCH(AllTypes, dt, if constexpr (!std::is_same_v<scalar_t, bool>) RunClip<scalar_t>(args, b, e));
    return;
  }
  // Shrink also takes integers; the others are float-only.
  GE_DISPATCH(AllTypes, dt, {
    const auto* x = static_cast<const scalar_t*>(args->addrs[0]);
    auto* y = static_cast<scalar_t*>(args->addrs[1]);
    if constexpr (std::is_floating_point_v<ComputeT<scalar_t>>) {
      RunAct(t, x, y, b, e);
    } else if constexpr (!std::is_same_v<scalar_t, bool>) {
      // Integer Shrink computes in double (as numpy's x + bias with a float bias); the result
      // goes back to the integer type defined where it is out of range (a uint8 x - 1e30 was UB).
      const double bias = t.p0, lambd = t.p1;
      for (int64_t i = b; i < e; ++i) {
        const double v = static_cast<double>(x[i]);
        y[i] = FromDouble<scalar_t>(v < -lambd ? v + bias : (v > lambd ? v - bias : 0.0));
      }
    }
  });
}

// ---- define ----------------------------------------------------------------------------------
template <A kOp>
class ActOpDef : public ::ops::OpDef {
 public:
  explicit ActOpDef(const char* name) : OpDef(name) {
    auto types = (kOp == A::kClip || kOp == A::kShrink) ? kAllTypes : kFloatTypes;
    this->Input("X").ParamType(::ops::REQUIRED).DataType(types);
    if (kOp == A::kClip) {
      this->Input("min").ParamType(::ops::OPTIONAL).DataType(types);
      this->Input("max").ParamType(::ops::OPTIONAL).DataType(types);
    }
    this->Output("Y").ParamType(::ops::REQUIRED).DataType(types);
    DeclareAttrs();
    this->SetInferShape(InferShapeSameAsInput0);
    this->SetInferDataType(InferDataTypeSameAsInput0);
    this->AICore().SetTiling(Tiling<kOp>).SetKernel(Kernel).AddConfig("ascend910b");
    this->OutputInplace(0, 0);
  }

 private:
  void Param(const char* name, float dflt) { this->Attr(name).AttrType(::ops::OPTIONAL).Float(dflt); }
  void DeclareAttrs() {
    switch (kOp) {
      case A::kLeakyRelu: Param("alpha", 0.01f); break;
      case A::kElu:
      case A::kCelu:
      case A::kThresholdedRelu: Param("alpha", 1.f); break;
      case A::kSelu:
        Param("alpha", 1.67326319217681884765625f);
        Param("gamma", 1.05070102214813232421875f);
        break;
      case A::kHardSigmoid:
        Param("alpha", 0.2f);
        Param("beta", 0.5f);
        break;
      case A::kShrink:
        Param("bias", 0.f);
        Param("lambd", 0.5f);
        break;
      default: break;
    }
  }
};

}  // namespace ge::ops_act

namespace ops {
#define GE_ACT_OP(Name)                                        \
  using Name = ge::ops_act::ActOpDef<ge::ops_act::A::k##Name>; \
  OP_ADD(Name)
GE_ACT_OP(LeakyRelu);
GE_ACT_OP(Elu);
GE_ACT_OP(Selu);
GE_ACT_OP(Celu);
GE_ACT_OP(HardSigmoid);
GE_ACT_OP(HardSwish);
GE_ACT_OP(Softplus);
GE_ACT_OP(Softsign);
GE_ACT_OP(ThresholdedRelu);
GE_ACT_OP(Shrink);
GE_ACT_OP(Mish);
GE_ACT_OP(Clip);
#undef GE_ACT_OP
}  // namespace ops
