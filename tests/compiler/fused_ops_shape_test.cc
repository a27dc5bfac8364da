// The fused operators check their residual (and bias) shapes: a graph that feeds a wrong one is
// a compile error naming the node, never a read out of bounds.
#include <gtest/gtest.h>

#include "ge/graph.h"
#include "ge/graph_text.h"  // graphs written in the textual IR
#include "ge/model.h"

namespace ge {
namespace {

std::string CompileError(const std::string& text) {
  std::shared_ptr<Graph> g;
  Status st = ParseGraphText(text, &g);
  EXPECT_TRUE(st.ok()) << st.message();
  std::unique_ptr<Model> model;
  st = Model::FromGraph(g, ModelOptions{}, &model);
  EXPECT_FALSE(st.ok());
  return st.message();
}

TEST(FusedOpsShapes, FusedConvResidualOfAnotherShape) {
  std::string msg = CompileError(R"(graph g
input x: float32[1, 2, 4, 4]
input r: float32[1, 2, 4, 3]
const w: float32[2, 2, 1, 1] = [1, 0, 0, 1]
node conv: y = FusedConv(x, w, _, r) {activation="Relu"}
output y
)");
  EXPECT_NE(msg.find("node 'conv' (FusedConv)"), std::string::npos) << msg;
}

// R (the row means) exists only for the NHWC layout, where the oneDNN blocks compute it.
TEST(FusedOpsShapes, FusedConvRowMeansInNchw) {
  std::string msg = CompileError(R"(graph g
input x: float32[1, 2, 4, 4]
const w: float32[2, 2, 1, 1] = [1, 0, 0, 1]
node conv: y, r = FusedConvRowMeans(x, w) {layout="NCHW"}
output y, r
)");
  EXPECT_NE(msg.find("node 'conv' (FusedConvRowMeans)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("the row means R are only for the NHWC layout"), std::string::npos) << msg;
}

TEST(FusedOpsShapes, FusedMatMulResidualAndBiasOfAnotherShape) {
  std::string msg = CompileError(R"(graph g
input a: float32[2, 3]
input r: float32[2, 3]
const w: float32[3, 2] = [1, 2, 3, 4, 5, 6]
node mm: y = FusedMatMul(a, w, _, r)
output y
)");
  EXPECT_NE(msg.find("node 'mm' (FusedMatMul)"), std::string::npos) << msg;
  msg = CompileError(R"(graph g
input a: float32[2, 3]
const w: float32[3, 2] = [1, 2, 3, 4, 5, 6]
const b: float32[3] = [1, 2, 3]
node mm: y = FusedMatMul(a, w, b, _)
output y
)");
  EXPECT_NE(msg.find("node 'mm' (FusedMatMul)"), std::string::npos) << msg;
}

// layer_norm = 1 normalizes rows of N columns: it needs ln_scale, and ln_scale / ln_bias of N.
TEST(FusedOpsShapes, FusedMatMulLayerNormScaleMissingOrOfAnotherSize) {
  std::string msg = CompileError(R"(graph g
input a: float32[2, 3]
const w: float32[3, 2] = [1, 2, 3, 4, 5, 6]
node mm: y = FusedMatMul(a, w) {layer_norm=1}
output y
)");
  EXPECT_NE(msg.find("node 'mm' (FusedMatMul)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("layer_norm = 1 needs ln_scale (input 4)"), std::string::npos) << msg;
  msg = CompileError(R"(graph g
input a: float32[2, 3]
const w: float32[3, 2] = [1, 2, 3, 4, 5, 6]
const s: float32[2] = [1, 1]
const b: float32[3] = [0, 0, 0]
node mm: y = FusedMatMul(a, w, _, _, s, b) {layer_norm=1}
output y
)");
  EXPECT_NE(msg.find("node 'mm' (FusedMatMul)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("expected ln_bias of N = 2 elements, got [3]"), std::string::npos) << msg;
}

}  // namespace
}  // namespace ge
