// MatMul + LayerNormalization fusion: a FusedMatMul whose output's only reader is a
// LayerNormalization over the last axis (the post-norm transformer's norm(x + sublayer(x)), with
// the skip connection already fused as Z), directly or through Reshapes that keep the last dim N,
// normalizes its rows itself: it gets the norm's scale and bias as inputs 4 and 5, layer_norm = 1
// and the norm's epsilon, and the norm's output is written by it (or by the last Reshape). Each
// of its blocks then holds whole rows and normalizes them right after the GEMM has written them,
// while they are in that core's cache: the separate LayerNormalization node (a pass over Y, half
// of it written by the other core at 2 threads) and its barrier are gone. Never fires when the
// norm has a Mean / InvStdDev output, another axis or a stash_type other than float, or when Y
// (or a Reshape of it) has another reader or is a graph output. GE_MATMUL_LN_FUSION=0 turns it
// off (for comparisons).
#ifndef GE_SRC_COMPILER_PASSES_MATMUL_LAYER_NORM_FUSION_H_
#define GE_SRC_COMPILER_PASSES_MATMUL_LAYER_NORM_FUSION_H_

#include "compiler/passes/pass.h"

namespace ge {

class MatMulLayerNormFusion : public GraphPass {
 public:
  const char* name() const override { return "matmul-layer-norm-fusion"; }
  Status Run(Graph* graph, bool* changed) override;
};

}  // namespace ge

#endif  // GE_SRC_COMPILER_PASSES_MATMUL_LAYER_NORM_FUSION_H_
