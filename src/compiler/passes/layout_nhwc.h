// LayoutNhwc pass: runs 2-D float convolutions in NHWC with weights packed at compile time.
//
// Every Conv / FusedConv (NCHW) with a 4-D float input (static but for the batch dim) and constant weights becomes an
// NHWC FusedConv whose weights come from a ConvWeightPack node (folded to a constant by the next
// static inference). Layout-agnostic consumers (elementwise ops, Concat on channels,
// 2-D MaxPool/AveragePool/GlobalAveragePool as PoolNhwc, inference BatchNormalization (+ Relu)
// as ScaleShift, Slice with constant axes, the channel shuffle Reshape-Transpose-Reshape)
// follow their producers into NHWC, with
// constant operands permuted; a Transpose back to NCHW is inserted only where a consumer or a graph output needs the
// NCHW value, and a Transpose to NHWC only where an NCHW value feeds an NHWC node. An NHWC graph (TensorFlow's) keeps
// no conversion pair: the NCHW value an NHWC -> NCHW Transpose made gives that Transpose's input as its NHWC form, and
// an NCHW -> NHWC Transpose of a moved value is that value's NHWC form (Transposes left unread are removed). Runs only
// where the NHWC kernels exist (ConvWeightPack is registered).
#ifndef GE_SRC_COMPILER_PASSES_LAYOUT_NHWC_H_
#define GE_SRC_COMPILER_PASSES_LAYOUT_NHWC_H_

#include "base/status.h"
#include "ge/graph_passes.h"
#include "graph/graph.h"

namespace ge {

// LayoutNhwcStats and RunLayoutNhwc are public (ge/graph_passes.h).

}  // namespace ge

#endif  // GE_SRC_COMPILER_PASSES_LAYOUT_NHWC_H_
