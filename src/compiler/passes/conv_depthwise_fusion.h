// Conv + depthwise fusion (after the NHWC layout pass): an NHWC FusedConv that is a 1x1
// convolution (stride 1, no pads, one group) whose only reader is an NHWC depthwise FusedConv
// (group = channels, one filter per channel) becomes, with that reader, one FusedConvDw: the
// expanded tensor between them (the first half of an inverted residual block) is never written
// to memory (ops/conv_dw_fused.cc). The weights are re-laid from the two weight-packing nodes'
// OIHW constants: W1 [M / 16, C, 16] (panels of 16 filters, input channel by input channel),
// W2 [KH * KW, M] (the depthwise taps, channels innermost). Fires only for M a multiple of 16, a
// 3x3 or 5x5 depthwise window with strides 1 or 2 and no dilation, the activations the fused
// kernel computes (none, Relu, Clip, HardSwish, Swish), explicit pads (no auto_pad), and when
// neither convolution has a residual Z or an input scale S; never when the expanded tensor is a
// graph output or has another reader.
// Opt-in (GE_CONV_DW_FUSION=1, checked by the compiler): the fused kernel is still slower than
// oneDNN's two primitives (alternated 2 x 150 runs: mobilenet_v2 4.85 / 5.12 -> 5.55 / 4.95 ms at
// 1 thread, 3.18 / 3.06 -> 3.48 / 3.23 at 2; efficientnet_b0 9.35 / 9.36 -> 9.76 / 10.19, 5.46 /
// 5.66 -> 5.77 / 6.17).
#ifndef GE_SRC_COMPILER_PASSES_CONV_DEPTHWISE_FUSION_H_
#define GE_SRC_COMPILER_PASSES_CONV_DEPTHWISE_FUSION_H_

#include "compiler/passes/pass.h"

namespace ge {

class ConvDepthwiseFusion : public GraphPass {
 public:
  const char* name() const override { return "conv-depthwise-fusion"; }
  Status Run(Graph* graph, bool* changed) override;
};

}  // namespace ge

#endif  // GE_SRC_COMPILER_PASSES_CONV_DEPTHWISE_FUSION_H_
