// Which blocks convolution plans split into, on one core: late convolutions split by output
// channels only when their weights are large (the channel blocks are used whatever the cores,
// and on few pixels small channel blocks are slower than one whole primitive), except the large
// late 1x1 ones that GE's own kernel runs, by rows; row blocks come in whole rounds of the cores,
// and the rows they split are balanced between two cores that take blocks from both ends.
#include <gtest/gtest.h>

#include <vector>

#include "kernels/block_range.h"
#include "ops/conv_own_gemm.h"
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

TEST(DnnlConvPlan, LargeConvolutionsOfFewPixelsSplitByChannels) {
  if (BlocksOnOneCore(OneByOne(7, 960, 320)) == 0) GTEST_SKIP() << "no oneDNN convolution on this build";
  // A 7x7x512 3x3 convolution (9 MiB of weights): four channel blocks even on one core.
  DnnlConvParams p = OneByOne(7, 512, 512);
  p.kh = p.kw = 3;
  p.pt = p.pl = p.pb = p.pr = 1;
  EXPECT_EQ(BlocksOnOneCore(p), 4u);
  // resnet50's 7x7x2048 -> 512 and 7x7x512 -> 2048 (4 MiB of weights), and its 14x14x1024 -> 256
  // (1 MiB, over more pixels): four channel blocks in oneDNN; in GE's own kernel, one block on
  // one core and one block of rows a core on two.
  for (const DnnlConvParams& q : {OneByOne(7, 2048, 512), OneByOne(7, 512, 2048), OneByOne(14, 1024, 256)}) {
    if (ops_util::OwnGemmConv(q)) {
      EXPECT_EQ(BlocksOnOneCore(q), 1u);
      const ops_util::DnnlConvPlan* plan = ops_util::GetDnnlConvPlan(q, ops_util::OversplitBlocks(2));
      ASSERT_NE(plan, nullptr);
      EXPECT_EQ(ops_util::DnnlConvPlanBlocks(plan), 2u);
    } else {
      EXPECT_EQ(BlocksOnOneCore(q), 4u);
    }
  }
}

TEST(DnnlConvPlan, RowBlocksComeInWholeRoundsOfTheCores) {
  if (BlocksOnOneCore(OneByOne(7, 960, 320)) == 0) GTEST_SKIP() << "no oneDNN convolution on this build";
  // mobilenet_v2's 14x14x384 depthwise convolution: ~3.8 MFLOP with its memory traffic, three
  // blocks of ~1 MFLOP by size, but three blocks on two cores leave one core a block behind; and
  // too little work for two blocks a core: one each.
  DnnlConvParams dw = OneByOne(14, 384, 384);
  dw.group = 384;
  dw.kh = dw.kw = 3;
  dw.pt = dw.pl = dw.pb = dw.pr = 1;
  const ops_util::DnnlConvPlan* plan = ops_util::GetDnnlConvPlan(dw, ops_util::OversplitBlocks(2));
  ASSERT_NE(plan, nullptr);
  EXPECT_EQ(ops_util::DnnlConvPlanBlocks(plan), 2u);
  // A 112x112x64 3x3 convolution, 925 MFLOP: two blocks a core.
  DnnlConvParams big = OneByOne(112, 64, 64);
  big.kh = big.kw = 3;
  big.pt = big.pl = big.pb = big.pr = 1;
  plan = ops_util::GetDnnlConvPlan(big, ops_util::OversplitBlocks(2));
  ASSERT_NE(plan, nullptr);
  EXPECT_EQ(ops_util::DnnlConvPlanBlocks(plan), 4u);
  EXPECT_EQ(ops_util::SplitBlocks(int64_t{3} << 20, 1 << 20, 4), 2u);
  EXPECT_EQ(ops_util::SplitBlocks(int64_t{300} << 20, 1 << 20, 4), 4u);
  EXPECT_EQ(ops_util::SplitBlocks(int64_t{300} << 20, 1 << 20, 1), 1u);
  EXPECT_EQ(ops_util::SplitBlocks(int64_t{1} << 19, 1 << 20, 4), 1u);
  EXPECT_EQ(ops_util::WholeRounds(3, 4), 4u);
  EXPECT_EQ(ops_util::WholeRounds(1, 4), 1u);
  EXPECT_EQ(ops_util::WholeRounds(5, 8), 8u);
  EXPECT_EQ(ops_util::WholeRounds(3, 1), 3u);  // one core: the count is the tiling's own
}

std::vector<int64_t> Sizes(int64_t total, uint32_t dim) {
  std::vector<int64_t> sizes;
  int64_t at = 0;
  for (uint32_t i = 0; i < dim; ++i) {
    int64_t begin, end;
    kernels::BlockRange(total, i, dim, &begin, &end);
    EXPECT_EQ(begin, at) << total << " in " << dim << ", block " << i;  // contiguous
    sizes.push_back(end - begin);
    at = end;
  }
  EXPECT_EQ(at, total) << total << " in " << dim;  // covers everything
  return sizes;
}

// A pad of at least the kernel's extent is not given to oneDNN: a mutated offline model's right
// pad of 5505025 on a 3x3 kernel (an output 32 x 5505056 x 8) made oneDNN's primitive-descriptor
// creation allocate past 14 GiB, and `ge run` was killed. Pads up to the extent minus one (and a
// dilated kernel's larger extent) stay supported.
TEST(DnnlConvPlan, APadOfTheKernelsExtentIsNotOneDnns) {
  if (BlocksOnOneCore(OneByOne(7, 960, 320)) == 0) GTEST_SKIP() << "no oneDNN convolution on this build";
  DnnlConvParams p = OneByOne(32, 3, 8);
  p.kh = p.kw = 3;
  p.pt = p.pl = p.pb = 1;
  p.pr = 5505025;
  p.ow = 32 + 1 + 5505025 - 2;
  EXPECT_FALSE(ops_util::DnnlConvSupported(p));
  p.pr = 3;
  p.ow = 32 + 1 + 3 - 2;
  EXPECT_FALSE(ops_util::DnnlConvSupported(p));
  p.pr = 2;
  p.ow = 32 + 1 + 2 - 2;
  EXPECT_TRUE(ops_util::DnnlConvSupported(p));
  p.dh = p.dw = 2;  // extent 5: pads of 4
  p.pt = p.pl = p.pb = p.pr = 4;
  p.oh = p.ow = 32 + 8 - 4;
  EXPECT_TRUE(ops_util::DnnlConvSupported(p));
}

TEST(BlockRange, TheRemainderGoesToBothEnds) {
  EXPECT_EQ(Sizes(14, 4), (std::vector<int64_t>{4, 3, 3, 4}));  // 7 rows a core, not 8 and 6
  EXPECT_EQ(Sizes(7, 4), (std::vector<int64_t>{2, 2, 1, 2}));
  EXPECT_EQ(Sizes(10, 3), (std::vector<int64_t>{4, 3, 3}));
  EXPECT_EQ(Sizes(2, 4), (std::vector<int64_t>{1, 0, 0, 1}));
  EXPECT_EQ(Sizes(12, 4), (std::vector<int64_t>{3, 3, 3, 3}));
  EXPECT_EQ(Sizes(5, 1), (std::vector<int64_t>{5}));
  for (int64_t total = 0; total <= 40; ++total)
    for (uint32_t dim = 2; dim <= 8; dim += 2) {
      const std::vector<int64_t> s = Sizes(total, dim);
      int64_t front = 0, back = 0;  // what a core taking from the front and one from the back get
      for (uint32_t i = 0; i < dim / 2; ++i) {
        front += s[i];
        back += s[dim - 1 - i];
        EXPECT_GE(s[i], total / dim);
        EXPECT_LE(s[i], total / dim + 1);
      }
      EXPECT_GE(front - back, 0) << total << " in " << dim;
      EXPECT_LE(front - back, 1) << total << " in " << dim;
    }
}

}  // namespace
}  // namespace ge::testing
