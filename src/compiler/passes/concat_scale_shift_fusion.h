// Concat + ScaleShift fusion (after the NHWC layout pass): a ScaleShift whose X is a Concat over
// the last dim, with the ScaleShift its only reader, becomes one ConcatScaleShift that scales
// and shifts each input as it copies it into the output (a DenseNet layer's pre-activation
// BatchNormalization + Relu on the concatenation of all earlier features): one pass over the
// data instead of a copy and a second read and write. Never fires when the concatenation is a
// graph output or has another reader, when the Concat is over another dim, or when it has more
// inputs than the kernel takes (64).
#ifndef GE_SRC_COMPILER_PASSES_CONCAT_SCALE_SHIFT_FUSION_H_
#define GE_SRC_COMPILER_PASSES_CONCAT_SCALE_SHIFT_FUSION_H_

#include "compiler/passes/pass.h"

namespace ge {

class ConcatScaleShiftFusion : public GraphPass {
 public:
  const char* name() const override { return "concat-scale-shift-fusion"; }
  Status Run(Graph* graph, bool* changed) override;
};

}  // namespace ge

#endif  // GE_SRC_COMPILER_PASSES_CONCAT_SCALE_SHIFT_FUSION_H_
