// DimSymbols: which dims of a graph's values are equal at run time, though their sizes are not
// known at compile time. Fusions that need two operands of one shape (a residual Add read by the
// producing kernel) ask SameShape instead of comparing static shapes, so that a model with a
// dynamic batch fuses like its shape-specialized form.
//
// Each dim of each value gets a key: a static dim its size, an unknown dim a symbol. A symbol is
// shared by the dims that provably have one size: a graph input's dim followed through
// elementwise ops (with broadcasting), convolutions and pools (the batch), Transpose, Concat,
// Split, Flatten, Gemm, MatMul and Reshape's copied (0) dims. Every other unknown dim gets a
// symbol of its own, so the analysis may miss an equality but never invents one.
#ifndef GE_SRC_COMPILER_DIM_SYMBOLS_H_
#define GE_SRC_COMPILER_DIM_SYMBOLS_H_

#include <cstdint>
#include <vector>

#include "graph/graph.h"

namespace ge {

class DimSymbols {
 public:
  explicit DimSymbols(const Graph& graph);

  // a and b have known ranks and, for every input the graph accepts, the same shape.
  bool SameShape(ValueId a, ValueId b) const;

 private:
  // Per value: one key per dim (>= 0: a static size, < 0: a symbol); unknown rank: no entry
  // and ranked_[v] false.
  std::vector<std::vector<int64_t>> keys_;
  std::vector<bool> ranked_;
};

}  // namespace ge

#endif  // GE_SRC_COMPILER_DIM_SYMBOLS_H_
