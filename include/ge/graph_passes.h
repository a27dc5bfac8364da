// The graph optimizer as a library: static inference, the passes by name, the optimization
// levels and the NHWC layout pass, each run on a ge::Graph. Together with the textual IR
// (ge/graph_text.h) this is what a pass test or a user's own pipeline needs:
//
//   std::shared_ptr<ge::Graph> g;
//   ge::ParseGraphText(text, &g);
//   bool changed = false;
//   ge::RunGraphPass("conv-bn-folding", g.get(), &changed);
//   std::string after = ge::GraphToText(*g);
//
// Compiling a model (ge/model.h) runs the same code: OptimizeGraph at the model's level, then,
// at -O2, the layout pass and the fusions that read NHWC convolutions.
#ifndef GE_INCLUDE_GE_GRAPH_PASSES_H_
#define GE_INCLUDE_GE_GRAPH_PASSES_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ge/graph.h"
#include "ge/status.h"

namespace ge {

// ---- Static inference: every value's dtype and shape (unknown dims stay -1), and folding of
// nodes whose inputs are all constant by running their kernel on the host. After it, a node is
// static when all its inputs and outputs have static shapes.

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

// ---- Passes by name ("conv-bn-folding", "dead-code-elimination", ...).

// Every pass RunGraphPass knows, in alphabetical order.
std::vector<std::string> GraphPassNames();

// Runs the named pass once on the graph (no static inference before or after: a fusion that
// needs shapes needs them in the graph). *changed says whether the pass rewrote anything. Fails
// for an unknown name, listing the known ones, and for a pass whose fused operator is not
// registered in this build.
Status RunGraphPass(const std::string& name, Graph* graph, bool* changed = nullptr);

// ---- Optimization levels, like ONNX Runtime's:
//   -O0  no optimization: static inference only — shapes, folding of nodes whose inputs are all
//        constants and shape-chain folding, which decide what is static and so what can be
//        sunk, and which compilation therefore always does;
//   -O1  basic: identity/Dropout elimination, common-subexpression elimination, dead-code
//        elimination;
//   -O2  (default) adds the fusions: Conv+BatchNormalization folding, Transpose cancellation,
//        MatMul+Add -> Gemm, LayerNormalization and Softmax pattern recognition, MatMul/Gemm (+
//        bias, residual, activation) -> FusedMatMul, Conv (+ residual Add) + activation ->
//        FusedConv.

constexpr int kMaxOptLevel = 2;

// The passes a level runs, in the order each round runs them. Fails for a level outside
// 0..kMaxOptLevel.
Status GraphPassesOfLevel(int opt_level, std::vector<std::string>* names);

struct OptimizeStats {
  size_t nodes_before = 0;
  size_t nodes_after = 0;
  std::map<std::string, int> rounds_changed;  // pass name -> rounds in which it rewrote something
  StaticInferenceStats inference;             // of the last inference run
  int folded = 0;                             // nodes folded over all inference runs
  int shapes_folded = 0;                      // of those, Shape/Size nodes
  // "-O2: 264 -> 180 nodes (42 folded, 12 Shape/Size); conv-bn-folding, dead-code-elimination"
  std::string ToString(int opt_level) const;
};

// Static inference, then rounds of the level's passes, each round followed by inference again
// (new constants fold, new nodes get shapes), until a round changes nothing.
Status OptimizeGraph(Graph* graph, int opt_level, OptimizeStats* stats = nullptr);

// ---- The NHWC layout pass (compilation runs it at -O2 after OptimizeGraph): 2-D float
// convolutions become NHWC FusedConvs with weights packed at compile time, layout-agnostic
// consumers follow them, and Transposes are inserted only where a consumer needs NCHW. Needs the
// value shapes of static inference; run static inference again afterwards. Changes nothing where
// the NHWC kernels are not built.

struct LayoutNhwcStats {
  int convs = 0;       // convolutions moved to NHWC
  int followers = 0;   // other nodes that run on NHWC values
  int transposes = 0;  // layout conversions inserted
};

Status RunLayoutNhwc(Graph* graph, LayoutNhwcStats* stats = nullptr);

}  // namespace ge

#endif  // GE_INCLUDE_GE_GRAPH_PASSES_H_
