// Identity / Dropout elimination: before/after in the textual IR.

#include "pass_test_util.h"

namespace ge {
namespace {

TEST(IdentityEliminationTest, RemovesIdentityAndInferenceDropout) {
  EXPECT_EQ(test::RunPass("identity-elimination", R"(graph g
input x: float32[4]
const no: bool[] = [0]
node a: y = Relu(x)
node id: y1 = Identity(y)
node drop: y2, _ = Dropout(y1)
node drop2: y3 = Dropout(y2, _, no)
node b: z = Neg(y3)
output z
)"),
            R"(graph g
input x: float32[4]
node a: y = Relu(x)
node b: z = Neg(y)
output z
)");
}

// A Pad by constant zeros (PyTorch's AvgPool2d export) goes; a Pad by a non-zero or a
// non-constant amount stays.
TEST(IdentityEliminationTest, PadByZerosOnly) {
  EXPECT_EQ(test::RunPass("identity-elimination", R"(graph g
input x: float32[1, 2, 3, 3]
input p: int64[8]
const zeros: int64[8] = [0, 0, 0, 0, 0, 0, 0, 0]
const ones: int64[8] = [0, 0, 1, 1, 0, 0, 1, 1]
node a: y = Relu(x)
node pad0: y0 = Pad(y, zeros) {mode="constant"}
node pad1: y1 = Pad(y0, ones) {mode="constant"}
node pad2: y2 = Pad(y1, p) {mode="constant"}
output y2
)"),
            R"(graph g
input x: float32[1, 2, 3, 3]
input p: int64[8]
const ones: int64[8] = [0, 0, 1, 1, 0, 0, 1, 1]
node a: y = Relu(x)
node pad1: y1 = Pad(y, ones) {mode="constant"}
node pad2: y2 = Pad(y1, p) {mode="constant"}
output y2
)");
}

TEST(IdentityEliminationTest, AGraphOutputKeepsItsNameThroughTheProducer) {
  EXPECT_EQ(test::RunPass("identity-elimination", R"(graph g
input x: float32[4]
node a: y = Relu(x)
node id: out = Identity(y)
node b: z = Neg(y)
output out, z
)"),
            R"(graph g
input x: float32[4]
node a: out = Relu(x)
node b: z = Neg(out)
output out, z
)");
}

TEST(IdentityEliminationTest, MustNotFire) {
  // An Identity from a graph input to a graph output, a training-mode Dropout, a Dropout whose
  // mask is read, and an Identity whose input is itself a graph output that also feeds a graph output.
  const std::string text = R"(graph g
input x: float32[4]
const yes: bool[] = [1]
node id: out = Identity(x)
node d1: t = Dropout(x, _, yes)
node d2: u, mask = Dropout(x)
node a: y = Relu(x)
node id2: y2 = Identity(y)
output out, t, u, mask, y, y2
)";
  bool changed = true;
  EXPECT_EQ(test::RunPass("identity-elimination", text, &changed), text);
  EXPECT_FALSE(changed);
}

}  // namespace
}  // namespace ge
