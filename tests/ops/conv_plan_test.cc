// Which blocks oneDNN convolution plans split into, on one core: late 1x1 convolutions split by
// output channels only when their weights are large (the channel blocks are used whatever the
// cores, and on few pixels small channel blocks are slower than one whole primitive).
#include <gtest/gtest.h>

#include "ops/dnnl_conv.h"

namespace ge::testing {
namespace {

using ops_util::DnnlConvParams;

DnnlConvParams OneByOne(int64_t hw, int64_t c, int64_t m) {
  DnnlConvParams p{};
  p.n = 1;
  p.c = c;
  p.h = p.w = p.oh = p.ow = hw;
  p.m = m;
  p.group = 1;
  p.kh = p.kw = p.sh = p.sw = p.dh = p.dw = 1;
  p.has_bias = 1;
  return p;
}

uint32_t BlocksOnOneCore(const DnnlConvParams& p) {
  const ops_util::DnnlConvPlan* plan = ops_util::GetDnnlConvPlan(p, 1);
  return plan == nullptr ? 0 : ops_util::DnnlConvPlanBlocks(plan);
}

TEST(DnnlConvPlan, SmallLate1x1ConvolutionsRunWhole) {
  if (BlocksOnOneCore(OneByOne(7, 960, 320)) == 0) GTEST_SKIP() << "no oneDNN convolution on this build";
  // mobilenet_v2's 7x7x960 -> 320 and 7x7x320 -> 1280: 1.2 and 1.6 MB of weights.
  EXPECT_EQ(BlocksOnOneCore(OneByOne(7, 960, 320)), 1u);
  EXPECT_EQ(BlocksOnOneCore(OneByOne(7, 320, 1280)), 1u);
}

TEST(DnnlConvPlan, Large1x1ConvolutionsSplitByChannels) {
  if (BlocksOnOneCore(OneByOne(7, 960, 320)) == 0) GTEST_SKIP() << "no oneDNN convolution on this build";
  // resnet50's 7x7x2048 -> 512 and 7x7x512 -> 2048 (4 MiB of weights), and its 14x14x1024 -> 256
  // (1 MiB, over more pixels): four channel blocks even on one core.
  EXPECT_EQ(BlocksOnOneCore(OneByOne(7, 2048, 512)), 4u);
  EXPECT_EQ(BlocksOnOneCore(OneByOne(7, 512, 2048)), 4u);
  EXPECT_EQ(BlocksOnOneCore(OneByOne(14, 1024, 256)), 4u);
}

}  // namespace
}  // namespace ge::testing
