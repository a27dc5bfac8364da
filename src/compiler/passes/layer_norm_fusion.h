// LayerNormalization pattern recognition: the decomposed layer norm that exporters emit below
// opset 17 (PyTorch's nn.LayerNorm at opset <= 16, hand-written ones alike) becomes one
// LayerNormalization node:
//
//   m = ReduceMean(x, axes)   d = Sub(x, m)   v = ReduceMean(Pow(d, 2), axes)   (or Mul(d, d))
//   n = Div(d, Sqrt(Add(v, eps)))   [y = Mul(n, scale)]   [y = Add(y, bias)]
//
// axes must be the trailing axes of x (known rank), both ReduceMeans keepdims=1 with the same
// axes attribute (GE's ReduceMean reads its axes from the attribute), eps a float constant scalar, scale and
// bias float constants of exactly the normalized shape (x's trailing dims); without a Mul the
// scale is a constant of ones. Every intermediate value must have only the readers of the
// pattern (d: the Pow/Mul and the Div) and none may be a graph output. float32 only.
#ifndef GE_SRC_COMPILER_PASSES_LAYER_NORM_FUSION_H_
#define GE_SRC_COMPILER_PASSES_LAYER_NORM_FUSION_H_

#include "compiler/passes/pass.h"

namespace ge {

class LayerNormFusion : public GraphPass {
 public:
  const char* name() const override { return "layer-norm-fusion"; }
  Status Run(Graph* graph, bool* changed) override;
};

}  // namespace ge

#endif  // GE_SRC_COMPILER_PASSES_LAYER_NORM_FUSION_H_
