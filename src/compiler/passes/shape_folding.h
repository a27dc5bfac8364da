// Shape-chain folding: Shape and Size of a value whose (needed) dims are known at compile time
// become constants, so that chains such as Shape -> Gather -> Unsqueeze -> Concat -> Reshape fold
// to constants and their consumers get static shapes.
//
// It runs inside static inference (shapes flow in topological order, so a Shape can only be
// folded once its input's shape is inferred): RunStaticInference calls FoldShapeOf on every
// Shape/Size node when StaticInferenceOptions::fold_shapes is set (the default, at every
// optimization level: like constant folding it decides which shapes are static, hence what can
// be sunk, so -O0 keeps it). Shape honours its start/end attributes (negative values count from the end,
// both clamped to [0, rank]); only the dims in [start, end) must be known, so Shape(x, start=1)
// of a float[?, 3, 224, 224] folds to [3, 224, 224]. Size needs every dim known. A Gather (axis
// 0, constant indices) of an unfolded Shape folds when the dims it picks are known: x.size(1)
// of a dynamic-batch x is a constant even though x.size(0) is not.
#ifndef GE_SRC_COMPILER_PASSES_SHAPE_FOLDING_H_
#define GE_SRC_COMPILER_PASSES_SHAPE_FOLDING_H_

#include <optional>

#include "graph/graph.h"

namespace ge {

// The constant a Shape, Size or Gather-of-Shape node (ai.onnx domain) produces, or nullopt when
// the node is none of these or the dims it reads are not known.
std::optional<HostTensor> FoldShapeOf(const Graph& graph, const Node& node);

}  // namespace ge

#endif  // GE_SRC_COMPILER_PASSES_SHAPE_FOLDING_H_
