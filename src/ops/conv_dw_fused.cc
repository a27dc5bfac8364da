// FusedConvDw: a 1x1 "expand" convolution and the depthwise convolution that reads it, as one
// kernel (made by conv-depthwise-fusion from two NHWC FusedConvs: the first half of an inverted
// residual block, MobileNetV2/V3, EfficientNet):
//   E = act1(X * W1 + B1)             X [N, H, W, C] times the [C, M] filters, per pixel
//                                     (W1 [M / 16, C, 16]: panels of 16 filters, C by C)
//   Y = act2(depthwise(E, W2) + B2)    W2 [KH * KW, M]: 3x3 or 5x5, stride 1 or 2, any pads
// E never reaches memory: each block owns a slice of the M channels (whole vectors) and walks the
// output rows, computing the expanded rows the next output row needs into a small ring of rows
// (a few rows x W x the slice: L1/L2-sized) just before the depthwise taps read them. Apart the
// two convolutions wrote E (112x112x96 floats, 4.8 MB, in efficientnet_b0) and read it back, and
// at two cores each read rows the other core had written.
// Blocks split channels, not rows, so no block recomputes another's halo rows; each reads all of
// X (C is the small side of the pair).
// Status: correct (PyTorch's outputs, ctest models_dw_fusion) but opt-in (GE_CONV_DW_FUSION=1):
// slower than oneDNN's two JIT primitives except at 112x112x16 -> 96 stride 2 (500 against 555
// us), mostly in the depthwise taps (14x14x64 -> 384: 86 us fused against 76 us apart). The next
// steps are in bench/README.md (session 9).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "base/checked_math.h"
#include "ops/dnnl_conv.h"
#include "ops/op_util.h"
#include "ops/simd.h"

// The kernel exists only with vector lanes; the op is registered only then (the pass checks).
#if defined(__AVX512F__) || (defined(__AVX2__) && defined(__FMA__))
namespace ge::ops_conv_dw {
using namespace ge::ops_util;

constexpr int64_t kPanel = 16;  // filters per W1 panel

enum Attr { kKernelShape, kStrides, kPads, kDilations, kActivation, kActivationParams, kExpandAct, kExpandActParams };

struct DwTiling {
  int64_t n, h, w, c, m, oh, ow;
  int64_t kh, kw, sh, sw, pt, pl;  // kh == kw, no dilation (SupportedWindow)
  int32_t act1, act2;
  float a10, a11, a20, a21;
  int64_t vecs;       // vectors of channels per slice (the last slice may hold fewer)
  int64_t slices;     // channel slices per image
  int64_t pw;         // ring row width in pixels: pl zero pixels, the W expanded ones, zeros to the right
  int64_t ring_rows;  // expanded rows the ring holds
  int64_t fill_rows;  // expanded rows computed per step (at most)
  int32_t y_index;
};

// The activations the kernel computes: those of the networks it is tested on (mobilenet_v2,
// mobilenet_v3_small, efficientnet_b0 against PyTorch); conv-depthwise-fusion lists the same.
bool VectorAct(ConvAct a) {
  switch (a) {
    case ConvAct::kNone:
    case ConvAct::kRelu:
    case ConvAct::kClip:
    case ConvAct::kHardSwish:
    case ConvAct::kSwish: return true;
    default: return false;
  }
}

bool ReadAct(const gert::RuntimeAttrs* a, size_t name, size_t params, int32_t* act, float* a0, float* a1) {
  ConvAct c;
  if (!ParseActivation(AttrStr(a, name, ""), AttrFloats(a, params), &c, a0, a1) || !VectorAct(c)) return false;
  *act = static_cast<int32_t>(c);
  return true;
}

struct Geometry {
  int64_t kh, kw, sh, sw, dh, dw, pt, pl, pb, pr;
};

bool ReadGeometry(const gert::RuntimeAttrs* a, Geometry* g) {
  std::vector<int64_t> k = AttrInts(a, kKernelShape), s = AttrInts(a, kStrides), p = AttrInts(a, kPads),
                       d = AttrInts(a, kDilations);
  if (k.size() != 2 || (!s.empty() && s.size() != 2) || (!p.empty() && p.size() != 4) || (!d.empty() && d.size() != 2))
    return false;
  if (s.empty()) s = {1, 1};
  if (p.empty()) p = {0, 0, 0, 0};
  if (d.empty()) d = {1, 1};
  *g = Geometry{k[0], k[1], s[0], s[1], d[0], d[1], p[0], p[1], p[2], p[3]};
  return g->kh > 0 && g->kw > 0 && g->kh <= 64 && g->kw <= 64 && g->sh > 0 && g->sw > 0 && g->dh > 0 && g->dw > 0 &&
         g->pt >= 0 && g->pl >= 0 && g->pb >= 0 && g->pr >= 0 && g->pt < 1024 && g->pl < 1024 && g->pb < 1024 &&
         g->pr < 1024 && g->dh < 1024 && g->dw < 1024 && g->sh < 1024 && g->sw < 1024;
}

// The windows the depthwise rows are unrolled for: 3x3 or 5x5, strides 1 or 2, no dilation.
bool SupportedWindow(const Geometry& g) {
  return g.kh == g.kw && (g.kh == 3 || g.kh == 5) && (g.sh == 1 || g.sh == 2) && (g.sw == 1 || g.sw == 2) &&
         g.dh == 1 && g.dw == 1;
}

// Output extent of one spatial dim (-1 for an unknown input dim, 0 or less when empty).
int64_t OutDim(int64_t in, int64_t k, int64_t s, int64_t d, int64_t p0, int64_t p1) {
  if (in < 0) return -1;
  return (in + p0 + p1 - ((k - 1) * d + 1)) / s + 1;
}

ge::graphStatus InferShape(gert::InferShapeContext* ctx) {
  const gert::Shape* x = ctx->GetInputShape(0);
  const gert::Shape* w1 = ctx->GetInputShape(1);
  const gert::Shape* w2 = ctx->GetInputShape(3);
  if (!x || !w1 || !w2) return InferFail("missing input X, W1 or W2");
  Geometry g;
  if (!ReadGeometry(ctx->GetAttrs(), &g)) return InferFail("invalid kernel_shape, strides, pads or dilations");
  if (!SupportedWindow(g))
    return InferFail(
        fmt::format("expected a 3x3 or 5x5 window, strides 1 or 2 and no dilation, got {}x{}, strides "
                    "[{}, {}], dilations [{}, {}]",
                    g.kh, g.kw, g.sh, g.sw, g.dh, g.dw));
  if (x->GetDimNum() != 4 || w1->GetDimNum() != 3 || w2->GetDimNum() != 2 || w1->GetDim(2) != kPanel)
    return InferFail(fmt::format("expected X [N, H, W, C], W1 [M / 16, C, 16] and W2 [KH * KW, M], got {}, {} and {}",
                                 ShapeToString(*x), ShapeToString(*w1), ShapeToString(*w2)));
  const int64_t c = w1->GetDim(1), m = w1->GetDim(0) < 0 ? -1 : w1->GetDim(0) * kPanel;
  if ((x->GetDim(3) >= 0 && c >= 0 && x->GetDim(3) != c) || (m >= 0 && w2->GetDim(1) >= 0 && w2->GetDim(1) != m) ||
      (w2->GetDim(0) >= 0 && w2->GetDim(0) != g.kh * g.kw))
    return InferFail(fmt::format("expected X [N, H, W, C], W1 [M / 16, C, 16] and W2 [{}, M], got {}, {} and {}",
                                 g.kh * g.kw, ShapeToString(*x), ShapeToString(*w1), ShapeToString(*w2)));
  for (int i : {2, 4}) {
    const gert::Shape* b = ctx->GetInputShape(i);
    if (b && (b->GetDimNum() != 1 || (m >= 0 && b->GetDim(0) >= 0 && b->GetDim(0) != m)))
      return InferFail(fmt::format("expected the bias B{} to be [{}], got {}", i == 2 ? 1 : 2, m, ShapeToString(*b)));
  }
  const int64_t oh = OutDim(x->GetDim(1), g.kh, g.sh, g.dh, g.pt, g.pb);
  const int64_t ow = OutDim(x->GetDim(2), g.kw, g.sw, g.dw, g.pl, g.pr);
  if ((x->GetDim(1) >= 0 && oh <= 0) || (x->GetDim(2) >= 0 && ow <= 0))
    return InferFail(fmt::format("the {}x{} window does not fit X {} with these pads", g.kh, g.kw, ShapeToString(*x)));
  *ctx->GetOutputShape(0) = gert::Shape({x->GetDim(0), oh, ow, m});
  return ge::GRAPH_SUCCESS;
}

// Expanded rows kept per slice: the depthwise window's rows plus one fill, a fill being enough
// rows for max(96, C) pixels (each fill streams the slice's W1 columns once: a 7x7x160 -> 960
// layer's 614 KB of weights were read twice in fills of 4 rows), within ~1 MiB.
constexpr int64_t kRingBytes = 1 << 20;
constexpr int64_t kMaxRingBytes = int64_t{256} << 20;

ge::graphStatus Tiling(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  const gert::Shape& w1 = ctx->GetInputShape(1)->GetStorageShape();
  const gert::Shape& w2 = ctx->GetInputShape(3)->GetStorageShape();
  Geometry g;
  DwTiling t{};
  const auto* a = ctx->GetAttrs();
  if (!ReadGeometry(a, &g) || !SupportedWindow(g) ||
      !ReadAct(a, kExpandAct, kExpandActParams, &t.act1, &t.a10, &t.a11) ||
      !ReadAct(a, kActivation, kActivationParams, &t.act2, &t.a20, &t.a21))
    return InferFail("invalid attributes");
  if (x.GetDimNum() != 4 || w1.GetDimNum() != 3 || w2.GetDimNum() != 2 || w1.GetDim(2) != kPanel)
    return ge::GRAPH_FAILED;
  t.n = x.GetDim(0), t.h = x.GetDim(1), t.w = x.GetDim(2), t.c = x.GetDim(3), t.m = w1.GetDim(0) * kPanel;
  if (w1.GetDim(1) != t.c || w2.GetDim(0) != g.kh * g.kw || w2.GetDim(1) != t.m)
    return InferFail(fmt::format("expected W1 [M / 16, {}, 16] and W2 [{}, M], got {} and {}", t.c, g.kh * g.kw,
                                 ShapeToString(w1), ShapeToString(w2)));
  if (t.m <= 0 || t.m % simd::kLanes != 0 || t.c <= 0)
    return InferFail(fmt::format("expected a multiple of {} channels, got {}", simd::kLanes, t.m));
  t.kh = g.kh, t.kw = g.kw, t.sh = g.sh, t.sw = g.sw, t.pt = g.pt, t.pl = g.pl;
  t.oh = OutDim(t.h, g.kh, g.sh, g.dh, g.pt, g.pb);
  t.ow = OutDim(t.w, g.kw, g.sw, g.dw, g.pl, g.pr);
  if (t.h <= 0 || t.w <= 0 || t.oh <= 0 || t.ow <= 0) return InferFail("empty spatial dims");
  const int64_t vectors = t.m / simd::kLanes;
  const int64_t blocks = OversplitBlocks(ctx->GetCoreNum());
  t.slices = std::min<int64_t>(vectors, std::max<int64_t>(1, blocks / std::max<int64_t>(1, t.n)));
  t.vecs = (vectors + t.slices - 1) / t.slices;
  t.slices = (vectors + t.vecs - 1) / t.vecs;
  const int64_t window = t.kh;
  t.pw = std::max(t.pl + t.w, (t.ow - 1) * t.sw + t.kw);
  int64_t row_bytes = 0;
  if (!ge::CheckedMul<int64_t>(t.pw, t.vecs * simd::kLanes * 4, &row_bytes)) return ge::GRAPH_FAILED;
  const int64_t fill_pixels = std::max<int64_t>(96, t.c);  // weights read per fill <= the rows it writes
  t.fill_rows = std::max<int64_t>(
      t.sh, std::min({t.h, (fill_pixels + t.w - 1) / t.w, std::max<int64_t>(1, kRingBytes / row_bytes - window)}));
  t.ring_rows = std::min<int64_t>(t.h, window + t.fill_rows);
  int64_t ring_bytes = 0;  // a per-thread buffer: refused beyond kMaxRingBytes (huge dilations or widths)
  if (!ge::CheckedMul<int64_t>(t.ring_rows, row_bytes, &ring_bytes) || ring_bytes > kMaxRingBytes)
    return InferFail(
        fmt::format("the expanded rows a {}x{} window reads over {} columns of {} channels need more "
                    "than {} MiB",
                    t.kh, t.kw, t.pw, t.vecs * simd::kLanes, kMaxRingBytes >> 20));
  for (int i : {2, 4}) {  // the kernel reads M biases
    const gert::StorageShape* b = ctx->GetInputShape(i);
    if (b && b->GetStorageShape().GetShapeSize() != t.m)
      return InferFail(fmt::format("expected the bias B{} to hold {} values, got {}", i == 2 ? 1 : 2, t.m,
                                   ShapeToString(b->GetStorageShape())));
  }
  t.y_index = static_cast<int32_t>(ctx->GetComputeNodeInputNum());
  int64_t units = 0;
  if (!ge::CheckedMul<int64_t>(t.n, t.slices, &units)) return ge::GRAPH_FAILED;
  ctx->SetBlockDim(static_cast<uint32_t>(std::max<int64_t>(1, std::min<int64_t>(units, blocks))));
  ctx->GetWorkspaceSizes(1)[0] = 0;
  return SetTiling(ctx, t);
}

using simd::Vec;
constexpr int64_t L = simd::kLanes;
// Pixels per expand tile: accumulators for NP pixels x 2 vectors, 2 weight vectors and the
// broadcast input in the 32 (AVX-512) or 16 (AVX2) vector registers.
constexpr int kTileP = L == 16 ? 12 : 6;

inline Vec Act(int act, float a0, float a1, Vec v) {
  using namespace simd;  // NOLINT
  switch (static_cast<ConvAct>(act)) {
    case ConvAct::kRelu: return Max(v, Zero());
    case ConvAct::kLeakyRelu: return Add(Max(v, Zero()), Mul(Set1(a0), Min(v, Zero())));
    case ConvAct::kClip: return Min(Max(v, Set1(a0)), Set1(a1));
    case ConvAct::kSigmoid: return Sigmoid(v);
    case ConvAct::kHardSigmoid: return Min(Max(Fma(Set1(a0), v, Set1(a1)), Zero()), Set1(1.f));
    case ConvAct::kHardSwish: return Mul(v, Min(Max(Fma(v, Set1(1.f / 6), Set1(0.5f)), Zero()), Set1(1.f)));
    case ConvAct::kSwish: return Mul(v, Sigmoid(v));
    default: return v;
  }
}

// out[p][v * L ...] = act1(sum_k x[p][k] w[v][k * kPanel ...] + b1[v * L ...]) for NP pixels (x
// rows of c floats) and NV vectors of channels (w[v]: the vector's column in its W1 panel).
template <int NP, int NV>
void ExpandTile(const DwTiling& t, const float* x, const float* const* w, const float* b1, float* const* out) {
  Vec acc[NP][NV];
  for (int v = 0; v < NV; ++v) {
    const Vec b = b1 ? simd::Load(b1 + v * L) : simd::Zero();
    for (int p = 0; p < NP; ++p) acc[p][v] = b;
  }
  const int64_t c = t.c;
  for (int64_t k = 0; k < c; ++k) {
    Vec wv[NV];
    for (int v = 0; v < NV; ++v) wv[v] = simd::Load(w[v] + k * kPanel);
    for (int p = 0; p < NP; ++p) {
      const Vec xv = simd::Set1(x[p * c + k]);
      for (int v = 0; v < NV; ++v) acc[p][v] = simd::Fma(xv, wv[v], acc[p][v]);
    }
  }
  for (int p = 0; p < NP; ++p)
    for (int v = 0; v < NV; ++v) simd::Store(out[p] + v * L, Act(t.act1, t.a10, t.a11, acc[p][v]));
}

template <int NV, int NP = kTileP>
void ExpandTail(int np, const DwTiling& t, const float* x, const float* const* w, const float* b1, float* const* out) {
  if constexpr (NP > 0) {
    if (np == NP) return ExpandTile<NP, NV>(t, x, w, b1, out);
    ExpandTail<NV, NP - 1>(np, t, x, w, b1, out);
  }
}

// Expanded channels [ch0, ch0 + nvec * L) of `rows` consecutive rows of X (t.w pixels each) into
// out: pixel q of row r at out + r * row + q * ld.
void Expand(const DwTiling& t, const float* x, int64_t rows, const float* w1, const float* b1, int64_t ch0,
            int64_t nvec, float* out, int64_t row, int64_t ld) {
  auto column = [&](int64_t ch) { return w1 + (ch / kPanel) * t.c * kPanel + ch % kPanel; };
  const int64_t pixels = rows * t.w;
  for (int64_t v = 0; v < nvec; v += 2) {
    const bool two = v + 1 < nvec;
    const float* w[2] = {column(ch0 + v * L), column(ch0 + (two ? v + 1 : v) * L)};
    const float* bv = b1 ? b1 + ch0 + v * L : nullptr;
    float* dst[kTileP];
    int64_t r = 0, col = 0;  // the row and column of pixel p
    for (int64_t p = 0; p < pixels; p += kTileP) {
      const int np = static_cast<int>(std::min<int64_t>(kTileP, pixels - p));
      for (int q = 0; q < np; ++q) {
        dst[q] = out + r * row + col * ld + v * L;
        if (++col == t.w) col = 0, ++r;
      }
      if (np == kTileP) {
        if (two)
          ExpandTile<kTileP, 2>(t, x + p * t.c, w, bv, dst);
        else
          ExpandTile<kTileP, 1>(t, x + p * t.c, w, bv, dst);
      } else if (two) {
        ExpandTail<2>(np, t, x + p * t.c, w, bv, dst);
      } else {
        ExpandTail<1>(np, t, x + p * t.c, w, bv, dst);
      }
    }
  }
}

// NO neighbouring output columns of one output row (stride S, no dilation) for channel vector
// `off` of the slice, the taps' weights in wv: rp[i] is tap row i at the first column's window,
// y the first column's output (pixels m floats apart). Each input column is loaded once and
// feeds every output whose window holds it ((NO - 1) S + KW loads a row instead of NO KW).
template <int KH, int KW, int S, int NO>
inline void DepthwiseColumns(const DwTiling& t, const float* const* rp, const Vec* wv, Vec bias, int64_t off,
                             int64_t ld, float* y) {
  constexpr int kCols = (NO - 1) * S + KW;
  Vec acc[NO];
  for (int q = 0; q < NO; ++q) acc[q] = bias;
  for (int i = 0; i < KH; ++i) {
    const float* r = rp[i] + off;
#pragma GCC unroll 32
    for (int c = 0; c < kCols; ++c) {
      const Vec x = simd::Load(r + c * ld);
#pragma GCC unroll 8
      for (int j = 0; j < KW; ++j) {
        const int d = c - j;
        if (d >= 0 && d % S == 0 && d / S < NO) acc[d / S] = simd::Fma(x, wv[i * KW + j], acc[d / S]);
      }
    }
  }
  for (int q = 0; q < NO; ++q) simd::Store(y + q * t.m + off, Act(t.act2, t.a20, t.a21, acc[q]));
}

// One output row of the depthwise convolution over channel vectors [0, nvec) of the slice:
// rows[i] is the expanded input row of tap row i (a zero row outside the image), rows of t.pw
// pixels x ld floats whose padding columns hold zeros, so that every tap reads inside its row.
// y: the output row at the slice's first channel (pixels m floats apart). The window and stride
// are known at compile time (taps unrolled, the weights in registers across the row, 8, 4, 2 or
// 1 columns at a time).
template <int KH, int KW, int S>
void DepthwiseRow(const DwTiling& t, const float* const* rows, const float* w2, const float* b2, int64_t ch0,
                  int64_t nvec, int64_t ld, float* y) {
  const int64_t m = t.m, ow = t.ow;
  const int64_t step = t.sw * ld;  // floats between the inputs of neighbouring output columns
  for (int64_t v = 0; v < nvec; ++v) {
    const int64_t off = v * L, ch = ch0 + off;
    const Vec bias = b2 ? simd::Load(b2 + ch) : simd::Zero();
    Vec wv[KH * KW];
    for (int k = 0; k < KH * KW; ++k) wv[k] = simd::Load(w2 + k * m + ch);
    const float* rp[KH];
    auto at = [&](int64_t col) {
      for (int i = 0; i < KH; ++i) rp[i] = rows[i] + col * step;
    };
    int64_t ox = 0;
    for (; ox + 8 <= ow; ox += 8) {
      at(ox);
      DepthwiseColumns<KH, KW, S, 8>(t, rp, wv, bias, off, ld, y + ox * m);
    }
    if (ox + 4 <= ow) {
      at(ox);
      DepthwiseColumns<KH, KW, S, 4>(t, rp, wv, bias, off, ld, y + ox * m);
      ox += 4;
    }
    if (ox + 2 <= ow) {
      at(ox);
      DepthwiseColumns<KH, KW, S, 2>(t, rp, wv, bias, off, ld, y + ox * m);
      ox += 2;
    }
    if (ox < ow) {
      at(ox);
      DepthwiseColumns<KH, KW, S, 1>(t, rp, wv, bias, off, ld, y + ox * m);
    }
  }
}

using DepthwiseRowFn = void (*)(const DwTiling&, const float* const*, const float*, const float*, int64_t, int64_t,
                                int64_t, float*);

DepthwiseRowFn PickDepthwiseRow(const DwTiling& t) {  // the windows SupportedWindow admits
  if (t.kh == 3) return t.sw == 1 ? DepthwiseRow<3, 3, 1> : DepthwiseRow<3, 3, 2>;
  return t.sw == 1 ? DepthwiseRow<5, 5, 1> : DepthwiseRow<5, 5, 2>;
}

void Kernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<DwTiling>(args);
  const auto* x = static_cast<const float*>(args->addrs[0]);
  const auto* w1 = static_cast<const float*>(args->addrs[1]);
  const auto* b1 = static_cast<const float*>(args->addrs[2]);
  const auto* w2 = static_cast<const float*>(args->addrs[3]);
  const auto* b2 = t.y_index > 4 ? static_cast<const float*>(args->addrs[4]) : nullptr;
  auto* y = static_cast<float*>(args->addrs[t.y_index]);
  const int64_t ld = t.vecs * L;  // floats per expanded pixel in the ring
  const int64_t row = t.pw * ld;
  thread_local std::vector<float> ring, zero_row;  // zero_row: the padding rows above and below
  if (ring.size() < static_cast<size_t>(t.ring_rows * row)) ring.resize(static_cast<size_t>(t.ring_rows * row));
  if (zero_row.size() < static_cast<size_t>(row)) zero_row.assign(static_cast<size_t>(row), 0.f);  // never written
  // The padding columns (expand writes only the others): zeroed unless this thread's last call
  // used the same ring layout, whose padding no call has written since.
  thread_local std::array<int64_t, 5> zeroed{};
  const std::array<int64_t, 5> layout{reinterpret_cast<int64_t>(ring.data()), t.ring_rows, row, t.pl, t.w};
  if (zeroed != layout) {
    for (int64_t r = 0; r < t.ring_rows; ++r) {
      float* rr = ring.data() + r * row;
      std::fill(rr, rr + t.pl * ld, 0.f);
      std::fill(rr + (t.pl + t.w) * ld, rr + row, 0.f);
    }
    zeroed = layout;
  }
  const DepthwiseRowFn depthwise_row = PickDepthwiseRow(t);
  const float* rows[5];  // kh <= 5 (SupportedWindow)
  int64_t ub, ue;
  BlockRange(t.n * t.slices, args->blockIdx, args->blockDim, &ub, &ue);
  for (int64_t u = ub; u < ue; ++u) {
    const int64_t img = u / t.slices, slice = u % t.slices;
    const int64_t ch0 = slice * t.vecs * L;
    const int64_t nvec = std::min(t.vecs, t.m / L - slice * t.vecs);
    const float* xi = x + img * t.h * t.w * t.c;
    float* yi = y + img * t.oh * t.ow * t.m + ch0;
    int64_t next = 0;  // the first input row not expanded yet
    for (int64_t oy = 0; oy < t.oh; ++oy) {
      const int64_t top = oy * t.sh - t.pt;
      const int64_t lo = std::max<int64_t>(0, top);
      const int64_t hi = std::min<int64_t>(t.h, top + t.kh);
      next = std::max(next, lo);  // rows skipped by a stride larger than the window are never read
      while (next < hi) {         // expand rows [next, next + count) into their ring slots
        int64_t count = std::min({t.fill_rows, t.h - next, lo + t.ring_rows - next});
        const int64_t slot = next % t.ring_rows;
        count = std::min(count, t.ring_rows - slot);  // no wrap inside one call
        Expand(t, xi + next * t.w * t.c, count, w1, b1, ch0, nvec, ring.data() + slot * row + t.pl * ld, row, ld);
        next += count;
      }
      for (int64_t i = 0; i < t.kh; ++i) {
        const int64_t iy = top + i;
        rows[i] = iy >= 0 && iy < t.h ? ring.data() + (iy % t.ring_rows) * row : zero_row.data();
      }
      depthwise_row(t, rows, w2, b2, ch0, nvec, ld, yi + oy * t.ow * t.m);
    }
  }
}
}  // namespace ge::ops_conv_dw

namespace ops {
class FusedConvDw : public OpDef {
 public:
  explicit FusedConvDw(const char* name) : OpDef(name) {
    this->Input("X").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Input("W1").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Input("B1").ParamType(OPTIONAL).DataType({ge::DT_FLOAT});
    this->Input("W2").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Input("B2").ParamType(OPTIONAL).DataType({ge::DT_FLOAT});
    this->Output("Y").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Attr("kernel_shape").AttrType(REQUIRED).ListInt();
    this->Attr("strides").AttrType(OPTIONAL).ListInt();
    this->Attr("pads").AttrType(OPTIONAL).ListInt();
    this->Attr("dilations").AttrType(OPTIONAL).ListInt();
    this->Attr("activation").AttrType(OPTIONAL).String("");
    this->Attr("activation_params").AttrType(OPTIONAL).ListFloat();
    this->Attr("expand_activation").AttrType(OPTIONAL).String("");
    this->Attr("expand_activation_params").AttrType(OPTIONAL).ListFloat();
    this->SetInferShape(ge::ops_conv_dw::InferShape);
    this->SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    this->AICore().SetTiling(ge::ops_conv_dw::Tiling).SetKernel(ge::ops_conv_dw::Kernel).AddConfig("ascend910b");
  }
};
OP_ADD(FusedConvDw);
}  // namespace ops
#endif
