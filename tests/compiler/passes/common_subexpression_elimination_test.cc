// Common-subexpression elimination: before/after in the textual IR.

#include "pass_test_util.h"

namespace ge {
namespace {

TEST(CommonSubexpressionEliminationTest, MergesEqualNodesAndEqualConstants) {
  // b2 repeats b1 through an equal copy of the constant; the Adds then read the same values
  // and merge too.
  EXPECT_EQ(test::RunPass("common-subexpression-elimination", R"(graph g
input x: float32[2, 3]
const ax1: int64[1] = [1]
const ax2: int64[1] = [1]
node b1: r1 = ReduceSum(x, ax1) {keepdims=1}
node b2: r2 = ReduceSum(x, ax2) {keepdims=1}
node add1: s1 = Add(r1, x)
node add2: s2 = Add(r2, x)
node m: y = Mul(s1, s2)
output y
)"),
            R"(graph g
input x: float32[2, 3]
const ax1: int64[1] = [1]
node b1: r1 = ReduceSum(x, ax1) {keepdims=1}
node add1: s1 = Add(r1, x)
node m: y = Mul(s1, s1)
output y
)");
}

TEST(CommonSubexpressionEliminationTest, MustNotFire) {
  // Different attributes, different input order, random ops, and a duplicate whose output is
  // a graph output.
  const std::string text = R"(graph g
input x: float32[2, 3]
node t1: a = Transpose(x) {perm=[1, 0]}
node t2: b = Transpose(x) {perm=[0, 1]}
node s1: c = Sub(x, a)
node s2: d = Sub(a, x)
node r1: e = RandomNormalLike(x)
node r2: f = RandomNormalLike(x)
node n1: g1 = Neg(x)
node n2: g2 = Neg(x)
output b, c, d, e, f, g1, g2
)";
  bool changed = true;
  EXPECT_EQ(test::RunPass("common-subexpression-elimination", text, &changed), text);
  EXPECT_FALSE(changed);
}

}  // namespace
}  // namespace ge
