// Partitioning: cuts a graph into segments, each either sink (static, sunk into one device
// model) or host (host scheduling), executed in order. Nodes are taken in a topological order
// that stays in the current segment's kind as long as it can, so a graph that is static but for
// a few nodes gets few segments. Each segment becomes a standalone Graph whose inputs are the
// values it reads from outside and whose outputs are the values read after it.
#ifndef GE_SRC_COMPILER_PARTITIONER_H_
#define GE_SRC_COMPILER_PARTITIONER_H_

#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "compiler/placement.h"
#include "graph/graph.h"

namespace ge {

struct GraphSegment {
  bool sink = false;
  std::vector<NodeId> nodes;     // in the original graph, in execution order
  std::vector<ValueId> inputs;   // original values, in the segment graph's input order
  std::vector<ValueId> outputs;  // original values, in the segment graph's output order
  std::shared_ptr<Graph> graph;  // standalone copy (constants share their bytes)
};

// `placement` as DecidePlacement returns it; kSink nodes that cannot be sunk (see
// IsSinkableNode) go to host segments.
Status PartitionGraph(const Graph& graph, const std::vector<Placement>& placement, std::vector<GraphSegment>* segments);

// "sink[12 nodes] -> host[1 node] -> sink[3 nodes]"
std::string DescribeSegments(const std::vector<GraphSegment>& segments);

}  // namespace ge

#endif  // GE_SRC_COMPILER_PARTITIONER_H_
