// Dead-code elimination: removes nodes none of whose outputs is read by another node or is a
// graph output.
//
// Runs to a fixed point in one reverse-topological sweep (a node whose only readers were dead
// is dead too). Nodes without outputs are kept: they exist for an effect the IR does not model.
#ifndef GE_SRC_COMPILER_PASSES_DEAD_CODE_ELIMINATION_H_
#define GE_SRC_COMPILER_PASSES_DEAD_CODE_ELIMINATION_H_

#include "compiler/passes/pass.h"

namespace ge {

class DeadCodeElimination : public GraphPass {
 public:
  const char* name() const override { return "dead-code-elimination"; }
  Status Run(Graph* graph, bool* changed) override;
};

}  // namespace ge

#endif  // GE_SRC_COMPILER_PASSES_DEAD_CODE_ELIMINATION_H_
