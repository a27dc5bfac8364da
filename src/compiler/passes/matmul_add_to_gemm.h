// MatMul + Add -> Gemm: MatMul(A, B) followed by Add(mm, bias) becomes Gemm(A, B, bias) when A
// and B are 2-D, bias is a constant of shape [N] or [1, N] (N = B's second dim), and the MatMul
// output's single reader is the Add and is not a graph output. Batched (3-D and up) MatMuls stay
// as they are. The Gemm keeps the MatMul's name and writes the Add's output.
#ifndef GE_SRC_COMPILER_PASSES_MATMUL_ADD_TO_GEMM_H_
#define GE_SRC_COMPILER_PASSES_MATMUL_ADD_TO_GEMM_H_

#include "compiler/passes/pass.h"

namespace ge {

class MatMulAddToGemm : public GraphPass {
 public:
  const char* name() const override { return "matmul-add-to-gemm"; }
  Status Run(Graph* graph, bool* changed) override;
};

}  // namespace ge

#endif  // GE_SRC_COMPILER_PASSES_MATMUL_ADD_TO_GEMM_H_
