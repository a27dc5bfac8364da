// MatMul + Add -> Gemm: before/after in the textual IR.

#include "pass_test_util.h"

namespace ge {
namespace {

TEST(MatMulAddToGemmTest, TwoDimensionalMatMulWithAConstantRowBias) {
  EXPECT_EQ(test::RunPass("matmul-add-to-gemm", R"(graph g
input a: float32[2, 3]
input b: float32[3, 4]
const bias: float32[4] = [1, 2, 3, 4]
const bias2: float32[1, 4] = [1, 2, 3, 4]
node mm: m: float32[2, 4] = MatMul(a, b)
node add: y: float32[2, 4] = Add(m, bias)
node mm2: m2 = MatMul(a, b)
node add2: y2 = Add(bias2, m2)
output y, y2
)"),
            R"(graph g
input a: float32[2, 3]
input b: float32[3, 4]
const bias: float32[4] = [1, 2, 3, 4]
const bias2: float32[1, 4] = [1, 2, 3, 4]
node mm: y: float32[2, 4] = Gemm(a, b, bias)
node mm2: y2 = Gemm(a, b, bias2)
output y, y2
)");
}

TEST(MatMulAddToGemmTest, MustNotFire) {
  // A 3-D MatMul; a bias that is not a row ([2, 4]); a bias that is not constant; a MatMul
  // output with a second reader; a MatMul output that is a graph output.
  const std::string text = R"(graph g
input a: float32[2, 3]
input a3: float32[5, 2, 3]
input b: float32[3, 4]
input vb: float32[4]
const bias: float32[4] = [1, 2, 3, 4]
const full: float32[2, 4] = [1, 2, 3, 4, 5, 6, 7, 8]
node mm1: m1 = MatMul(a3, b)
node add1: y1 = Add(m1, bias)
node mm2: m2 = MatMul(a, b)
node add2: y2 = Add(m2, full)
node mm3: m3 = MatMul(a, b)
node add3: y3 = Add(m3, vb)
node mm4: m4 = MatMul(a, b)
node add4: y4 = Add(m4, bias)
node neg4: n4 = Neg(m4)
node mm5: m5 = MatMul(a, b)
node add5: y5 = Add(m5, bias)
output y1, y2, y3, y4, n4, m5, y5
)";
  bool changed = true;
  EXPECT_EQ(test::RunPass("matmul-add-to-gemm", text, &changed), text);
  EXPECT_FALSE(changed);
}

}  // namespace
}  // namespace ge
