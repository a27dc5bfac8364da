#include "ops/vec_math.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "ops/simd.h"

#ifdef GE_HAVE_SLEEF
#include <sleef.h>
#endif

#if defined(__AVX512F__) || (defined(__AVX2__) && defined(__FMA__))
namespace ge::simd {
bool DivisionIsFast() {
  static const bool fast = [] {
    if (const char* e = std::getenv("GE_SIMD_DIV")) return std::string(e) != "0";
    __builtin_cpu_init();
    return __builtin_cpu_is("amd") != 0;
  }();
  return fast;
}
}  // namespace ge::simd
#endif

namespace ge::ops_util {
namespace {
using namespace ge::simd;  // NOLINT: the vector primitives

// SLEEF's exp/tanh/erf (1-ULP variants) where it is available; kVecLanes is 0 without it (the
// functions below then run their scalar loops), the sigmoids vectorize either way.
#if defined(GE_HAVE_SLEEF) && defined(__AVX512F__)
constexpr int64_t kVecLanes = kLanes;
inline Vec Exp(Vec v) { return Sleef_expf16_u10(v); }
inline Vec Tanh(Vec v) { return Sleef_tanhf16_u10(v); }
inline Vec Erf(Vec v) { return Sleef_erff16_u10(v); }
#elif defined(GE_HAVE_SLEEF) && defined(__AVX2__) && defined(__FMA__)
constexpr int64_t kVecLanes = kLanes;
inline Vec Exp(Vec v) { return Sleef_expf8_u10(v); }
inline Vec Tanh(Vec v) { return Sleef_tanhf8_u10(v); }
inline Vec Erf(Vec v) { return Sleef_erff8_u10(v); }
#else
constexpr int64_t kVecLanes = 0;
#endif

template <int64_t kApplyLanes, typename VecF, typename ScalarF>
void Apply(const float* x, float* y, int64_t n, VecF vf, ScalarF sf) {
  int64_t i = 0;
  if constexpr (kApplyLanes > 0)
    for (; i + kLanes <= n; i += kLanes) Store(y + i, vf(Load(x + i)));
  for (; i < n; ++i) y[i] = sf(x[i]);
}

}  // namespace

// A vector lambda where the lanes exist (never called otherwise: Apply's loop is compiled out).
#if defined(GE_HAVE_SLEEF) && (defined(__AVX512F__) || (defined(__AVX2__) && defined(__FMA__)))
#define GE_VEC(f) [](Vec v) { return f(v); }
#else
#define GE_VEC(f) [](auto v) { return v; }
#endif
#if defined(__AVX512F__) || (defined(__AVX2__) && defined(__FMA__))
#define GE_VEC_SIGMOID [](Vec v) { return Sigmoid(v); }
#define GE_VEC_SILU [](Vec v) { return Mul(v, Sigmoid(v)); }
#define GE_VEC_SIGMOID_DIV [](Vec v) { return Div(Set1(1.f), OnePlusExpNeg(v)); }
#define GE_VEC_SILU_DIV [](Vec v) { return Div(v, OnePlusExpNeg(v)); }
#define GE_VEC_GELU [](Vec v) { return Gelu(v); }
#else
#define GE_VEC_GELU [](auto v) { return v; }
#define GE_VEC_SIGMOID [](auto v) { return v; }
#define GE_VEC_SILU [](auto v) { return v; }
#define GE_VEC_SIGMOID_DIV [](auto v) { return v; }
#define GE_VEC_SILU_DIV [](auto v) { return v; }
#endif

void VecExp(const float* x, float* y, int64_t n) {
  Apply<kVecLanes>(x, y, n, GE_VEC(Exp), [](float v) { return std::exp(v); });
}
void VecSigmoidForm(const float* x, float* y, int64_t n, bool divide) {
  const auto scalar = [](float v) { return 1.f / (1.f + std::exp(-v)); };
  if (divide)
    Apply<kLanes>(x, y, n, GE_VEC_SIGMOID_DIV, scalar);
  else
    Apply<kLanes>(x, y, n, GE_VEC_SIGMOID, scalar);
}
void VecSiluForm(const float* x, float* y, int64_t n, bool divide) {
  const auto scalar = [](float v) { return v / (1.f + std::exp(-v)); };
  if (divide)
    Apply<kLanes>(x, y, n, GE_VEC_SILU_DIV, scalar);
  else
    Apply<kLanes>(x, y, n, GE_VEC_SILU, scalar);
}
#if defined(__AVX512F__) || (defined(__AVX2__) && defined(__FMA__))
void VecSigmoid(const float* x, float* y, int64_t n) { VecSigmoidForm(x, y, n, DivisionIsFast()); }
void VecSilu(const float* x, float* y, int64_t n) { VecSiluForm(x, y, n, DivisionIsFast()); }
#else
void VecSigmoid(const float* x, float* y, int64_t n) { VecSigmoidForm(x, y, n, false); }
void VecSilu(const float* x, float* y, int64_t n) { VecSiluForm(x, y, n, false); }
#endif
void VecTanh(const float* x, float* y, int64_t n) {
  Apply<kVecLanes>(x, y, n, GE_VEC(Tanh), [](float v) { return std::tanh(v); });
}
void VecErf(const float* x, float* y, int64_t n) {
  Apply<kVecLanes>(x, y, n, GE_VEC(Erf), [](float v) { return std::erf(v); });
}
void VecGelu(const float* x, float* y, int64_t n) {
  Apply<kLanes>(x, y, n, GE_VEC_GELU, [](float v) { return 0.5f * v * (1.f + std::erf(v * 0.70710678118654752f)); });
}

// Three passes: the maximum, exp(x - max) stored and summed, the scale. Vector lanes keep their
// own maximum and sum (the sum's order differs from a sequential one by rounding only).
// tinybert at sequence 128 spent 6.7% of a run in the scalar form (four passes, sequential
// max and sum: 1.6 ns an element). The exp is FastExp (a polynomial, relative error < 1.2e-7),
// not SLEEF's.
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
      const Vec e = FastExp(Sub(Load(x + i), vmx));
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
