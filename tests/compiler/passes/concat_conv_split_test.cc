// Channel Concat before 1x1 convolutions and max pooling: before/after in the textual IR. The
// weight slices are W's input-channel columns, written out by hand below.

#include "pass_test_util.h"

namespace ge {
namespace {

const char* kHead = R"(graph g
input x1: float32[1, 2, 4, 4]
input x2: float32[1, 1, 4, 4]
const w: float32[2, 3, 1, 1] = [1, 2, 3, 4, 5, 6]
const b: float32[2] = [0.5, -0.5]
)";

TEST(ConcatConvSplitTest, AOneByOneConvolutionBecomesPartialSums) {
  // W's columns 0-1 go with x1 ([1, 2] and [4, 5] per output channel), column 2 with x2 ([3], [6]);
  // the bias goes to the first part, the activation to the last.
  EXPECT_EQ(test::RunPass("concat-conv-split",
                          std::string(kHead) + R"(node cat: c: float32[1, 3, 4, 4] = Concat(x1, x2) {axis=1}
node conv: y: float32[1, 2, 4, 4] = FusedConv(c, w, b) {activation="Relu", activation_params=f[], kernel_shape=[1, 1], strides=[1, 1]}
output y
)"),
            std::string(R"(graph g
input x1: float32[1, 2, 4, 4]
input x2: float32[1, 1, 4, 4]
const b: float32[2] = [0.5, -0.5]
const w/part0: float32[2, 2, 1, 1] = [1, 2, 4, 5]
const w/part1: float32[2, 1, 1, 1] = [3, 6]
node conv/part0: y/partial0: float32[1, 2, 4, 4] = FusedConv(x1, w/part0, b, _) {activation="", activation_params=f[], kernel_shape=[1, 1], strides=[1, 1]}
node conv: y: float32[1, 2, 4, 4] = FusedConv(x2, w/part1, _, y/partial0) {activation="Relu", activation_params=f[], kernel_shape=[1, 1], strides=[1, 1]}
output y
)"));
}

TEST(ConcatConvSplitTest, MaxPoolMovesBeforeTheConcat) {
  EXPECT_EQ(test::RunPass("concat-conv-split",
                          std::string(kHead) + R"(node cat: c: float32[1, 3, 4, 4] = Concat(x1, x2) {axis=1}
node pool: p: float32[1, 3, 2, 2] = MaxPool(c) {kernel_shape=[2, 2], strides=[2, 2]}
output p
)"),
            std::string(R"(graph g
input x1: float32[1, 2, 4, 4]
input x2: float32[1, 1, 4, 4]
node pool/part0: p/part0: float32[1, 2, 2, 2] = MaxPool(x1) {kernel_shape=[2, 2], strides=[2, 2]}
node pool/part1: p/part1: float32[1, 1, 2, 2] = MaxPool(x2) {kernel_shape=[2, 2], strides=[2, 2]}
node cat: p: float32[1, 3, 2, 2] = Concat(p/part0, p/part1) {axis=1}
output p
)"));
}

TEST(ConcatConvSplitTest, MustNotFire) {
  // cat1's output is a graph output; cat2 is read by a 3x3 convolution, cat3 by a strided one;
  // cat4 joins heights (axis 2); cat5's reader has 3 output channels, so its partial sums (3 per
  // pixel) would cost as much as the concat (3); cat6 is also read by a Relu; cat7's MaxPool has
  // an Indices output.
  test::ExpectUnchanged("concat-conv-split", std::string(kHead) + R"(const w3: float32[2, 3, 3, 3] = opaque
const wm: float32[3, 3, 1, 1] = [1, 2, 3, 4, 5, 6, 7, 8, 9]
node cat1: c1: float32[1, 3, 4, 4] = Concat(x1, x2) {axis=1}
node conv1: y1: float32[1, 2, 4, 4] = FusedConv(c1, w, b) {kernel_shape=[1, 1]}
node cat2: c2: float32[1, 3, 4, 4] = Concat(x1, x2) {axis=1}
node conv2: y2: float32[1, 2, 2, 2] = FusedConv(c2, w3, b) {kernel_shape=[3, 3]}
node cat3: c3: float32[1, 3, 4, 4] = Concat(x1, x2) {axis=1}
node conv3: y3: float32[1, 2, 2, 2] = FusedConv(c3, w, b) {kernel_shape=[1, 1], strides=[2, 2]}
node cat4: c4: float32[1, 2, 8, 4] = Concat(x1, x1) {axis=2}
node conv4: y4: float32[1, 2, 8, 4] = FusedConv(c4, w, b) {kernel_shape=[1, 1]}
node cat5: c5: float32[1, 3, 4, 4] = Concat(x1, x2) {axis=1}
node conv5: y5: float32[1, 3, 4, 4] = FusedConv(c5, wm) {kernel_shape=[1, 1]}
node cat6: c6: float32[1, 3, 4, 4] = Concat(x1, x2) {axis=1}
node conv6: y6: float32[1, 2, 4, 4] = FusedConv(c6, w, b) {kernel_shape=[1, 1]}
node relu6: r6: float32[1, 3, 4, 4] = Relu(c6)
node cat7: c7: float32[1, 3, 4, 4] = Concat(x1, x2) {axis=1}
node pool7: p7: float32[1, 3, 2, 2], i7: int64[1, 3, 2, 2] = MaxPool(c7) {kernel_shape=[2, 2], strides=[2, 2]}
output c1, y1, y2, y3, y4, y5, y6, r6, p7, i7
)");
}

}  // namespace
}  // namespace ge
