// Conv (+ residual Add) + activation fusion: Conv -> [Add(conv_out, z)] -> [activation] becomes
// one FusedConv node (src/ops/conv.cc): Y = activation(conv(X, W) + B + Z).
//
// Z is taken when the Conv output's single reader is an Add whose other input has exactly the
// Conv output's (static) shape and dtype. The activation is then taken when its input's single
// reader is one of: Relu, LeakyRelu [alpha], Clip [min, max] (constant min/max inputs, absent =
// unbounded, as GE's Clip reads them), Sigmoid, HardSigmoid [alpha, beta], HardSwish, Tanh,
// or the SiLU/Swish pair x * Sigmoid(x) (a Sigmoid(v) and a Mul(v, sigmoid) that are v's only
// two readers, the Sigmoid's only reader the Mul) -> "Swish"; a Relu followed by a Clip (relu6
// as PyTorch exports it) is one Clip [max(min, 0), max]. Never fuses across a value that
// is a graph output or has another reader; float32 Convs only. The FusedConv keeps the Conv's
// name and attributes and writes the last fused node's output; `layout` is left unset.
#ifndef GE_SRC_COMPILER_PASSES_CONV_ACTIVATION_FUSION_H_
#define GE_SRC_COMPILER_PASSES_CONV_ACTIVATION_FUSION_H_

#include "compiler/passes/pass.h"

namespace ge {

class ConvActivationFusion : public GraphPass {
 public:
  const char* name() const override { return "conv-activation-fusion"; }
  Status Run(Graph* graph, bool* changed) override;
};

}  // namespace ge

#endif  // GE_SRC_COMPILER_PASSES_CONV_ACTIVATION_FUSION_H_
