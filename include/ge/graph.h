// The graph IR: values (tensors: graph inputs, constants, node outputs) and nodes that read and
// write them. Values and nodes are addressed by index; a node input of kNoValue is an absent
// optional input. A Graph owns its subgraphs through node attributes.
//
// Built in C++ (AddInput / AddConstant / AddNode / AddOutput) or by aclgrphParseONNX /
// aclgrphParseTensorFlow, it is what ge::Session::AddGraph and ge::Model take.
#ifndef GE_INCLUDE_GE_GRAPH_H_
#define GE_INCLUDE_GE_GRAPH_H_

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ge/attr_value.h"
#include "ge/status.h"
#include "ge/tensor.h"

namespace ge {

using ValueId = int32_t;
using NodeId = int32_t;
constexpr ValueId kNoValue = -1;

struct Value {
  std::string name;
  TensorDesc desc;
  NodeId producer = -1;  // -1: a graph input or a constant
  int32_t producer_output = 0;
  std::optional<HostTensor> constant;  // set for initializers and folded constants
};

struct Node {
  std::string name;
  std::string type;
  std::string domain;  // "" = ai.onnx
  std::vector<ValueId> inputs;
  std::vector<ValueId> outputs;
  AttrMap attrs;
  // The attribute if present and of type T, else null.
  template <typename T>
  const T* GetAttr(const std::string& key) const {
    auto it = attrs.find(key);
    return it == attrs.end() ? nullptr : std::get_if<T>(&it->second);
  }
};

class Graph {
 public:
  explicit Graph(std::string name = "graph") : name_(std::move(name)) {}

  const std::string& name() const { return name_; }
  // Values
  ValueId AddValue(std::string name, TensorDesc desc = {});
  ValueId AddInput(std::string name, TensorDesc desc);
  ValueId AddConstant(std::string name, HostTensor t);
  void AddOutput(ValueId v) { outputs_.push_back(v); }
  ValueId FindValue(const std::string& name) const;  // kNoValue if absent
  Value& value(ValueId v) { return values_[v]; }
  const Value& value(ValueId v) const { return values_[v]; }
  size_t num_values() const { return values_.size(); }
  // Nodes
  NodeId AddNode(std::string name, std::string type, std::vector<ValueId> inputs, std::vector<ValueId> outputs,
                 AttrMap attrs = {});
  Node& node(NodeId n) { return nodes_[n]; }
  const Node& node(NodeId n) const { return nodes_[n]; }
  size_t num_nodes() const { return nodes_.size(); }
  const std::vector<ValueId>& inputs() const { return inputs_; }
  const std::vector<ValueId>& outputs() const { return outputs_; }
  std::vector<ValueId>& mutable_outputs() { return outputs_; }
  std::vector<ValueId>& mutable_inputs() { return inputs_; }

  // Consumers of each value: (node, input position), rebuilt on call.
  std::vector<std::vector<std::pair<NodeId, int>>> Consumers() const;
  // Nodes in a topological order (stable: ties keep insertion order). Fails naming a node on
  // a cycle.
  Status TopologicalOrder(std::vector<NodeId>* order) const;
  // Dangling edges, cycles, multiply-produced values, dtype mismatches between a value's desc
  // and its producer's declared output; each error names the node.
  Status Verify() const;
  std::string ToDot() const;
  // Removes nodes for which keep[n] is false (and values nobody references stay, harmless).
  void RemoveNodes(const std::vector<bool>& keep);

 private:
  std::string name_;
  std::vector<Value> values_;
  std::vector<Node> nodes_;
  std::vector<ValueId> inputs_;
  std::vector<ValueId> outputs_;
  std::unordered_map<std::string, ValueId> by_name_;
};

}  // namespace ge

#endif  // GE_INCLUDE_GE_GRAPH_H_
