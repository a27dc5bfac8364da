// MatMul weight packing: before/after in the textual IR.

#include "pass_test_util.h"

namespace ge {
namespace {

TEST(MatMulWeightPackingTest, ConstantWeightsArePackedOncePerWeight) {
  // Two FusedMatMuls share w: one packing.
  EXPECT_EQ(test::RunPass("matmul-weight-packing", R"(graph g
input x: float32[3, 2]
const w: float32[2, 2] = [1, 2, 3, 4]
node m1: y = FusedMatMul(x, w) {activation=""}
node m2: z = FusedMatMul(y, w) {activation="Relu"}
output z
)"),
            R"(graph g
input x: float32[3, 2]
const w: float32[2, 2] = [1, 2, 3, 4]
node w/pack: w/packed: float32[?] = MatMulWeightPack(w)
node m1: y = FusedMatMul(x, w/packed) {activation="", packed_weights=1, weights_shape=[2, 2]}
node m2: z = FusedMatMul(y, w/packed) {activation="Relu", packed_weights=1, weights_shape=[2, 2]}
output z
)");
}

TEST(MatMulWeightPackingTest, MustNotFire) {
  // B computed at run time; B already packed; a plain MatMul (the fusion pass makes FusedMatMuls).
  const std::string text = R"(graph g
input x: float32[3, 2]
input b: float32[2, 2]
const p: float32[4] = [1, 2, 3, 4]
const w: float32[2, 2] = [1, 2, 3, 4]
node m1: y = FusedMatMul(x, b) {activation=""}
node m2: z = FusedMatMul(y, p) {activation="", packed_weights=1, weights_shape=[2, 2]}
node m3: u = MatMul(z, w)
output u
)";
  bool changed = true;
  EXPECT_EQ(test::RunPass("matmul-weight-packing", text, &changed), text);
  EXPECT_FALSE(changed);
}

}  // namespace
}  // namespace ge
