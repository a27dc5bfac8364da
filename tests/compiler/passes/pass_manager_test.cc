// The pass manager: which passes each level runs, and one graph through -O0, -O1 and -O2 (static
// inference interleaved), in the textual IR.

#include <algorithm>

#include "pass_test_util.h"

namespace ge {
namespace {

std::vector<std::string> PassNames(int level) {
  std::vector<std::string> names;
  Status st = GraphPassesOfLevel(level, &names);
  EXPECT_TRUE(st.ok()) << st.message();
  return names;
}

TEST(PassManagerTest, Levels) {
  EXPECT_TRUE(PassNames(0).empty());
  EXPECT_EQ(PassNames(1), (std::vector<std::string>{"identity-elimination", "common-subexpression-elimination",
                                                    "dead-code-elimination"}));
  EXPECT_EQ(PassNames(2), (std::vector<std::string>{
                              "identity-elimination", "common-subexpression-elimination", "conv-bn-folding",
                              "transpose-cancellation", "matmul-add-to-gemm", "layer-norm-fusion", "softmax-fusion",
                              "attention-fusion", "matmul-fusion", "matmul-layer-norm-fusion", "matmul-weight-packing",
                              "conv-activation-fusion", "concat-conv-split", "dead-code-elimination"}));
  std::vector<std::string> names;
  Status st = GraphPassesOfLevel(3, &names);
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.message(), "optimization level 3 is not one of 0, 1, 2");
}

// Passes by name: every level's pass is one RunGraphPass knows, and the three that compilation
// runs after the NHWC layout pass too; an unknown name fails listing the known ones.
TEST(PassManagerTest, PassesByName) {
  const std::vector<std::string> all = GraphPassNames();
  EXPECT_TRUE(std::is_sorted(all.begin(), all.end()));
  for (const std::string& name : PassNames(2)) EXPECT_NE(std::find(all.begin(), all.end(), name), all.end()) << name;
  for (const char* name : {"conv-input-scale-fusion", "concat-scale-shift-fusion", "conv-depthwise-fusion"})
    EXPECT_NE(std::find(all.begin(), all.end(), name), all.end()) << name;

  auto g = test::Parse("graph g\ninput x: float32[2]\nnode r: y = Relu(x)\noutput y\n");
  ASSERT_TRUE(g);
  bool changed = true;
  Status st = RunGraphPass("conv-bn-foldings", g.get(), &changed);
  EXPECT_EQ(st.code(), Status::kInvalidArgument);
  EXPECT_NE(st.message().find("unknown graph pass 'conv-bn-foldings'; the passes are: attention-fusion, "),
            std::string::npos)
      << st.message();
  EXPECT_TRUE(changed);  // left alone on failure
}

// Identity, a Shape chain feeding a Reshape, a Conv + BatchNormalization + Relu, a cancelling
// Transpose pair.
const char* kGraph = R"(graph g
input x: float32[1, 2, 2, 2]
const w: float32[2, 2, 1, 1] = [1, 0, 0, 1]
const scale: float32[2] = [1, 1]
const bias: float32[2] = [0, 1]
const mean: float32[2] = [0, 0]
const var: float32[2] = [4, 4]
const i0: int64[1] = [0]
const minus1: int64[1] = [-1]
node id: xi = Identity(x)
node conv: c = Conv(xi, w)
node bn: b = BatchNormalization(c, scale, bias, mean, var) {epsilon=0.0}
node relu: r = Relu(b)
node t1: t = Transpose(r) {perm=[0, 2, 3, 1]}
node t2: u = Transpose(t) {perm=[0, 3, 1, 2]}
node shape: s = Shape(u)
node gather: n = Gather(s, i0) {axis=0}
node concat: dims = Concat(n, minus1) {axis=0}
node reshape: y = Reshape(u, dims)
output y
)";

std::string Optimize(int level, OptimizeStats* stats = nullptr) {
  auto g = test::Parse(kGraph);
  Status st = OptimizeGraph(g.get(), level, stats);
  EXPECT_TRUE(st.ok()) << st.message();
  return GraphToText(*g);
}

TEST(PassManagerTest, O0OnlyInfersShapesAndFoldsConstantsAndTheShapeChain) {
  OptimizeStats stats;
  EXPECT_EQ(Optimize(0, &stats), R"(graph g
input x: float32[1, 2, 2, 2]
const w: float32[2, 2, 1, 1] = [1, 0, 0, 1]
const scale: float32[2] = [1, 1]
const bias: float32[2] = [0, 1]
const mean: float32[2] = [0, 0]
const var: float32[2] = [4, 4]
const dims: int64[2] = [1, -1]
node id: xi: float32[1, 2, 2, 2] = Identity(x)
node conv: c: float32[1, 2, 2, 2] = Conv(xi, w, _)
node bn: b: float32[1, 2, 2, 2], _, _ = BatchNormalization(c, scale, bias, mean, var) {epsilon=0.0}
node relu: r: float32[1, 2, 2, 2] = Relu(b)
node t1: t: float32[1, 2, 2, 2] = Transpose(r) {perm=[0, 2, 3, 1]}
node t2: u: float32[1, 2, 2, 2] = Transpose(t) {perm=[0, 3, 1, 2]}
node reshape: y: float32[1, 8] = Reshape(u, dims)
output y
)");
  EXPECT_EQ(stats.ToString(0), "-O0: 10 -> 7 nodes (3 folded, 1 Shape/Size)");
}

TEST(PassManagerTest, O1RemovesTheIdentity) {
  OptimizeStats stats;
  EXPECT_EQ(Optimize(1, &stats), R"(graph g
input x: float32[1, 2, 2, 2]
const w: float32[2, 2, 1, 1] = [1, 0, 0, 1]
const scale: float32[2] = [1, 1]
const bias: float32[2] = [0, 1]
const mean: float32[2] = [0, 0]
const var: float32[2] = [4, 4]
const dims: int64[2] = [1, -1]
node conv: c: float32[1, 2, 2, 2] = Conv(x, w, _)
node bn: b: float32[1, 2, 2, 2], _, _ = BatchNormalization(c, scale, bias, mean, var) {epsilon=0.0}
node relu: r: float32[1, 2, 2, 2] = Relu(b)
node t1: t: float32[1, 2, 2, 2] = Transpose(r) {perm=[0, 2, 3, 1]}
node t2: u: float32[1, 2, 2, 2] = Transpose(t) {perm=[0, 3, 1, 2]}
node reshape: y: float32[1, 8] = Reshape(u, dims)
output y
)");
  EXPECT_EQ(stats.nodes_before, 10u);
  EXPECT_EQ(stats.nodes_after, 6u);
  EXPECT_EQ(stats.shapes_folded, 1);
  EXPECT_EQ(stats.ToString(1), "-O1: 10 -> 6 nodes (3 folded, 1 Shape/Size); identity-elimination");
}

TEST(PassManagerTest, O2FoldsTheBatchNormFusesTheReluAndCancelsTheTransposes) {
  // s = 1 / sqrt(4 + 0) = 0.5: W' = w * 0.5, B' = (0 - 0) * 0.5 + [0, 1].
  EXPECT_EQ(Optimize(2), R"(graph g
input x: float32[1, 2, 2, 2]
const dims: int64[2] = [1, -1]
const w_bn: float32[2, 2, 1, 1] = [0.5, 0, 0, 0.5]
const conv_bias_bn: float32[2] = [0, 1]
node conv: r: float32[1, 2, 2, 2] = FusedConv(x, w_bn, conv_bias_bn, _, _) {activation="Relu", activation_params=f[]}
node reshape: y: float32[1, 8] = Reshape(r, dims)
output y
)");
}

}  // namespace
}  // namespace ge
