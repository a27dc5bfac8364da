// Softmax pattern recognition: softmax written out with elementwise ops and reductions becomes
// one Softmax node (opset-13 semantics, over one axis):
//
//   stable:  e = Exp(Sub(x, ReduceMax(x, [a])))   y = Div(e, ReduceSum(e, [a]))
//   naive:   e = Exp(x)                          y = Div(e, ReduceSum(e, [a]))
//
// (the naive form becomes the numerically stable Softmax, equal in exact arithmetic). The
// reductions must be over the one axis a, read as GE's reductions read it (ReduceSum: the
// constant axes input of opset 13; ReduceMax: the axes attribute),
// keepdims=1, x of known rank; e's readers exactly the ReduceSum and the Div (as numerator), every
// other intermediate read once by the pattern and none a graph output. Float types only.
#ifndef GE_SRC_COMPILER_PASSES_SOFTMAX_FUSION_H_
#define GE_SRC_COMPILER_PASSES_SOFTMAX_FUSION_H_

#include "compiler/passes/pass.h"

namespace ge {

class SoftmaxFusion : public GraphPass {
 public:
  const char* name() const override { return "softmax-fusion"; }
  Status Run(Graph* graph, bool* changed) override;
};

}  // namespace ge

#endif  // GE_SRC_COMPILER_PASSES_SOFTMAX_FUSION_H_
