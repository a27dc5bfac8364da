// Common-subexpression elimination: of two nodes computing the same thing (same op, domain,
// inputs and attributes), the later one is removed and its readers read the earlier one's
// outputs; small identical constants (same dtype, shape and bytes) are merged first so that
// nodes reading equal constants compare equal.
//
// Not merged: nodes with subgraph attributes, random ops (RandomNormal, RandomUniform, their
// -Like forms, Multinomial, Bernoulli, Dropout), nodes without outputs, and a node any of whose
// outputs is a graph output (its name is the user's).
#ifndef GE_SRC_COMPILER_PASSES_COMMON_SUBEXPRESSION_ELIMINATION_H_
#define GE_SRC_COMPILER_PASSES_COMMON_SUBEXPRESSION_ELIMINATION_H_

#include "compiler/passes/pass.h"

namespace ge {

class CommonSubexpressionElimination : public GraphPass {
 public:
  const char* name() const override { return "common-subexpression-elimination"; }
  Status Run(Graph* graph, bool* changed) override;
  static constexpr size_t kMaxMergedConstantBytes = 4096;
};

}  // namespace ge

#endif  // GE_SRC_COMPILER_PASSES_COMMON_SUBEXPRESSION_ELIMINATION_H_
