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
inline Vec Tanh(Vec v) { return Sleef_tanhf16_u10(v); }
inline Vec Erf(Vec v) { return Sleef_erff16_u10(v); }
inline Vec Sigmoid(Vec v) {
  const Vec one = _mm512_set1_ps(1.f);
  return _mm512_div_ps(one, _mm512_add_ps(one, Sleef_expf16_u10(_mm512_sub_ps(_mm512_setzero_ps(), v))));
}
#elif defined(GE_HAVE_SLEEF) && defined(__AVX2__)
constexpr int64_t kLanes = 8;
using Vec = __m256;
inline Vec Load(const float* p) { return _mm256_loadu_ps(p); }
inline void Store(float* p, Vec v) { _mm256_storeu_ps(p, v); }
inline Vec Exp(Vec v) { return Sleef_expf8_u10(v); }
inline Vec Tanh(Vec v) { return Sleef_tanhf8_u10(v); }
inline Vec Erf(Vec v) { return Sleef_erff8_u10(v); }
inline Vec Sigmoid(Vec v) {
  const Vec one = _mm256_set1_ps(1.f);
  return _mm256_div_ps(one, _mm256_add_ps(one, Sleef_expf8_u10(_mm256_sub_ps(_mm256_setzero_ps(), v))));
}
#else
constexpr int64_t kLanes = 0;
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
#else
#define GE_VEC(f) [](auto v) { return v; }
#endif

void VecExp(const float* x, float* y, int64_t n) {
  Apply(x, y, n, GE_VEC(Exp), [](float v) { return std::exp(v); });
}
void VecSigmoid(const float* x, float* y, int64_t n) {
  Apply(x, y, n, GE_VEC(Sigmoid), [](float v) { return 1.f / (1.f + std::exp(-v)); });
}
void VecTanh(const float* x, float* y, int64_t n) {
  Apply(x, y, n, GE_VEC(Tanh), [](float v) { return std::tanh(v); });
}
void VecErf(const float* x, float* y, int64_t n) {
  Apply(x, y, n, GE_VEC(Erf), [](float v) { return std::erf(v); });
}

void VecSoftmax(const float* x, float* y, int64_t n) {
  if (n <= 0) return;
  float mx = x[0];
  for (int64_t a = 1; a < n; ++a) mx = std::max(mx, x[a]);
  for (int64_t a = 0; a < n; ++a) y[a] = x[a] - mx;
  VecExp(y, y, n);
  float sum = 0.f;
  for (int64_t a = 0; a < n; ++a) sum += y[a];
  const float inv = 1.f / sum;
  for (int64_t a = 0; a < n; ++a) y[a] *= inv;
}

}  // namespace ge::ops_util
