// Topological ordering and the verifier: dangling edges, cycles, multiple producers.
#include <algorithm>
#include <queue>

#include "base/checked_math.h"
#include "graph/graph.h"

namespace ge {

Status Graph::TopologicalOrder(std::vector<NodeId>* order) const {
  const size_t n = nodes_.size();
  std::vector<int> pending(n, 0);
  std::vector<std::vector<NodeId>> succ(n);
  for (NodeId i = 0; i < static_cast<NodeId>(n); ++i)
    for (ValueId v : nodes_[i].inputs) {
      if (v == kNoValue || v >= static_cast<ValueId>(values_.size())) continue;
      NodeId p = values_[v].producer;
      if (p >= 0) {
        succ[p].push_back(i);
        ++pending[i];
      }
    }
  // Min-heap on node id keeps the order stable (insertion order among ready nodes).
  std::priority_queue<NodeId, std::vector<NodeId>, std::greater<>> ready;
  for (NodeId i = 0; i < static_cast<NodeId>(n); ++i)
    if (pending[i] == 0) ready.push(i);
  order->clear();
  while (!ready.empty()) {
    NodeId i = ready.top();
    ready.pop();
    order->push_back(i);
    for (NodeId s : succ[i])
      if (--pending[s] == 0) ready.push(s);
  }
  if (order->size() != n) {
    for (NodeId i = 0; i < static_cast<NodeId>(n); ++i)
      if (pending[i] > 0)
        return InvalidArgument("graph '{}' has a cycle through node '{}' ({})", name_, nodes_[i].name, nodes_[i].type);
  }
  return Status::Ok();
}

Status Graph::Verify() const {
  std::vector<int> producers(values_.size(), 0);
  for (const Node& node : nodes_) {
    for (size_t i = 0; i < node.inputs.size(); ++i) {
      ValueId v = node.inputs[i];
      if (v == kNoValue) continue;
      if (v < 0 || v >= static_cast<ValueId>(values_.size()))
        return InvalidArgument("node '{}' ({}) input {} refers to no value (dangling edge)", node.name, node.type, i);
      const Value& val = values_[v];
      bool is_input = std::find(inputs_.begin(), inputs_.end(), v) != inputs_.end();
      if (val.producer < 0 && !val.constant && !is_input)
        return InvalidArgument("node '{}' ({}) input {} '{}' has no producer (dangling edge)", node.name, node.type, i,
                               val.name);
    }
    for (ValueId v : node.outputs) {
      if (v == kNoValue) continue;
      if (v < 0 || v >= static_cast<ValueId>(values_.size()))
        return InvalidArgument("node '{}' ({}) output refers to no value", node.name, node.type);
      if (++producers[v] > 1)
        return InvalidArgument("value '{}' is produced twice (second producer: node '{}' ({}))", values_[v].name,
                               node.name, node.type);
    }
  }
  for (ValueId v : outputs_)
    if (v < 0 || v >= static_cast<ValueId>(values_.size()))
      return InvalidArgument("graph '{}' output refers to no value", name_);
  // A declared input shape whose known dims alone overflow a byte size (the memory planner sizes
  // a static input from it).
  for (ValueId v : inputs_) {
    if (v < 0 || v >= static_cast<ValueId>(values_.size()))
      return InvalidArgument("graph '{}' input refers to no value", name_);
    const TensorDesc& d = values_[v].desc;
    if (d.kind == ValueKind::kTensor && d.dtype == DT_UNDEFINED)
      return InvalidArgument("graph input '{}' has no element type", values_[v].name);
    if (d.shape.IsUnknownRank()) continue;
    std::vector<int64_t> known;
    for (size_t i = 0; i < d.shape.GetDimNum(); ++i)
      if (d.shape.GetDim(i) >= 0) known.push_back(d.shape.GetDim(i));
    if (!CheckedTensorBytes(known, std::max<size_t>(GetSizeByDataType(d.dtype), 1)))
      return InvalidArgument("graph input '{}' declares {}, whose byte size overflows 64 bits", values_[v].name,
                             d.ToString());
  }
  std::vector<NodeId> order;
  return TopologicalOrder(&order);
}

}  // namespace ge
