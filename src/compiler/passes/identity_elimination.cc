#include "compiler/passes/identity_elimination.h"

#include "compiler/node_binding.h"

namespace ge {
namespace {

// Identity, Pad by constant zeros, or Dropout that is the identity at inference.
bool IsIdentityLike(const Graph& g, const Node& node, const std::vector<std::vector<std::pair<NodeId, int>>>& readers,
                    const std::vector<bool>& is_output) {
  if (!node.domain.empty() || node.inputs.empty() || node.inputs[0] == kNoValue || node.outputs.empty() ||
      node.outputs[0] == kNoValue)
    return false;
  if (node.type == "Identity") return g.value(node.inputs[0]).desc.kind == ValueKind::kTensor;
  if (node.type == "Pad") {  // constant pads all zero (how PyTorch exports AvgPool2d's no-padding case)
    if (node.inputs.size() < 2 || node.inputs[1] == kNoValue) return false;
    const HostTensor* pads = ConstantOf(g, node.inputs[1], DT_INT64);
    if (pads == nullptr || g.value(node.inputs[0]).desc.kind != ValueKind::kTensor) return false;
    for (int64_t i = 0; i < pads->NumElements(); ++i)
      if (pads->data_as<int64_t>()[i] != 0) return false;
    return true;
  }
  if (node.type != "Dropout") return false;
  // A constant ratio that is not one value is the node's error to report, not to drop.
  if (node.inputs.size() > 1 && node.inputs[1] != kNoValue) {
    const Value& ratio = g.value(node.inputs[1]);
    if (ratio.producer < 0 && ratio.constant && ratio.constant->NumElements() != 1) return false;
  }
  if (node.inputs.size() > 2 && node.inputs[2] != kNoValue) {
    const HostTensor* t = ConstantOf(g, node.inputs[2], DT_BOOL);
    if (t == nullptr || t->NumElements() != 1 || t->data_as<uint8_t>()[0] != 0) return false;
  }
  for (size_t o = 1; o < node.outputs.size(); ++o) {
    ValueId m = node.outputs[o];
    if (m != kNoValue && (!readers[m].empty() || is_output[m])) return false;
  }
  return true;
}

}  // namespace

Status IdentityElimination::Run(Graph* g, bool* changed) {
  *changed = false;
  std::vector<bool> keep(g->num_nodes(), true);
  std::vector<bool> is_output = GraphOutputMask(*g);
  auto readers = g->Consumers();
  for (NodeId n = 0; n < static_cast<NodeId>(g->num_nodes()); ++n) {
    const Node& node = g->node(n);
    if (!IsIdentityLike(*g, node, readers, is_output)) continue;
    ValueId x = node.inputs[0], y = node.outputs[0];
    if (!is_output[y]) {
      ReplaceUses(g, y, x);
    } else {
      const Value& xv = g->value(x);
      if (xv.producer < 0 || is_output[x]) continue;  // graph input or constant to graph output
      Node& producer = g->node(xv.producer);
      producer.outputs[xv.producer_output] = y;
      g->value(y).producer = xv.producer;
      g->value(y).producer_output = xv.producer_output;
      g->value(x).producer = -1;
      ReplaceUses(g, x, y);
    }
    keep[n] = false;
    *changed = true;
    LogRewrite(name(), "removed " + NodeLabel(node));
    readers = g->Consumers();
  }
  if (*changed) g->RemoveNodes(keep);
  return Status::Ok();
}

}  // namespace ge
