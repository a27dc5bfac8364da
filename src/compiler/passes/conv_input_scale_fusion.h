// Conv input-scale fusion (after the NHWC layout pass): a Mul(x, s) whose only reader is an
// NHWC FusedConv's X, with s one factor per channel ([N or 1, 1, 1, C]: a squeeze-and-excitation
// gate), becomes that FusedConv's input S, Y = conv(x * s): each of the convolution's row blocks
// scales the weights by s where they are fewer than its input rows (conv(x, w * s)), else its
// own input rows into a per-thread buffer just before its primitive reads them, instead of a Mul
// kernel writing the whole product to memory and the convolution reading it back
// (ops/dnnl_conv.cc). Either Mul operand may be the gate. Never fires when the product is a
// graph output or has another reader, when s scales more than channels (a [1, H, 1, C] or full
// tensor), or when the FusedConv already has an S.
#ifndef GE_SRC_COMPILER_PASSES_CONV_INPUT_SCALE_FUSION_H_
#define GE_SRC_COMPILER_PASSES_CONV_INPUT_SCALE_FUSION_H_

#include "compiler/passes/pass.h"

namespace ge {

class ConvInputScaleFusion : public GraphPass {
 public:
  const char* name() const override { return "conv-input-scale-fusion"; }
  Status Run(Graph* graph, bool* changed) override;
};

}  // namespace ge

#endif  // GE_SRC_COMPILER_PASSES_CONV_INPUT_SCALE_FUSION_H_
