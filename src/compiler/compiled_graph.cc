// Summaries of a CompiledGraph for reports.
#include "compiler/compiled_graph.h"

#include <fmt/format.h>

namespace ge {

std::string CompiledGraph::mode() const {
  bool any_sink = false, any_host = false;
  for (const auto& s : segments) (s.sink ? any_sink : any_host) = true;
  if (any_sink && any_host) return "mixed";
  return any_sink ? "sink" : "host";
}

std::string CompiledGraph::DescribeSegments() const {
  if (segments.empty()) return "host[0 nodes]";
  std::string s;
  for (size_t i = 0; i < segments.size(); ++i)
    s += fmt::format("{}{}[{} node{}]", i ? " -> " : "", segments[i].sink ? "sink" : "host", segments[i].nodes.size(),
                     segments[i].nodes.size() == 1 ? "" : "s");
  return s;
}

MemoryReport CompiledGraph::memory_report() const {
  MemoryReport r;
  for (const auto& s : segments) {
    if (!s.program) continue;
    const MemoryReport& x = s.program->memory.report;
    r.naive_bytes += x.naive_bytes;
    r.lower_bound_bytes += x.lower_bound_bytes;
    r.arena_bytes += x.arena_bytes;
    r.num_tensors += x.num_tensors;
    r.num_buffers += x.num_buffers;
  }
  return r;
}

std::map<std::string, int> CountOps(const Graph& g) {
  std::map<std::string, int> counts;
  for (size_t n = 0; n < g.num_nodes(); ++n) counts[g.node(static_cast<NodeId>(n)).type]++;
  return counts;
}

}  // namespace ge
