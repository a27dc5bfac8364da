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
  // A Transpose that keeps the order of every axis not known to be 1 moves no data: a Reshape
  // (a view). At most one output dim may be unknown (Reshape's -1).
  for (NodeId n = 0; n < static_cast<NodeId>(keep.size()); ++n) {
    const Node& t = g->node(n);
    if (!keep[n] || !IsTranspose(t)) continue;
    const Shape& xs = g->value(t.inputs[0]).desc.shape;
    std::vector<int64_t> perm;
    if (xs.IsUnknownRank() || !Perm(t, static_cast<int64_t>(xs.GetDimNum()), &perm) || perm.size() != xs.GetDimNum())
      continue;
    int64_t last = -1, unknown = 0;
    bool in_order = true, moves = false;
    std::vector<int64_t> dims;
    for (size_t i = 0; i < perm.size(); ++i) {
      if (perm[i] < 0 || perm[i] >= static_cast<int64_t>(perm.size())) in_order = false;
      if (!in_order) break;
      const int64_t d = xs.GetDim(perm[i]);
      moves |= perm[i] != static_cast<int64_t>(i);
      dims.push_back(d < 0 ? -1 : d);
      unknown += d < 0;
      if (d == 1) continue;
      in_order &= perm[i] > last;
      last = perm[i];
    }
    if (!in_order || !moves || unknown > 1) continue;
    HostTensor shape(DT_INT64, Shape({static_cast<int64_t>(dims.size())}));
    for (size_t i = 0; i < dims.size(); ++i) shape.mutable_data_as<int64_t>()[i] = dims[i];
    const std::string label = NodeLabel(t);
    const ValueId shape_v = g->AddConstant(UniqueValueName(*g, t.name + "/shape"), std::move(shape));
    Node& r = g->node(n);
    r.type = "Reshape";
    r.inputs.push_back(shape_v);
    r.attrs.clear();
    *changed = true;
    LogRewrite(name(), fmt::format("{} moves only size-1 axes -> Reshape", label));
  }
  if (*changed) g->RemoveNodes(keep);
  return Status::Ok();
}

}  // namespace ge
