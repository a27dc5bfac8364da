// Where each node runs, decided at compile time (DESIGN.md's scheduling table):
//   kSink         static node, sunk into a device model with its kernel
//   kHostKernel   host scheduling: infer -> tiling -> launch its kernel
//   kHostFallback host scheduling through the node's op-execute (fallback) function
// The fallback decision pass fills it; partitioning cuts the graph into segments by it.
#ifndef GE_SRC_COMPILER_PLACEMENT_H_
#define GE_SRC_COMPILER_PLACEMENT_H_

#include <string>
#include <vector>

#include "base/status.h"
#include "compiler/compile_options.h"
#include "graph/graph.h"

namespace ge {

enum class Placement { kSink, kHostKernel, kHostFallback };
const char* PlacementName(Placement p);  // "sink", "host kernel", "host fallback"

// Per node (indexed by NodeId), after static inference.
// `reasons` (optional), per node: why it is not sunk ("" for a sink node).
Status DecidePlacement(const Graph& graph, const CompileOptions& options, std::vector<Placement>* placement,
                       std::vector<std::string>* reasons = nullptr);

}  // namespace ge

#endif  // GE_SRC_COMPILER_PLACEMENT_H_
