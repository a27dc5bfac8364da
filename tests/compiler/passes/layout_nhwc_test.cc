// Layout pass (NHWC): before/after in the textual IR (constants nobody reads are not printed).

#include "pass_test_util.h"

namespace ge {
namespace {

std::string Layout(const std::string& text, LayoutNhwcStats* stats) {
  auto g = test::Parse(text);
  if (!g) return "";
  Status st = RunLayoutNhwc(g.get(), stats);
  EXPECT_TRUE(st.ok()) << st.message();
  st = g->Verify();
  EXPECT_TRUE(st.ok()) << st.message();
  return GraphToText(*g);
}

// A Conv with constant weights, a Mul by a per-channel constant (permuted) and a MaxPool follow into NHWC; Transposes
// back only for the Flatten and the graph output m.
TEST(LayoutNhwcTest, ConvFollowersAndTransposesBack) {
  LayoutNhwcStats stats;
  EXPECT_EQ(Layout(R"(graph g
input x: float32[1, 2, 4, 4]
const w: float32[3, 2, 1, 1] = [1, 0, 0, 1, 1, 1]
const b: float32[3] = [1, 2, 3]
const s: float32[1, 3, 1, 1] = [1, 2, 3]
node conv: c: float32[1, 3, 4, 4] = Conv(x, w, b)
node mul: m: float32[1, 3, 4, 4] = Mul(c, s)
node pool: p: float32[1, 3, 2, 2] = MaxPool(m) {kernel_shape=[2, 2], strides=[2, 2]}
node flat: f: float32[1, 12] = Flatten(p)
output f, m
)",
                   &stats),
            R"(graph g
input x: float32[1, 2, 4, 4]
const w: float32[3, 2, 1, 1] = [1, 0, 0, 1, 1, 1]
const b: float32[3] = [1, 2, 3]
const s/nhwc: float32[1, 1, 1, 3] = [1, 2, 3]
node conv/pack: conv/packed_weights: float32[?] = ConvWeightPack(w) {has_bias=1, has_z=0, kernel_shape=[1, 1], layout="NHWC", x_shape=[1, 4, 4, 2]}
node x/to_nhwc: x/to_nhwc: float32[1, 4, 4, 2] = Transpose(x) {perm=[0, 2, 3, 1]}
node conv: c/nhwc: float32[1, 4, 4, 3] = FusedConv(x/to_nhwc, conv/packed_weights, b, _) {kernel_shape=[1, 1], layout="NHWC", out_channels=3, packed_weights=1}
node mul: m/nhwc: float32[1, 4, 4, 3] = Mul(c/nhwc, s/nhwc)
node pool: p/nhwc: float32[1, 2, 2, 3] = PoolNhwc(m/nhwc) {kernel_shape=[2, 2], mode="max", strides=[2, 2]}
node p/to_nchw: p: float32[1, 3, 2, 2] = Transpose(p/nhwc) {perm=[0, 3, 1, 2]}
node flat: f: float32[1, 12] = Flatten(p)
node m/to_nchw: m: float32[1, 3, 4, 4] = Transpose(m/nhwc) {perm=[0, 3, 1, 2]}
output f, m
)");
  EXPECT_EQ(stats.convs, 1);
  EXPECT_EQ(stats.followers, 2);
  EXPECT_EQ(stats.transposes, 3);
}

// BatchNormalization + Relu after the conv: ScaleShift with s = 2 / sqrt(3 + 1) = 1, t = 1 - 0.5 * 1 = 0.5; the Slice's
// An NHWC graph (TensorFlow's layout): the conv reads the NHWC input of the NHWC -> NCHW Transpose
// in front of it, and its reader behind the NCHW -> NHWC Transpose reads its NHWC output: both
// Transposes go, no layout conversion is left.
TEST(LayoutNhwcTest, NhwcGraphKeepsNoTransposePair) {
  const std::string before = R"(graph g
input x: float32[1, 4, 4, 2]
const w: float32[3, 2, 1, 1] = [1, 0, 0, 1, 1, 1]
node t: xc: float32[1, 2, 4, 4] = Transpose(x) {perm=[0, 3, 1, 2]}
node conv: c: float32[1, 3, 4, 4] = Conv(xc, w)
node back: y: float32[1, 4, 4, 3] = Transpose(c) {perm=[0, 2, 3, 1]}
)";
  const std::string after = R"(graph g
input x: float32[1, 4, 4, 2]
const w: float32[3, 2, 1, 1] = [1, 0, 0, 1, 1, 1]
node conv/pack: conv/packed_weights: float32[?] = ConvWeightPack(w) {has_bias=0, has_z=0, kernel_shape=[1, 1], layout="NHWC", x_shape=[1, 4, 4, 2]}
node conv: c/nhwc: float32[1, 4, 4, 3] = FusedConv(x, conv/packed_weights, _, _) {kernel_shape=[1, 1], layout="NHWC", out_channels=3, packed_weights=1}
)";
  LayoutNhwcStats stats;
  EXPECT_EQ(Layout(before + "node r: z: float32[1, 4, 4, 3] = Neg(y)\noutput z\n", &stats),
            after + "node r: z: float32[1, 4, 4, 3] = Neg(c/nhwc)\noutput z\n");
  EXPECT_EQ(stats.convs, 1);
  EXPECT_EQ(stats.transposes, 0);
  // The NHWC result itself a graph output: an Identity keeps its name.
  EXPECT_EQ(Layout(before + "output y\n", &stats),
            after + "node back: y: float32[1, 4, 4, 3] = Identity(c/nhwc)\noutput y\n");
}
// channel axis 1 becomes 3.
TEST(LayoutNhwcTest, BatchNormReluAsScaleShiftAndSliceAxes) {
  LayoutNhwcStats stats;
  EXPECT_EQ(Layout(R"(graph g
input x: float32[1, 2, 4, 4]
const w: float32[4, 2, 1, 1] = [1, 0, 0, 1, 1, 1, 1, -1]
const scale: float32[4] = [2, 2, 2, 2]
const bias: float32[4] = [1, 1, 1, 1]
const mean: float32[4] = [0.5, 0.5, 0.5, 0.5]
const var: float32[4] = [3, 3, 3, 3]
const starts: int64[1] = [2]
const ends: int64[1] = [4]
const axes: int64[1] = [1]
node conv: c: float32[1, 4, 4, 4] = Conv(x, w)
node bn: n: float32[1, 4, 4, 4] = BatchNormalization(c, scale, bias, mean, var) {epsilon=1.0}
node relu: r: float32[1, 4, 4, 4] = Relu(n)
node slice: s: float32[1, 2, 4, 4] = Slice(r, starts, ends, axes)
output s
)",
                   &stats),
            R"(graph g
input x: float32[1, 2, 4, 4]
const w: float32[4, 2, 1, 1] = [1, 0, 0, 1, 1, 1, 1, -1]
const starts: int64[1] = [2]
const ends: int64[1] = [4]
const bn/scale: float32[4] = [1, 1, 1, 1]
const bn/shift: float32[4] = [0.5, 0.5, 0.5, 0.5]
const slice/axes_nhwc: int64[1] = [3]
node conv/pack: conv/packed_weights: float32[?] = ConvWeightPack(w) {has_bias=0, has_z=0, kernel_shape=[1, 1], layout="NHWC", x_shape=[1, 4, 4, 2]}
node x/to_nhwc: x/to_nhwc: float32[1, 4, 4, 2] = Transpose(x) {perm=[0, 2, 3, 1]}
node conv: c/nhwc: float32[1, 4, 4, 4] = FusedConv(x/to_nhwc, conv/packed_weights, _, _) {kernel_shape=[1, 1], layout="NHWC", out_channels=4, packed_weights=1}
node bn: r/nhwc: float32[1, 4, 4, 4] = ScaleShift(c/nhwc, bn/scale, bn/shift) {activation="Relu"}
node slice: s/nhwc: float32[1, 4, 4, 2] = Slice(r/nhwc, starts, ends, slice/axes_nhwc)
node s/to_nchw: s: float32[1, 2, 4, 4] = Transpose(s/nhwc) {perm=[0, 3, 1, 2]}
output s
)");
  EXPECT_EQ(stats.convs, 1);
  EXPECT_EQ(stats.followers, 2);
  EXPECT_EQ(stats.transposes, 2);
}

// The channel shuffle Reshape [N, g, C/g, H, W] / Transpose [0, 2, 1, 3, 4] / Reshape runs on the NHWC form as Reshape
// [N, H, W, g, C/g] / Transpose [0, 1, 2, 4, 3] / Reshape [N, H, W, C].
TEST(LayoutNhwcTest, ChannelShuffle) {
  LayoutNhwcStats stats;
  EXPECT_EQ(Layout(R"(graph g
input x: float32[1, 4, 2, 2]
const w: float32[4, 4, 1, 1] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
const s5: int64[5] = [1, 2, 2, 2, 2]
const s4: int64[4] = [1, 4, 2, 2]
node conv: c: float32[1, 4, 2, 2] = Conv(x, w)
node r1: a: float32[1, 2, 2, 2, 2] = Reshape(c, s5)
node t: b: float32[1, 2, 2, 2, 2] = Transpose(a) {perm=[0, 2, 1, 3, 4]}
node r2: y: float32[1, 4, 2, 2] = Reshape(b, s4)
output y
)",
                   &stats),
            R"(graph g
input x: float32[1, 4, 2, 2]
const w: float32[4, 4, 1, 1] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
const r1/shape_nhwc: int64[5] = [1, 2, 2, 2, 2]
const r1/shape_nhwc_back: int64[4] = [1, 2, 2, 4]
node conv/pack: conv/packed_weights: float32[?] = ConvWeightPack(w) {has_bias=0, has_z=0, kernel_shape=[1, 1], layout="NHWC", x_shape=[1, 2, 2, 4]}
node x/to_nhwc: x/to_nhwc: float32[1, 2, 2, 4] = Transpose(x) {perm=[0, 2, 3, 1]}
node conv: c/nhwc: float32[1, 2, 2, 4] = FusedConv(x/to_nhwc, conv/packed_weights, _, _) {kernel_shape=[1, 1], layout="NHWC", out_channels=4, packed_weights=1}
node r1: r1/nhwc5: float32[1, 2, 2, 2, 2] = Reshape(c/nhwc, r1/shape_nhwc)
node t: r1/nhwc5_t: float32[1, 2, 2, 2, 2] = Transpose(r1/nhwc5) {perm=[0, 1, 2, 4, 3]}
node r2: y/nhwc: float32[1, 2, 2, 4] = Reshape(r1/nhwc5_t, r1/shape_nhwc_back)
node y/to_nchw: y: float32[1, 4, 2, 2] = Transpose(y/nhwc) {perm=[0, 3, 1, 2]}
output y
)");
  EXPECT_EQ(stats.convs, 1);
  EXPECT_EQ(stats.followers, 3);
  EXPECT_EQ(stats.transposes, 2);
}

// A shuffle-like graph on a dynamic batch (the reshape targets computed at run time, here
// inputs) whose first Reshape gives [-1, FIVE_D] and the Transpose swaps dims 1 and 2.
std::string DynamicBatchShuffle(const std::string& five_d) {
  std::string text = R"(graph g
input x: float32[-1, 4, 2, 2]
input s5: int64[5]
input s4: int64[4]
const w: float32[4, 4, 1, 1] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
node conv: c: float32[-1, 4, 2, 2] = Conv(x, w)
node r1: a: float32[-1, A] = Reshape(c, s5) {allowzero=0}
node t: b: float32[-1, B] = Transpose(a) {perm=[0, 2, 1, 3, 4]}
node r2: y: float32[-1, 4, 2, 2] = Reshape(b, s4) {allowzero=0}
output y
)";
  const std::string swapped = five_d.substr(3, 1) + ", " + five_d.substr(0, 1) + five_d.substr(4);
  text.replace(text.find("A]"), 1, five_d);
  text.replace(text.find("B]"), 1, swapped);
  return text;
}

// On a dynamic batch (PyTorch's x.view(b, ...) with b = x.size(0)), the NHWC targets copy the
// batch with a 0 (allowzero 0, the default); the computed targets are left to dead-code
// elimination.
TEST(LayoutNhwcTest, ChannelShuffleOnADynamicBatch) {
  LayoutNhwcStats stats;
  const std::string out = Layout(DynamicBatchShuffle("2, 2, 2, 2"), &stats);
  EXPECT_NE(out.find("const r1/shape_nhwc: int64[5] = [0, 2, 2, 2, 2]\n"), std::string::npos) << out;
  EXPECT_NE(out.find("const r1/shape_nhwc_back: int64[4] = [0, 2, 2, 4]\n"), std::string::npos) << out;
  EXPECT_NE(out.find("node r1: r1/nhwc5: float32[-1, 2, 2, 2, 2] = Reshape(c/nhwc, r1/shape_nhwc)\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("node t: r1/nhwc5_t: float32[-1, 2, 2, 2, 2] = Transpose(r1/nhwc5) {perm=[0, 1, 2, 4, 3]}\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("node r2: y/nhwc: float32[-1, 2, 2, 4] = Reshape(r1/nhwc5_t, r1/shape_nhwc_back)\n"),
            std::string::npos)
      << out;
  EXPECT_EQ(stats.convs, 1);
}

// Must not fire: a reshape whose other dims do not match the input's is not a channel shuffle.
TEST(LayoutNhwcTest, ReshapeThatIsNoChannelShuffleStaysNchw) {
  LayoutNhwcStats stats;
  const std::string out = Layout(DynamicBatchShuffle("2, 2, 4, 1"), &stats);
  EXPECT_EQ(out.find("shape_nhwc"), std::string::npos) << out;
  EXPECT_NE(out.find("node r1: a: float32[-1, 2, 2, 4, 1] = Reshape(c, s5) {allowzero=0}\n"), std::string::npos) << out;
}

// Weights that are not constant, a 1-D Conv, and a Relu of an NCHW graph input stay as they are.
TEST(LayoutNhwcTest, MustNotFire) {
  LayoutNhwcStats stats;
  EXPECT_EQ(Layout(R"(graph g
input x: float32[1, 2, 4, 4]
input wv: float32[3, 2, 1, 1]
input x3: float32[1, 2, 8]
const w: float32[3, 2, 1, 1] = [1, 0, 0, 1, 1, 1]
const w1: float32[3, 2, 1] = [1, 0, 0, 1, 1, 1]
input xi: int32[1, 2, 4, 4]
node c1: y1: float32[1, 3, 4, 4] = Conv(x, wv)
node c2: y2: float32[1, 3, 8] = Conv(x3, w1)
node r: y3: float32[1, 2, 4, 4] = Relu(x)
output y1, y2, y3
)",
                   &stats),
            R"(graph g
input x: float32[1, 2, 4, 4]
input wv: float32[3, 2, 1, 1]
input x3: float32[1, 2, 8]
input xi: int32[1, 2, 4, 4]
const w1: float32[3, 2, 1] = [1, 0, 0, 1, 1, 1]
node c1: y1: float32[1, 3, 4, 4] = Conv(x, wv)
node c2: y2: float32[1, 3, 8] = Conv(x3, w1)
node r: y3: float32[1, 2, 4, 4] = Relu(x)
output y1, y2, y3
)");
  EXPECT_EQ(stats.convs, 0);
  EXPECT_EQ(stats.followers, 0);
  EXPECT_EQ(stats.transposes, 0);
}

}  // namespace
}  // namespace ge
