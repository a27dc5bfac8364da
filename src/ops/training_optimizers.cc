// The ONNX training-domain optimizers (ai.onnx.preview.training, opset 1): Adagrad, Momentum
// (standard and Nesterov) and Adam, each updating n tensors at once. Inputs: R (learning rate,
// scalar), T (update count, int64 scalar), then X1..Xn, G1..Gn and the state tensors (Adagrad H,
// Momentum V, Adam V then H); outputs: X1_new..Xn_new, then the new state, in the same order.
#include <fmt/format.h>

#include <cmath>

#include "ops/op_util.h"

namespace ge::ops_training {
using namespace ge::ops_util;

enum class Opt { kAdagrad, kMomentum, kAdam };

// State tensors per parameter: Adagrad H; Momentum V; Adam V and H.
constexpr int StateCount(Opt o) { return o == Opt::kAdam ? 2 : 1; }

constexpr int kMaxTensors = 64;

struct OptimizerTiling {
  int32_t n;
  int32_t nesterov;
  float a0, a1, a2, a3, a4;  // the float attributes, in OpDef order
  int64_t numel[kMaxTensors];
};

// n from the input count: 2 + n * (2 + state).
template <Opt kOpt>
int64_t TensorCount(size_t inputs) {
  const int64_t per = 2 + StateCount(kOpt);
  return inputs >= 2 && (inputs - 2) % per == 0 ? static_cast<int64_t>(inputs - 2) / per : -1;
}

template <Opt kOpt>
ge::graphStatus InferShape(gert::InferShapeContext* ctx) {
  const int64_t n = TensorCount<kOpt>(ctx->GetComputeNodeInputNum());
  if (n <= 0 || ctx->GetComputeNodeOutputNum() != static_cast<size_t>(n * (1 + StateCount(kOpt))))
    return InferFail(fmt::format(
        "expected R, T and {} tensor(s) per parameter, and {} output(s) per parameter; got "
        "{} inputs and {} outputs",
        2 + StateCount(kOpt), 1 + StateCount(kOpt), ctx->GetComputeNodeInputNum(), ctx->GetComputeNodeOutputNum()));
  for (int64_t i = 0; i < n; ++i) {
    const gert::Shape* x = ctx->GetInputShape(2 + i);
    for (int k = 0; k < 2 + StateCount(kOpt); ++k) {
      const gert::Shape* s = ctx->GetInputShape(2 + k * n + i);
      if (x == nullptr || s == nullptr || !(*s == *x))
        return InferFail(fmt::format("tensor {} of group {}: shape {} differs from X{}'s {}", i + 1, k,
                                     s ? ShapeToString(*s) : "?", i + 1, x ? ShapeToString(*x) : "?"));
    }
    for (int k = 0; k < 1 + StateCount(kOpt); ++k) *ctx->GetOutputShape(k * n + i) = *x;
  }
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx) {
  for (size_t k = 0; k < ctx->GetComputeNodeOutputNum(); ++k) ctx->SetOutputDataType(k, ctx->GetInputDataType(2));
  return ge::GRAPH_SUCCESS;
}

template <Opt kOpt>
ge::graphStatus Tiling(gert::TilingContext* ctx) {
  OptimizerTiling t{};
  const int64_t n = TensorCount<kOpt>(ctx->GetComputeNodeInputNum());
  if (n <= 0 || n > kMaxTensors)
    return InferFail(
        fmt::format("expected 1 to {} parameter tensors, got {} inputs", kMaxTensors, ctx->GetComputeNodeInputNum()));
  t.n = static_cast<int32_t>(n);
  for (int64_t i = 0; i < n; ++i) t.numel[i] = ctx->GetInputShape(2 + i)->GetStorageShape().GetShapeSize();
  const gert::RuntimeAttrs* a = ctx->GetAttrs();
  if (kOpt == Opt::kAdagrad) {  // decay_factor, epsilon, norm_coefficient
    t.a0 = AttrFloat(a, 0, 0.f), t.a1 = AttrFloat(a, 1, 1e-6f), t.a2 = AttrFloat(a, 2, 0.f);
  } else if (kOpt == Opt::kMomentum) {  // alpha, beta, mode, norm_coefficient
    t.a0 = AttrFloat(a, 0, 0.f), t.a1 = AttrFloat(a, 1, 0.f), t.a2 = AttrFloat(a, 3, 0.f);
    const std::string mode = AttrStr(a, 2, "standard");
    if (mode != "standard" && mode != "nesterov")
      return InferFail(fmt::format("mode '{}': expected 'standard' or 'nesterov'", mode));
    t.nesterov = mode == "nesterov";
  } else {  // alpha, beta, epsilon, norm_coefficient, norm_coefficient_post
    t.a0 = AttrFloat(a, 0, 0.9f), t.a1 = AttrFloat(a, 1, 0.999f), t.a2 = AttrFloat(a, 2, 1e-6f);
    t.a3 = AttrFloat(a, 3, 0.f), t.a4 = AttrFloat(a, 4, 0.f);
  }
  return SetTiling(ctx, t);
}

// One parameter tensor's update, in float with double scalars, as the ONNX reference computes it.
template <Opt kOpt>
void Update(const OptimizerTiling& t, double r, int64_t step, int64_t numel, const float* x, const float* g,
            const float* s0, const float* s1, float* x_new, float* s0_new, float* s1_new) {
  for (int64_t j = 0; j < numel; ++j) {
    if (kOpt == Opt::kAdagrad) {
      const double rate = r / (1 + step * static_cast<double>(t.a0));
      const float g_reg = t.a2 * x[j] + g[j];
      const float h = s0[j] + g_reg * g_reg;
      s0_new[j] = h;
      x_new[j] = static_cast<float>(x[j] - rate * g_reg / (std::sqrt(h) + t.a1));
    } else if (kOpt == Opt::kMomentum) {
      const float g_reg = t.a2 * x[j] + g[j];
      const float beta = step > 0 ? t.a1 : 1.f;
      const float v = t.a0 * s0[j] + beta * g_reg;
      s0_new[j] = v;
      x_new[j] = static_cast<float>(t.nesterov ? x[j] - r * (g_reg + t.a0 * v) : x[j] - r * v);
    } else {
      const float g_reg = t.a3 * x[j] + g[j];
      const float v = t.a0 * s0[j] + (1 - t.a0) * g_reg;
      const float h = t.a1 * s1[j] + (1 - t.a1) * g_reg * g_reg;
      s0_new[j] = v;
      s1_new[j] = h;
      const double r_adj = step > 0 ? r * std::sqrt(1 - std::pow(static_cast<double>(t.a1), step)) /
                                          (1 - std::pow(static_cast<double>(t.a0), step))
                                    : r;
      const float x1 = static_cast<float>(x[j] - r_adj * (v / (std::sqrt(h) + t.a2)));
      x_new[j] = (1 - t.a4) * x1;
    }
  }
}

template <Opt kOpt>
void Kernel(const aclrtKernelArgs* args) {
  if (args->blockIdx != 0) return;
  const auto& t = GetTiling<OptimizerTiling>(args);
  const int64_t n = t.n;
  const double r = *static_cast<const float*>(args->addrs[0]);
  const int64_t step = *static_cast<const int64_t*>(args->addrs[1]);
  const int64_t first_out = 2 + n * (2 + StateCount(kOpt));
  auto in = [&](int64_t group, int64_t i) { return static_cast<const float*>(args->addrs[2 + group * n + i]); };
  auto out = [&](int64_t group, int64_t i) { return static_cast<float*>(args->addrs[first_out + group * n + i]); };
  const bool two = StateCount(kOpt) == 2;
  for (int64_t i = 0; i < n; ++i)
    Update<kOpt>(t, r, step, t.numel[i], in(0, i), in(1, i), in(2, i), two ? in(3, i) : nullptr, out(0, i), out(1, i),
                 two ? out(2, i) : nullptr);
}

template <Opt kOpt>
class OptimizerOpDef : public ::ops::OpDef {
 public:
  explicit OptimizerOpDef(const char* name) : OpDef(name) {
    this->Input("R").ParamType(::ops::REQUIRED).DataType({ge::DT_FLOAT});
    this->Input("T").ParamType(::ops::REQUIRED).DataType({ge::DT_INT64});
    this->Input("inputs").ParamType(::ops::DYNAMIC).DataType({ge::DT_FLOAT});
    this->Output("outputs").ParamType(::ops::DYNAMIC).DataType({ge::DT_FLOAT});
    if (kOpt == Opt::kAdagrad) {
      this->Attr("decay_factor").AttrType(::ops::OPTIONAL).Float(0.f);
      this->Attr("epsilon").AttrType(::ops::OPTIONAL).Float(1e-6f);
      this->Attr("norm_coefficient").AttrType(::ops::OPTIONAL).Float(0.f);
    } else if (kOpt == Opt::kMomentum) {
      this->Attr("alpha").AttrType(::ops::REQUIRED).Float();
      this->Attr("beta").AttrType(::ops::REQUIRED).Float();
      this->Attr("mode").AttrType(::ops::REQUIRED).String();
      this->Attr("norm_coefficient").AttrType(::ops::REQUIRED).Float();
    } else {
      this->Attr("alpha").AttrType(::ops::OPTIONAL).Float(0.9f);
      this->Attr("beta").AttrType(::ops::OPTIONAL).Float(0.999f);
      this->Attr("epsilon").AttrType(::ops::OPTIONAL).Float(1e-6f);
      this->Attr("norm_coefficient").AttrType(::ops::OPTIONAL).Float(0.f);
      this->Attr("norm_coefficient_post").AttrType(::ops::OPTIONAL).Float(0.f);
    }
    this->SetInferShape(InferShape<kOpt>).SetInferDataType(InferDataType);
    this->AICore().SetTiling(Tiling<kOpt>).SetKernel(Kernel<kOpt>).AddConfig("ascend910b");
  }
};

}  // namespace ge::ops_training

namespace ops {
using Adagrad = ge::ops_training::OptimizerOpDef<ge::ops_training::Opt::kAdagrad>;
using Momentum = ge::ops_training::OptimizerOpDef<ge::ops_training::Opt::kMomentum>;
using Adam = ge::ops_training::OptimizerOpDef<ge::ops_training::Opt::kAdam>;
OP_ADD(Adagrad);
OP_ADD(Momentum);
OP_ADD(Adam);
}  // namespace ops
