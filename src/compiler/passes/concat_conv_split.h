// Channel Concat elimination in front of 1x1 convolutions (SqueezeNet's Fire modules):
//
//   MaxPool(Concat(x1..xk, axis=1))  ->  Concat(MaxPool(x1)..MaxPool(xk), axis=1)
//   FusedConv(Concat(x1..xk, axis=1), W, B) ->
//       t1 = FusedConv(x1, W[:, C1], B); ti = FusedConv(xi, W[:, Ci], Z=t(i-1)); ... the last
//       with the activation
//
// Max pooling works per channel, so it commutes with a channel concat (and then moves a quarter of
// the bytes for a stride-2 window). A 1x1 convolution of a channel concat is the sum of 1x1
// convolutions of the parts with the matching input-channel slices of W: the FusedConv residual
// input Z carries the partial sum (Y = act(conv(X, W) + B + Z)), so nothing is materialised but
// the partial sums, m channels where the concat had C. In NHWC a channel concat interleaves its
// inputs pixel by pixel, a copy of every byte that a convolution reading the parts avoids.
//
// Fires on a 4-D float Concat over axis 1 (or -3) whose inputs have static channel counts,
// whose output is not a graph output and whose readers are all (a) one MaxPool without an
// Indices output (the pool is pushed), or (b) NCHW FusedConvs (layout unset, before the layout
// pass) reading it as X with constant [m, C, 1, 1] weights, group 1, unit strides and
// dilations, no pads, no Z and no S, where the partial sums are cheaper than the concat:
// (k - 1) * m < C.
#ifndef GE_SRC_COMPILER_PASSES_CONCAT_CONV_SPLIT_H_
#define GE_SRC_COMPILER_PASSES_CONCAT_CONV_SPLIT_H_

#include "compiler/passes/pass.h"

namespace ge {

class ConcatConvSplit : public GraphPass {
 public:
  const char* name() const override { return "concat-conv-split"; }
  Status Run(Graph* graph, bool* changed) override;
};

}  // namespace ge

#endif  // GE_SRC_COMPILER_PASSES_CONCAT_CONV_SPLIT_H_
