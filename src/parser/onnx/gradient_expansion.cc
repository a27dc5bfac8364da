#include "parser/onnx/gradient_expansion.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace ge {
namespace {

constexpr const char* kTrainingDomain = "ai.onnx.preview.training";

bool IsGradient(const onnx::NodeProto& n) { return n.op_type() == "Gradient" && n.domain() == kTrainingDomain; }

// Emits the nodes of one Gradient node's expansion, with names under the node's own.
class Emitter {
 public:
  explicit Emitter(const std::string& prefix) : prefix_(prefix) {}

  std::string Op(const std::string& type, const std::vector<std::string>& inputs) {
    onnx::NodeProto n;
    n.set_op_type(type);
    n.set_name(prefix_ + "/" + type + std::to_string(count_));
    for (const auto& i : inputs) n.add_input(i);
    const std::string out = prefix_ + "/v" + std::to_string(count_++);
    n.add_output(out);
    nodes_.push_back(std::move(n));
    return out;
  }
  // A tensor of `value`s with v's shape and dtype.
  std::string Filled(const std::string& v, float value) {
    std::string filled = Op("ConstantOfShape", {Op("Shape", {v})});
    onnx::AttributeProto* a = nodes_.back().add_attribute();
    a->set_name("value");
    a->set_type(onnx::AttributeProto::TENSOR);
    onnx::TensorProto* t = a->mutable_t();
    t->set_data_type(onnx::TensorProto::FLOAT);
    t->add_dims(1);
    t->add_float_data(value);
    return Op("CastLike", {filled, v});
  }
  // grads[v] += g.
  void Accumulate(std::map<std::string, std::string>* grads, const std::string& v, const std::string& g) {
    auto it = grads->find(v);
    (*grads)[v] = it == grads->end() ? g : Op("Add", {it->second, g});
  }
  std::vector<onnx::NodeProto>& nodes() { return nodes_; }

 private:
  std::string prefix_;
  int count_ = 0;
  std::vector<onnx::NodeProto> nodes_;
};

// The gradient of node n's output (gy) into its inputs' entries of grads.
Status Backward(const onnx::NodeProto& n, const std::string& gy, Emitter* e,
                std::map<std::string, std::string>* grads) {
  const std::string& type = n.op_type();
  const bool binary = type == "Add" || type == "Sub" || type == "Mul";
  if (!(n.domain().empty() || n.domain() == "ai.onnx") || n.output_size() != 1 || n.input_size() != (binary ? 2 : 1) ||
      !(binary || type == "Neg" || type == "Identity"))
    return Unsupported(
        "Gradient: node '{}' ({}) on the path to y has no derivative here (supported: Add, Sub, Mul, "
        "Neg, Identity)",
        n.name(), type);
  const std::string& a = n.input(0);
  if (type == "Identity" || type == "Add") e->Accumulate(grads, a, gy);
  if (type == "Neg") e->Accumulate(grads, a, e->Op("Neg", {gy}));
  if (type == "Add") e->Accumulate(grads, n.input(1), gy);
  if (type == "Sub") {
    e->Accumulate(grads, a, gy);
    e->Accumulate(grads, n.input(1), e->Op("Neg", {gy}));
  }
  if (type == "Mul") {
    e->Accumulate(grads, a, e->Op("Mul", {gy, n.input(1)}));
    e->Accumulate(grads, n.input(1), e->Op("Mul", {gy, a}));
  }
  return Status::Ok();
}

struct GradientAttrs {
  std::vector<std::string> xs;
  std::string y;
};

Status ReadAttrs(const onnx::NodeProto& g, GradientAttrs* out) {
  for (const auto& a : g.attribute()) {
    if (a.name() == "xs") out->xs.assign(a.strings().begin(), a.strings().end());
    if (a.name() == "y") out->y = a.s();
  }
  if (out->xs.empty() || out->y.empty())
    return InvalidArgument("Gradient node '{}': expected attributes xs (the inputs) and y (the output)", g.name());
  if (g.output_size() != static_cast<int>(out->xs.size()))
    return InvalidArgument("Gradient node '{}': {} output(s) for {} x(s)", g.name(), g.output_size(), out->xs.size());
  return Status::Ok();
}

// The nodes computing one Gradient node's outputs (the nodes before it produce y).
Status Expand(const std::vector<onnx::NodeProto>& before, const onnx::NodeProto& g, std::vector<onnx::NodeProto>* out) {
  GradientAttrs attrs;
  GE_RETURN_IF_ERROR(ReadAttrs(g, &attrs));
  std::map<std::string, int> producer;
  for (size_t i = 0; i < before.size(); ++i)
    for (const auto& o : before[i].output()) producer[o] = static_cast<int>(i);
  // The nodes y depends on, walked back from y.
  std::set<int> needed;
  std::vector<std::string> stack = {attrs.y};
  while (!stack.empty()) {
    auto it = producer.find(stack.back());
    stack.pop_back();
    if (it == producer.end() || !needed.insert(it->second).second) continue;
    for (const auto& i : before[it->second].input()) stack.push_back(i);
  }
  Emitter e(g.name().empty() ? "gradient" : g.name());
  std::map<std::string, std::string> grads = {{attrs.y, e.Filled(attrs.y, 1.f)}};
  for (auto it = needed.rbegin(); it != needed.rend(); ++it) {  // nodes are in topological order
    const onnx::NodeProto& n = before[*it];
    auto gy = grads.find(n.output(0));
    if (gy != grads.end()) GE_RETURN_IF_ERROR(Backward(n, gy->second, &e, &grads));
  }
  for (size_t i = 0; i < attrs.xs.size(); ++i) {
    auto gx = grads.find(attrs.xs[i]);
    const std::string v = gx != grads.end() ? gx->second : e.Filled(attrs.xs[i], 0.f);  // y does not depend on x
    onnx::NodeProto id;
    id.set_op_type("Identity");
    id.set_name(g.name() + "/" + g.output(static_cast<int>(i)));
    id.add_input(v);
    id.add_output(g.output(static_cast<int>(i)));
    e.nodes().push_back(std::move(id));
  }
  *out = std::move(e.nodes());
  return Status::Ok();
}

}  // namespace

Status ExpandGradientNodes(onnx::GraphProto* graph) {
  bool any = false;
  for (const auto& n : graph->node()) any |= IsGradient(n);
  if (!any) return Status::Ok();
  std::vector<onnx::NodeProto> nodes;
  for (const auto& n : graph->node()) {
    if (IsGradient(n)) {
      std::vector<onnx::NodeProto> expansion;
      GE_RETURN_IF_ERROR(Expand(nodes, n, &expansion));
      for (auto& e : expansion) nodes.push_back(std::move(e));
    } else {
      nodes.push_back(n);
    }
  }
  graph->clear_node();
  for (auto& n : nodes) *graph->add_node() = std::move(n);
  return Status::Ok();
}

}  // namespace ge
