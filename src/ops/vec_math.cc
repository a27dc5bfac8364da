#include "ops/vec_math.h"

#include <algorithm>

#include <cmath>

#ifdef GE_HAVE_SLEEF
#include <immintrin.h>
#include <sleef.h>
#endif

namespace ge::ops_util {
namespace {

#if defined(GE_HAVE_SLEEF) && defined(__AVX512F__)
constexpr int64_t kLanes = 16;
using Vec = __m512;
inline Vec Load(const float* p) { return _mm512_loadu_ps(p); }
inline void Store(float* p, Vec v) { _mm512_storeu_ps(p, v); }
inline Vec Exp(Vec v) { return Sleef_expf16_u10(v); }
inline Vec Set1(float v) { return _mm512_set1_ps(v); }
inline Vec Max(Vec a, Vec b) { return _mm512_max_ps(a, b); }
inline Vec Min(Vec a, Vec b) { return _mm512_min_ps(a, b); }
inline Vec Add(Vec a, Vec b) { return _mm512_add_ps(a, b); }
inline Vec Sub(Vec a, Vec b) { return _mm512_sub_ps(a, b); }
inline Vec Mul(Vec a, Vec b) { return _mm512_mul_ps(a, b); }
inline float ReduceMax(Vec v) { return _mm512_reduce_max_ps(v); }
inline float ReduceAdd(Vec v) { return _mm512_reduce_add_ps(v); }
inline Vec Tanh(Vec v) { return Sleef_tanhf16_u10(v); }
inline Vec Erf(Vec v) { return Sleef_erff16_u10(v); }
inline Vec Fma(Vec a, Vec b, Vec c) { return _mm512_fmadd_ps(a, b, c); }
inline Vec Fnmadd(Vec a, Vec b, Vec c) { return _mm512_fnmadd_ps(a, b, c); }  // c - a b
inline Vec Fnmsub(Vec a, Vec b, Vec c) { return _mm512_fnmsub_ps(a, b, c); }  // -a b - c
inline Vec Round(Vec v) { return _mm512_roundscale_ps(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
inline Vec Scale2(Vec p, Vec n) { return _mm512_scalef_ps(p, n); }  // p * 2^n
// 1 / s: the 14-bit estimate and one Newton step (~0.5 ulp; vdivps on 16 lanes has a throughput
// of one per ~16 cycles on Intel cores, which made the division most of a sigmoid's cost).
inline Vec Recip(Vec s) {
  const Vec r = _mm512_rcp14_ps(s);
  return _mm512_mul_ps(r, _mm512_fnmadd_ps(s, r, _mm512_set1_ps(2.f)));
}
#elif defined(GE_HAVE_SLEEF) && defined(__AVX2__)
constexpr int64_t kLanes = 8;
using Vec = __m256;
inline Vec Load(const float* p) { return _mm256_loadu_ps(p); }
inline void Store(float* p, Vec v) { _mm256_storeu_ps(p, v); }
inline Vec Exp(Vec v) { return Sleef_expf8_u10(v); }
inline Vec Set1(float v) { return _mm256_set1_ps(v); }
inline Vec Max(Vec a, Vec b) { return _mm256_max_ps(a, b); }
inline Vec Min(Vec a, Vec b) { return _mm256_min_ps(a, b); }
inline Vec Add(Vec a, Vec b) { return _mm256_add_ps(a, b); }
inline Vec Sub(Vec a, Vec b) { return _mm256_sub_ps(a, b); }
inline Vec Mul(Vec a, Vec b) { return _mm256_mul_ps(a, b); }
inline float ReduceMax(Vec v) {
  alignas(32) float l[8];
  _mm256_store_ps(l, v);
  return *std::max_element(l, l + 8);
}
inline float ReduceAdd(Vec v) {
  alignas(32) float l[8];
  _mm256_store_ps(l, v);
  return ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]));
}
inline Vec Tanh(Vec v) { return Sleef_tanhf8_u10(v); }
inline Vec Erf(Vec v) { return Sleef_erff8_u10(v); }
inline Vec Fma(Vec a, Vec b, Vec c) { return _mm256_fmadd_ps(a, b, c); }
inline Vec Fnmadd(Vec a, Vec b, Vec c) { return _mm256_fnmadd_ps(a, b, c); }
inline Vec Fnmsub(Vec a, Vec b, Vec c) { return _mm256_fnmsub_ps(a, b, c); }
inline Vec Round(Vec v) { return _mm256_round_ps(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
inline Vec Scale2(Vec p, Vec n) {  // p * 2^n for integral n in [-126, 127]
  const __m256i e = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
  return _mm256_mul_ps(p, _mm256_castsi256_ps(e));
}
inline Vec Recip(Vec s) {  // the 12-bit estimate and one Newton step
  const Vec r = _mm256_rcp_ps(s);
  return _mm256_mul_ps(r, _mm256_fnmadd_ps(s, r, _mm256_set1_ps(2.f)));
}
#else
constexpr int64_t kLanes = 0;
#endif

#if defined(GE_HAVE_SLEEF) && (defined(__AVX512F__) || defined(__AVX2__))
// The logistic function 1 / (1 + e^-v): v clamped to [-87, 87] (the result is 0 or 1 in float
// beyond), -v = n ln2 + r with |r| <= ln2 / 2 (ln2 in two parts), e^r by its degree-6 Taylor
// polynomial (relative error < 1.2e-7), times 2^n, then the reciprocal. 18 vector operations:
// AVX-512 issues them on two ports, so they, not memory, bound a SiLU (~0.25 ns an element).
inline Vec Sigmoid(Vec v) {
  v = Min(Max(v, Set1(-87.f)), Set1(87.f));
  const Vec n = Round(Mul(v, Set1(-1.44269504088896341f)));
  Vec r = Fnmsub(n, Set1(0.693359375f), v);  // -v - n ln2 (high part)
  r = Fnmadd(n, Set1(-2.12194440e-4f), r);   // ... - n ln2 (low part)
  Vec p = Set1(1.f / 720);
  p = Fma(p, r, Set1(1.f / 120));
  p = Fma(p, r, Set1(1.f / 24));
  p = Fma(p, r, Set1(1.f / 6));
  p = Fma(p, r, Set1(0.5f));
  p = Fma(p, r, Set1(1.f));
  p = Fma(p, r, Set1(1.f));
  return Recip(Add(Set1(1.f), Scale2(p, n)));
}
#endif

template <typename VecF, typename ScalarF>
void Apply(const float* x, float* y, int64_t n, VecF vf, ScalarF sf) {
  int64_t i = 0;
  if constexpr (kLanes > 0)
    for (; i + kLanes <= n; i += kLanes) Store(y + i, vf(Load(x + i)));
  for (; i < n; ++i) y[i] = sf(x[i]);
}

}  // namespace

#if defined(GE_HAVE_SLEEF) && (defined(__AVX512F__) || defined(__AVX2__))
#define GE_VEC(f) [](Vec v) { return f(v); }
#define GE_VEC_SILU [](Vec v) { return Mul(v, Sigmoid(v)); }
#else
#define GE_VEC_SILU [](auto v) { return v; }
#define GE_VEC(f) [](auto v) { return v; }
#endif

void VecExp(const float* x, float* y, int64_t n) {
  Apply(x, y, n, GE_VEC(Exp), [](float v) { return std::exp(v); });
}
void VecSigmoid(const float* x, float* y, int64_t n) {
  Apply(x, y, n, GE_VEC(Sigmoid), [](float v) { return 1.f / (1.f + std::exp(-v)); });
}
void VecSilu(const float* x, float* y, int64_t n) {
  Apply(x, y, n, GE_VEC_SILU, [](float v) { return v / (1.f + std::exp(-v)); });
}
void VecTanh(const float* x, float* y, int64_t n) {
  Apply(x, y, n, GE_VEC(Tanh), [](float v) { return std::tanh(v); });
}
void VecErf(const float* x, float* y, int64_t n) {
  Apply(x, y, n, GE_VEC(Erf), [](float v) { return std::erf(v); });
}

// Three passes: the maximum, exp(x - max) stored and summed, the scale. Vector lanes keep their
// own maximum and sum (the sum's order differs from a sequential one by rounding only).
// tinybert at sequence 128 spent 6.7% of a run in the scalar form (four passes, sequential
// max and sum: 1.6 ns an element).
void VecSoftmax(const float* x, float* y, int64_t n) {
  if (n <= 0) return;
  float mx = x[0];
  float sum = 0.f;
  int64_t i = 0;
  if constexpr (kLanes > 0) {
    if (n >= kLanes) {
      Vec m = Load(x);
      for (i = kLanes; i + kLanes <= n; i += kLanes) m = Max(m, Load(x + i));
      mx = ReduceMax(m);
    }
  }
  for (; i < n; ++i) mx = std::max(mx, x[i]);
  i = 0;
  if constexpr (kLanes > 0) {
    const Vec vmx = Set1(mx);
    Vec acc = Set1(0.f);
    for (; i + kLanes <= n; i += kLanes) {
      const Vec e = Exp(Sub(Load(x + i), vmx));
      Store(y + i, e);
      acc = Add(acc, e);
    }
    sum = ReduceAdd(acc);
  }
  for (; i < n; ++i) {
    y[i] = std::exp(x[i] - mx);
    sum += y[i];
  }
  const float inv = 1.f / sum;
  i = 0;
  if constexpr (kLanes > 0) {
    const Vec vinv = Set1(inv);
    for (; i + kLanes <= n; i += kLanes) Store(y + i, Mul(Load(y + i), vinv));
  }
  for (; i < n; ++i) y[i] *= inv;
}

}  // namespace ge::ops_util
