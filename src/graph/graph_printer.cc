// DOT printer and attribute formatting.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "graph/graph.h"

namespace ge {

std::string AttrValueToString(const AttrValue& v) {
  struct Visitor {
    std::string operator()(int64_t x) const { return std::to_string(x); }
    std::string operator()(float x) const { return fmt::format("{}", x); }
    std::string operator()(const std::string& x) const { return "\"" + x + "\""; }
    std::string operator()(const std::vector<int64_t>& x) const { return fmt::format("[{}]", fmt::join(x, ",")); }
    std::string operator()(const std::vector<float>& x) const { return fmt::format("[{}]", fmt::join(x, ",")); }
    std::string operator()(const std::vector<std::string>& x) const { return fmt::format("[{}]", fmt::join(x, ",")); }
    std::string operator()(const HostTensor& t) const { return "tensor " + t.desc().ToString(); }
    std::string operator()(const std::shared_ptr<Graph>& g) const { return "graph " + (g ? g->name() : ""); }
    std::string operator()(const std::vector<std::shared_ptr<Graph>>& g) const {
      return fmt::format("{} graphs", g.size());
    }
  };
  return std::visit(Visitor{}, v);
}

namespace {
std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}
}  // namespace

std::string Graph::ToDot() const {
  std::string out = fmt::format("digraph \"{}\" {{\n  rankdir=TB;\n", Escape(name_));
  for (ValueId v : inputs_)
    out +=
        fmt::format("  v{} [shape=oval,label=\"{}\\n{}\"];\n", v, Escape(values_[v].name), values_[v].desc.ToString());
  for (size_t n = 0; n < nodes_.size(); ++n)
    out += fmt::format("  n{} [shape=box,label=\"{}\\n{}\"];\n", n, Escape(nodes_[n].name), Escape(nodes_[n].type));
  for (size_t n = 0; n < nodes_.size(); ++n) {
    for (ValueId v : nodes_[n].inputs) {
      if (v == kNoValue) continue;
      const Value& val = values_[v];
      std::string src = val.producer >= 0 ? fmt::format("n{}", val.producer) : fmt::format("v{}", v);
      if (val.producer < 0 && val.constant) continue;  // constants are drawn as node labels only
      out += fmt::format("  {} -> n{} [label=\"{}\"];\n", src, n, val.desc.ToString());
    }
  }
  for (ValueId v : outputs_) {
    out += fmt::format("  out{} [shape=oval,label=\"{}\"];\n", v, Escape(values_[v].name));
    if (values_[v].producer >= 0) out += fmt::format("  n{} -> out{};\n", values_[v].producer, v);
  }
  out += "}\n";
  return out;
}

}  // namespace ge
