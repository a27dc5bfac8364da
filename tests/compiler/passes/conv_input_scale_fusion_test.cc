// Conv input-scale fusion (an SE gate's Mul into the NHWC FusedConv that reads it): before/after
// in the textual IR, and the cases where it must not fire.

#include "pass_test_util.h"

namespace ge {
namespace {

const char* kHead = R"(graph g
input x: float32[1, 4, 4, 2]
input g: float32[1, 1, 1, 2]
input p: float32[6]
)";

std::string Fuse(const std::string& body, bool* changed = nullptr) {
  return test::RunPass("conv-input-scale-fusion", kHead + body, changed);
}

const char* kConv = R"({kernel_shape=[1, 1], layout="NHWC", out_channels=3, packed_weights=1})";

TEST(ConvInputScaleFusionTest, GateMulBecomesTheConvInputScale) {
  bool changed = false;
  EXPECT_EQ(
      Fuse(std::string(R"(node mul: m: float32[1, 4, 4, 2] = Mul(g, x)
node conv: y: float32[1, 4, 4, 3] = FusedConv(m, p, _, _) )") +
               kConv + "\noutput y\n",
           &changed),
      std::string(kHead) + R"(node conv: y: float32[1, 4, 4, 3] = FusedConv(x, p, _, _, g) )" + kConv + "\noutput y\n");
  EXPECT_TRUE(changed);
}

TEST(ConvInputScaleFusionTest, NotWhenTheProductHasAnotherReaderOrIsAnOutput) {
  const std::string two_readers = std::string(R"(node mul: m: float32[1, 4, 4, 2] = Mul(x, g)
node conv: y: float32[1, 4, 4, 3] = FusedConv(m, p, _, _) )") +
                                  kConv + R"(
node relu: r: float32[1, 4, 4, 2] = Relu(m)
output y, r
)";
  bool changed = true;
  EXPECT_EQ(Fuse(two_readers, &changed), std::string(kHead) + two_readers);
  EXPECT_FALSE(changed);
  const std::string output = std::string(R"(node mul: m: float32[1, 4, 4, 2] = Mul(x, g)
node conv: y: float32[1, 4, 4, 3] = FusedConv(m, p, _, _) )") +
                             kConv + "\noutput y, m\n";
  EXPECT_EQ(Fuse(output, &changed), std::string(kHead) + output);
  EXPECT_FALSE(changed);
}

// A scale over rows as well as channels, a full elementwise product, an NCHW FusedConv and a
// Mul feeding the residual Z, not X: all left alone.
TEST(ConvInputScaleFusionTest, NotForOtherScalesLayoutsOrInputs) {
  const std::string body = std::string(R"(input rows: float32[1, 4, 1, 2]
input z: float32[1, 4, 4, 3]
node m1: a: float32[1, 4, 4, 2] = Mul(x, rows)
node c1: y1: float32[1, 4, 4, 3] = FusedConv(a, p, _, _) )") +
                           kConv + R"(
node m2: b: float32[1, 4, 4, 2] = Mul(x, x)
node c2: y2: float32[1, 4, 4, 3] = FusedConv(b, p, _, _) )" +
                           kConv + R"(
node m3: c: float32[1, 4, 4, 2] = Mul(x, g)
node c3: y3: float32[1, 4, 4, 3] = FusedConv(c, p, _, _) {kernel_shape=[1, 1], out_channels=3}
node m4: d: float32[1, 4, 4, 3] = Mul(z, z)
node c4: y4: float32[1, 4, 4, 3] = FusedConv(x, p, _, d) )" +
                           kConv + R"(
output y1, y2, y3, y4
)";
  bool changed = true;
  EXPECT_EQ(Fuse(body, &changed), std::string(kHead) + body);
  EXPECT_FALSE(changed);
}

}  // namespace
}  // namespace ge
