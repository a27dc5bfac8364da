// StaticInference pass: infers every value's dtype and shape at compile time (unknown dims stay
// -1) and folds nodes whose inputs are all constant by running their kernel on the host. After
// it, a node is static when all its inputs and outputs have static shapes.
#ifndef GE_SRC_COMPILER_STATIC_INFERENCE_H_
#define GE_SRC_COMPILER_STATIC_INFERENCE_H_

#include "base/status.h"
#include "ge/graph_passes.h"
#include "graph/graph.h"

namespace ge {

// StaticInferenceOptions, StaticInferenceStats and RunStaticInference are public
// (ge/graph_passes.h).

// Pads a node's inputs and outputs with kNoValue up to its OpDef's IR count (ONNX omits
// trailing optional ones), so that kernel arguments are laid out by IR position everywhere:
// inputs (null when absent), outputs (scratch when absent), workspaces.
void PadOptionalIo(Node* node);

// True when all of the node's inputs and outputs have static shapes.
bool IsStaticNode(const Graph& graph, const Node& node);

}  // namespace ge

#endif  // GE_SRC_COMPILER_STATIC_INFERENCE_H_
