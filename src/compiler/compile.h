// The compile pipeline, the one place a graph is compiled:
//   specialize input shapes -> verify -> check supported -> passes (OptimizeGraph) -> layout and
//   static inference -> release unread constants -> placement (fallback decision) -> partition ->
//   per segment a sink program (tiling, memory plan, streams, tasks) or a host plan (order, bindings).
// The result is a CompiledGraph (compiled_graph.h) that the executors only load and run.
#ifndef GE_SRC_COMPILER_COMPILE_H_
#define GE_SRC_COMPILER_COMPILE_H_

#include <memory>

#include "base/status.h"
#include "compiler/compile_options.h"
#include "compiler/compiled_graph.h"
#include "graph/graph.h"

namespace ge {

// Rewrites `graph` in place (it becomes out->graph). A graph with no sink-placed node is one host
// segment over the graph itself.
Status Compile(std::shared_ptr<Graph> graph, const CompileOptions& options, std::unique_ptr<CompiledGraph>* out);

}  // namespace ge

#endif  // GE_SRC_COMPILER_COMPILE_H_
