// Graph construction and queries.
#include "graph/graph.h"

namespace ge {

ValueId Graph::AddValue(std::string name, TensorDesc desc) {
  ValueId id = static_cast<ValueId>(values_.size());
  if (!name.empty()) by_name_[name] = id;
  values_.push_back(Value{std::move(name), std::move(desc), -1, 0, std::nullopt});
  return id;
}

ValueId Graph::AddInput(std::string name, TensorDesc desc) {
  ValueId id = AddValue(std::move(name), std::move(desc));
  inputs_.push_back(id);
  return id;
}

ValueId Graph::AddConstant(std::string name, HostTensor t) {
  TensorDesc desc = t.desc();
  ValueId id = AddValue(std::move(name), desc);
  values_[id].constant = std::move(t);
  return id;
}

ValueId Graph::FindValue(const std::string& name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? kNoValue : it->second;
}

NodeId Graph::AddNode(std::string name, std::string type, std::vector<ValueId> inputs, std::vector<ValueId> outputs,
                      AttrMap attrs) {
  NodeId id = static_cast<NodeId>(nodes_.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i] == kNoValue) continue;
    values_[outputs[i]].producer = id;
    values_[outputs[i]].producer_output = static_cast<int32_t>(i);
  }
  nodes_.push_back(Node{std::move(name), std::move(type), "", std::move(inputs), std::move(outputs), std::move(attrs)});
  return id;
}

std::vector<std::vector<std::pair<NodeId, int>>> Graph::Consumers() const {
  std::vector<std::vector<std::pair<NodeId, int>>> out(values_.size());
  for (NodeId n = 0; n < static_cast<NodeId>(nodes_.size()); ++n)
    for (int i = 0; i < static_cast<int>(nodes_[n].inputs.size()); ++i)
      if (nodes_[n].inputs[i] != kNoValue) out[nodes_[n].inputs[i]].push_back({n, i});
  return out;
}

void Graph::RemoveNodes(const std::vector<bool>& keep) {
  std::vector<Node> kept;
  for (size_t n = 0; n < nodes_.size(); ++n)
    if (keep[n]) kept.push_back(std::move(nodes_[n]));
  nodes_ = std::move(kept);
  for (auto& v : values_) v.producer = -1;
  for (NodeId n = 0; n < static_cast<NodeId>(nodes_.size()); ++n)
    for (size_t i = 0; i < nodes_[n].outputs.size(); ++i)
      if (nodes_[n].outputs[i] != kNoValue) {
        values_[nodes_[n].outputs[i]].producer = n;
        values_[nodes_[n].outputs[i]].producer_output = static_cast<int32_t>(i);
      }
}

}  // namespace ge
