// LayerNormalization pattern recognition: before/after in the textual IR.

#include "pass_test_util.h"

namespace ge {
namespace {

// PyTorch's nn.LayerNorm(4) exported at opset 16.
const char* kLayerNorm = R"(graph g
input x: float32[2, 3, 4]
const two: float32[] = [2]
const eps: float32[] = [1e-05]
const gamma: float32[4] = [1, 2, 3, 4]
const beta: float32[4] = [0, 0.5, 0, -0.5]
node mean: m = ReduceMean(x) {axes=[-1], keepdims=1}
node sub: d = Sub(x, m)
node pow: p = Pow(d, two)
node mean2: v = ReduceMean(p) {axes=[-1]}
node add_eps: ve = Add(v, eps)
node sqrt: s = Sqrt(ve)
node div: n = Div(d, s)
node mul: g = Mul(n, gamma)
node add: y = Add(g, beta)
node relu: z = Relu(y)
output z
)";

TEST(LayerNormFusionTest, TheOpset16ExportBecomesOneNode) {
  EXPECT_EQ(test::RunPass("layer-norm-fusion", kLayerNorm), R"(graph g
input x: float32[2, 3, 4]
const gamma: float32[4] = [1, 2, 3, 4]
const beta: float32[4] = [0, 0.5, 0, -0.5]
node mean: y = LayerNormalization(x, gamma, beta) {axis=2, epsilon=1e-05}
node relu: z = Relu(y)
output z
)");
}

TEST(LayerNormFusionTest, SquareAsMulAxesAsInputNoScaleNoBias) {
  // Over the two trailing axes, the square as Mul(d, d), no affine part: the scale is ones.
  EXPECT_EQ(test::RunPass("layer-norm-fusion", R"(graph g
input x: float32[2, 2, 3]
const eps: float32[] = [0.001]
node mean: m = ReduceMean(x) {axes=[-2, -1]}
node sub: d = Sub(x, m)
node sq: p = Mul(d, d)
node mean2: v = ReduceMean(p) {axes=[1, 2], keepdims=1}
node add_eps: ve = Add(eps, v)
node sqrt: s = Sqrt(ve)
node div: n = Div(d, s)
output n
)"),
            R"(graph g
input x: float32[2, 2, 3]
const mean_ln_scale: float32[2, 3] = [1, 1, 1, 1, 1, 1]
node mean: n = LayerNormalization(x, mean_ln_scale, _) {axis=1, epsilon=0.001}
output n
)");
}

TEST(LayerNormFusionTest, MustNotFire) {
  // Each variation breaks one condition: the centred value read elsewhere, a non-trailing axis,
  // an exponent of 3, and a variance that is a graph output.
  auto unchanged = [](const std::string& text) { test::ExpectUnchanged("layer-norm-fusion", text); };
  auto with = [](const std::string& from, const std::string& to) { return test::Replaced(kLayerNorm, from, to); };
  unchanged(with("node relu: z = Relu(y)\noutput z", "node relu: z = Relu(y)\nnode neg: e = Neg(d)\noutput z, e"));
  unchanged(with("ReduceMean(x) {axes=[-1], keepdims=1}", "ReduceMean(x) {axes=[1], keepdims=1}"));
  unchanged(with("const two: float32[] = [2]", "const two: float32[] = [3]"));
  unchanged(with("output z", "output z, v"));
}

}  // namespace
}  // namespace ge
