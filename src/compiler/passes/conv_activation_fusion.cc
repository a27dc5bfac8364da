#include "compiler/passes/conv_activation_fusion.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <limits>

#include "compiler/dim_symbols.h"
#include "compiler/node_binding.h"

namespace ge {
namespace {

using Readers = std::vector<std::vector<std::pair<NodeId, int>>>;

struct Activation {
  std::string name;
  std::vector<float> params;
  std::vector<NodeId> nodes;  // the nodes it replaces
  ValueId output = kNoValue;
};

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

// The activation reading v (v's readers and graph-output flag already checked by the caller
// for the single-reader forms), if any.
bool MatchActivation(const Graph& g, ValueId v, const Readers& readers, const std::vector<bool>& is_output,
                     Activation* act) {
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

Status ConvActivationFusion::Run(Graph* g, bool* changed) {
  *changed = false;
  std::vector<bool> is_output = GraphOutputMask(*g);
  Readers readers = g->Consumers();
  std::vector<bool> keep(g->num_nodes(), true);
  const DimSymbols dims(*g);  // a dynamic batch's residual has the conv output's shape too
  for (NodeId conv_id = 0; conv_id < static_cast<NodeId>(g->num_nodes()); ++conv_id) {
    Node& conv = g->node(conv_id);
    if (conv.type != "Conv" || !conv.domain.empty() || !keep[conv_id] || conv.inputs.size() < 2 ||
        conv.outputs.empty() || conv.outputs[0] == kNoValue)
      continue;
    ValueId c = conv.outputs[0];
    const TensorDesc& cd = g->value(c).desc;
    if (g->value(conv.inputs[0]).desc.dtype != DT_FLOAT || is_output[c]) continue;
    std::vector<NodeId> fused;
    ValueId z = kNoValue, cur = c;
    if (readers[c].size() == 1) {
      const Node& add = g->node(readers[c][0].first);
      if (add.type == "Add" && add.domain.empty() && add.inputs.size() == 2 && add.outputs[0] != kNoValue) {
        ValueId other = add.inputs[1 - readers[c][0].second];
        const TensorDesc& od = g->value(other).desc;
        if (other != c && dims.SameShape(other, c) && od.dtype == cd.dtype && od.kind == ValueKind::kTensor) {
          z = other;
          fused.push_back(readers[c][0].first);
          cur = add.outputs[0];
        }
      }
    }
    Activation act;
    if (!MatchActivation(*g, cur, readers, is_output, &act)) {
      act = Activation{};
      if (fused.empty()) continue;  // a bare Conv: nothing to fuse
    } else {
      fused.insert(fused.end(), act.nodes.begin(), act.nodes.end());
      cur = act.output;
      // Relu then Clip(lo, hi) (how PyTorch exports relu6) is Clip(max(lo, 0), hi).
      Activation clip;
      if (act.name == "Relu" && MatchActivation(*g, cur, readers, is_output, &clip) && clip.name == "Clip" &&
          std::max(clip.params[0], 0.0f) <= clip.params[1]) {
        act.name = "Clip";
        act.params = {std::max(clip.params[0], 0.0f), clip.params[1]};
        fused.insert(fused.end(), clip.nodes.begin(), clip.nodes.end());
        cur = clip.output;
      }
    }
    bool all_free = true;
    for (NodeId f : fused) all_free &= keep[f];
    if (!all_free) continue;
    std::vector<std::string> names;
    for (NodeId f : fused) {
      names.push_back(NodeLabel(g->node(f)));
      keep[f] = false;
    }
    conv.type = "FusedConv";
    conv.inputs.resize(4, kNoValue);
    conv.inputs[3] = z;
    conv.outputs[0] = cur;
    conv.attrs["activation"] = act.name;
    conv.attrs["activation_params"] = act.params;
    g->value(cur).producer = conv_id;
    g->value(cur).producer_output = 0;
    *changed = true;
    LogRewrite(name(), fmt::format("node '{}' (Conv) + {} -> FusedConv (activation \"{}\"{})", conv.name,
                                   fmt::join(names, " + "), act.name, z != kNoValue ? ", residual" : ""));
  }
  if (*changed) g->RemoveNodes(keep);
  return Status::Ok();
}

}  // namespace ge
