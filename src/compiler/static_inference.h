// StaticInference pass: infers every value's dtype and shape at compile time (unknown dims stay
// -1) and folds nodes whose inputs are all constant by running their kernel on the host. After
// it, a node is static when all its inputs and outputs have static shapes.
#ifndef GE_SRC_COMPILER_STATIC_INFERENCE_H_
#define GE_SRC_COMPILER_STATIC_INFERENCE_H_

#include "base/status.h"
#include "graph/graph.h"

namespace ge {

struct StaticInferenceOptions {
  bool fold_constants = true;
  // Shape/Size of values whose dims are known become constants (shape-chain folding): on at
  // every optimization level, like constant folding, since sink scheduling needs the shapes.
  bool fold_shapes = true;
  int64_t max_fold_bytes = 64 << 20;  // outputs larger than this are not folded
};

struct StaticInferenceStats {
  int folded = 0;
  int shapes_folded = 0;  // of `folded`: Shape/Size nodes folded from their input's shape
  int static_nodes = 0;
  int dynamic_nodes = 0;
};

// Fails (naming the node, op and input shapes) when a node's inputs are fully known and its
// inference rejects them: that is a model error, not a dynamic shape. Folded nodes are removed
// and their outputs become constants.
Status RunStaticInference(Graph* graph, const StaticInferenceOptions& options = {},
                          StaticInferenceStats* stats = nullptr);

// Pads a node's inputs and outputs with kNoValue up to its OpDef's IR count (ONNX omits
// trailing optional ones), so that kernel arguments are laid out by IR position everywhere:
// inputs (null when absent), outputs (scratch when absent), workspaces.
void PadOptionalIo(Node* node);

// True when all of the node's inputs and outputs have static shapes.
bool IsStaticNode(const Graph& graph, const Node& node);

}  // namespace ge

#endif  // GE_SRC_COMPILER_STATIC_INFERENCE_H_
