// Transpose NCHW -> NHWC with few channels (the input conversion of every CNN, and channel
// shuffles): the kernel interleaves whole output rows and handles the rows a block boundary cuts
// element by element. Images big enough to be split into several blocks, with channel counts of
// the unrolled cases (2, 3, 4) and others, against the transpose's definition, in both modes.
#include <gtest/gtest.h>

#include "ops_test_util.h"

namespace ge::testing {
namespace {

TEST(TransposeLayout, NchwToNhwcMatchesTheDefinitionAcrossBlockBoundaries) {
  for (int64_t c : {2, 3, 4, 5, 7}) {
    const int64_t n = 2, h = 67, w = 131;  // odd sizes: block boundaries fall inside output rows
    std::vector<float> x(static_cast<size_t>(n * c * h * w));
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 9973) - 17.f;
    OneNode node{"Transpose", {F32({n, c, h, w}, x)}, {{"perm", std::vector<int64_t>{0, 2, 3, 1}}}, {n, h, w, c}};
    for (const char* mode : {"sink", "host"}) {
      auto out = RunOne(node, mode);
      ASSERT_EQ(out.size(), 1u) << mode;
      const std::vector<float> y = Floats(out[0]);
      ASSERT_EQ(y.size(), x.size());
      size_t mismatches = 0;
      for (int64_t b = 0; b < n; ++b)
        for (int64_t i = 0; i < h; ++i)
          for (int64_t j = 0; j < w; ++j)
            for (int64_t k = 0; k < c; ++k) {
              const float want = x[static_cast<size_t>(((b * c + k) * h + i) * w + j)];
              if (y[static_cast<size_t>(((b * h + i) * w + j) * c + k)] != want) ++mismatches;
            }
      EXPECT_EQ(mismatches, 0u) << "C=" << c << " " << mode;
    }
  }
}

}  // namespace
}  // namespace ge::testing
