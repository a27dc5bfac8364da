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

}  // namespace ge::simd

#endif  // GE_SRC_OPS_SIMD_H_
