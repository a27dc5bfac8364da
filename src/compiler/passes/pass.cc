#include "compiler/passes/pass.h"

#include <fmt/format.h>

#include "base/log.h"

namespace ge {

void LogRewrite(const char* pass, const std::string& what) { GELOGD("{}: {}", pass, what); }

std::vector<bool> GraphOutputMask(const Graph& g) {
  std::vector<bool> out(g.num_values(), false);
  for (ValueId v : g.outputs()) out[v] = true;
  return out;
}

void ReplaceUses(Graph* g, ValueId from, ValueId to) {
  for (size_t n = 0; n < g->num_nodes(); ++n)
    for (ValueId& v : g->node(static_cast<NodeId>(n)).inputs)
      if (v == from) v = to;
}

const HostTensor* ConstantOf(const Graph& g, ValueId v, DataType dtype) {
  if (v == kNoValue) return nullptr;
  const Value& val = g.value(v);
  if (val.producer >= 0 || !val.constant || val.constant->dtype() != dtype) return nullptr;
  return &*val.constant;
}

std::string UniqueValueName(const Graph& g, const std::string& base) {
  if (g.FindValue(base) == kNoValue) return base;
  for (int i = 1;; ++i) {
    std::string name = fmt::format("{}_{}", base, i);
    if (g.FindValue(name) == kNoValue) return name;
  }
}

}  // namespace ge
