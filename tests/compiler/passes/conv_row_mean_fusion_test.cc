// Conv row-mean fusion (a global average pool of an NHWC FusedConv reads the convolution's row
// means R): before/after in the textual IR, and the cases where it must not fire.

#include "pass_test_util.h"

namespace ge {
namespace {

const char* kHead = R"(graph g
input x: float32[1, 4, 4, 2]
input p: float32[6]
)";

std::string Fuse(const std::string& body, bool* changed = nullptr) {
  return test::RunPass("conv-row-mean-fusion", kHead + body, changed);
}

const char* kConv = R"({kernel_shape=[1, 1], layout="NHWC", out_channels=3, packed_weights=1})";
const char* kGap = R"({mode="global_avg"})";

TEST(ConvRowMeanFusionTest, GlobalPoolReadsTheRowMeansAndYKeepsItsOtherReaders) {
  bool changed = false;
  EXPECT_EQ(Fuse(std::string("node conv: y: float32[1, 4, 4, 3] = FusedConv(x, p, _, _) ") + kConv +
                     "\nnode gap: m: float32[1, 1, 1, 3] = PoolNhwc(y) " + kGap +
                     "\nnode mul: s: float32[1, 4, 4, 3] = Mul(y, m)\noutput s\n",
                 &changed),
            std::string(kHead) +
                "node conv: y: float32[1, 4, 4, 3], y/row_means: float32[1, 4, 1, 3] = FusedConvRowMeans(x, p, _, _) " +
                kConv + "\nnode gap: m: float32[1, 1, 1, 3] = PoolNhwc(y/row_means) " + kGap +
                "\nnode mul: s: float32[1, 4, 4, 3] = Mul(y, m)\noutput s\n");
  EXPECT_TRUE(changed);
}

// A max pool, a windowed average pool, a global pool of an NCHW FusedConv or of a graph input:
// all left alone.
TEST(ConvRowMeanFusionTest, NotForOtherPoolsLayoutsOrProducers) {
  const std::string body = std::string("node c1: y1: float32[1, 4, 4, 3] = FusedConv(x, p, _, _) ") + kConv +
                           R"(
node max: a: float32[1, 1, 1, 3] = PoolNhwc(y1) {kernel_shape=[4, 4], mode="max"}
node avg: b: float32[1, 1, 1, 3] = PoolNhwc(y1) {kernel_shape=[4, 4], mode="avg"}
node c2: y2: float32[1, 3, 4, 4] = FusedConv(x, p, _, _) {kernel_shape=[1, 1], out_channels=3}
node g2: c: float32[1, 1, 1, 4] = PoolNhwc(y2) )" +
                           kGap + "\nnode g3: d: float32[1, 1, 1, 2] = PoolNhwc(x) " + kGap + "\noutput a, b, c, d\n";
  bool changed = true;
  EXPECT_EQ(Fuse(body, &changed), std::string(kHead) + body);
  EXPECT_FALSE(changed);
}

}  // namespace
}  // namespace ge
