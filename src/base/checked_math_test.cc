// Checked size arithmetic: overflow is reported, never wrapped; strict integer parsing.
#include "base/checked_math.h"

#include <gtest/gtest.h>

#include <limits>

#include "base/shape.h"
#include "exe_graph/runtime/shape.h"

namespace ge {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

TEST(CheckedMath, MulAndAdd) {
  int64_t r = 0;
  EXPECT_TRUE(CheckedMul<int64_t>(int64_t{1} << 31, int64_t{1} << 31, &r));
  EXPECT_EQ(r, int64_t{1} << 62);
  EXPECT_FALSE(CheckedMul<int64_t>(int64_t{1} << 62, 2, &r));
  EXPECT_FALSE(CheckedMul<int64_t>(4611686018427387905, 4, &r));  // wraps to 4 unchecked
  EXPECT_TRUE(CheckedAdd<int64_t>(kMax - 1, 1, &r));
  EXPECT_FALSE(CheckedAdd<int64_t>(kMax, 1, &r));
  size_t u = 0;
  EXPECT_FALSE(CheckedMul<size_t>(size_t{1} << 63, 2, &u));
}

TEST(CheckedMath, ElementCountAndBytes) {
  EXPECT_EQ(CheckedElementCount({2, 3, 4}), 24);
  EXPECT_EQ(CheckedElementCount({}), 1);
  EXPECT_EQ(CheckedElementCount({0, kMax}), 0);
  EXPECT_EQ(CheckedElementCount({-1, 3}), std::nullopt);
  EXPECT_EQ(CheckedElementCount({int64_t{1} << 32, int64_t{1} << 32}), std::nullopt);
  EXPECT_EQ(CheckedByteSize(int64_t{1} << 60, 4), size_t{1} << 62);
  EXPECT_EQ(CheckedByteSize(int64_t{1} << 61, 4), std::nullopt);  // 2^63 > int64 max
  EXPECT_EQ(CheckedByteSize(-1, 4), std::nullopt);
  EXPECT_EQ(CheckedTensorBytes({4611686018427387905}, 4), std::nullopt);
}

TEST(CheckedMath, ShapeSizesReportOverflowAsUnknown) {
  EXPECT_EQ(Shape({int64_t{1} << 32, int64_t{1} << 32}).GetShapeSize(), -1);
  gert::Shape g;
  g.AppendDim(int64_t{1} << 32).AppendDim(int64_t{1} << 32);
  EXPECT_EQ(g.GetShapeSize(), -1);
}

TEST(CheckedMath, ParseInt64IsStrict) {
  EXPECT_EQ(ParseInt64("42"), 42);
  EXPECT_EQ(ParseInt64(" 7 "), 7);
  EXPECT_EQ(ParseInt64("-5"), -5);
  EXPECT_EQ(ParseInt64("9223372036854775807"), kMax);
  for (const char* bad : {"", " ", "1.5", "1e3", "0x10", "abc", "4a", "+3", "9223372036854775808", "1 2"})
    EXPECT_EQ(ParseInt64(bad), std::nullopt) << "'" << bad << "'";
}

}  // namespace
}  // namespace ge
