// The ONNX training-domain Gradient operator (ai.onnx.preview.training), expanded at load time
// into the ordinary nodes computing it: reverse-mode differentiation of the nodes its `y` depends
// on, seeded with ones, for the inputs named by `xs`.
#ifndef GE_SRC_PARSER_ONNX_GRADIENT_EXPANSION_H_
#define GE_SRC_PARSER_ONNX_GRADIENT_EXPANSION_H_

#include <onnx/onnx_pb.h>

#include "ge/status.h"

namespace ge {

// Replaces every Gradient node of the graph (not its subgraphs) in place. Differentiable: Add,
// Sub, Mul, Neg, Identity, on operands of equal shape (no broadcasting); another operator on the
// path from an x to y is an error naming it and the node.
Status ExpandGradientNodes(onnx::GraphProto* graph);

}  // namespace ge

#endif  // GE_SRC_PARSER_ONNX_GRADIENT_EXPANSION_H_
