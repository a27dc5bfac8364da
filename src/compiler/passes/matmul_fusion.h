// MatMul fusion: MatMul / Gemm (+ bias Add) (+ residual Add) (+ activation) -> one FusedMatMul
// (oneDNN matmul with the epilogue fused; ops/fused_matmul.cc).
//
// Fires on a float MatMul whose B is 2-D with static dims (A may be batched [..., K]: its leading
// dims are rows) and on a Gemm with transA = 0, alpha = beta = 1, a bias C of N elements, and a
// constant B when transB = 1 (transposed here, once). Then, each only while the value has one
// reader and is not a graph output: an Add of a constant of N elements (broadcast over the last
// dim) becomes the bias; an Add of a value of exactly the output's shape becomes the residual Z;
// an Add reached through a chain of Reshapes (each the sole reader; the attention output
// projection's [S, D] viewed as [1, S, D] before the skip connection) fuses too: the other
// operand, reshaped to the output's shape, is Z and the last Reshape writes the Add's output;
// an activation is fused: Gelu, GELU written out as PyTorch exports it (x * (erf(x / sqrt 2) + 1) *
// 0.5), or any that conv-activation-fusion takes (activation_match.h: Relu, relu6 as Relu + Clip,
// Clip with constant bounds, LeakyRelu, HardSigmoid, Sigmoid, Tanh, HardSwish, SiLU). A bare
// MatMul becomes FusedMatMul too (the faster kernel).
#ifndef GE_SRC_COMPILER_PASSES_MATMUL_FUSION_H_
#define GE_SRC_COMPILER_PASSES_MATMUL_FUSION_H_

#include "compiler/passes/pass.h"

namespace ge {

class MatMulFusion : public GraphPass {
 public:
  const char* name() const override { return "matmul-fusion"; }
  Status Run(Graph* graph, bool* changed) override;
};

}  // namespace ge

#endif  // GE_SRC_COMPILER_PASSES_MATMUL_FUSION_H_
