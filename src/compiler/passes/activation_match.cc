#include "compiler/passes/activation_match.h"

#include <algorithm>
#include <limits>

#include "compiler/passes/pass.h"

namespace ge {
namespace {

using Readers = std::vector<std::vector<std::pair<NodeId, int>>>;

// A float scalar constant input, or `dflt` when the input is absent; false if not constant.
bool ScalarInput(const Graph& g, const Node& node, size_t i, float dflt, float* out) {
  if (i >= node.inputs.size() || node.inputs[i] == kNoValue) {
    *out = dflt;
    return true;
  }
  const HostTensor* t = ConstantOf(g, node.inputs[i], DT_FLOAT);
  if (t == nullptr || t->NumElements() != 1) return false;
  *out = t->data_as<float>()[0];
  return true;
}

float FloatAttr(const Node& node, const char* key, float dflt) {
  const float* f = node.GetAttr<float>(key);
  return f ? *f : dflt;
}

// One activation node or SiLU's pair reading v.
bool MatchOne(const Graph& g, ValueId v, const Readers& readers, const std::vector<bool>& is_output, Activation* act) {
  if (is_output[v]) return false;
  const auto& r = readers[v];
  if (r.size() == 2) {  // Swish: Sigmoid(v), Mul(v, Sigmoid(v))
    for (int s = 0; s < 2; ++s) {
      const Node& sig = g.node(r[s].first);
      const Node& mul = g.node(r[1 - s].first);
      if (sig.type != "Sigmoid" || !sig.domain.empty() || mul.type != "Mul" || !mul.domain.empty() ||
          mul.inputs.size() != 2 || sig.outputs.empty())
        continue;
      ValueId sv = sig.outputs[0];
      if (sv == kNoValue || is_output[sv] || readers[sv].size() != 1 || readers[sv][0].first != r[1 - s].first)
        continue;
      if (!((mul.inputs[0] == v && mul.inputs[1] == sv) || (mul.inputs[0] == sv && mul.inputs[1] == v))) continue;
      *act = {"Swish", {}, {r[s].first, r[1 - s].first}, mul.outputs[0]};
      return act->output != kNoValue;
    }
    return false;
  }
  if (r.size() != 1 || r[0].second != 0) return false;
  const Node& a = g.node(r[0].first);
  if (!a.domain.empty() || a.outputs.empty() || a.outputs[0] == kNoValue) return false;
  act->nodes = {r[0].first};
  act->output = a.outputs[0];
  act->params.clear();
  if (a.type == "Relu" || a.type == "Sigmoid" || a.type == "HardSwish" || a.type == "Tanh") {
    act->name = a.type;
  } else if (a.type == "LeakyRelu") {
    act->name = a.type;
    act->params = {FloatAttr(a, "alpha", 0.01f)};
  } else if (a.type == "HardSigmoid") {
    act->name = a.type;
    act->params = {FloatAttr(a, "alpha", 0.2f), FloatAttr(a, "beta", 0.5f)};
  } else if (a.type == "Clip") {
    // min/max inputs (as GE's Clip reads them: opset-6 attributes are converted on import).
    float lo, hi;
    if (!ScalarInput(g, a, 1, std::numeric_limits<float>::lowest(), &lo) ||
        !ScalarInput(g, a, 2, std::numeric_limits<float>::max(), &hi))
      return false;
    act->name = a.type;
    act->params = {lo, hi};
  } else {
    return false;
  }
  return true;
}
}  // namespace

bool MatchActivation(const Graph& g, ValueId v, const Readers& readers, const std::vector<bool>& is_output,
                     Activation* act) {
  if (!MatchOne(g, v, readers, is_output, act)) return false;
  // Relu then Clip(lo, hi) (how PyTorch exports relu6) is Clip(max(lo, 0), hi).
  Activation clip;
  if (act->name == "Relu" && MatchOne(g, act->output, readers, is_output, &clip) && clip.name == "Clip" &&
      std::max(clip.params[0], 0.0f) <= clip.params[1]) {
    act->name = "Clip";
    act->params = {std::max(clip.params[0], 0.0f), clip.params[1]};
    act->nodes.insert(act->nodes.end(), clip.nodes.begin(), clip.nodes.end());
    act->output = clip.output;
  }
  return true;
}

}  // namespace ge
