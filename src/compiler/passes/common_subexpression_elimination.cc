#include "compiler/passes/common_subexpression_elimination.h"

#include <fmt/format.h>

#include <map>

#include "compiler/node_binding.h"

namespace ge {
namespace {

std::string TensorKey(const HostTensor& t) {
  std::string key = t.desc().ToString() + ":";
  key.append(static_cast<const char*>(t.data()), t.NumBytes());
  return key;
}

// A canonical form of the attribute; false for subgraphs (never merged).
bool AttrKey(const AttrValue& v, std::string* key) {
  if (std::holds_alternative<std::shared_ptr<Graph>>(v) ||
      std::holds_alternative<std::vector<std::shared_ptr<Graph>>>(v))
    return false;
  *key += fmt::format("{}#", v.index());
  if (auto* t = std::get_if<HostTensor>(&v)) {
    *key += TensorKey(*t);
  } else if (auto* f = std::get_if<float>(&v)) {
    *key += fmt::format("{}", *f);
  } else if (auto* fl = std::get_if<std::vector<float>>(&v)) {
    for (float x : *fl) *key += fmt::format("{},", x);
  } else if (auto* s = std::get_if<std::string>(&v)) {
    *key += fmt::format("{}:{}", s->size(), *s);
  } else if (auto* sl = std::get_if<std::vector<std::string>>(&v)) {
    for (const auto& x : *sl) *key += fmt::format("{}:{},", x.size(), x);
  } else {
    *key += AttrValueToString(v);  // ints and int lists print exactly
  }
  return true;
}

bool IsRandom(const std::string& type) {
  return type.rfind("Random", 0) == 0 || type == "Multinomial" || type == "Bernoulli" || type == "Dropout";
}

}  // namespace

Status CommonSubexpressionElimination::Run(Graph* g, bool* changed) {
  *changed = false;
  // Equal small constants: readers of later copies read the first.
  std::map<std::string, ValueId> constants;
  std::vector<bool> is_output = GraphOutputMask(*g);
  auto readers = g->Consumers();
  for (ValueId v = 0; v < static_cast<ValueId>(g->num_values()); ++v) {
    const Value& val = g->value(v);
    if (val.producer >= 0 || !val.constant || readers[v].empty() ||
        val.constant->NumBytes() > kMaxMergedConstantBytes || val.constant->dtype() == DT_STRING)
      continue;
    auto [it, inserted] = constants.emplace(TensorKey(*val.constant), v);
    if (inserted) continue;
    ReplaceUses(g, v, it->second);
    *changed = true;
    LogRewrite(name(), fmt::format("constant '{}' merged into '{}'", val.name, g->value(it->second).name));
  }
  std::vector<NodeId> order;
  GE_RETURN_IF_ERROR(g->TopologicalOrder(&order));
  std::map<std::string, NodeId> seen;
  std::vector<bool> keep(g->num_nodes(), true);
  for (NodeId n : order) {
    const Node& node = g->node(n);
    if (node.outputs.empty() || IsRandom(node.type)) continue;
    std::string key = node.type + "@" + node.domain + "(";
    for (ValueId v : node.inputs) key += std::to_string(v) + ",";
    key += ")";
    bool ok = true;
    for (const auto& [k, a] : node.attrs) {
      key += k + "=";
      ok = ok && AttrKey(a, &key);
      key += ";";
    }
    if (!ok) continue;
    auto [it, inserted] = seen.emplace(key, n);
    if (inserted) continue;
    const Node& first = g->node(it->second);
    bool output_named = false;
    for (ValueId v : node.outputs) output_named |= v != kNoValue && is_output[v];
    if (output_named || first.outputs.size() != node.outputs.size()) continue;
    bool outputs_match = true;
    for (size_t o = 0; o < node.outputs.size(); ++o)
      outputs_match &= (node.outputs[o] == kNoValue) || first.outputs[o] != kNoValue;
    if (!outputs_match) continue;
    for (size_t o = 0; o < node.outputs.size(); ++o)
      if (node.outputs[o] != kNoValue) ReplaceUses(g, node.outputs[o], first.outputs[o]);
    keep[n] = false;
    *changed = true;
    LogRewrite(name(), fmt::format("{} merged into {}", NodeLabel(node), NodeLabel(first)));
  }
  if (*changed) g->RemoveNodes(keep);
  return Status::Ok();
}

}  // namespace ge
