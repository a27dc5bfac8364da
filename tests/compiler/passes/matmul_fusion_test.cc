// MatMul fusion: before/after in the textual IR (constants nobody reads are not printed).

#include "pass_test_util.h"

namespace ge {
namespace {

// A batched MatMul + bias Add + GELU as PyTorch exports it (erf form) -> one FusedMatMul.
TEST(MatMulFusionTest, BiasAndGeluPattern) {
  EXPECT_EQ(test::RunPass("matmul-fusion", R"(graph g
input a: float32[1, 2, 3]
const w: float32[3, 2] = [1, 2, 3, 4, 5, 6]
const bias: float32[2] = [1, 2]
const sqrt2: float32[] = [1.4142135]
const one: float32[] = [1]
const half: float32[] = [0.5]
node mm: m: float32[1, 2, 2] = MatMul(a, w)
node add: y: float32[1, 2, 2] = Add(m, bias)
node div: d = Div(y, sqrt2)
node erf: e = Erf(d)
node add1: p = Add(e, one)
node mul: q = Mul(y, p)
node mul2: out = Mul(q, half)
output out
)"),
            R"(graph g
input a: float32[1, 2, 3]
const w: float32[3, 2] = [1, 2, 3, 4, 5, 6]
const bias: float32[2] = [1, 2]
node mm: out = FusedMatMul(a, w, bias, _) {activation="Gelu", activation_params=f[]}
output out
)");
}

// Gemm with transB = 1 and a constant B: B is transposed once; the residual Add and the Relu fuse.
TEST(MatMulFusionTest, GemmTransposedWeightsResidualRelu) {
  EXPECT_EQ(test::RunPass("matmul-fusion", R"(graph g
input a: float32[2, 3]
input r: float32[2, 2]
const w: float32[2, 3] = [1, 2, 3, 4, 5, 6]
const c: float32[2] = [1, 2]
node gemm: m: float32[2, 2] = Gemm(a, w, c) {transB=1}
node add: y: float32[2, 2] = Add(r, m)
node relu: out = Relu(y)
output out
)"),
            R"(graph g
input a: float32[2, 3]
input r: float32[2, 2]
const c: float32[2] = [1, 2]
const w/transposed: float32[3, 2] = [1, 4, 2, 5, 3, 6]
node gemm: out = FusedMatMul(a, w/transposed, c, r) {activation="Relu", activation_params=f[]}
output out
)");
}

// The attention output projection's residual behind views: Gemm [2, 4] -> Reshape [2, 1, 4] ->
// Reshape [1, 2, 4] -> Add(x, .): x reshaped to [2, 4] becomes Z and the last Reshape writes the
// Add's output (the Gemm then reads Z where it writes Y: oneDNN's sum post-op).
TEST(MatMulFusionTest, ResidualThroughReshapes) {
  EXPECT_EQ(test::RunPass("matmul-fusion", R"(graph g
input a: float32[2, 3]
input x: float32[1, 2, 4]
const w: float32[3, 4] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
const c: float32[4] = [1, 2, 3, 4]
const s1: int64[3] = [2, 1, 4]
const s2: int64[3] = [1, 2, 4]
node gemm: m: float32[2, 4] = Gemm(a, w, c)
node r1: v1: float32[2, 1, 4] = Reshape(m, s1)
node r2: v2: float32[1, 2, 4] = Reshape(v1, s2)
node add: out: float32[1, 2, 4] = Add(x, v2)
node ln: y = LayerNormalization(out)
output y
)"),
            R"(graph g
input a: float32[2, 3]
input x: float32[1, 2, 4]
const w: float32[3, 4] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
const c: float32[4] = [1, 2, 3, 4]
const s1: int64[3] = [2, 1, 4]
const s2: int64[3] = [1, 2, 4]
const add/residual_shape: int64[2] = [2, 4]
node add/residual: add/residual: float32[2, 4] = Reshape(x, add/residual_shape)
node gemm: m: float32[2, 4] = FusedMatMul(a, w, c, add/residual) {activation="", activation_params=f[]}
node r1: v1: float32[2, 1, 4] = Reshape(m, s1)
node r2: out: float32[1, 2, 4] = Reshape(v1, s2)
node ln: y = LayerNormalization(out)
output y
)");
}

// Behind views, must not fire: a Reshape output that is also a graph output (mm2); an Add that
// broadcasts x (mm3). mm1 is already fused and is left alone.
TEST(MatMulFusionTest, ResidualThroughReshapesMustNotFire) {
  const std::string text = R"(graph g
input a: float32[2, 3]
input x: float32[1, 2, 4]
input xb: float32[4]
const w: float32[3, 4] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
const s1: int64[3] = [1, 2, 4]
node mm1: m1: float32[2, 4] = FusedMatMul(a, w)
node r1: v1: float32[1, 2, 4] = Reshape(m1, s1)
node add1: o1: float32[1, 2, 4] = Add(x, v1)
node mm2: m2: float32[2, 4] = MatMul(a, w)
node r2: v2: float32[1, 2, 4] = Reshape(m2, s1)
node add2: o2: float32[1, 2, 4] = Add(x, v2)
node mm3: m3: float32[2, 4] = MatMul(a, w)
node r3: v3: float32[1, 2, 4] = Reshape(m3, s1)
node add3: o3: float32[1, 2, 4] = Add(xb, v3)
output o1, o2, v2, o3
)";
  const std::string out = test::RunPass("matmul-fusion", text);
  // mm2 and mm3 become plain FusedMatMuls (no Z); both Adds stay.
  EXPECT_NE(out.find("node add2: o2: float32[1, 2, 4] = Add(x, v2)"), std::string::npos) << out;
  EXPECT_NE(out.find("node add3: o3: float32[1, 2, 4] = Add(xb, v3)"), std::string::npos) << out;
  EXPECT_EQ(out.find("residual"), std::string::npos) << out;
}

// A dynamic sequence: the residual's unknown dim is the product's (followed through a Relu, a
// MatMul, a Flatten and a Gemm), so the Add fuses; b's unknown dim is another input's, and its
// Add does not.
TEST(MatMulFusionTest, ResidualOfADynamicSequence) {
  const std::string head = R"(graph g
input a: float32[1, -1, 4]
input b: float32[1, -1, 4]
input c: float32[-1, 2, 2, 1]
const w: float32[4, 4] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
)";
  EXPECT_EQ(test::RunPass("matmul-fusion", head + R"(node relu: x: float32[1, -1, 4] = Relu(a)
node mm: m: float32[1, -1, 4] = MatMul(x, w)
node add: y: float32[1, -1, 4] = Add(m, a)
node mm2: m2: float32[1, -1, 4] = MatMul(x, w)
node add2: y2: float32[1, -1, 4] = Add(m2, b)
node fl: f: float32[-1, 4] = Flatten(c)
node gemm: g2: float32[-1, 4] = Gemm(f, w)
node add3: y3: float32[-1, 4] = Add(f, g2)
output y, y2, y3
)"),
            head + R"(node relu: x: float32[1, -1, 4] = Relu(a)
node mm: y: float32[1, -1, 4] = FusedMatMul(x, w, _, a) {activation="", activation_params=f[]}
node mm2: m2: float32[1, -1, 4] = FusedMatMul(x, w, _, _) {activation="", activation_params=f[]}
node add2: y2: float32[1, -1, 4] = Add(m2, b)
node fl: f: float32[-1, 4] = Flatten(c)
node gemm: y3: float32[-1, 4] = FusedMatMul(f, w, _, f) {activation="", activation_params=f[]}
output y, y2, y3
)");
}

TEST(MatMulFusionTest, MustNotFire) {
  // A batched B (3-D); a Gemm with transA; a Gemm with alpha != 1; a transposed B that is not a
  // constant; int64 inputs.
  const std::string text = R"(graph g
input a: float32[2, 3]
input a3: float32[5, 2, 3]
input b3: float32[5, 3, 4]
input bt: float32[4, 3]
input ia: int64[2, 3]
input ib: int64[3, 4]
const w: float32[3, 4] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
const wt: float32[3, 2] = [1, 2, 3, 4, 5, 6]
node mm1: y1 = MatMul(a3, b3)
node g2: y2 = Gemm(wt, w) {transA=1}
node g3: y3 = Gemm(a, w) {alpha=2.0}
node g4: y4 = Gemm(a, bt) {transB=1}
node mm5: y5 = MatMul(ia, ib)
output y1, y2, y3, y4, y5
)";
  bool changed = true;
  EXPECT_EQ(test::RunPass("matmul-fusion", text, &changed), text);
  EXPECT_FALSE(changed);
}

// The GELU pattern with a wrong constant (erf(x / 2)) is not GELU: only the bias fuses.
TEST(MatMulFusionTest, NotGeluWithAnotherScale) {
  EXPECT_EQ(test::RunPass("matmul-fusion", R"(graph g
input a: float32[2, 3]
const w: float32[3, 2] = [1, 2, 3, 4, 5, 6]
const bias: float32[2] = [1, 2]
const two: float32[] = [2]
const one: float32[] = [1]
const half: float32[] = [0.5]
node mm: m: float32[2, 2] = MatMul(a, w)
node add: y: float32[2, 2] = Add(m, bias)
node div: d = Div(y, two)
node erf: e = Erf(d)
node add1: p = Add(e, one)
node mul: q = Mul(y, p)
node mul2: out = Mul(q, half)
output out
)"),
            R"(graph g
input a: float32[2, 3]
const w: float32[3, 2] = [1, 2, 3, 4, 5, 6]
const bias: float32[2] = [1, 2]
const two: float32[] = [2]
const one: float32[] = [1]
const half: float32[] = [0.5]
node mm: y: float32[2, 2] = FusedMatMul(a, w, bias, _) {activation="", activation_params=f[]}
node div: d = Div(y, two)
node erf: e = Erf(d)
node add1: p = Add(e, one)
node mul: q = Mul(y, p)
node mul2: out = Mul(q, half)
output out
)");
}

// The activations conv-activation-fusion takes fuse into a Gemm too: HardSwish (MobileNetV3's
// classifier), relu6 as Relu + Clip, SiLU as Mul(y, Sigmoid(y)), LeakyRelu with its alpha.
TEST(MatMulFusionTest, ConvActivationsAfterGemm) {
  EXPECT_EQ(test::RunPass("matmul-fusion", R"(graph g
input a: float32[1, 2]
const w: float32[2, 2] = [1, 2, 3, 4]
const lo: float32[] = [0]
const hi: float32[] = [6]
node g1: m1: float32[1, 2] = Gemm(a, w)
node hs: o1 = HardSwish(m1)
node g2: m2: float32[1, 2] = Gemm(a, w)
node relu: r2: float32[1, 2] = Relu(m2)
node clip: o2 = Clip(r2, lo, hi)
node g3: m3: float32[1, 2] = Gemm(a, w)
node sig: s3: float32[1, 2] = Sigmoid(m3)
node mul: o3 = Mul(m3, s3)
node g4: m4: float32[1, 2] = Gemm(a, w)
node leaky: o4 = LeakyRelu(m4) {alpha=0.25}
output o1
output o2
output o3
output o4
)"),
            R"(graph g
input a: float32[1, 2]
const w: float32[2, 2] = [1, 2, 3, 4]
node g1: o1 = FusedMatMul(a, w, _, _) {activation="HardSwish", activation_params=f[]}
node g2: o2 = FusedMatMul(a, w, _, _) {activation="Clip", activation_params=[0.0, 6.0]}
node g3: o3 = FusedMatMul(a, w, _, _) {activation="Swish", activation_params=f[]}
node g4: o4 = FusedMatMul(a, w, _, _) {activation="LeakyRelu", activation_params=[0.25]}
output o1, o2, o3, o4
)");
}

// Must not fire on the activation: a Clip whose bound is not a constant, and a Sigmoid whose
// output has another reader than the Mul (not SiLU). The Gemms still become FusedMatMuls.
TEST(MatMulFusionTest, ActivationsThatDoNotFuse) {
  EXPECT_EQ(test::RunPass("matmul-fusion", R"(graph g
input a: float32[1, 2]
input hi: float32[]
const w: float32[2, 2] = [1, 2, 3, 4]
const lo: float32[] = [0]
node g1: m1: float32[1, 2] = Gemm(a, w)
node clip: o1 = Clip(m1, lo, hi)
node g2: m2: float32[1, 2] = Gemm(a, w)
node sig: s2: float32[1, 2] = Sigmoid(m2)
node mul: o2 = Mul(m2, s2)
output o1
output o2
output s2
)"),
            R"(graph g
input a: float32[1, 2]
input hi: float32[]
const w: float32[2, 2] = [1, 2, 3, 4]
const lo: float32[] = [0]
node g1: m1: float32[1, 2] = FusedMatMul(a, w, _, _) {activation="", activation_params=f[]}
node clip: o1 = Clip(m1, lo, hi)
node g2: m2: float32[1, 2] = FusedMatMul(a, w, _, _) {activation="", activation_params=f[]}
node sig: s2: float32[1, 2] = Sigmoid(m2)
node mul: o2 = Mul(m2, s2)
output o1, o2, s2
)");
}

}  // namespace
}  // namespace ge
