#include "compiler/passes/conv_activation_fusion.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <limits>

#include "compiler/dim_symbols.h"
#include "compiler/node_binding.h"
#include "compiler/passes/activation_match.h"

namespace ge {
namespace {

using Readers = std::vector<std::vector<std::pair<NodeId, int>>>;

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
