#include "kernels/layer_norm.h"

#include <cmath>
#include <type_traits>

#include "kernels/float16.h"
#include "ops/simd.h"

namespace ge::kernels {
namespace {

template <typename T>
double At(const T* p, int64_t i) {
  return static_cast<double>(static_cast<ComputeT<T>>(p[i]));
}

// Sums in 16 independent lanes (the compiler vectorizes a fixed-width inner loop; a single
// running float sum is a chain of dependent adds it may not reorder: tinybert's LayerNorms spent
// 1.1 ns an element in them).
template <typename F>
float LaneSum(int64_t n, F f) {
  constexpr int64_t kLanes = 16;
  float acc[kLanes] = {};
  int64_t j = 0;
  for (; j + kLanes <= n; j += kLanes)
    for (int64_t k = 0; k < kLanes; ++k) acc[k] += f(j + k);
  float s = 0.f;
  for (; j < n; ++j) s += f(j);
  for (int64_t k = 0; k < kLanes; ++k) s += acc[k];
  return s;
}

// float rows with full-length scale (and bias). With vector lanes: the mean, the variance (about
// the mean) and the output in three explicit vector passes, two accumulators each (tinybert's
// 128 x 256 rows: 14.1 us as loops the compiler vectorized, 10.5 us here); scalar tails.
template <typename StatT>
bool LayerNormFloat(const LayerNormParams& p, const float* x0, const float* scale, const float* bias, float* y0,
                    StatT* mean_out, StatT* rstd_out, int64_t b, int64_t e) {
  if (scale == nullptr || p.scale_numel != p.cols || (bias && p.bias_numel && p.bias_numel != p.cols)) return false;
  if (!p.bias_numel) bias = nullptr;
  const int64_t n = p.cols;
  const float eps = static_cast<float>(p.eps);
  for (int64_t r = b; r < e; ++r) {
    const float* x = x0 + r * n;
    float* y = y0 + r * n;
    float mean, sq;
#if defined(__AVX512F__) || (defined(__AVX2__) && defined(__FMA__))
    using namespace ge::simd;  // NOLINT: the vector primitives
    const int64_t nv = n / kLanes * kLanes;
    {
      Vec a0 = Zero(), a1 = Zero();
      int64_t j = 0;
      for (; j + 2 * kLanes <= nv; j += 2 * kLanes) {
        a0 = Add(a0, Load(x + j));
        a1 = Add(a1, Load(x + j + kLanes));
      }
      if (j < nv) a0 = Add(a0, Load(x + j));
      float s = ReduceAdd(Add(a0, a1));
      for (j = nv; j < n; ++j) s += x[j];
      mean = s / static_cast<float>(n);
    }
    const Vec vm = Set1(mean);
    {
      Vec a0 = Zero(), a1 = Zero();
      int64_t j = 0;
      for (; j + 2 * kLanes <= nv; j += 2 * kLanes) {
        const Vec d0 = Sub(Load(x + j), vm), d1 = Sub(Load(x + j + kLanes), vm);
        a0 = Fma(d0, d0, a0);
        a1 = Fma(d1, d1, a1);
      }
      if (j < nv) {
        const Vec d0 = Sub(Load(x + j), vm);
        a0 = Fma(d0, d0, a0);
      }
      sq = ReduceAdd(Add(a0, a1));
      for (j = nv; j < n; ++j) sq += (x[j] - mean) * (x[j] - mean);
    }
    const float inv = 1.f / std::sqrt(sq / static_cast<float>(n) + eps);
    const Vec vi = Set1(inv);
    for (int64_t j = 0; j < nv; j += kLanes) {
      const Vec t = Mul(Mul(Sub(Load(x + j), vm), vi), Load(scale + j));
      Store(y + j, bias ? Add(t, Load(bias + j)) : t);
    }
    for (int64_t j = nv; j < n; ++j) y[j] = (x[j] - mean) * inv * scale[j] + (bias ? bias[j] : 0.f);
#else
    mean = LaneSum(n, [x](int64_t j) { return x[j]; }) / static_cast<float>(n);
    sq = LaneSum(n, [x, mean](int64_t j) { return (x[j] - mean) * (x[j] - mean); });
    const float inv = 1.f / std::sqrt(sq / static_cast<float>(n) + eps);
    for (int64_t j = 0; j < n; ++j) y[j] = (x[j] - mean) * inv * scale[j] + (bias ? bias[j] : 0.f);
#endif
    if (mean_out) mean_out[r] = static_cast<StatT>(mean);
    if (rstd_out) rstd_out[r] = static_cast<StatT>(inv);
  }
  return true;
}

}  // namespace

template <typename T, typename StatT>
void LayerNormRows(const LayerNormParams& p, const T* x, const T* scale, const T* bias, T* y, StatT* mean_out,
                   StatT* rstd_out, int64_t b, int64_t e) {
  if constexpr (std::is_same_v<T, float>) {
    if (LayerNormFloat(p, x, scale, bias, y, mean_out, rstd_out, b, e)) return;
  }
  const int64_t n = p.cols;
  for (int64_t r = b; r < e; ++r) {
    double mean = 0, var = 0;
    for (int64_t j = 0; j < n; ++j) mean += At(x, r * n + j);
    mean /= n;
    for (int64_t j = 0; j < n; ++j) {
      double d = At(x, r * n + j) - mean;
      var += d * d;
    }
    double inv = 1.0 / std::sqrt(var / n + p.eps);
    for (int64_t j = 0; j < n; ++j) {
      double v = (At(x, r * n + j) - mean) * inv;
      if (scale && p.scale_numel) v *= At(scale, j % p.scale_numel);
      if (bias && p.bias_numel) v += At(bias, j % p.bias_numel);
      y[r * n + j] = static_cast<T>(static_cast<ComputeT<T>>(v));
    }
    if (mean_out) mean_out[r] = static_cast<StatT>(mean);
    if (rstd_out) rstd_out[r] = static_cast<StatT>(inv);
  }
}

template void LayerNormRows<float, float>(const LayerNormParams&, const float*, const float*, const float*, float*,
                                          float*, float*, int64_t, int64_t);
template void LayerNormRows<double, float>(const LayerNormParams&, const double*, const double*, const double*, double*,
                                           float*, float*, int64_t, int64_t);
template void LayerNormRows<Half, float>(const LayerNormParams&, const Half*, const Half*, const Half*, Half*, float*,
                                         float*, int64_t, int64_t);
template void LayerNormRows<BFloat16, float>(const LayerNormParams&, const BFloat16*, const BFloat16*, const BFloat16*,
                                             BFloat16*, float*, float*, int64_t, int64_t);
template void LayerNormRows<double, double>(const LayerNormParams&, const double*, const double*, const double*,
                                            double*, double*, double*, int64_t, int64_t);

}  // namespace ge::kernels
