// CompiledGraph: what the compiler (compile.h) produces and the executors load — the optimized
// graph's I/O, its segments in execution order, and per segment either a sink program (schedule,
// tiling, memory plan, streams, kernel tasks with bound arguments) or a host plan (placement per
// node, order, bindings). Plain data: it holds no executor state, so loading it twice gives two independent models
// and a later issue can write it to a file.
#ifndef GE_SRC_COMPILER_COMPILED_GRAPH_H_
#define GE_SRC_COMPILER_COMPILED_GRAPH_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/host_plan.h"
#include "compiler/memory_planner.h"
#include "compiler/placement.h"
#include "compiler/task_generator.h"
#include "graph/graph.h"

namespace ge {

struct CompiledSegment {
  bool sink = false;
  std::vector<NodeId> nodes;                   // in the compiled graph, in execution order
  std::vector<ValueId> inputs;                 // compiled-graph values, in the segment graph's input order
  std::vector<ValueId> outputs;                // compiled-graph values, in the segment graph's output order
  std::shared_ptr<Graph> graph;                // standalone (for a pure-host graph: the compiled graph itself)
  std::shared_ptr<const SinkProgram> program;  // sink segments
  std::shared_ptr<const HostPlan> host_plan;   // host segments
};

struct CompiledGraph {
  std::shared_ptr<Graph> graph;  // after every pass: I/O, constant outputs, reports
  std::vector<CompiledSegment> segments;
  // One segment whose inputs and outputs are the graph's: runs skip the value-id table.
  bool whole_graph = false;
  std::string optimizer_report;                 // OptimizeStats::ToString
  std::map<std::string, int> op_counts_before;  // nodes by op type as given to Compile
  // Per node of `graph` (ge info): PlacementName and why it is not sunk ("" when it is).
  std::vector<std::string> placement, placement_reason;

  std::string mode() const;  // "sink", "host" or "mixed"
  // "sink[12 nodes] -> host[1 node]"
  std::string DescribeSegments() const;
  MemoryReport memory_report() const;  // summed over the sink segments
};

// Nodes by op type.
std::map<std::string, int> CountOps(const Graph& graph);

}  // namespace ge

#endif  // GE_SRC_COMPILER_COMPILED_GRAPH_H_
