// GraphPass: one graph rewrite the pass manager runs (one pass per file under
// src/compiler/passes/), plus the helpers passes share: consumer queries, use replacement,
// rewrite logging.
#ifndef GE_SRC_COMPILER_PASSES_PASS_H_
#define GE_SRC_COMPILER_PASSES_PASS_H_

#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "graph/graph.h"

namespace ge {

class GraphPass {
 public:
  virtual ~GraphPass() = default;
  virtual const char* name() const = 0;
  // Rewrites the graph; *changed says whether anything was rewritten. Nodes a pass no longer
  // needs are removed by the pass (or left dead for dead-code elimination, which runs last).
  virtual Status Run(Graph* graph, bool* changed) = 0;
};

// Logs one rewrite at debug level: "<pass>: <what>".
void LogRewrite(const char* pass, const std::string& what);

// The graph's outputs as a per-value flag.
std::vector<bool> GraphOutputMask(const Graph& graph);

// Replaces every node input reading `from` by `to` (graph outputs are left alone: callers
// never replace a graph output, whose name the user sees).
void ReplaceUses(Graph* graph, ValueId from, ValueId to);

// The value's constant if it is one (no producer) and of the given dtype, else null.
const HostTensor* ConstantOf(const Graph& graph, ValueId v, DataType dtype);

// A value name not yet used in the graph, from `base` ("base", "base_1", ...).
std::string UniqueValueName(const Graph& graph, const std::string& base);

}  // namespace ge

#endif  // GE_SRC_COMPILER_PASSES_PASS_H_
