// Conv + BatchNormalization folding: a BatchNormalization (inference mode) reading a Conv's
// output is folded into the Conv's weights and bias.
//
// With s = scale / sqrt(var + epsilon) per output channel: W' = W * s (each output channel's
// filter), B' = (B - mean) * s + bias (B = 0 when the Conv has none). The Conv then writes the
// BatchNormalization's output. Fires only when the Conv output's single reader is the
// BatchNormalization, the Conv output is not a graph output, W, B and the four BN inputs are
// float32 constants of the expected shapes, and the BN is not in training mode (its running
// mean/var outputs absent or unread). The old W and B stay for other readers; unread
// constants cost nothing.
#ifndef GE_SRC_COMPILER_PASSES_CONV_BN_FOLDING_H_
#define GE_SRC_COMPILER_PASSES_CONV_BN_FOLDING_H_

#include "compiler/passes/pass.h"

namespace ge {

class ConvBnFolding : public GraphPass {
 public:
  const char* name() const override { return "conv-bn-folding"; }
  Status Run(Graph* graph, bool* changed) override;
};

}  // namespace ge

#endif  // GE_SRC_COMPILER_PASSES_CONV_BN_FOLDING_H_
