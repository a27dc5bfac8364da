// Concat + ScaleShift fusion (a DenseNet layer's Concat -> BatchNormalization -> Relu after the
// NHWC layout pass): before/after in the textual IR, and the cases where it must not fire.

#include "pass_test_util.h"

namespace ge {
namespace {

const char* kHead = R"(graph g
input a: float32[1, 4, 4, 2]
input b: float32[1, 4, 4, 3]
input s: float32[5]
input t: float32[5]
)";

std::string Fuse(const std::string& body, bool* changed = nullptr) {
  return test::RunPass("concat-scale-shift-fusion", kHead + body, changed);
}

TEST(ConcatScaleShiftFusionTest, ChannelConcatThenScaleShiftBecomesOneNode) {
  bool changed = false;
  EXPECT_EQ(Fuse(R"(node cat: c: float32[1, 4, 4, 5] = Concat(a, b) {axis=3}
node bn: y: float32[1, 4, 4, 5] = ScaleShift(c, s, t) {activation="Relu"}
output y
)",
                 &changed),
            std::string(kHead) + R"(node bn: y: float32[1, 4, 4, 5] = ConcatScaleShift(s, t, a, b) {activation="Relu"}
output y
)");
  EXPECT_TRUE(changed);
  EXPECT_EQ(Fuse(R"(node cat: c: float32[1, 4, 4, 5] = Concat(a, b) {axis=-1}
node bn: y: float32[1, 4, 4, 5] = ScaleShift(c, s, t) {activation=""}
output y
)"),
            std::string(kHead) + R"(node bn: y: float32[1, 4, 4, 5] = ConcatScaleShift(s, t, a, b) {activation=""}
output y
)");
}

TEST(ConcatScaleShiftFusionTest, NotWhenTheConcatHasAnotherReaderOrIsAnOutput) {
  const std::string two_readers = R"(node cat: c: float32[1, 4, 4, 5] = Concat(a, b) {axis=3}
node bn: y: float32[1, 4, 4, 5] = ScaleShift(c, s, t) {activation="Relu"}
node relu: r: float32[1, 4, 4, 5] = Relu(c)
output y, r
)";
  bool changed = true;
  EXPECT_EQ(Fuse(two_readers, &changed), std::string(kHead) + two_readers);
  EXPECT_FALSE(changed);
  const std::string output = R"(node cat: c: float32[1, 4, 4, 5] = Concat(a, b) {axis=3}
node bn: y: float32[1, 4, 4, 5] = ScaleShift(c, s, t) {activation="Relu"}
output y, c
)";
  EXPECT_EQ(Fuse(output, &changed), std::string(kHead) + output);
  EXPECT_FALSE(changed);
}

// A Concat over another dim (rows, not channels) and a ScaleShift of a value that is no Concat.
TEST(ConcatScaleShiftFusionTest, NotForAnotherAxisOrProducer) {
  const std::string body = R"(input u: float32[1, 4, 4, 5]
input w: float32[1, 2, 4, 5]
node cat: c: float32[1, 6, 4, 5] = Concat(u, w) {axis=1}
node bn: y: float32[1, 6, 4, 5] = ScaleShift(c, s, t) {activation="Relu"}
node add: v: float32[1, 4, 4, 5] = Add(u, u)
node bn2: y2: float32[1, 4, 4, 5] = ScaleShift(v, s, t) {activation="Relu"}
output y, y2
)";
  bool changed = true;
  EXPECT_EQ(Fuse(body, &changed), std::string(kHead) + body);
  EXPECT_FALSE(changed);
}

}  // namespace
}  // namespace ge
