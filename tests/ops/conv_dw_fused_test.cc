// FusedConvDw (the opt-in expand + depthwise kernel) on a case small enough to compute by hand,
// in sink and host mode, and its shape errors. The networks it is made for are checked against
// PyTorch's outputs by ctest models_dw_fusion.
#include <gtest/gtest.h>

#include "ops_test_util.h"
#include "register/op_impl_registry.h"

namespace ge::testing {
namespace {

bool Registered() {
  return gert::DefaultOpImplSpaceRegistryV2::GetInstance().GetSpaceRegistry()->GetOpImpl("FusedConvDw") != nullptr;
}

// X [1, 3, 3, 2]: pixel p (row-major) holds (p + 1, 1). Expand filter o: (1, o), so
// E[p][o] = p + 1 + o (Relu keeps it). Depthwise: every tap 1, pads 1, so an output is the sum of
// E over the window's pixels inside the image: sum(p + 1) + count * o.
OneNode Node(int64_t stride, HostTensor b1, std::vector<int64_t> kernel = {3, 3}) {
  std::vector<float> x, w1(2 * 16), w2(kernel[0] * kernel[1] * 16, 1.f);
  for (int p = 0; p < 9; ++p) x.insert(x.end(), {static_cast<float>(p + 1), 1.f});
  for (int o = 0; o < 16; ++o) w1[o] = 1.f, w1[16 + o] = static_cast<float>(o);  // [1, C = 2, 16]
  const int64_t out = stride == 1 ? 3 : 2;
  return {"FusedConvDw",
          {F32({1, 3, 3, 2}, x), F32({1, 2, 16}, w1), std::move(b1), F32({kernel[0] * kernel[1], 16}, w2),
           F32({16}, std::vector<float>(16, 0.f))},
          {{"kernel_shape", kernel},
           {"strides", std::vector<int64_t>{stride, stride}},
           {"pads", std::vector<int64_t>{1, 1, 1, 1}},
           {"expand_activation", std::string("Relu")}},
          {1, out, out, 16}};
}

TEST(FusedConvDw, MatchesTheHandComputedSums) {
  if (!Registered()) GTEST_SKIP() << "no vector kernel on this target";
  const HostTensor zeros = F32({16}, std::vector<float>(16, 0.f));
  for (const char* mode : {"sink", "host"}) {
    auto s1 = RunOne(Node(1, zeros), mode);
    ASSERT_EQ(s1.size(), 1u) << mode;
    const std::vector<float> y = Floats(s1[0]);
    for (int o = 0; o < 16; ++o) {
      EXPECT_EQ(y[0 * 16 + o], 12.f + 4 * o) << mode << " corner, channel " << o;      // pixels 0, 1, 3, 4
      EXPECT_EQ(y[4 * 16 + o], 45.f + 9 * o) << mode << " centre, channel " << o;      // all nine
      EXPECT_EQ(y[5 * 16 + o], 33.f + 6 * o) << mode << " right edge, channel " << o;  // 1, 2, 4, 5, 7, 8
    }
    auto s2 = RunOne(Node(2, zeros), mode);  // outputs at input pixels (0, 0), (0, 2), (2, 0), (2, 2)
    ASSERT_EQ(s2.size(), 1u) << mode;
    const std::vector<float> z = Floats(s2[0]);
    for (int o = 0; o < 16; ++o) {
      EXPECT_EQ(z[0 * 16 + o], 12.f + 4 * o) << mode << " stride 2, channel " << o;  // pixels 0, 1, 3, 4
      EXPECT_EQ(z[3 * 16 + o], 28.f + 4 * o) << mode << " stride 2, channel " << o;  // pixels 4, 5, 7, 8
    }
  }
}

TEST(FusedConvDw, ShapeErrorsNameWhatWasExpected) {
  if (!Registered()) GTEST_SKIP() << "no vector kernel on this target";
  for (const char* mode : {"sink", "host"}) {
    Status st;
    Build(Node(1, F32({3}, {0, 0, 0})), mode, &st);
    EXPECT_FALSE(st.ok()) << mode;
    EXPECT_NE(st.message().find("expected the bias B1 to be [16], got [3]"), std::string::npos) << st.message();
    Build(Node(1, F32({16}, std::vector<float>(16, 0.f)), {7, 7}), mode, &st);
    EXPECT_FALSE(st.ok()) << mode;
    EXPECT_NE(st.message().find("expected a 3x3 or 5x5 window, strides 1 or 2 and no dilation, got 7x7"),
              std::string::npos)
        << st.message();
  }
}

}  // namespace
}  // namespace ge::testing
