// Kernels of the single-op API (see opapi_kernels.h).
#include "opapi/opapi_kernels.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "base/defined_arith.h"
#include "graph/types.h"

namespace ge::opapi {
namespace {

void Range(int64_t total, uint32_t idx, uint32_t dim, int64_t* b, int64_t* e) {
  int64_t per = total / dim, rem = total % dim;
  *b = idx * per + std::min<int64_t>(idx, rem);
  *e = *b + per + (static_cast<int64_t>(idx) < rem ? 1 : 0);
}

template <typename T>
const T& Tiling(const aclrtKernelArgs* a) {
  return *static_cast<const T*>(a->tiling);
}

// Calls f(T{}) for the C++ type of a numeric dtype.
template <typename F>
void Dispatch(int32_t dt, F&& f) {
  switch (static_cast<ge::DataType>(dt)) {
    case ge::DT_FLOAT: f(float{}); break;
    case ge::DT_DOUBLE: f(double{}); break;
    case ge::DT_INT32: f(int32_t{}); break;
    case ge::DT_INT64: f(int64_t{}); break;
    case ge::DT_INT16: f(int16_t{}); break;
    case ge::DT_INT8: f(int8_t{}); break;
    case ge::DT_UINT8: f(uint8_t{}); break;
    case ge::DT_UINT16: f(uint16_t{}); break;
    case ge::DT_UINT32: f(uint32_t{}); break;
    case ge::DT_UINT64: f(uint64_t{}); break;
    default: break;
  }
}

template <typename F>
void DispatchFloat(int32_t dt, F&& f) {
  if (dt == ge::DT_FLOAT)
    f(float{});
  else if (dt == ge::DT_DOUBLE)
    f(double{});
}

}  // namespace

void CopyKernel(const aclrtKernelArgs* args) {
  const auto& t = Tiling<CopyTiling>(args);
  int64_t b, e;
  Range(t.numel, args->blockIdx, args->blockDim, &b, &e);
  if (b >= e) return;
  const char* src = static_cast<const char*>(args->addrs[0]);
  char* dst = static_cast<char*>(args->addrs[1]);
  int64_t idx[kMaxKernelRank] = {};
  int64_t rem = b, so = 0, dof = 0;
  for (int d = t.rank - 1; d >= 0; --d) {
    idx[d] = rem % t.dims[d];
    rem /= t.dims[d];
  }
  for (int d = 0; d < t.rank; ++d) {
    so += idx[d] * t.src_strides[d];
    dof += idx[d] * t.dst_strides[d];
  }
  const int64_t es = t.elem_size;
  for (int64_t i = b; i < e; ++i) {
    std::memcpy(dst + dof * es, src + so * es, es);
    for (int d = t.rank - 1; d >= 0; --d) {  // odometer
      so += t.src_strides[d];
      dof += t.dst_strides[d];
      if (++idx[d] < t.dims[d]) break;
      so -= t.src_strides[d] * t.dims[d];
      dof -= t.dst_strides[d] * t.dims[d];
      idx[d] = 0;
    }
  }
}

void ScaleKernel(const aclrtKernelArgs* args) {
  const auto& t = Tiling<ScaleTiling>(args);
  int64_t b, e;
  Range(t.numel, args->blockIdx, args->blockDim, &b, &e);
  Dispatch(t.dtype, [&](auto z) {
    using T = decltype(z);
    const T* x = static_cast<const T*>(args->addrs[0]);
    T* y = static_cast<T*>(args->addrs[1]);
    for (int64_t i = b; i < e; ++i) y[i] = FromDouble<T>(x[i] * t.alpha);  // defined out of range (base/defined_arith.h)
  });
}

void SplitKGemmKernel(const aclrtKernelArgs* args) {
  const auto& t = Tiling<SplitKTiling>(args);
  int64_t sb, se;
  Range(t.splits, args->blockIdx, args->blockDim, &sb, &se);
  Dispatch(t.dtype, [&](auto z) {
    using T = decltype(z);
    const T* a = static_cast<const T*>(args->addrs[0]);
    const T* bm = static_cast<const T*>(args->addrs[1]);
    T* p = static_cast<T*>(args->addrs[2]);
    for (int64_t s = sb; s < se; ++s) {
      int64_t k0 = s * t.chunk, k1 = std::min(t.k, k0 + t.chunk);
      T* c = p + s * t.m * t.n;
      std::fill(c, c + t.m * t.n, T(0));
      for (int64_t i = 0; i < t.m; ++i) {
        T* ci = c + i * t.n;
        for (int64_t kk = k0; kk < k1; ++kk) {
          const T av = a[i * t.k + kk];
          const T* br = bm + kk * t.n;
          for (int64_t j = 0; j < t.n; ++j) ci[j] += av * br[j];
        }
      }
    }
  });
}

void ReduceSumKernel(const aclrtKernelArgs* args) {
  const auto& t = Tiling<ReduceSumTiling>(args);
  int64_t b, e;
  Range(t.numel, args->blockIdx, args->blockDim, &b, &e);
  Dispatch(t.dtype, [&](auto z) {
    using T = decltype(z);
    const T* p = static_cast<const T*>(args->addrs[0]);
    T* y = static_cast<T*>(args->addrs[1]);
    for (int64_t i = b; i < e; ++i) y[i] = p[i];
    for (int64_t s = 1; s < t.parts; ++s)
      for (int64_t i = b; i < e; ++i) y[i] += p[s * t.numel + i];
  });
}

void SoftmaxPartialKernel(const aclrtKernelArgs* args) {
  const auto& t = Tiling<SoftmaxSplitTiling>(args);
  int64_t b, e;
  Range(t.rows * t.chunks, args->blockIdx, args->blockDim, &b, &e);
  double* stats = static_cast<double*>(args->addrs[1]);
  DispatchFloat(t.dtype, [&](auto z) {
    using T = decltype(z);
    const T* x = static_cast<const T*>(args->addrs[0]);
    for (int64_t u = b; u < e; ++u) {
      int64_t r = u / t.chunks, c = u % t.chunks;
      int64_t j0 = c * t.chunk, j1 = std::min(t.len, j0 + t.chunk);
      const T* xr = x + r * t.len;
      double mx = -std::numeric_limits<double>::infinity(), sum = 0;
      for (int64_t j = j0; j < j1; ++j) mx = std::max<double>(mx, xr[j]);
      for (int64_t j = j0; j < j1; ++j) sum += std::exp(static_cast<double>(xr[j]) - mx);
      stats[u * 2] = mx;
      stats[u * 2 + 1] = sum;
    }
  });
}

void SoftmaxCombineKernel(const aclrtKernelArgs* args) {
  const auto& t = Tiling<SoftmaxSplitTiling>(args);
  int64_t b, e;
  Range(t.rows, args->blockIdx, args->blockDim, &b, &e);
  const double* stats = static_cast<const double*>(args->addrs[0]);
  double* row = static_cast<double*>(args->addrs[1]);
  for (int64_t r = b; r < e; ++r) {
    const double* s = stats + r * t.chunks * 2;
    double mx = -std::numeric_limits<double>::infinity(), sum = 0;
    for (int64_t c = 0; c < t.chunks; ++c) mx = std::max(mx, s[c * 2]);
    for (int64_t c = 0; c < t.chunks; ++c)
      if (s[c * 2 + 1] > 0) sum += s[c * 2 + 1] * std::exp(s[c * 2] - mx);
    row[r * 2] = mx;
    row[r * 2 + 1] = sum;
  }
}

void SoftmaxNormalizeKernel(const aclrtKernelArgs* args) {
  const auto& t = Tiling<SoftmaxSplitTiling>(args);
  int64_t b, e;
  Range(t.rows * t.chunks, args->blockIdx, args->blockDim, &b, &e);
  const double* row = static_cast<const double*>(args->addrs[1]);
  DispatchFloat(t.dtype, [&](auto z) {
    using T = decltype(z);
    const T* x = static_cast<const T*>(args->addrs[0]);
    T* y = static_cast<T*>(args->addrs[2]);
    for (int64_t u = b; u < e; ++u) {
      int64_t r = u / t.chunks, c = u % t.chunks;
      int64_t j0 = c * t.chunk, j1 = std::min(t.len, j0 + t.chunk);
      const T mx = static_cast<T>(row[r * 2]);
      const T inv = static_cast<T>(1.0 / row[r * 2 + 1]);
      for (int64_t j = j0; j < j1; ++j) y[r * t.len + j] = std::exp(x[r * t.len + j] - mx) * inv;
    }
  });
}

void LayerNormKernel(const aclrtKernelArgs* args) {
  const auto& t = Tiling<LayerNormTiling>(args);
  int64_t b, e;
  Range(t.rows, args->blockIdx, args->blockDim, &b, &e);
  DispatchFloat(t.dtype, [&](auto z) {
    using T = decltype(z);
    const T* x = static_cast<const T*>(args->addrs[0]);
    const T* w = static_cast<const T*>(args->addrs[1]);
    const T* bias = static_cast<const T*>(args->addrs[2]);
    T* y = static_cast<T*>(args->addrs[3]);
    T* mean_out = static_cast<T*>(args->addrs[4]);
    T* rstd_out = static_cast<T*>(args->addrs[5]);
    for (int64_t r = b; r < e; ++r) {
      const T* xr = x + r * t.cols;
      double mean = 0, var = 0;
      for (int64_t j = 0; j < t.cols; ++j) mean += xr[j];
      mean /= std::max<int64_t>(t.cols, 1);
      for (int64_t j = 0; j < t.cols; ++j) var += (xr[j] - mean) * (xr[j] - mean);
      var /= std::max<int64_t>(t.cols, 1);
      double rstd = 1.0 / std::sqrt(var + t.eps);
      for (int64_t j = 0; j < t.cols; ++j) {
        double v = (xr[j] - mean) * rstd;
        if (w) v *= w[j];
        if (bias) v += bias[j];
        y[r * t.cols + j] = static_cast<T>(v);
      }
      if (mean_out) mean_out[r] = static_cast<T>(mean);
      if (rstd_out) rstd_out[r] = static_cast<T>(rstd);
    }
  });
}

}  // namespace ge::opapi
