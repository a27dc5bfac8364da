#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ops/dnnl_conv.h"

#ifdef GE_HAVE_DNNL
#include <omp.h>

#include "ops/dnnl_common.h"
#endif

namespace ge::ops_util {

bool ParseConvAct(const std::string& name, ConvAct* act) {
  static const std::pair<const char*, ConvAct> kNames[] = {
      {"", ConvAct::kNone},     {"Relu", ConvAct::kRelu},           {"LeakyRelu", ConvAct::kLeakyRelu},
      {"Clip", ConvAct::kClip}, {"Sigmoid", ConvAct::kSigmoid},     {"HardSigmoid", ConvAct::kHardSigmoid},
      {"Tanh", ConvAct::kTanh}, {"HardSwish", ConvAct::kHardSwish}, {"Swish", ConvAct::kSwish},
      {"Gelu", ConvAct::kGelu}};
  for (const auto& [n, a] : kNames)
    if (name == n) {
      *act = a;
      return true;
    }
  return false;
}

bool ParseActivation(const std::string& name, const std::vector<float>& params, ConvAct* act, float* a0, float* a1) {
  if (!ParseConvAct(name, act)) return false;
  *a0 = *act == ConvAct::kLeakyRelu ? 0.01f : *act == ConvAct::kHardSigmoid ? 0.2f : 0.f;
  *a1 = *act == ConvAct::kHardSigmoid ? 0.5f : 0.f;
  if (*act == ConvAct::kClip) {
    *a0 = -std::numeric_limits<float>::infinity();
    *a1 = std::numeric_limits<float>::infinity();
  }
  if (params.size() > 0) *a0 = params[0];
  if (params.size() > 1) *a1 = params[1];
  return true;
}

float ApplyConvAct(ConvAct act, float a0, float a1, float v) {
  switch (act) {
    case ConvAct::kNone: return v;
    case ConvAct::kRelu: return v > 0.f ? v : 0.f;
    case ConvAct::kLeakyRelu: return v >= 0.f ? v : a0 * v;
    case ConvAct::kClip: return std::min(std::max(v, a0), a1);
    case ConvAct::kSigmoid: return 1.f / (1.f + std::exp(-v));
    case ConvAct::kHardSigmoid: return std::min(std::max(a0 * v + a1, 0.f), 1.f);
    case ConvAct::kHardSwish: return v * std::min(std::max(v / 6.f + 0.5f, 0.f), 1.f);
    case ConvAct::kTanh: return std::tanh(v);
    case ConvAct::kSwish: return v / (1.f + std::exp(-v));
    case ConvAct::kGelu: return 0.5f * v * (1.f + std::erf(v * 0.70710678118654752f));
  }
  return v;
}

#ifdef GE_HAVE_DNNL
dnnl::engine& Engine() {
  static dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  return eng;
}

dnnl::stream& ThreadStream() {
  thread_local bool single = [] {
    omp_set_num_threads(1);
    return true;
  }();
  (void)single;
  thread_local dnnl::stream s(Engine());
  return s;
}

BoundArgs& BindArgs(const void* key, const dnnl::memory::desc& src, const dnnl::memory::desc& weights,
                    const dnnl::memory::desc* bias, const dnnl::memory::desc& dst, const dnnl::memory::desc& scratch) {
  thread_local std::unordered_map<const void*, std::unique_ptr<BoundArgs>> bound;
  auto& slot = bound[key];
  if (!slot || (slot->bias != nullptr) != (bias != nullptr)) {
    slot = std::make_unique<BoundArgs>();
    auto add = [&](int arg, const dnnl::memory::desc& md) {
      return &slot->args.emplace(arg, dnnl::memory(md, Engine(), nullptr)).first->second;
    };
    slot->src = add(DNNL_ARG_SRC, src);
    slot->weights = add(DNNL_ARG_WEIGHTS, weights);
    slot->bias = bias ? add(DNNL_ARG_BIAS, *bias) : nullptr;
    slot->dst = add(DNNL_ARG_DST, dst);
    slot->scratch = add(DNNL_ARG_SCRATCHPAD, scratch);
  }
  return *slot;
}

void* ThreadScratch(size_t bytes) {
  thread_local std::vector<uint8_t> scratch;
  if (scratch.size() < bytes) scratch.resize(bytes);
  return scratch.data();
}

void AppendAct(ConvAct act, float a0, float a1, dnnl::post_ops* po) {
  using dnnl::algorithm;
  switch (act) {
    case ConvAct::kNone: break;
    case ConvAct::kRelu: po->append_eltwise(1.f, algorithm::eltwise_relu, 0.f, 0.f); break;
    case ConvAct::kLeakyRelu: po->append_eltwise(1.f, algorithm::eltwise_relu, a0, 0.f); break;
    case ConvAct::kClip: po->append_eltwise(1.f, algorithm::eltwise_clip, a0, a1); break;
    case ConvAct::kSigmoid: po->append_eltwise(1.f, algorithm::eltwise_logistic, 0.f, 0.f); break;
    case ConvAct::kHardSigmoid:
      po->append_eltwise(1.f, algorithm::eltwise_linear, a0, a1);
      po->append_eltwise(1.f, algorithm::eltwise_clip, 0.f, 1.f);
      break;
    case ConvAct::kHardSwish: po->append_eltwise(1.f, algorithm::eltwise_hardswish, 0.f, 0.f); break;
    case ConvAct::kTanh: po->append_eltwise(1.f, algorithm::eltwise_tanh, 0.f, 0.f); break;
    case ConvAct::kSwish: po->append_eltwise(1.f, algorithm::eltwise_swish, 1.f, 0.f); break;
    case ConvAct::kGelu: po->append_eltwise(1.f, algorithm::eltwise_gelu_erf, 0.f, 0.f); break;
  }
}

#endif

}  // namespace ge::ops_util
