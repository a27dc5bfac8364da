// Conv (+ residual Add) + activation -> FusedConv: before/after in the textual IR.

#include "pass_test_util.h"

namespace ge {
namespace {

const char* kHead = R"(graph g
input x: float32[1, 2, 4, 4]
input r: float32[1, 2, 4, 4]
const w: float32[2, 2, 1, 1] = [1, 0, 0, 1]
)";
const char* kBias = "const b: float32[2] = [0.5, -0.5]\n";

std::string Fuse(const std::string& body, bool* changed = nullptr) {
  return test::RunPass("conv-activation-fusion", kHead + body, changed);
}

TEST(ConvActivationFusionTest, ConvResidualAddRelu) {
  EXPECT_EQ(
      Fuse(kBias +
           std::string(
               R"(node conv: c: float32[1, 2, 4, 4] = Conv(x, w, b) {group=1, kernel_shape=[1, 1], strides=[1, 1]}
node add: s: float32[1, 2, 4, 4] = Add(r, c)
node relu: y: float32[1, 2, 4, 4] = Relu(s)
output y
)")),
      std::string(kHead) + kBias +
          R"(node conv: y: float32[1, 2, 4, 4] = FusedConv(x, w, b, r) {activation="Relu", activation_params=f[], group=1, kernel_shape=[1, 1], strides=[1, 1]}
output y
)");
}

TEST(ConvActivationFusionTest, ResidualOfADynamicBatch) {
  // The residual's batch is x's batch followed through a Relu, a Conv and a broadcast Mul: the Add
  // fuses as with static shapes. u's batch is another input's: its Add does not.
  const std::string head = R"(graph g
input x: float32[-1, 2, 4, 4]
input u: float32[-1, 2, 4, 4]
const w: float32[2, 2, 1, 1] = [1, 0, 0, 1]
const k: float32[1, 2, 1, 1] = [2, 3]
)";
  EXPECT_EQ(
      test::RunPass("conv-activation-fusion", head + R"(node pre: p: float32[-1, 2, 4, 4] = Conv(x, w)
node relu0: q: float32[-1, 2, 4, 4] = Relu(p)
node scale: r: float32[-1, 2, 4, 4] = Mul(k, q)
node conv: c: float32[-1, 2, 4, 4] = Conv(x, w)
node add: s: float32[-1, 2, 4, 4] = Add(c, r)
node conv2: c2: float32[-1, 2, 4, 4] = Conv(x, w)
node add2: s2: float32[-1, 2, 4, 4] = Add(c2, u)
output s, s2
)"),
      head + R"(node pre: q: float32[-1, 2, 4, 4] = FusedConv(x, w, _, _) {activation="Relu", activation_params=f[]}
node scale: r: float32[-1, 2, 4, 4] = Mul(k, q)
node conv: s: float32[-1, 2, 4, 4] = FusedConv(x, w, _, r) {activation="", activation_params=f[]}
node conv2: c2: float32[-1, 2, 4, 4] = Conv(x, w)
node add2: s2: float32[-1, 2, 4, 4] = Add(c2, u)
output s, s2
)");
}

TEST(ConvActivationFusionTest, ResidualOfADynamicBatchThroughLayoutOps) {
  // The batch followed through Transpose, Concat, Split and Reshape's copied (0) dim: those Adds
  // fuse. A Reshape to -1, or a Transpose that moves another dim to the front, proves nothing.
  const std::string head = R"(graph g
input x: float32[-1, 2, 4, 4]
input v: float32[-1, -1, 4, 4]
const w: float32[2, 2, 1, 1] = [1, 0, 0, 1]
const keep: int64[4] = [0, 2, 4, 4]
const infer: int64[4] = [-1, 2, 4, 4]
)";
  EXPECT_EQ(test::RunPass("conv-activation-fusion",
                          head + R"(node t1: p: float32[-1, 4, 4, 2] = Transpose(x) {perm=[0, 2, 3, 1]}
node t2: q: float32[-1, 2, 4, 4] = Transpose(p) {perm=[0, 3, 1, 2]}
node c1: a1: float32[-1, 2, 4, 4] = Conv(x, w)
node add1: y1: float32[-1, 2, 4, 4] = Add(a1, q)
node cat: k: float32[-1, 4, 4, 4] = Concat(x, q) {axis=1}
node split: k0: float32[-1, 2, 4, 4], k1: float32[-1, 2, 4, 4] = Split(k) {axis=1}
node c2: a2: float32[-1, 2, 4, 4] = Conv(x, w)
node add2: y2: float32[-1, 2, 4, 4] = Add(k1, a2)
node r0: r: float32[-1, 2, 4, 4] = Reshape(x, keep)
node c3: a3: float32[-1, 2, 4, 4] = Conv(x, w)
node add3: y3: float32[-1, 2, 4, 4] = Add(a3, r)
node r1: s: float32[-1, 2, 4, 4] = Reshape(x, infer)
node c4: a4: float32[-1, 2, 4, 4] = Conv(x, w)
node add4: y4: float32[-1, 2, 4, 4] = Add(a4, s)
node t3: u: float32[-1, -1, 4, 4] = Transpose(v) {perm=[1, 0, 2, 3]}
node c5: a5: float32[-1, 2, 4, 4] = Conv(u, w)
node add5: y5: float32[-1, 2, 4, 4] = Add(a5, x)
output y1, y2, y3, y4, y5, k0
)"),
            head + R"(node t1: p: float32[-1, 4, 4, 2] = Transpose(x) {perm=[0, 2, 3, 1]}
node t2: q: float32[-1, 2, 4, 4] = Transpose(p) {perm=[0, 3, 1, 2]}
node c1: y1: float32[-1, 2, 4, 4] = FusedConv(x, w, _, q) {activation="", activation_params=f[]}
node cat: k: float32[-1, 4, 4, 4] = Concat(x, q) {axis=1}
node split: k0: float32[-1, 2, 4, 4], k1: float32[-1, 2, 4, 4] = Split(k) {axis=1}
node c2: y2: float32[-1, 2, 4, 4] = FusedConv(x, w, _, k1) {activation="", activation_params=f[]}
node r0: r: float32[-1, 2, 4, 4] = Reshape(x, keep)
node c3: y3: float32[-1, 2, 4, 4] = FusedConv(x, w, _, r) {activation="", activation_params=f[]}
node r1: s: float32[-1, 2, 4, 4] = Reshape(x, infer)
node c4: a4: float32[-1, 2, 4, 4] = Conv(x, w)
node add4: y4: float32[-1, 2, 4, 4] = Add(a4, s)
node t3: u: float32[-1, -1, 4, 4] = Transpose(v) {perm=[1, 0, 2, 3]}
node c5: a5: float32[-1, 2, 4, 4] = Conv(u, w)
node add5: y5: float32[-1, 2, 4, 4] = Add(a5, x)
output y1, y2, y3, y4, y5, k0
)");
}

TEST(ConvActivationFusionTest, ActivationsAndTheirParameters) {
  EXPECT_EQ(Fuse(kBias + std::string(R"(const lo: float32[] = [0]
const hi: float32[] = [6]
node c1: a1 = Conv(x, w)
node clip: y1 = Clip(a1, lo, hi)
node c2: a2 = Conv(x, w, b)
node leaky: y2 = LeakyRelu(a2) {alpha=0.1}
node c3: a3 = Conv(x, w)
node hsig: y3 = HardSigmoid(a3)
node c4: a4 = Conv(x, w)
node clip_open: y4 = Clip(a4, _, hi)
node c5: a5 = Conv(x, w)
node hswish: y5 = HardSwish(a5)
output y1, y2, y3, y4, y5
)")),
            std::string(kHead) + kBias +
                R"(node c1: y1 = FusedConv(x, w, _, _) {activation="Clip", activation_params=[0.0, 6.0]}
node c2: y2 = FusedConv(x, w, b, _) {activation="LeakyRelu", activation_params=[0.1]}
node c3: y3 = FusedConv(x, w, _, _) {activation="HardSigmoid", activation_params=[0.2, 0.5]}
node c4: y4 = FusedConv(x, w, _, _) {activation="Clip", activation_params=[-3.4028235e+38, 6.0]}
node c5: y5 = FusedConv(x, w, _, _) {activation="HardSwish", activation_params=f[]}
output y1, y2, y3, y4, y5
)");
}

TEST(ConvActivationFusionTest, SwishAsPyTorchExportsIt) {
  // x * sigmoid(x), either operand order of the Mul.
  EXPECT_EQ(Fuse(R"(node c1: a1 = Conv(x, w)
node s1: g1 = Sigmoid(a1)
node m1: y1 = Mul(a1, g1)
node c2: a2 = Conv(x, w)
node s2: g2 = Sigmoid(a2)
node m2: y2 = Mul(g2, a2)
output y1, y2
)"),
            std::string(kHead) + R"(node c1: y1 = FusedConv(x, w, _, _) {activation="Swish", activation_params=f[]}
node c2: y2 = FusedConv(x, w, _, _) {activation="Swish", activation_params=f[]}
output y1, y2
)");
}

TEST(ConvActivationFusionTest, ReluThenClipIsOneClip) {
  // clip(relu(v), -1, 6) = clip(v, 0, 6); a Relu whose output is a graph output keeps its Clip.
  EXPECT_EQ(Fuse(R"(const lo: float32[] = [-1]
const hi: float32[] = [6]
node c1: a1 = Conv(x, w)
node relu1: r1 = Relu(a1)
node clip1: y1 = Clip(r1, lo, hi)
node c2: a2 = Conv(x, w)
node relu2: r2 = Relu(a2)
node clip2: y2 = Clip(r2, lo, hi)
output y1, r2, y2
)"),
            std::string(kHead) + R"(const lo: float32[] = [-1]
const hi: float32[] = [6]
node c1: y1 = FusedConv(x, w, _, _) {activation="Clip", activation_params=[0.0, 6.0]}
node c2: r2 = FusedConv(x, w, _, _) {activation="Relu", activation_params=f[]}
node clip2: y2 = Clip(r2, lo, hi)
output y1, r2, y2
)");
}

TEST(ConvActivationFusionTest, StopsAtAValueWithAnotherReaderOrAGraphOutput) {
  // The Add's output is also read by Neg: the residual fuses, the Relu does not.
  EXPECT_EQ(Fuse(R"(node conv: c: float32[1, 2, 4, 4] = Conv(x, w)
node add: s: float32[1, 2, 4, 4] = Add(c, r)
node relu: y = Relu(s)
node neg: n = Neg(s)
output y, n
)"),
            std::string(kHead) +
                R"(node conv: s: float32[1, 2, 4, 4] = FusedConv(x, w, _, r) {activation="", activation_params=f[]}
node relu: y = Relu(s)
node neg: n = Neg(s)
output y, n
)");
}

TEST(ConvActivationFusionTest, MustNotFire) {
  // c1 is a graph output; c2 has two readers; the Add of c3 broadcasts (other shape); the
  // Clip of c4 has a non-constant max; c5's Sigmoid output is read by a third node (not Swish);
  // c6 is float64.
  const std::string text = R"(graph g
input x: float32[1, 2, 4, 4]
input hi: float32[]
input small: float32[1, 2, 1, 1]
input x64: float64[1, 2, 4, 4]
input w64: float64[2, 2, 1, 1]
const w: float32[2, 2, 1, 1] = [1, 0, 0, 1]
node c1: a1 = Conv(x, w)
node relu1: y1 = Relu(a1)
node c2: a2 = Conv(x, w)
node relu2: y2 = Relu(a2)
node neg2: n2 = Neg(a2)
node c3: a3: float32[1, 2, 4, 4] = Conv(x, w)
node add3: s3: float32[1, 2, 4, 4] = Add(a3, small)
node relu3: y3 = Relu(s3)
node c4: a4 = Conv(x, w)
node clip4: y4 = Clip(a4, _, hi)
node c5: a5 = Conv(x, w)
node sig5: g5 = Sigmoid(a5)
node m5: y5 = Mul(a5, g5)
node other5: o5 = Neg(g5)
node c6: a6: float64[1, 2, 4, 4] = Conv(x64, w64)
node relu6: y6 = Relu(a6)
output a1, y1, y2, n2, y3, y4, y5, o5, y6
)";
  bool changed = true;
  EXPECT_EQ(test::RunPass("conv-activation-fusion", text, &changed), text);
  EXPECT_FALSE(changed);
}

}  // namespace
}  // namespace ge
