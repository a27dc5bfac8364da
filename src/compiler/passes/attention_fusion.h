// Multi-head attention fusion: the scaled dot-product core of a transformer's attention block,
// with the head split before it and the head merge after it, becomes one FusedAttention node
// (src/ops/attention.cc):
//
//   q, k, v: X[S, B, W] (or Slice of a packed [S, B, 3W] along the last axis)
//            -> Reshape [S, B*H, D] -> Transpose           (seq-first, PyTorch's MHA export)
//         or X[B, S, W] -> Reshape [B, S, H, D] -> Transpose (batch-first, BERT style)
//   s = MatMul(q (* or / c), k^T (* or / c)) (* or / c) (+ mask)
//   o = MatMul(Softmax(s, last axis), v) -> Transpose back to [S, B*H, D] / [B, S, H, D]
//
// becomes  y = FusedAttention(X_q, X_k, X_v, mask) {num_heads=H, head_dim=D, scale, offsets}
// followed by a Reshape (a view) to the head-merge Transpose's shape, so its readers are
// unchanged. The transposes must be exactly the head split and merge (Q and V: the sequence
// and head axes swapped; K: also D before the sequence), the scale factors scalar constants,
// the mask one [Sq, Sk] / [Sk] for every batch and head (shape known), every intermediate of the
// core read once and no graph output, and W = H * D. A dynamic batch (a dynamic-batch export's
// head-split targets are computed at run time) is matched when the split's other dims are
// known, which forces its batch dim by the element count ([S, B, W] -> [S, ?, D]; [B, S, W] ->
// [?, S, H, D]), and Q, K and V are projections of one tensor (so of one batch). The head-split nodes are left for
// dead-code elimination (they may have other readers). Float only.
#ifndef GE_SRC_COMPILER_PASSES_ATTENTION_FUSION_H_
#define GE_SRC_COMPILER_PASSES_ATTENTION_FUSION_H_

#include "compiler/passes/pass.h"

namespace ge {

class AttentionFusion : public GraphPass {
 public:
  const char* name() const override { return "attention-fusion"; }
  Status Run(Graph* graph, bool* changed) override;
};

}  // namespace ge

#endif  // GE_SRC_COMPILER_PASSES_ATTENTION_FUSION_H_
