// Transpose cancellation: before/after in the textual IR.

#include "pass_test_util.h"

namespace ge {
namespace {

TEST(TransposeCancellationTest, InversePairsCancel) {
  // NCHW -> NHWC -> NCHW; and two default (reversing) perms. t1 is also read by Relu, so it stays.
  EXPECT_EQ(test::RunPass("transpose-cancellation", R"(graph g
input x: float32[1, 2, 3, 4]
input v: float32[2, 3, 4]
node t1: a = Transpose(x) {perm=[0, 2, 3, 1]}
node t2: b = Transpose(a) {perm=[0, 3, 1, 2]}
node n: y = Neg(b)
node r: z = Relu(a)
node t3: c = Transpose(v)
node t4: d = Transpose(c)
node m: w = Abs(d)
output y, z, w
)"),
            R"(graph g
input x: float32[1, 2, 3, 4]
input v: float32[2, 3, 4]
node t1: a = Transpose(x) {perm=[0, 2, 3, 1]}
node n: y = Neg(x)
node r: z = Relu(a)
node t3: c = Transpose(v)
node m: w = Abs(v)
output y, z, w
)");
}

TEST(TransposeCancellationTest, MustNotFire) {
  // A non-inverse pair; an inverse pair whose second output is a graph output; default perms
  // of unknown rank.
  const std::string text = R"(graph g
input x: float32[5, 2, 3, 4]
input u: float32[?]
node t1: a = Transpose(x) {perm=[0, 2, 3, 1]}
node t2: b = Transpose(a) {perm=[0, 2, 3, 1]}
node t3: c = Transpose(x) {perm=[1, 0, 2, 3]}
node t4: d = Transpose(c) {perm=[1, 0, 2, 3]}
node t5: e = Transpose(u)
node t6: f = Transpose(e)
output b, d, f
)";
  bool changed = true;
  EXPECT_EQ(test::RunPass("transpose-cancellation", text, &changed), text);
  EXPECT_FALSE(changed);
}

TEST(TransposeCancellationTest, UnitAxesOnlyBecomeReshape) {
  // [1, S, E] -> [S, 1, E] moves no data; so does a perm that moves a 1 past an unknown dim.
  EXPECT_EQ(test::RunPass("transpose-cancellation", R"(graph g
input x: float32[1, 5, 8]
input u: float32[-1, 1, 4]
node t1: a = Transpose(x) {perm=[1, 0, 2]}
node t2: b = Transpose(u) {perm=[1, 0, 2]}
output a, b
)"),
            R"(graph g
input x: float32[1, 5, 8]
input u: float32[-1, 1, 4]
const t1/shape: int64[3] = [5, 1, 8]
const t2/shape: int64[3] = [1, -1, 4]
node t1: a = Reshape(x, t1/shape)
node t2: b = Reshape(u, t2/shape)
output a, b
)");
  // Must not fire: size-1 axes that do move past each other's non-unit neighbours in a new
  // order ([2, 1, 3] -> [3, 1, 2]), two unknown dims, the identity perm.
  const std::string text = R"(graph g
input x: float32[2, 1, 3]
input u: float32[-1, -1, 1]
node t1: a = Transpose(x) {perm=[2, 1, 0]}
node t2: b = Transpose(u) {perm=[2, 0, 1]}
node t3: c = Transpose(x) {perm=[0, 1, 2]}
output a, b, c
)";
  bool changed = true;
  EXPECT_EQ(test::RunPass("transpose-cancellation", text, &changed), text);
  EXPECT_FALSE(changed);
}

}  // namespace
}  // namespace ge
