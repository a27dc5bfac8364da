// Conv + depthwise fusion (a 1x1 FusedConv and the depthwise FusedConv reading it -> one
// FusedConvDw): before/after in the textual IR, the re-laid weights checked element by element,
// and the cases where it must not fire.

#include "pass_test_util.h"

namespace ge {
namespace {

// w1[o][i] = 2 o + i (16 filters of 2 channels), w2[o][t] = 100 o + t (tap t of channel o's 3x3
// filter); the biases are zeros.
std::string Graph(const std::string& expand_attrs, const std::string& dw_attrs, const std::string& extra = "",
                  const std::string& outputs = "y") {
  std::string w1 = "[";
  for (int i = 0; i < 32; ++i) w1 += (i ? ", " : "") + std::to_string(i);
  w1 += "]";
  std::string w2 = "[";
  for (int o = 0; o < 16; ++o)
    for (int t = 0; t < 9; ++t) w2 += (o + t ? ", " : "") + std::to_string(100 * o + t);
  w2 += "]";
  return R"(graph g
input x: float32[1, 4, 4, 2]
const w1: float32[16, 2, 1, 1] = )" +
         w1 + R"(
const b1: float32[16] = opaque
const w2: float32[16, 1, 3, 3] = )" +
         w2 + R"(
const b2: float32[16] = opaque
node e/pack: pe = ConvWeightPack(w1) {kernel_shape=[1, 1], x_shape=[1, 4, 4, 2]}
node e: ev: float32[1, 4, 4, 16] = FusedConv(x, pe, b1, _) {kernel_shape=[1, 1], layout="NHWC", out_channels=16, packed_weights=1)" +
         expand_attrs + R"(}
node d/pack: pd = ConvWeightPack(w2) {group=16, kernel_shape=[3, 3], x_shape=[1, 4, 4, 16]}
node d: y: float32[1, 4, 4, 16] = FusedConv(ev, pd, b2, _) {group=16, kernel_shape=[3, 3], layout="NHWC", out_channels=16, packed_weights=1, pads=[1, 1, 1, 1])" +
         dw_attrs + "}\n" + extra + "output " + outputs + "\n";
}

TEST(ConvDepthwiseFusionTest, ExpandAndDepthwiseBecomeOneNode) {
  bool changed = false;
  const std::string out = test::RunPass(
      "conv-depthwise-fusion",
      Graph(R"(, activation="Clip", activation_params=[0.0, 6.0])", R"(, activation="Relu", strides=[1, 1])"),
      &changed);
  EXPECT_TRUE(changed);
  // The two FusedConvs and their weight packing gone; the OIHW weights re-laid as constants (their
  // values: the next test).
  EXPECT_EQ(out, R"(graph g
input x: float32[1, 4, 4, 2]
const b1: float32[16] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
const b2: float32[16] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
const e/expand_weights: float32[1, 2, 16] = opaque
const d/depthwise_weights: float32[9, 16] = opaque
node d: y: float32[1, 4, 4, 16] = FusedConvDw(x, e/expand_weights, b1, d/depthwise_weights, b2) {activation="Relu", expand_activation="Clip", expand_activation_params=[0.0, 6.0], kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[1, 1]}
output y
)");
}

// The named value's float constant, or null.
const HostTensor* Constant(const ge::Graph& g, const std::string& name) {
  const ValueId v = g.FindValue(name);
  if (v == kNoValue || !g.value(v).constant || g.value(v).constant->dtype() != DT_FLOAT) return nullptr;
  return &*g.value(v).constant;
}

// The layouts: expand weights [M / 16, C, 16], element (o, i) at (o / 16, i, o % 16); depthwise
// weights [KH * KW, M], tap t of channel o at (t, o).
TEST(ConvDepthwiseFusionTest, ExpandWeightsAreLaidOutInPanels) {
  auto g = test::Parse(Graph("", ""));
  ASSERT_TRUE(g);
  bool changed = false;
  ASSERT_TRUE(RunGraphPass("conv-depthwise-fusion", g.get(), &changed).ok());
  ASSERT_TRUE(changed);
  const HostTensor* w = Constant(*g, "e/expand_weights");
  ASSERT_NE(w, nullptr);
  ASSERT_EQ(w->shape().GetDims(), (std::vector<int64_t>{1, 2, 16}));
  for (int o = 0; o < 16; ++o)
    for (int i = 0; i < 2; ++i) EXPECT_EQ(w->data_as<float>()[i * 16 + o], 2 * o + i) << o << ", " << i;
  const HostTensor* d = Constant(*g, "d/depthwise_weights");
  ASSERT_NE(d, nullptr);
  ASSERT_EQ(d->shape().GetDims(), (std::vector<int64_t>{9, 16}));
  for (int o = 0; o < 16; ++o)
    for (int t = 0; t < 9; ++t) EXPECT_EQ(d->data_as<float>()[t * 16 + o], 100 * o + t) << o << ", " << t;
}

TEST(ConvDepthwiseFusionTest, NotForOtherReadersOutputsOrActivations) {
  // The expanded tensor read twice, or a graph output; activations the kernel lacks (Tanh,
  // LeakyRelu); auto_pad on the depthwise convolution; a strided 1x1; a dilated or stride-3
  // depthwise window.
  const std::string cases[] = {
      Graph("", "", "node r: ev2: float32[1, 4, 4, 16] = Relu(ev)\n", "y, ev2"),
      Graph("", "", "", "y, ev"),
      Graph(R"(, activation="Tanh")", ""),
      Graph("", R"(, auto_pad="SAME_UPPER")"),
      Graph(", strides=[2, 2]", ""),
      Graph("", ", dilations=[2, 2]"),
      Graph("", ", strides=[3, 3]"),
      Graph(R"(, activation="LeakyRelu")", ""),
  };
  for (const std::string& text : cases) {
    bool changed = true;
    EXPECT_EQ(test::RunPass("conv-depthwise-fusion", text, &changed), test::RunPass("conv-depthwise-fusion", text));
    EXPECT_FALSE(changed) << text;
  }
}

}  // namespace
}  // namespace ge
