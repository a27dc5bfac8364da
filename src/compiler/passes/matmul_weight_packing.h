// MatMul weight packing: a FusedMatMul whose B is a constant [K, N] reads it packed. The pass
// inserts B' = MatMulWeightPack(B) (folded at compile time: B is a constant) and gives the
// FusedMatMul B' with packed_weights = 1 and weights_shape = [K, N]. The packed layout is the
// one oneDNN's brgemm reads (ops/dnnl_matmul.h); read plain, B is copied into it on every run,
// which costs 3-4x the product itself for a large B. Runs only where MatMulWeightPack is
// registered (built with oneDNN). A B that is no constant, or already packed, is left alone;
// FusedMatMuls sharing one B share one packing.
#ifndef GE_SRC_COMPILER_PASSES_MATMUL_WEIGHT_PACKING_H_
#define GE_SRC_COMPILER_PASSES_MATMUL_WEIGHT_PACKING_H_

#include "compiler/passes/pass.h"

namespace ge {

class MatMulWeightPacking : public GraphPass {
 public:
  const char* name() const override { return "matmul-weight-packing"; }
  Status Run(Graph* graph, bool* changed) override;
};

}  // namespace ge

#endif  // GE_SRC_COMPILER_PASSES_MATMUL_WEIGHT_PACKING_H_
