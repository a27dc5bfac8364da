// Transpose cancellation: before/after in the textual IR.
#include "compiler/passes/transpose_cancellation.h"

#include "pass_test_util.h"

namespace ge {
namespace {

TEST(TransposeCancellationTest, InversePairsCancel) {
  // NCHW -> NHWC -> NCHW; and two default (reversing) perms. t1 is also read by Relu, so it stays.
  EXPECT_EQ(test::RunPass(TransposeCancellation(), R"(graph g
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
input x: float32[1, 2, 3, 4]
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
  EXPECT_EQ(test::RunPass(TransposeCancellation(), text, &changed), text);
  EXPECT_FALSE(changed);
}

}  // namespace
}  // namespace ge
