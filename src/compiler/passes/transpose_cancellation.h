// Transpose cancellation: Transpose(Transpose(x, p1), p2) where p2 undoes p1 (p1[p2[i]] == i for
// every axis) is x: readers of the second Transpose read x. The first Transpose stays while it
// has other readers (dead-code elimination removes it otherwise). Pairs whose permutations do
// not cancel, and a second Transpose whose output is a graph output, are left alone. An absent
// perm is the reversal of the axes (known rank needed).
//
// A Transpose that keeps the relative order of every axis not known to be 1 (e.g. [1, S, E] ->
// [S, 1, E]) moves no data and becomes a Reshape to its output shape (a view); at most one
// output dim may be unknown.
#ifndef GE_SRC_COMPILER_PASSES_TRANSPOSE_CANCELLATION_H_
#define GE_SRC_COMPILER_PASSES_TRANSPOSE_CANCELLATION_H_

#include "compiler/passes/pass.h"

namespace ge {

class TransposeCancellation : public GraphPass {
 public:
  const char* name() const override { return "transpose-cancellation"; }
  Status Run(Graph* graph, bool* changed) override;
};

}  // namespace ge

#endif  // GE_SRC_COMPILER_PASSES_TRANSPOSE_CANCELLATION_H_
