#include "compiler/passes/dead_code_elimination.h"

#include "compiler/node_binding.h"

namespace ge {

Status DeadCodeElimination::Run(Graph* g, bool* changed) {
  *changed = false;
  std::vector<NodeId> order;
  GE_RETURN_IF_ERROR(g->TopologicalOrder(&order));
  std::vector<int> readers(g->num_values(), 0);
  for (size_t n = 0; n < g->num_nodes(); ++n)
    for (ValueId v : g->node(static_cast<NodeId>(n)).inputs)
      if (v != kNoValue) ++readers[v];
  for (ValueId v : g->outputs()) ++readers[v];
  std::vector<bool> keep(g->num_nodes(), true);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const Node& node = g->node(*it);
    bool live = node.outputs.empty();
    for (ValueId v : node.outputs) live |= v != kNoValue && readers[v] > 0;
    if (live) continue;
    keep[*it] = false;
    *changed = true;
    LogRewrite(name(), "removed " + NodeLabel(node));
    for (ValueId v : node.inputs)
      if (v != kNoValue) --readers[v];
  }
  if (*changed) g->RemoveNodes(keep);
  return Status::Ok();
}

}  // namespace ge
