#include "ops/conv_own_gemm.h"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "ops/dnnl_conv.h"
#include "ops/simd.h"

namespace ge::ops_util {

namespace {
// Output pixels of the layers the kernel is for: 7x7 and 14x14 (mobilenet_v2, efficientnet_b0).
constexpr int64_t kOwnGemmMaxPixels = 14 * 14;
// Weights (floats) from which they come from L3 or memory in a model rather than L2: 256 KiB.
constexpr int64_t kOwnGemmMinWeights = int64_t{1} << 16;
}  // namespace

bool OwnGemmEnabled() {
#if defined(__AVX512F__)
  static const bool enabled = [] {
    const char* e = std::getenv("GE_CONV_OWN_GEMM");
    return e == nullptr || std::string(e) != "0";
  }();
  return enabled;
#else
  return false;
#endif
}

bool OwnGemmConv(const DnnlConvParams& p) {
  const auto act = static_cast<ConvAct>(p.act);
  const bool act_ok = act == ConvAct::kNone || act == ConvAct::kRelu || act == ConvAct::kClip || act == ConvAct::kSwish;
  return OwnGemmEnabled() && act_ok && p.group == 1 && p.kh == 1 && p.kw == 1 && p.sh == 1 && p.sw == 1 && p.dh == 1 &&
         p.dw == 1 && p.pt == 0 && p.pl == 0 && p.pb == 0 && p.pr == 0 && p.oh == p.h && p.ow == p.w &&
         p.oh * p.ow <= kOwnGemmMaxPixels && p.m % 16 == 0 && p.c >= 1 && p.m * p.c >= kOwnGemmMinWeights;
}

void PackOwnGemm(int64_t k, int64_t n, const float* oihw, float* panels) {
  for (int64_t c0 = 0; c0 < n; c0 += 64) {
    const int64_t width = std::min<int64_t>(64, n - c0);
    float* panel = panels + c0 * k;
    for (int64_t r = 0; r < k; ++r)
      for (int64_t j = 0; j < width; ++j) panel[r * width + j] = oihw[(c0 + j) * k + r];
  }
}

#if defined(__AVX512F__)
namespace {
using simd::Vec;

struct Epilogue {
  ConvAct act;
  float a0, a1;
};

inline Vec Activate(Vec v, const Epilogue& e) {
  switch (e.act) {
    case ConvAct::kRelu: return _mm512_max_ps(v, _mm512_setzero_ps());
    case ConvAct::kClip: return _mm512_min_ps(_mm512_max_ps(v, _mm512_set1_ps(e.a0)), _mm512_set1_ps(e.a1));
    case ConvAct::kSwish: return _mm512_mul_ps(v, simd::Sigmoid(v));
    default: return v;
  }
}

// Rows [0, MR) x the NV vectors of one panel (NV * 16 channels, `width` floats a panel row):
// the products over k, then bias, z and the activation. Each step also prefetches lines
// [step * pf_lines / pf_steps, (step + 1) * pf_lines / pf_steps) of the next panel into L2.
template <int MR, int NV>
void Tile(int64_t k, const float* x, int64_t ldx, const float* panel, int64_t width, const float* bias, const float* z,
          float* y, int64_t ldy, const Epilogue& e, const char* pf, int64_t pf_step0, int64_t pf_lines,
          int64_t pf_steps) {
  Vec acc[MR][NV];
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) acc[i][j] = bias ? _mm512_loadu_ps(bias + 16 * j) : _mm512_setzero_ps();
  int64_t line = pf ? pf_step0 * pf_lines / pf_steps : 0;
  for (int64_t r = 0; r < k; ++r) {
    if (pf != nullptr) {
      const int64_t next = (pf_step0 + r + 1) * pf_lines / pf_steps;
      for (; line < next; ++line) _mm_prefetch(pf + line * 64, _MM_HINT_T1);
    }
    Vec b[NV];
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) b[j] = _mm512_loadu_ps(panel + r * width + 16 * j);
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) {
      const Vec a = _mm512_set1_ps(x[i * ldx + r]);
#pragma GCC unroll 4
      for (int j = 0; j < NV; ++j) acc[i][j] = _mm512_fmadd_ps(a, b[j], acc[i][j]);
    }
  }
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) {
      Vec v = acc[i][j];
      if (z != nullptr) v = _mm512_add_ps(v, _mm512_loadu_ps(z + i * ldy + 16 * j));
      _mm512_storeu_ps(y + i * ldy + 16 * j, Activate(v, e));
    }
}

using TileFn = void (*)(int64_t, const float*, int64_t, const float*, int64_t, const float*, const float*, float*,
                        int64_t, const Epilogue&, const char*, int64_t, int64_t, int64_t);

template <int NV>
TileFn TileFor(int64_t rows) {
  switch (rows) {
    case 1: return Tile<1, NV>;
    case 2: return Tile<2, NV>;
    case 3: return Tile<3, NV>;
    case 4: return Tile<4, NV>;
    case 5: return Tile<5, NV>;
    case 6: return Tile<6, NV>;
    default: return Tile<7, NV>;
  }
}

TileFn TileFor(int64_t rows, int64_t vecs) {
  switch (vecs) {
    case 1: return TileFor<1>(rows);
    case 2: return TileFor<2>(rows);
    case 3: return TileFor<3>(rows);
    default: return TileFor<4>(rows);
  }
}
}  // namespace

void RunOwnGemm(int64_t m, int64_t k, int64_t n, int64_t c0, int64_t c1, const float* x, const float* panels,
                const float* bias, const float* z, float* y, int32_t act, float a0, float a1) {
  constexpr int64_t kRows = 7;
  const Epilogue e{static_cast<ConvAct>(act), a0, a1};
  const int64_t tiles = (m + kRows - 1) / kRows;
  for (int64_t c = c0; c < c1; c += 64) {
    const int64_t width = std::min<int64_t>(64, n - c), vecs = std::min<int64_t>(64, c1 - c) / 16;
    const float* panel = panels + c * k;
    // The next panel of this block, prefetched over this panel's tiles: its k rows of width floats.
    const int64_t next = c + 64;
    const char* pf = next < c1 ? reinterpret_cast<const char*>(panels + next * k) : nullptr;
    const int64_t pf_lines = pf ? (k * std::min<int64_t>(64, n - next) * 4 + 63) / 64 : 0;
    for (int64_t t = 0; t < tiles; ++t) {
      const int64_t r0 = t * kRows, rows = std::min(kRows, m - r0);
      TileFor(rows, vecs)(k, x + r0 * k, k, panel, width, bias ? bias + c : nullptr, z ? z + r0 * n + c : nullptr,
                          y + r0 * n + c, n, e, pf, t * k, pf_lines, tiles * k);
    }
  }
}
#else
void RunOwnGemm(int64_t, int64_t, int64_t, int64_t, int64_t, const float*, const float*, const float*, const float*,
                float*, int32_t, float, float) {}
#endif

}  // namespace ge::ops_util
