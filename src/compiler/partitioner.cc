// Partitioning: a kind-greedy Kahn order, then standalone subgraphs per run of one kind.
#include "compiler/partitioner.h"

#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>

#include "compiler/task_generator.h"

namespace ge {
namespace {

// Kahn's algorithm preferring ready nodes of the current kind (lowest id first).
std::vector<NodeId> KindGreedyOrder(const Graph& graph, const std::vector<bool>& sink, std::vector<bool>* order_kind) {
  const size_t n = graph.num_nodes();
  auto consumers = graph.Consumers();
  std::vector<int> pending(n, 0);
  for (size_t i = 0; i < n; ++i)
    for (ValueId v : graph.node(i).inputs)
      if (v != kNoValue && graph.value(v).producer >= 0) ++pending[i];
  std::vector<NodeId> ready[2];  // by kind: 0 host, 1 sink
  for (size_t i = 0; i < n; ++i)
    if (pending[i] == 0) ready[sink[i]].push_back(static_cast<NodeId>(i));
  std::vector<NodeId> order;
  bool kind = !ready[1].empty();
  while (!ready[0].empty() || !ready[1].empty()) {
    if (ready[kind].empty()) kind = !kind;
    auto& r = ready[kind];
    auto it = std::min_element(r.begin(), r.end());
    NodeId node = *it;
    r.erase(it);
    order.push_back(node);
    order_kind->push_back(kind);
    for (ValueId v : graph.node(node).outputs) {
      if (v == kNoValue) continue;
      for (auto [c, pos] : consumers[v])
        if (--pending[c] == 0) ready[sink[c]].push_back(c);
    }
  }
  return order;
}

// Copies segment `s`'s nodes into a standalone graph; `needed_after[v]` says whether v is read
// by a later segment or is a graph output. The only segment of a graph keeps the graph's inputs
// and outputs exactly (order, duplicates, unused inputs, inputs or constants as outputs), so the
// model's I/O maps onto it one to one (zero-copy runs, no reordering per run).
void BuildSegmentGraph(const Graph& graph, const std::vector<bool>& needed_after, int index, bool whole,
                       GraphSegment* s) {
  s->graph = std::make_shared<Graph>(fmt::format("{}_seg{}", graph.name(), index));
  Graph& g = *s->graph;
  std::unordered_map<ValueId, ValueId> map;
  std::vector<bool> inside(graph.num_values(), false);
  for (NodeId n : s->nodes)
    for (ValueId v : graph.node(n).outputs)
      if (v != kNoValue) inside[v] = true;
  auto get = [&](ValueId v) -> ValueId {
    if (v == kNoValue) return kNoValue;
    auto it = map.find(v);
    if (it != map.end()) return it->second;
    const Value& val = graph.value(v);
    ValueId nv;
    if (val.constant) {
      nv = g.AddConstant(val.name, *val.constant);
    } else if (!inside[v]) {
      nv = g.AddInput(val.name, val.desc);
      s->inputs.push_back(v);
    } else {
      nv = g.AddValue(val.name, val.desc);
    }
    map[v] = nv;
    return nv;
  };
  if (whole)
    for (ValueId v : graph.inputs()) get(v);
  for (NodeId n : s->nodes) {
    const Node& node = graph.node(n);
    std::vector<ValueId> ins, outs;
    for (ValueId v : node.inputs) ins.push_back(get(v));
    for (ValueId v : node.outputs) outs.push_back(get(v));
    g.AddNode(node.name, node.type, ins, outs, node.attrs);
    g.node(static_cast<NodeId>(g.num_nodes()) - 1).domain = node.domain;
  }
  if (whole) {
    for (ValueId v : graph.outputs()) {
      g.AddOutput(get(v));
      s->outputs.push_back(v);
    }
    return;
  }
  for (NodeId n : s->nodes)
    for (ValueId v : graph.node(n).outputs)
      if (v != kNoValue && needed_after[v]) {
        g.AddOutput(map[v]);
        s->outputs.push_back(v);
      }
}

}  // namespace

Status PartitionGraph(const Graph& graph, const std::vector<Placement>& placement,
                      std::vector<GraphSegment>* segments) {
  const size_t n = graph.num_nodes();
  std::vector<bool> sink(n);
  for (size_t i = 0; i < n; ++i)
    sink[i] = placement[i] == Placement::kSink && IsSinkableNode(graph, graph.node(static_cast<NodeId>(i)));
  std::vector<bool> kinds;
  std::vector<NodeId> order = KindGreedyOrder(graph, sink, &kinds);
  if (order.size() != n) return InvalidArgument("graph '{}' has a cycle", graph.name());
  segments->clear();
  std::vector<int> segment_of(n, -1);
  for (size_t i = 0; i < order.size(); ++i) {
    if (i == 0 || kinds[i] != kinds[i - 1]) {
      segments->emplace_back();
      segments->back().sink = kinds[i];
    }
    segments->back().nodes.push_back(order[i]);
    segment_of[order[i]] = static_cast<int>(segments->size()) - 1;
  }
  for (size_t si = 0; si < segments->size(); ++si) {
    std::vector<bool> needed_after(graph.num_values(), false);
    for (ValueId v : graph.outputs()) needed_after[v] = true;
    for (size_t j = si + 1; j < segments->size(); ++j)
      for (NodeId c : (*segments)[j].nodes)
        for (ValueId v : graph.node(c).inputs)
          if (v != kNoValue) needed_after[v] = true;
    BuildSegmentGraph(graph, needed_after, static_cast<int>(si), segments->size() == 1, &(*segments)[si]);
  }
  return Status::Ok();
}

std::string DescribeSegments(const std::vector<GraphSegment>& segments) {
  std::string s;
  for (size_t i = 0; i < segments.size(); ++i)
    s += fmt::format("{}{}[{} node{}]", i ? " -> " : "", segments[i].sink ? "sink" : "host", segments[i].nodes.size(),
                     segments[i].nodes.size() == 1 ? "" : "s");
  return s;
}

}  // namespace ge
