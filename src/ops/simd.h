// One float vector type for the hand-written kernels: AVX-512 (16 lanes) or AVX2 + FMA (8 lanes),
// whichever the build targets (-march=native), with the few operations they use; kLanes is 0
// (and Vec undefined) on other targets, where callers keep their scalar loops.
#ifndef GE_SRC_OPS_SIMD_H_
#define GE_SRC_OPS_SIMD_H_

#include <algorithm>
#include <cstdint>

#if defined(__AVX512F__) || (defined(__AVX2__) && defined(__FMA__))
#include <immintrin.h>
#endif

// GCC 12 reports the deliberately self-initialized `__Y` inside _mm512_max_ps/_mm512_min_ps as
// maybe-uninitialized wherever they are inlined (a known false positive): off in the includers.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace ge::simd {

#if defined(__AVX512F__)
constexpr int64_t kLanes = 16;
using Vec = __m512;
inline Vec Load(const float* p) { return _mm512_loadu_ps(p); }
inline void Store(float* p, Vec v) { _mm512_storeu_ps(p, v); }
inline Vec Set1(float v) { return _mm512_set1_ps(v); }
inline Vec Zero() { return _mm512_setzero_ps(); }
inline Vec Max(Vec a, Vec b) { return _mm512_max_ps(a, b); }
inline Vec Min(Vec a, Vec b) { return _mm512_min_ps(a, b); }
inline Vec Add(Vec a, Vec b) { return _mm512_add_ps(a, b); }
inline Vec Sub(Vec a, Vec b) { return _mm512_sub_ps(a, b); }
inline Vec Mul(Vec a, Vec b) { return _mm512_mul_ps(a, b); }
inline Vec Div(Vec a, Vec b) { return _mm512_div_ps(a, b); }
inline Vec Fma(Vec a, Vec b, Vec c) { return _mm512_fmadd_ps(a, b, c); }      // a b + c
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
inline float ReduceMax(Vec v) { return _mm512_reduce_max_ps(v); }
inline float ReduceAdd(Vec v) { return _mm512_reduce_add_ps(v); }
#elif defined(__AVX2__) && defined(__FMA__)
constexpr int64_t kLanes = 8;
using Vec = __m256;
inline Vec Load(const float* p) { return _mm256_loadu_ps(p); }
inline void Store(float* p, Vec v) { _mm256_storeu_ps(p, v); }
inline Vec Set1(float v) { return _mm256_set1_ps(v); }
inline Vec Zero() { return _mm256_setzero_ps(); }
inline Vec Max(Vec a, Vec b) { return _mm256_max_ps(a, b); }
inline Vec Min(Vec a, Vec b) { return _mm256_min_ps(a, b); }
inline Vec Add(Vec a, Vec b) { return _mm256_add_ps(a, b); }
inline Vec Sub(Vec a, Vec b) { return _mm256_sub_ps(a, b); }
inline Vec Mul(Vec a, Vec b) { return _mm256_mul_ps(a, b); }
inline Vec Div(Vec a, Vec b) { return _mm256_div_ps(a, b); }
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
#else
constexpr int64_t kLanes = 0;
#endif

#if defined(__AVX512F__) || (defined(__AVX2__) && defined(__FMA__))
// e^v: v clamped to [-87, 87], v = n ln2 + r with |r| <= ln2 / 2, e^r by its degree-6 Taylor
// polynomial (relative error < 1.2e-7), times 2^n.
inline Vec FastExp(Vec v) {
  v = Min(Max(v, Set1(-87.f)), Set1(87.f));
  const Vec n = Round(Mul(v, Set1(1.44269504088896341f)));
  Vec r = Fnmadd(n, Set1(0.693359375f), v);  // v - n ln2 (high part)
  r = Fnmadd(n, Set1(-2.12194440e-4f), r);   // ... - n ln2 (low part)
  Vec p = Set1(1.f / 720);
  p = Fma(p, r, Set1(1.f / 120));
  p = Fma(p, r, Set1(1.f / 24));
  p = Fma(p, r, Set1(1.f / 6));
  p = Fma(p, r, Set1(0.5f));
  p = Fma(p, r, Set1(1.f));
  p = Fma(p, r, Set1(1.f));
  return Scale2(p, n);
}

// 1 + e^-v as 1 + 2^t, t = -v log2(e) clamped to [-126, 126] (2^t a normal float): t = n + f
// with n an integer and |f| <= 1/2 exact, 2^f by a degree-5 polynomial fitted by GE (Lawson
// iterations on the relative error over [-1/2, 1/2] in double: 7.5e-8; 2.3e-7 evaluated in
// float). 12 vector operations; the sigmoid's former FastExp(-v) took 15.
inline Vec OnePlusExpNeg(Vec v) {
  const Vec t = Min(Max(Mul(v, Set1(-1.44269504088896341f)), Set1(-126.f)), Set1(126.f));
  const Vec n = Round(t);
  const Vec f = Sub(t, n);
  Vec p = Set1(1.3276471291e-03f);
  p = Fma(p, f, Set1(9.6755409613e-03f));
  p = Fma(p, f, Set1(5.5507130921e-02f));
  p = Fma(p, f, Set1(2.4022120237e-01f));
  p = Fma(p, f, Set1(6.9314694405e-01f));
  p = Fma(p, f, Set1(1.0000001192e+00f));
  return Add(Set1(1.f), Scale2(p, n));
}

// The logistic function 1 / (1 + e^-v), through the reciprocal estimate and a Newton step.
inline Vec Sigmoid(Vec v) { return Recip(OnePlusExpNeg(v)); }

// Whether a vector division is cheaper than the reciprocal estimate and its Newton step (two
// more operations on the arithmetic ports): on AMD cores the divider is a unit of its own beside
// them (a 401408-float SiLU on this machine's EPYC: 0.096 ns an element with the division, 0.125
// with the reciprocal, 0.165 before OnePlusExpNeg); on Intel cores a 16-lane vdivps issues once
// per ~16 cycles and made the division most of a sigmoid's cost. GE_SIMD_DIV=0 / 1 overrides.
bool DivisionIsFast();

// GELU, 0.5 v (1 + erf(v / sqrt 2)), with erf(z) = z P(z^2) / Q(z^2) for z clamped to [-4, 4]
// (|1 - erf(4)| < 2e-8): a rational approximation of degrees 6 / 4 in z^2 fitted by GE (Lawson
// iterations on the absolute error over [0, 4] in double: 5.7e-8; evaluated in float: 3.5e-7 on
// erf, a GELU relative error of 2.2e-7 for v > 0). 17 vector operations and the reciprocal: 44 us
// on 128 x 1024 floats on one Ice Lake core, against 86 us in oneDNN's gelu_erf (and SLEEF's erf
// slower than that).
inline Vec Gelu(Vec v) {
  const Vec z = Min(Max(Mul(v, Set1(0.70710678118654752f)), Set1(-4.f)), Set1(4.f));
  const Vec t = Mul(z, z);
  Vec p = Set1(1.9216814345e-08f);
  p = Fma(p, t, Set1(-1.9906176867e-06f));
  p = Fma(p, t, Set1(1.5560017945e-04f));
  p = Fma(p, t, Set1(4.2956008529e-03f));
  p = Fma(p, t, Set1(5.2441732785e-02f));
  p = Fma(p, t, Set1(2.1400230120e-01f));
  p = Fma(p, t, Set1(1.1283786797e+00f));
  Vec q = Set1(1.0986590047e-03f);
  q = Fma(q, t, Set1(1.5556339547e-02f));
  q = Fma(q, t, Set1(1.2082394750e-01f));
  q = Fma(q, t, Set1(5.2298227406e-01f));
  q = Fma(q, t, Set1(1.f));
  const Vec erf = Mul(Mul(z, p), Recip(q));
  const Vec half = Mul(v, Set1(0.5f));
  return Fma(half, erf, half);
}
#endif

}  // namespace ge::simd

#endif  // GE_SRC_OPS_SIMD_H_
