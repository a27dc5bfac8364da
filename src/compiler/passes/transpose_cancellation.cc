#include "compiler/passes/transpose_cancellation.h"

#include <fmt/format.h>

#include "compiler/node_binding.h"

namespace ge {
namespace {

// The node's permutation, or false when neither the perm attribute nor the rank (< 0: unknown)
// is known.
bool Perm(const Node& t, int64_t rank, std::vector<int64_t>* perm) {
  if (const auto* p = t.GetAttr<std::vector<int64_t>>("perm")) {
    *perm = *p;
    return true;
  }
  if (rank < 0) return false;
  perm->clear();
  for (int64_t i = rank - 1; i >= 0; --i) perm->push_back(i);
  return true;
}

bool IsTranspose(const Node& n) {
  return n.type == "Transpose" && n.domain.empty() && n.inputs.size() == 1 && n.inputs[0] != kNoValue &&
         n.outputs.size() == 1 && n.outputs[0] != kNoValue;
}

}  // namespace

Status TransposeCancellation::Run(Graph* g, bool* changed) {
  *changed = false;
  std::vector<bool> is_output = GraphOutputMask(*g);
  std::vector<bool> keep(g->num_nodes(), true);
  for (NodeId n = 0; n < static_cast<NodeId>(g->num_nodes()); ++n) {
    const Node& t2 = g->node(n);
    if (!IsTranspose(t2) || is_output[t2.outputs[0]]) continue;
    NodeId p = g->value(t2.inputs[0]).producer;
    if (p < 0 || !IsTranspose(g->node(p))) continue;
    const Node& t1 = g->node(p);
    std::vector<int64_t> p1, p2;
    const Shape& xs = g->value(t1.inputs[0]).desc.shape;
    // Both have the rank of t1's input.
    if (!Perm(t1, xs.IsUnknownRank() ? -1 : static_cast<int64_t>(xs.GetDimNum()), &p1) ||
        !Perm(t2, static_cast<int64_t>(p1.size()), &p2) || p1.size() != p2.size())
      continue;
    bool cancels = true;
    for (size_t i = 0; i < p2.size(); ++i)
      cancels &= p2[i] >= 0 && p2[i] < static_cast<int64_t>(p1.size()) && p1[p2[i]] == static_cast<int64_t>(i);
    if (!cancels) continue;
    ReplaceUses(g, t2.outputs[0], t1.inputs[0]);
    keep[n] = false;
    *changed = true;
    LogRewrite(name(), fmt::format("{} cancels {}", NodeLabel(t2), NodeLabel(t1)));
  }
  if (*changed) g->RemoveNodes(keep);
  return Status::Ok();
}

}  // namespace ge
