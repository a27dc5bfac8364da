// Identity elimination: removes Identity nodes, Pad nodes whose constant pads are all zero, and
// inference-mode Dropout nodes (no training_mode input, or a constant false one, and no read mask
// output), their readers reading the input instead.
//
// When the node's output is a graph output (whose name the user sees), the producer of the
// input is made to write that output instead, if the input is a plain intermediate (produced
// by a node, not itself a graph output); an Identity from a graph input or a constant to a
// graph output stays.
#ifndef GE_SRC_COMPILER_PASSES_IDENTITY_ELIMINATION_H_
#define GE_SRC_COMPILER_PASSES_IDENTITY_ELIMINATION_H_

#include "compiler/passes/pass.h"

namespace ge {

class IdentityElimination : public GraphPass {
 public:
  const char* name() const override { return "identity-elimination"; }
  Status Run(Graph* graph, bool* changed) override;
};

}  // namespace ge

#endif  // GE_SRC_COMPILER_PASSES_IDENTITY_ELIMINATION_H_
