// Conv row-mean fusion (after the NHWC layout pass): a global average pool (PoolNhwc, mode
// global_avg) of an NHWC FusedConv's output Y reads a second output R of the convolution instead,
// which becomes a FusedConvRowMeans (ops/conv.cc): R [N, OH, 1, M] holds the means of Y's rows,
// which each of the convolution's blocks computes over the rows it has just written, while they
// are still in its core's caches; the pool then averages OH x M floats instead of reading Y back
// from memory. In efficientnet_b0's squeeze-excitation blocks the pool read 1.6 MB (112x112x32)
// that at 2 cores was half in the other core's cache: 77 us against 32 at 1 thread. Y keeps its
// other readers (the gate's product). Never fires when the convolution is NCHW or the pool is not
// global.
#ifndef GE_SRC_COMPILER_PASSES_CONV_ROW_MEAN_FUSION_H_
#define GE_SRC_COMPILER_PASSES_CONV_ROW_MEAN_FUSION_H_

#include "compiler/passes/pass.h"

namespace ge {

class ConvRowMeanFusion : public GraphPass {
 public:
  const char* name() const override { return "conv-row-mean-fusion"; }
  Status Run(Graph* graph, bool* changed) override;
};

}  // namespace ge

#endif  // GE_SRC_COMPILER_PASSES_CONV_ROW_MEAN_FUSION_H_
