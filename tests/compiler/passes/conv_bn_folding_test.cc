// Conv + BatchNormalization folding: before/after in the textual IR, with the folded weights
// computed by hand: s = scale / sqrt(var + eps), W' = W * s, B' = (B - mean) * s + bias.

#include "pass_test_util.h"

namespace ge {
namespace {

// eps = 1: s = [4 / sqrt(3 + 1), 3 / sqrt(0 + 1)] = [2, 3].
const char* kParams = R"(const scale: float32[2] = [4, 3]
const bias: float32[2] = [0.1, 0.2]
const mean: float32[2] = [0.5, 1]
const var: float32[2] = [3, 0]
)";

TEST(ConvBnFoldingTest, FoldsIntoWeightsAndBias) {
  // W' = [1 * 2, 2 * 3]; B' = [(0.5 - 0.5) * 2 + 0.1, (-1 - 1) * 3 + 0.2] = [0.1, -5.8].
  EXPECT_EQ(test::RunPass("conv-bn-folding", std::string(R"(graph g
input x: float32[1, 1, 2, 2]
const w: float32[2, 1, 1, 1] = [1, 2]
const b: float32[2] = [0.5, -1]
)") + kParams + R"(node conv: c: float32[1, 2, 2, 2] = Conv(x, w, b) {kernel_shape=[1, 1]}
node bn: y: float32[1, 2, 2, 2] = BatchNormalization(c, scale, bias, mean, var) {epsilon=1.0}
output y
)"),
            R"(graph g
input x: float32[1, 1, 2, 2]
const w_bn: float32[2, 1, 1, 1] = [2, 6]
const conv_bias_bn: float32[2] = [0.1, -5.8]
node conv: y: float32[1, 2, 2, 2] = Conv(x, w_bn, conv_bias_bn) {kernel_shape=[1, 1]}
output y
)");
}

TEST(ConvBnFoldingTest, AConvWithoutBiasGetsOne) {
  // B = 0: B' = [-0.5 * 2 + 0.1, -1 * 3 + 0.2] = [-0.9, -2.8]; two filter elements per channel.
  EXPECT_EQ(test::RunPass("conv-bn-folding", std::string(R"(graph g
input x: float32[1, 2, 2, 2]
const w: float32[2, 2, 1, 1] = [1, -1, 0.5, 2]
)") + kParams + R"(node conv: c = Conv(x, w)
node bn: y = BatchNormalization(c, scale, bias, mean, var) {epsilon=1.0}
node r: z = Relu(y)
output z
)"),
            R"(graph g
input x: float32[1, 2, 2, 2]
const w_bn: float32[2, 2, 1, 1] = [2, -2, 1.5, 6]
const conv_bias_bn: float32[2] = [-0.9, -2.8]
node conv: y = Conv(x, w_bn, conv_bias_bn)
node r: z = Relu(y)
output z
)");
}

TEST(ConvBnFoldingTest, MustNotFire) {
  // c1 has a second reader; c2 is a graph output; bn3 is in training mode; conv4's weights are
  // not constant.
  const std::string text = std::string(R"(graph g
input x: float32[1, 1, 2, 2]
input wx: float32[2, 1, 1, 1]
const w: float32[2, 1, 1, 1] = [1, 2]
)") + kParams + R"(node conv1: c1 = Conv(x, w)
node bn1: y1 = BatchNormalization(c1, scale, bias, mean, var)
node r1: z1 = Relu(c1)
node conv2: c2 = Conv(x, w)
node bn2: y2 = BatchNormalization(c2, scale, bias, mean, var)
node conv3: c3 = Conv(x, w)
node bn3: y3 = BatchNormalization(c3, scale, bias, mean, var) {training_mode=1}
node conv4: c4 = Conv(x, wx)
node bn4: y4 = BatchNormalization(c4, scale, bias, mean, var)
output y1, z1, c2, y2, y3, y4
)";
  bool changed = true;
  EXPECT_EQ(test::RunPass("conv-bn-folding", text, &changed), text);
  EXPECT_FALSE(changed);
}

}  // namespace
}  // namespace ge
