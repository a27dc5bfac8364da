#include "ops/dnnl_conv.h"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#ifdef GE_HAVE_DNNL
#include "base/log.h"
#include "kernels/block_range.h"
#include "ops/conv_own_gemm.h"
#include "ops/dnnl_common.h"
#include "ops/vec_math.h"
#endif

namespace ge::ops_util {

#ifdef GE_HAVE_DNNL
namespace {
using dnnl::memory;
using tag = memory::format_tag;

struct Block {
  dnnl::convolution_forward prim;
  memory::desc x_md, y_md, scratch_md;
  int64_t x_off, y_off;  // floats from the tensor starts
  size_t y_count;        // floats this block writes
  // The block's weights and bias: the plan's for row blocks; for an output-channel block
  // (`mb` > 0) its own packed slice at w_off floats into the packed weights, its bias slice at
  // m_off, and its output through a dense per-thread buffer of mb channels (brgconv has no
  // strided-channel destination).
  memory::desc w_md, b_md;
  size_t w_off = 0;
  int64_t m_off = 0, mb = 0;
  // Winograd blocks read and write oneDNN's blocked layout: their NHWC rows are reordered in
  // (input, and Z for the residual sum) and out through per-thread buffers.
  bool wino = false;
  memory::desc xn_md, yn_md;  // the block's NHWC input and output rows
  dnnl::reorder x_in, z_in, y_out;
};

// Winograd (oneDNN's AVX-512 F(4x4, 3x3), F(2x2, 3x3) for some row blocks) for 3x3 stride-1
// convolutions of >= 64 channels and >= 20x20 output pixels: 1.4-1.9x the direct brgconv on one
// core in isolation (64x56x56: 0.58 against 0.95 ms). The transformed weights' blocking depends on
// the tiles a primitive computes, so each row block packs its own layout (plan->block_layouts)
// and the blocks are the same whatever the cores. Alternated in whole models, 2 x 30 runs:
// resnet18 22.7 -> 20.8 ms at 1 thread, 11.8 -> 10.6 at 2; resnet50 52.3 -> 50.8 / 27.5 -> 26.6;
// squeezenet1_0 10.4 -> 10.0 / 5.7 -> 5.35. Below ~20x20 output pixels the transformed weights are
// read for too few tiles (resnet18's 7x7x512 convolutions ran 5% slower than direct).
// GE_CONV_WINOGRAD=0 turns it off.
constexpr int64_t kMinWinogradPixels = 400;

bool WinogradCandidate(const DnnlConvParams& p) {
  static const bool enabled = [] {
    const char* e = std::getenv("GE_CONV_WINOGRAD");
    return !(e && std::string(e) == "0");
  }();
  return enabled && p.group == 1 && p.kh == 3 && p.kw == 3 && p.sh == 1 && p.sw == 1 && p.dh == 1 && p.dw == 1 &&
         p.c >= 64 && p.m >= 64 && p.c % 16 == 0 && p.m % 16 == 0 && p.oh * p.ow >= kMinWinogradPixels;
}

memory::desc WeightsMd(const DnnlConvParams& p, tag t) {
  memory::dims d = p.group == 1 ? memory::dims{p.m, p.c, p.kh, p.kw}
                                : memory::dims{p.group, p.m / p.group, p.c / p.group, p.kh, p.kw};
  return memory::desc(d, memory::data_type::f32, t);
}

// SiLU applied by GE to each block's output rows after its primitive (VecSilu: a polynomial exp
// and a reciprocal estimate), not as oneDNN's swish post-op, whose division made it ~0.41 ns an
// element: efficientnet_b0's 112x112x16 -> 96 1x1 convolution ran 813 us with it, 316 us with a
// ReLU6 (mobilenet_v2's same layer). Winograd blocks keep the post-op (their output goes through a
// reorder). GE_CONV_OWN_SWISH=0 turns it off.
bool OwnSwish(const DnnlConvParams& p) {
  static const bool enabled = [] {
    const char* e = std::getenv("GE_CONV_OWN_SWISH");
    return e == nullptr || std::string(e) != "0";
  }();
  return enabled && static_cast<ConvAct>(p.act) == ConvAct::kSwish;
}

// The primitive descriptor for one image of ih input rows giving oh output rows with these pads.
bool MakePd(const DnnlConvParams& p, int64_t ih, int64_t oh, int64_t pt, int64_t pb,
            dnnl::convolution_forward::primitive_desc* out, bool wino = false, const memory::desc* weights = nullptr) {
  auto f32 = memory::data_type::f32;
  memory::desc x_md({1, p.c, ih, p.w}, f32, wino ? tag::any : tag::nhwc);
  memory::desc y_md({1, p.m, oh, p.ow}, f32, wino ? tag::any : tag::nhwc);
  memory::desc b_md({p.m}, f32, tag::x);
  memory::desc w_md = weights ? *weights : WeightsMd(p, tag::any);  // p.m: the block's output channels
  dnnl::post_ops po;
  if (p.has_z) po.append_sum(1.f);
  if (!(OwnSwish(p) && !wino)) AppendAct(static_cast<ConvAct>(p.act), p.a0, p.a1, &po);
  dnnl::primitive_attr attr;
  attr.set_post_ops(po);
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  try {
    auto alg = wino ? dnnl::algorithm::convolution_winograd : dnnl::algorithm::convolution_direct;
    auto pk = dnnl::prop_kind::forward_inference;
    memory::dims strides{p.sh, p.sw}, dil{p.dh - 1, p.dw - 1}, pl{pt, p.pl}, pr{pb, p.pr};
    auto d = p.has_bias ? dnnl::convolution_forward::desc(pk, alg, x_md, w_md, b_md, y_md, strides, dil, pl, pr)
                        : dnnl::convolution_forward::desc(pk, alg, x_md, w_md, y_md, strides, dil, pl, pr);
    *out = dnnl::convolution_forward::primitive_desc(d, attr, Engine());
  } catch (const dnnl::error&) {
    return false;
  }
  return true;
}

}  // namespace

struct DnnlConvPlan {
  memory::desc w_md, b_md;   // row blocks' (whole weights)
  int64_t x_image, y_image;  // floats per image
  int64_t m = 0;             // output channels (the channel blocks' output stride)
  int64_t ow = 0;            // output row width in pixels
  int64_t c = 0;             // input channels
  // A strided 1x1 convolution planned as a stride-1 one over the pixels it reads (Subsampled):
  // each block gathers its rows (every sh-th row, every sw-th pixel of a row w wide) first.
  int64_t sub_sh = 0, sub_sw = 0, sub_w = 0, sub_ow = 0;
  bool wino = false;
  bool own_swish = false;  // SiLU applied after each non-Winograd block (OwnSwish)
  // Winograd row blocks: each block reads the layout oneDNN chose for its rows (the transformed
  // weights' blocking depends on the tiles computed), packed at its w_off; blocks of equal
  // layouts share one copy.
  bool block_layouts = false;
  size_t packed_floats = 0;  // the packed weights: w_md, or the blocks' layouts end to end
  // The packed weights as runs of one input channel (-1: the layout's padding): where an input
  // scale S is given and the weights are fewer than a block's input, the weights are scaled
  // instead of the input, conv(X * S, W) = conv(X, W * S) (WeightInputChannels). Empty for other
  // plans.
  struct ChannelRun {
    size_t begin, count;
    int32_t channel;
  };
  std::vector<ChannelRun> w_channel_runs;
  // GE's own kernel (ops/conv_own_gemm.h) instead of oneDNN (OwnGemmConv): one block a core,
  // each a list of parts (output rows, or one row's panels); the weights in its panels.
  bool own_gemm = false;
  int32_t act = 0;
  float a0 = 0.f, a1 = 0.f;
  struct OwnPart {
    int64_t r0, r1, c0, c1;  // output pixels [r0, r1) (whole rows), channels [c0, c1)
  };
  std::vector<std::vector<OwnPart>> own_blocks;
  std::vector<Block> blocks;
};

namespace {

// Output rows of a Winograd tile (oneDNN's AVX-512 kernel is F(4x4, 3x3)): Winograd row blocks
// start on a tile boundary, so that no block computes a partial tile it throws away.
constexpr int64_t kWinogradTileRows = 4;

// Splits one image's output rows into `nb` blocks; false if a block's primitive reads another
// weights layout than w_md (packing makes one layout; not checked for plan->block_layouts, whose
// blocks each read their own). A dry run only checks that.
bool BuildBlocks(const DnnlConvParams& p, uint32_t nb, const memory::desc& w_md, DnnlConvPlan* plan,
                 bool dry_run = false) {
  plan->blocks.clear();
  const int64_t unit = plan->block_layouts ? kWinogradTileRows : 1;  // rows are split in units
  const int64_t units = (p.oh + unit - 1) / unit;
  nb = static_cast<uint32_t>(std::min<int64_t>(nb, units));
  size_t w_off = 0;
  for (uint32_t b = 0; b < nb; ++b) {
    int64_t ub, ue;
    kernels::BlockRange(units, b, nb, &ub, &ue);
    int64_t begin = ub * unit, end = std::min<int64_t>(p.oh, ue * unit);
    dnnl::convolution_forward::primitive_desc pd;
    Block blk;
    int64_t keff = (p.kh - 1) * p.dh + 1;
    int64_t first = begin * p.sh - p.pt, last = (end - 1) * p.sh - p.pt + keff;  // rows [first, last)
    int64_t ih0 = std::max<int64_t>(0, first), ih1 = std::min<int64_t>(p.h, last);
    if (ih1 <= ih0) return false;
    if (nb == 1) {
      if (!MakePd(p, p.h, p.oh, p.pt, p.pb, &pd, plan->wino)) return false;
      ih0 = 0;
      ih1 = p.h;
    } else if (!MakePd(p, ih1 - ih0, end - begin, ih0 - first, last - ih1, &pd, plan->wino)) {
      return false;
    }
    if (plan->block_layouts) {
      blk.w_md = pd.weights_desc();
      blk.w_off = w_off;
      for (const Block& other : plan->blocks)
        if (other.w_md == blk.w_md) blk.w_off = other.w_off;
      if (blk.w_off == w_off) w_off += blk.w_md.get_size() / sizeof(float);
      if (std::string(pd.impl_info_str()).rfind("ref", 0) == 0) return false;  // oneDNN's reference kernel: never
    } else if (pd.weights_desc() != w_md) {  // e.g. brgconv's 1x1 kernels choose their blocking by the rows
      GELOGD("oneDNN conv {}x{}x{} -> {} k{}x{} s{}: row block {}/{} ({}) reads another weights layout", p.h, p.w, p.c,
             p.m, p.kh, p.kw, p.sh, b, nb, pd.impl_info_str());
      return false;
    }
    if (dry_run) continue;  // only whether every block reads w_md
    GELOGD("oneDNN conv {}x{}x{} -> {} k{}x{} s{}: row block {}/{}: {}", p.h, p.w, p.c, p.m, p.kh, p.kw, p.sh, b, nb,
           pd.impl_info_str());
    blk.prim = dnnl::convolution_forward(pd);
    blk.x_md = pd.src_desc();
    blk.y_md = pd.dst_desc();
    if (plan->wino) {
      auto f32 = memory::data_type::f32;
      blk.wino = true;
      blk.xn_md = memory::desc({1, p.c, ih1 - ih0, p.w}, f32, tag::nhwc);
      blk.yn_md = memory::desc({1, p.m, end - begin, p.ow}, f32, tag::nhwc);
      try {
        auto& eng = Engine();
        blk.x_in = dnnl::reorder(dnnl::reorder::primitive_desc(eng, blk.xn_md, eng, blk.x_md));
        if (p.has_z) blk.z_in = dnnl::reorder(dnnl::reorder::primitive_desc(eng, blk.yn_md, eng, blk.y_md));
        blk.y_out = dnnl::reorder(dnnl::reorder::primitive_desc(eng, blk.y_md, eng, blk.yn_md));
      } catch (const dnnl::error&) {
        return false;
      }
    }
    blk.scratch_md = pd.scratchpad_desc();
    if (!plan->block_layouts) blk.w_md = w_md;
    blk.b_md = plan->b_md;
    blk.x_off = ih0 * p.w * p.c;
    blk.y_off = begin * p.ow * p.m;
    blk.y_count = (end - begin) * p.ow * p.m;
    plan->blocks.push_back(std::move(blk));
  }
  if (plan->block_layouts) plan->packed_floats = w_off;
  return true;
}

// Output-channel blocks: late layers (few output pixels, weights larger than the input) split
// over output channels instead of rows. Row blocks each read all the weights (9.4 MB for a
// 7x7x512 3x3 convolution) and few rows split unevenly (7 rows in 4 blocks); channel blocks read
// a quarter each and take equal work. In isolation on two cores: 7x7x512 3x3 0.96 ms against 1.29
// ms in row blocks, 14x14x256 3x3 0.86 against 1.07; 28x28x128 is faster in rows (1.02 against
// 1.28). The count does not depend on the cores, so neither does the packed layout.
// GE_CONV_CHANNEL_SPLIT=0 turns it off.
constexpr int64_t kChannelBlocks = 4;
constexpr int64_t kChannelSplitMaxPixels = 14 * 14;
// Floats of weights (1 MiB) below which the split costs more than it saves (mobilenet_v2's 14x14
// 1x1 convolutions ran 5% slower in channel blocks).
constexpr int64_t kChannelSplitMinWeights = int64_t{1} << 18;
// 1x1 convolutions over at most 7x7 pixels split by channels from 4 MiB of weights (resnet50's
// 512 <-> 2048), not from 1 MiB: mobilenet_v2's 7x7x960 -> 320 and 7x7x320 -> 1280 ran 338 and
// 430 us in channel blocks of 80 and 320 filters at 1 thread against 279 and 408 us whole
// (`--profile`, 200 runs), and at 2 threads 170 and 220 us against 155 and 213 in row blocks.
// The models, alternated 4 x 150 runs (GE/before): mobilenet_v2 0.98 at 1 thread and 0.93 at 2,
// efficientnet_b0 0.99 and 1.00.
constexpr int64_t kSmall1x1Pixels = 7 * 7;
constexpr int64_t kChannelSplitMinWeightsSmall1x1 = int64_t{1} << 20;

bool ChannelSplit(const DnnlConvParams& p) {
  static const bool enabled = [] {
    const char* e = std::getenv("GE_CONV_CHANNEL_SPLIT");
    return !(e && std::string(e) == "0");
  }();
  const bool small_1x1 = p.kh * p.kw == 1 && p.oh * p.ow <= kSmall1x1Pixels;
  const int64_t min_w = small_1x1 ? kChannelSplitMinWeightsSmall1x1 : kChannelSplitMinWeights;
  return enabled && p.group == 1 && p.m % (16 * kChannelBlocks) == 0 && p.oh * p.ow <= kChannelSplitMaxPixels &&
         p.m * p.c * p.kh * p.kw >= std::max(min_w, p.h * p.w * p.c);
}

// kChannelBlocks blocks of m / kChannelBlocks output channels over the whole image, each with its
// own weights layout (packed one after another).
bool BuildChannelBlocks(const DnnlConvParams& p, DnnlConvPlan* plan) {
  plan->blocks.clear();
  const int64_t mb = p.m / kChannelBlocks;
  DnnlConvParams q = p;
  q.m = mb;
  size_t w_off = 0;
  for (int64_t b = 0; b < kChannelBlocks; ++b) {
    dnnl::convolution_forward::primitive_desc pd;
    if (!MakePd(q, p.h, p.oh, p.pt, p.pb, &pd)) return false;
    GELOGD("oneDNN conv {}x{}x{} -> {} k{}x{} s{}: channel block {}/{}: {}", p.h, p.w, p.c, p.m, p.kh, p.kw, p.sh, b,
           kChannelBlocks, pd.impl_info_str());
    Block blk;
    blk.prim = dnnl::convolution_forward(pd);
    blk.x_md = pd.src_desc();
    blk.y_md = pd.dst_desc();
    blk.scratch_md = pd.scratchpad_desc();
    blk.w_md = pd.weights_desc();
    blk.b_md = memory::desc({mb}, memory::data_type::f32, tag::x);
    blk.w_off = w_off;
    w_off += blk.w_md.get_size() / sizeof(float);
    blk.x_off = 0;
    blk.y_off = b * mb;
    blk.m_off = b * mb;
    blk.mb = mb;
    blk.y_count = static_cast<size_t>(p.oh * p.ow * mb);
    plan->blocks.push_back(std::move(blk));
  }
  plan->packed_floats = w_off;
  return true;
}

// Row blocks for a plan on up to max_blocks: blocks of at least ~1 MFLOP, so that the split pays
// for its hand-off. Memory counts too, 16 FLOP a float read or written: a depthwise convolution
// does 9 FLOP-pairs per output but streams its input and output (mobilenet_v2's 56x56x144 s2
// depthwise, 2 MFLOP, ran 93 us on one core, 102 with the other core holding half its input).
uint32_t BlocksFor(const DnnlConvParams& p, uint32_t max_blocks) {
  const int64_t flops = 2 * p.m * p.oh * p.ow * (p.c / p.group) * p.kh * p.kw;
  const int64_t floats = p.h * p.w * p.c + p.oh * p.ow * p.m;
  return SplitBlocks(flops + 16 * floats, 1 << 20, max_blocks);
}

// Row blocks the packed layout is chosen for (two cores, two blocks each).
constexpr uint32_t kLayoutBlocks = 4;

// The packed weights layout of p, whatever the core count: the whole image's, unless no split
// into 2..4 row blocks reads it and one whose blocks all choose another layout exists (brgconv's
// 1x1 kernels choose their output-channel blocking by the rows they compute: resnet50's 14x14
// and 28x28 1x1 convolutions ran on one core). Then that block layout.
bool PackedLayout(const DnnlConvParams& p, memory::desc* layout) {
  dnnl::convolution_forward::primitive_desc whole;
  if (!MakePd(p, p.h, p.oh, p.pt, p.pb, &whole)) return false;
  *layout = whole.weights_desc();
  const uint32_t most = BlocksFor(p, kLayoutBlocks);
  DnnlConvPlan trial;
  for (uint32_t nb = most; nb > 1; --nb)
    if (BuildBlocks(p, nb, *layout, &trial, true)) return true;
  for (uint32_t nb = static_cast<uint32_t>(std::min<int64_t>(most, p.oh)); nb > 1; --nb) {
    // Block 0's own layout (the first block has the most rows: per + 1 when oh % nb != 0).
    const int64_t rows = p.oh / nb + (p.oh % nb ? 1 : 0), keff = (p.kh - 1) * p.dh + 1;
    const int64_t first = -p.pt, last = (rows - 1) * p.sh - p.pt + keff;
    const int64_t ih1 = std::min<int64_t>(p.h, last);
    dnnl::convolution_forward::primitive_desc pd;
    if (ih1 <= 0 || !MakePd(p, ih1, rows, -first, last - ih1, &pd)) continue;
    if (BuildBlocks(p, nb, pd.weights_desc(), &trial, true)) {
      *layout = pd.weights_desc();
      return true;
    }
  }
  return true;
}

// Strided 1x1 convolutions without pads over many channels run as stride-1 convolutions of the
// pixels they read, gathered per block first: brgconv's strided 1x1 kernel ran resnet50's 28x28x512
// -> 1024 stride-2 convolution at ~105 GFLOP/s on one core in isolation (1.74-2.02 ms) against
// ~190 for the same convolution of the gathered 14x14x512 (1.07 ms), and 14x14x1024 -> 2048 in
// 1.47-1.59 ms against 1.07. Below 2^19 weights (resnet18's downsamples, 64x128 to 256x512)
// the strided kernel ran at full speed and the gather would only add a copy.
// GE_CONV_SUBSAMPLE=0 turns it off.
constexpr int64_t kSubsampleMinWeights = int64_t{1} << 19;

bool Subsampled(const DnnlConvParams& p) {
  static const bool enabled = [] {
    const char* e = std::getenv("GE_CONV_SUBSAMPLE");
    return !(e && std::string(e) == "0");
  }();
  return enabled && p.group == 1 && p.kh == 1 && p.kw == 1 && (p.sh > 1 || p.sw > 1) && p.pt == 0 && p.pl == 0 &&
         p.pb == 0 && p.pr == 0 && p.oh == (p.h - 1) / p.sh + 1 && p.ow == (p.w - 1) / p.sw + 1 &&
         p.m * p.c >= kSubsampleMinWeights;
}

std::unique_ptr<DnnlConvPlan> BuildPlanFor(const DnnlConvParams& p, uint32_t max_blocks);

// Weights of at most 2^17 floats (512 KiB) get their runs of one input channel: in oneDNN's
// packed layouts by reordering a tensor that holds, at each OIHW position, its input channel + 1
// (padding reads 0; WeightInputChannels), in GE's own panels row by row (BuildOwnGemmPlan); larger
// ones keep the input pass. An input scale S (efficientnet_b0's squeeze-and-excitation, a Mul before each projection)
// then costs a gather over the weights rather than a pass over the input: 112x112x32 -> 16 scaled 401408 input floats
// against 512 weights, and the input pass stored at ~0.2 ns a float.
constexpr size_t kScaleWeightsMax = size_t{1} << 17;

// A plan for GE's own kernel: one block a core. The work is the output rows times the 64-channel
// panels, in row-major order, cut into equal shares: a block's parts are whole rows and, where
// the rows do not divide among the cores, one row's panels (7x7 outputs at 2 threads: 3 rows
// and a half each, not 4 and 3). Blocks of output channels only (each core reading half the
// weights) ran mobilenet_v2 and efficientnet_b0 2% slower at 2 threads than row blocks: the
// next layer's row blocks then read half their input from the other core.
std::unique_ptr<DnnlConvPlan> BuildOwnGemmPlan(const DnnlConvParams& p, uint32_t max_blocks) {
  auto plan = std::make_unique<DnnlConvPlan>();
  plan->own_gemm = true;
  plan->x_image = p.h * p.w * p.c;
  plan->y_image = p.oh * p.ow * p.m;
  plan->m = p.m;
  plan->ow = p.ow;
  plan->c = p.c;
  plan->act = p.act;
  plan->a0 = p.a0;
  plan->a1 = p.a1;
  plan->packed_floats = static_cast<size_t>(p.m * p.c);
  const int64_t cores = max_blocks > 1 ? max_blocks / 2 : 1;
  const int64_t panels = (p.m + 63) / 64;
  const auto nb = static_cast<uint32_t>(std::min<int64_t>(p.oh * panels, cores));
  for (uint32_t b = 0; b < nb; ++b) {
    int64_t u0, u1;  // units: row * panels + panel
    kernels::BlockRange(p.oh * panels, b, nb, &u0, &u1);
    std::vector<DnnlConvPlan::OwnPart> parts;
    while (u0 < u1) {
      const int64_t row = u0 / panels, panel = u0 % panels;
      if (panel == 0 && u1 - u0 >= panels) {  // whole rows
        const int64_t rows = (u1 - u0) / panels;
        parts.push_back({row * p.ow, (row + rows) * p.ow, 0, p.m});
        u0 += rows * panels;
      } else {  // one row's panels [panel, end)
        const int64_t end = std::min(panels, panel + (u1 - u0));
        parts.push_back({row * p.ow, (row + 1) * p.ow, panel * 64, std::min(p.m, end * 64)});
        u0 += end - panel;
      }
    }
    plan->own_blocks.push_back(std::move(parts));
  }
  // Each panel row is one input channel: the runs for an input scale on the weights.
  if (plan->packed_floats > kScaleWeightsMax) return plan;
  for (int64_t c0 = 0; c0 < p.m; c0 += 64) {
    const int64_t width = std::min<int64_t>(64, p.m - c0);
    for (int64_t r = 0; r < p.c; ++r)
      plan->w_channel_runs.push_back(
          {static_cast<size_t>(c0 * p.c + r * width), static_cast<size_t>(width), static_cast<int32_t>(r)});
  }
  return plan;
}

std::unique_ptr<DnnlConvPlan> BuildPlan(const DnnlConvParams& p, uint32_t max_blocks) {
  if (OwnGemmConv(p)) return BuildOwnGemmPlan(p, max_blocks);
  if (!Subsampled(p)) return BuildPlanFor(p, max_blocks);
  DnnlConvParams q = p;
  q.h = p.oh;
  q.w = p.ow;
  q.sh = q.sw = q.dh = q.dw = 1;
  auto plan = BuildPlanFor(q, max_blocks);
  if (plan) {
    plan->x_image = p.h * p.w * p.c;
    plan->sub_sh = p.sh;
    plan->sub_sw = p.sw;
    plan->sub_w = p.w;
    plan->sub_ow = p.ow;
  }
  return plan;
}

std::unique_ptr<DnnlConvPlan> BuildPlanFor(const DnnlConvParams& p, uint32_t max_blocks) {
  // Primitives plan their thread count when they are created: create them single-threaded too,
  // or each execution starts an OpenMP team whose threads spin beside the device's cores.
  ThreadStream();
  dnnl::convolution_forward::primitive_desc whole;
  auto plan = std::make_unique<DnnlConvPlan>();
  plan->b_md = memory::desc({p.m}, memory::data_type::f32, tag::x);
  plan->x_image = p.h * p.w * p.c;
  plan->y_image = p.oh * p.ow * p.m;
  plan->m = p.m;
  plan->ow = p.ow;
  plan->c = p.c;
  plan->own_swish = OwnSwish(p);
  if (ChannelSplit(p) && BuildChannelBlocks(p, plan.get())) return plan;
  plan->blocks.clear();
  uint32_t nb = BlocksFor(p, max_blocks);
  if (WinogradCandidate(p)) {  // whatever the cores: the blocks' layouts are packed at compile time
    plan->wino = plan->block_layouts = true;
    if (BuildBlocks(p, BlocksFor(p, kLayoutBlocks), plan->w_md, plan.get())) return plan;
    plan->wino = plan->block_layouts = false;  // no Winograd kernel for these rows: the direct convolution
    plan->packed_floats = 0;
  }
  if (!PackedLayout(p, &plan->w_md)) return nullptr;
  for (; nb > 1; --nb)
    if (BuildBlocks(p, nb, plan->w_md, plan.get())) return plan;
  if (BuildBlocks(p, 1, plan->w_md, plan.get())) return plan;
  // A block layout the whole image does not choose: run the blocks it was chosen for, one
  // after another on fewer cores.
  for (nb = 2; nb <= BlocksFor(p, kLayoutBlocks); ++nb)
    if (BuildBlocks(p, nb, plan->w_md, plan.get())) return plan;
  return nullptr;
}

void WeightInputChannels(const DnnlConvParams& p, DnnlConvPlan* plan) {
  if (plan->own_gemm || plan->block_layouts || plan->wino || p.group != 1 || plan->packed_floats > kScaleWeightsMax)
    return;
  for (const Block& b : plan->blocks)
    if (b.mb > 0 || b.w_off != 0) return;
  const int64_t per_filter = p.c * p.kh * p.kw;
  std::vector<float> ic(static_cast<size_t>(p.m * per_filter)), packed(plan->packed_floats, 0.f);
  for (int64_t o = 0; o < p.m; ++o)
    for (int64_t i = 0; i < p.c; ++i)
      for (int64_t k = 0; k < p.kh * p.kw; ++k) ic[(o * p.c + i) * p.kh * p.kw + k] = static_cast<float>(i + 1);
  auto& eng = Engine();
  memory src(WeightsMd(p, tag::oihw), eng, ic.data());
  memory dst(plan->w_md, eng, packed.data());
  try {
    dnnl::reorder(src, dst).execute(ThreadStream(), src, dst);
  } catch (const dnnl::error&) {
    return;
  }
  std::vector<DnnlConvPlan::ChannelRun> runs;
  for (size_t k = 0; k < packed.size(); ++k) {
    const auto ch = static_cast<int32_t>(packed[k]) - 1;
    if (runs.empty() || runs.back().channel != ch)
      runs.push_back({k, 1, ch});
    else
      ++runs.back().count;
  }
  // Layouts with the output channels innermost (brgconv's) make runs of 16 or more; shorter
  // runs would scale slower than the input pass.
  if (runs.size() * 16 <= packed.size()) plan->w_channel_runs = std::move(runs);
}

std::mutex g_mu;
std::unordered_map<std::string, std::unique_ptr<DnnlConvPlan>> g_plans;

// The parameters as bytes, field by field (no struct padding in the key).
std::string Key(const DnnlConvParams& p, uint32_t max_blocks) {
  const int64_t ints[] = {int64_t{1}, p.c,  p.h,  p.w,  p.m,  p.group, p.kh, p.kw,  p.sh,       p.sw,    p.dh,
                          p.dw,       p.pt, p.pl, p.pb, p.pr, p.oh,    p.ow, p.act, p.has_bias, p.has_z, max_blocks};
  const float floats[] = {p.a0, p.a1};
  std::string k(reinterpret_cast<const char*>(ints), sizeof(ints));
  k.append(reinterpret_cast<const char*>(floats), sizeof(floats));
  return k;
}

}  // namespace

bool DnnlConvSupported(const DnnlConvParams& p) { return GetDnnlConvPlan(p, 1) != nullptr; }

// oneDNN computes offsets in 32-bit ints: dims, pads and an image's elements beyond 2^31 divide
// by zero inside its primitive-descriptor creation (a fuzzed Conv with a 2^40 pad: SIGFPE at
// compile time). Such a convolution is not oneDNN's; the reference path sizes it and fails cleanly.
// Nor is one with a pad of at least the kernel's extent (output pixels that read nothing but
// padding): a mutated offline model's right pad of 5505025 on a 3x3 kernel made oneDNN's
// primitive-descriptor creation allocate past 14 GiB, and `ge run` was killed.
// Why p is beyond those limits ("" when within).
std::string OutsideDnnlLimits(const DnnlConvParams& p) {
  constexpr int64_t kMax = int64_t{1} << 31;
  for (int64_t v : {p.c, p.h, p.w, p.m, p.kh, p.kw, p.sh, p.sw, p.dh, p.dw, p.pt, p.pl, p.pb, p.pr, p.oh, p.ow})
    if (v < 0 || v >= kMax) return fmt::format("a size, stride, dilation or pad of {} (oneDNN takes 0 to 2^31 - 1)", v);
  const int64_t extent_h = (p.kh - 1) * p.dh + 1, extent_w = (p.kw - 1) * p.dw + 1;
  if (p.pt >= extent_h || p.pb >= extent_h || p.pl >= extent_w || p.pr >= extent_w)
    return fmt::format(
        "pads [{}, {}, {}, {}] (top, left, bottom, right): each must be less than the {}x{} kernel's "
        "extent ({}x{}), or output pixels read nothing but padding",
        p.pt, p.pl, p.pb, p.pr, p.kh, p.kw, extent_h, extent_w);
  if (p.h * p.w >= kMax / std::max<int64_t>(p.c, 1) || p.oh * p.ow >= kMax / std::max<int64_t>(p.m, 1) ||
      p.kh * p.kw >= kMax / std::max<int64_t>(p.c, 1))
    return "an image or filter of 2^31 elements or more (oneDNN's offsets are 32-bit)";
  return "";
}
bool WithinDnnlLimits(const DnnlConvParams& p) { return OutsideDnnlLimits(p).empty(); }

const DnnlConvPlan* GetDnnlConvPlan(const DnnlConvParams& p, uint32_t max_blocks) {
  if (!WithinDnnlLimits(p)) return nullptr;
  std::string key = Key(p, max_blocks);
  std::lock_guard<std::mutex> lock(g_mu);
  auto it = g_plans.find(key);
  if (it != g_plans.end()) return it->second.get();
  auto plan = BuildPlan(p, max_blocks);
  if (plan && plan->packed_floats == 0) plan->packed_floats = plan->w_md.get_size() / sizeof(float);
  if (plan) WeightInputChannels(p, plan.get());
  const DnnlConvPlan* raw = plan.get();
  g_plans.emplace(std::move(key), std::move(plan));  // a null plan is cached too: unsupported
  return raw;
}

std::string DnnlConvRefusal(const DnnlConvParams& p) {
  std::string why = OutsideDnnlLimits(p);
  return why.empty() ? "oneDNN has no convolution primitive for these parameters" : why;
}

uint32_t DnnlConvPlanBlocks(const DnnlConvPlan* plan) {
  return static_cast<uint32_t>(plan->own_gemm ? plan->own_blocks.size() : plan->blocks.size());
}

namespace {
// The block's input rows of image i: x itself, or gathered (a subsampled plan) and/or scaled per
// channel (x_scale) into a per-thread buffer.
// out[q * c + ch] = x[q * c + ch] * s[ch] for `pixels` NHWC pixels of c channels.
void ScaleChannels(const float* x, int64_t pixels, int64_t c, const float* s, float* out) {
  for (int64_t q = 0; q < pixels; ++q)
    for (int64_t ch = 0; ch < c; ++ch) out[q * c + ch] = x[q * c + ch] * s[ch];
}

const float* BlockInput(const DnnlConvPlan* plan, const Block& b, int64_t i, const float* x, const float* x_scale,
                        bool scale_per_image) {
  const int64_t c = plan->c;
  if (plan->sub_sh == 0) {
    const float* xi = x + i * plan->x_image + b.x_off;
    if (x_scale == nullptr) return xi;
    const float* s = x_scale + (scale_per_image ? i * c : 0);
    const int64_t count = static_cast<int64_t>((b.wino ? b.xn_md : b.x_md).get_size() / sizeof(float));  // NHWC rows
    thread_local std::vector<float> scaled;
    scaled.resize(static_cast<size_t>(count));
    ScaleChannels(xi, count / c, c, s, scaled.data());
    return scaled.data();
  }
  const float* xi = x + i * plan->x_image;
  const float* s = x_scale ? x_scale + (scale_per_image ? i * c : 0) : nullptr;
  const int64_t row = plan->sub_ow * c;  // floats in a gathered row
  const int64_t count = static_cast<int64_t>(b.x_md.get_size() / sizeof(float)), r0 = b.x_off / row;
  thread_local std::vector<float> gathered;
  gathered.resize(static_cast<size_t>(count));
  float* out = gathered.data();
  for (int64_t r = 0; r < count / row; ++r) {
    const float* src = xi + (r0 + r) * plan->sub_sh * plan->sub_w * c;
    for (int64_t j = 0; j < plan->sub_ow; ++j, out += c) {
      const float* px = src + j * plan->sub_sw * c;
      if (s == nullptr)
        std::memcpy(out, px, static_cast<size_t>(c) * sizeof(float));
      else
        ScaleChannels(px, 1, c, s, out);
    }
  }
  return gathered.data();
}

// The means of `rows` output rows of ow pixels (`stride` floats apart) over channels [0, mc):
// out[r * out_stride + ch]. Run by each block on the rows it just wrote (still in its caches);
// per row, 4 vectors of channels at a time accumulate in registers over the row's pixels.
using V16 = float __attribute__((vector_size(64)));
template <int kVecs>
inline void RowMeanVecs(const float* y, int64_t ow, int64_t stride, float inv, float* out) {
  V16 acc[kVecs] = {};
  for (int64_t q = 0; q < ow; ++q)
    for (int v = 0; v < kVecs; ++v) {
      V16 x;
      __builtin_memcpy(&x, y + q * stride + 16 * v, sizeof(x));
      acc[v] += x;
    }
  for (int v = 0; v < kVecs; ++v) {
    const V16 m = acc[v] * inv;
    __builtin_memcpy(out + 16 * v, &m, sizeof(m));
  }
}

void RowMeans(const float* y, int64_t rows, int64_t ow, int64_t stride, int64_t mc, float* out, int64_t out_stride) {
  const float inv = 1.f / static_cast<float>(ow);
  for (int64_t r = 0; r < rows; ++r) {
    const float* yr = y + r * ow * stride;
    float* o = out + r * out_stride;
    int64_t c0 = 0;
    for (; c0 + 64 <= mc; c0 += 64) RowMeanVecs<4>(yr + c0, ow, stride, inv, o + c0);
    for (; c0 + 16 <= mc; c0 += 16) RowMeanVecs<1>(yr + c0, ow, stride, inv, o + c0);
    for (; c0 < mc; ++c0) {
      float acc = 0.f;
      for (int64_t q = 0; q < ow; ++q) acc += yr[q * stride + c0];
      o[c0] = acc * inv;
    }
  }
}
// A row block's rows of image i, written at yb: their means into R (OH x M floats per image).
void BlockRowMeans(const DnnlConvPlan* plan, const Block& b, int64_t i, const float* yb, float* row_means) {
  const int64_t row = plan->ow * plan->m;
  RowMeans(yb, static_cast<int64_t>(b.y_count) / row, plan->ow, plan->m, plan->m,
           row_means + (i * plan->y_image + b.y_off) / plan->ow, plan->m);
}
// Block b's primitive arguments on this thread, with its weights (w), bias and scratchpad bound.
BoundArgs& BindBlock(const Block& b, const float* w, const float* bias) {
  BoundArgs& a = BindArgs(&b, b.x_md, b.w_md, bias ? &b.b_md : nullptr, b.y_md, b.scratch_md);
  a.weights->set_data_handle(const_cast<float*>(w + b.w_off));
  if (bias) a.bias->set_data_handle(const_cast<float*>(bias + b.m_off));
  a.scratch->set_data_handle(ThreadScratch(b.scratch_md.get_size()));
  return a;
}
// Image i's rows of row block b: its primitive, then SiLU and the row means over them.
void RunRows(const DnnlConvPlan* plan, const Block& b, int64_t i, const float* x, const float* w, const float* bias,
             const float* z, float* y, const float* x_scale, bool scale_per_image, float* row_means) {
  BoundArgs& a = BindBlock(b, w, bias);
  float* yb = y + i * plan->y_image + b.y_off;
  if (z != nullptr && z + i * plan->y_image + b.y_off != yb)
    std::memcpy(yb, z + i * plan->y_image + b.y_off, b.y_count * sizeof(float));
  a.src->set_data_handle(const_cast<float*>(BlockInput(plan, b, i, x, x_scale, scale_per_image)));
  a.dst->set_data_handle(yb);
  b.prim.execute(ThreadStream(), a.args);
  if (plan->own_swish) VecSilu(yb, yb, static_cast<int64_t>(b.y_count));
  if (row_means) BlockRowMeans(plan, b, i, yb, row_means);
}

// The input scale applied to the weights (packed_floats of them), per image when per image.
const float* ScaledWeights(const DnnlConvPlan* plan, const float* w, const float* s) {
  thread_local std::vector<float> ws;
  ws.resize(plan->packed_floats);
  for (const DnnlConvPlan::ChannelRun& r : plan->w_channel_runs) {
    const float sc = r.channel < 0 ? 0.f : s[r.channel];
    const float* src = w + r.begin;
    float* dst = ws.data() + r.begin;
    for (size_t k = 0; k < r.count; ++k) dst[k] = src[k] * sc;
  }
  return ws.data();
}

// A block of GE's own kernel, image by image, part by part: the input scale on the weights where
// they are fewer than the input, else on the pixels the block reads (into a per-thread buffer).
void RunOwnGemmBlock(const DnnlConvPlan* plan, uint32_t block, int64_t images, const float* x, const float* w,
                     const float* bias, const float* z, float* y, const float* x_scale, bool scale_per_image,
                     float* row_means) {
  const std::vector<DnnlConvPlan::OwnPart>& parts = plan->own_blocks[block];
  const int64_t k = plan->c, n = plan->m, lo = parts.front().r0, hi = parts.back().r1;  // parts in pixel order
  const bool scale_weights =
      x_scale != nullptr && !plan->w_channel_runs.empty() && plan->packed_floats <= static_cast<size_t>(plan->x_image);
  thread_local std::vector<float> xs;
  const float* wi = w;
  for (int64_t i = 0; i < images; ++i) {
    const float* xi = x + i * plan->x_image;
    if (x_scale != nullptr) {
      const float* s = x_scale + (scale_per_image ? i * k : 0);
      if (scale_weights) {
        if (i == 0 || scale_per_image) wi = ScaledWeights(plan, w, s);
      } else {
        xs.resize(static_cast<size_t>(plan->x_image));
        ScaleChannels(xi + lo * k, hi - lo, k, s, xs.data() + lo * k);
        xi = xs.data();
      }
    }
    float* yi = y + i * plan->y_image;
    for (const DnnlConvPlan::OwnPart& part : parts) {
      const int64_t r0 = part.r0, c0 = part.c0, c1 = part.c1;
      RunOwnGemm(part.r1 - r0, k, n, c0, c1, xi + r0 * k, wi, bias, z ? z + i * plan->y_image + r0 * n : nullptr,
                 yi + r0 * n, plan->act, plan->a0, plan->a1);
      if (row_means)
        RowMeans(yi + r0 * n + c0, (part.r1 - r0) / plan->ow, plan->ow, n, c1 - c0,
                 row_means + i * (plan->y_image / plan->ow) + r0 / plan->ow * n + c0, n);
    }
  }
}
}  // namespace

void RunDnnlConv(const DnnlConvPlan* plan, uint32_t block, int64_t images, const float* x, const float* w,
                 const float* bias, const float* z, float* y, const float* x_scale, bool scale_per_image,
                 float* row_means) {
  if (plan->own_gemm) {
    RunOwnGemmBlock(plan, block, images, x, w, bias, z, y, x_scale, scale_per_image, row_means);
    return;
  }
  const Block& b = plan->blocks[block];
  if (b.mb > 0) {  // an output-channel block: through a dense buffer of its mb channels
    BoundArgs& a = BindBlock(b, w, bias);
    thread_local std::vector<float> ys;
    ys.resize(b.y_count);
    const int64_t pixels = static_cast<int64_t>(b.y_count) / b.mb;
    const size_t row_bytes = static_cast<size_t>(b.mb) * sizeof(float);
    a.dst->set_data_handle(ys.data());
    for (int64_t i = 0; i < images; ++i) {
      float* yi = y + i * plan->y_image + b.m_off;
      if (z != nullptr) {
        const float* zi = z + i * plan->y_image + b.m_off;
        for (int64_t q = 0; q < pixels; ++q) std::memcpy(ys.data() + q * b.mb, zi + q * plan->m, row_bytes);
      }
      a.src->set_data_handle(const_cast<float*>(BlockInput(plan, b, i, x, x_scale, scale_per_image)));
      b.prim.execute(ThreadStream(), a.args);
      if (plan->own_swish) VecSilu(ys.data(), ys.data(), static_cast<int64_t>(b.y_count));
      for (int64_t q = 0; q < pixels; ++q) std::memcpy(yi + q * plan->m, ys.data() + q * b.mb, row_bytes);
      if (row_means)  // R per image: OH x M floats, this block's mb channels of each row
        RowMeans(ys.data(), pixels / plan->ow, plan->ow, b.mb, b.mb,
                 row_means + i * (plan->y_image / plan->ow) + b.m_off, plan->m);
    }
    return;
  }
  if (b.wino) {
    BoundArgs& a = BindBlock(b, w, bias);
    thread_local std::vector<float> xs, ys;
    xs.resize(b.x_md.get_size() / sizeof(float));
    ys.resize(b.y_md.get_size() / sizeof(float));
    auto& eng = Engine();
    auto& st = ThreadStream();
    memory xb(b.x_md, eng, xs.data()), yb(b.y_md, eng, ys.data());
    a.src->set_data_handle(xs.data());
    a.dst->set_data_handle(ys.data());
    for (int64_t i = 0; i < images; ++i) {
      memory xn(b.xn_md, eng, const_cast<float*>(BlockInput(plan, b, i, x, x_scale, scale_per_image)));
      memory yn(b.yn_md, eng, y + i * plan->y_image + b.y_off);
      b.x_in.execute(st, xn, xb);
      if (z != nullptr) {
        memory zn(b.yn_md, eng, const_cast<float*>(z + i * plan->y_image + b.y_off));
        b.z_in.execute(st, zn, yb);
      }
      b.prim.execute(st, a.args);
      b.y_out.execute(st, yb, yn);
      if (row_means) BlockRowMeans(plan, b, i, y + i * plan->y_image + b.y_off, row_means);
    }
    return;
  }
  // The input scale on the weights where they are fewer than the block's input.
  const bool scale_weights =
      x_scale != nullptr && !plan->w_channel_runs.empty() && plan->packed_floats < b.x_md.get_size() / sizeof(float);
  const float* ws = nullptr;
  for (int64_t i = 0; i < images; ++i) {  // one primitive per image: the packed layout is per image
    const float* wi = w;
    const float* si = x_scale;
    if (scale_weights) {
      if (i == 0 || scale_per_image) ws = ScaledWeights(plan, w, x_scale + (scale_per_image ? i * plan->c : 0));
      wi = ws;
      si = nullptr;
    }
    RunRows(plan, b, i, x, wi, bias, z, y, si, scale_per_image, row_means);
  }
}

size_t PackedConvWeightsSize(const DnnlConvParams& p) {
  const DnnlConvPlan* plan = GetDnnlConvPlan(p, 1);
  return plan ? plan->packed_floats : 0;
}

bool PackConvWeights(const DnnlConvParams& p, const float* oihw, float* packed) {
  const DnnlConvPlan* plan = GetDnnlConvPlan(p, 1);
  if (!plan) return false;
  if (plan->own_gemm) {
    PackOwnGemm(p.c, p.m, oihw, packed);
    return true;
  }
  auto& eng = Engine();
  if (plan->block_layouts) {  // each distinct block layout once, at its w_off
    memory src(WeightsMd(p, tag::oihw), eng, const_cast<float*>(oihw));
    for (size_t i = 0; i < plan->blocks.size(); ++i) {
      const Block& b = plan->blocks[i];
      bool first = true;
      for (size_t j = 0; j < i; ++j) first = first && plan->blocks[j].w_off != b.w_off;
      if (!first) continue;
      memory dst(b.w_md, eng, packed + b.w_off);
      dnnl::reorder(src, dst).execute(ThreadStream(), src, dst);
    }
    return true;
  }
  if (!plan->blocks.empty() && plan->blocks[0].mb > 0) {  // channel blocks: each packs its OIHW rows
    for (const Block& b : plan->blocks) {
      DnnlConvParams q = p;
      q.m = b.mb;
      memory src(WeightsMd(q, tag::oihw), eng, const_cast<float*>(oihw + b.m_off * p.c * p.kh * p.kw));
      memory dst(b.w_md, eng, packed + b.w_off);
      dnnl::reorder(src, dst).execute(ThreadStream(), src, dst);
    }
    return true;
  }
  memory src(WeightsMd(p, p.group == 1 ? tag::oihw : tag::goihw), eng, const_cast<float*>(oihw));
  memory dst(plan->w_md, eng, packed);
  dnnl::reorder(src, dst).execute(ThreadStream(), src, dst);
  return true;
}

#else  // no oneDNN: the NHWC path is unavailable; FusedConv keeps its NCHW kernel.

struct DnnlConvPlan {};
bool DnnlConvSupported(const DnnlConvParams&) { return false; }
std::string DnnlConvRefusal(const DnnlConvParams&) { return "GE was built without oneDNN"; }
const DnnlConvPlan* GetDnnlConvPlan(const DnnlConvParams&, uint32_t) { return nullptr; }
uint32_t DnnlConvPlanBlocks(const DnnlConvPlan*) { return 0; }
void RunDnnlConv(const DnnlConvPlan*, uint32_t, int64_t, const float*, const float*, const float*, const float*, float*,
                 const float*, bool, float*) {}
size_t PackedConvWeightsSize(const DnnlConvParams&) { return 0; }
bool PackConvWeights(const DnnlConvParams&, const float*, float*) { return false; }

#endif

}  // namespace ge::ops_util
