// Kernels of the single-op API (see opapi_kernels.h).
#include "opapi/opapi_kernels.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "base/defined_arith.h"
#include "graph/types.h"
#include "kernels/block_range.h"
#include "kernels/broadcast.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/layer_norm.h"

namespace ge::opapi {
using kernels::BlockRange;
using kernels::Dispatch;
using kernels::GetTiling;
using kernels::TypeOf;
static_assert(kMaxKernelRank == kernels::kMaxRank);

void CopyKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<CopyTiling>(args);
  int64_t b, e;
  BlockRange(t.numel, args->blockIdx, args->blockDim, &b, &e);
  const char* src = static_cast<const char*>(args->addrs[0]);
  char* dst = static_cast<char*>(args->addrs[1]);
  const int64_t es = t.elem_size;
  int64_t strides[2][kernels::kMaxRank];  // the source's and the destination's
  std::memcpy(strides[0], t.src_strides, sizeof(t.src_strides));
  std::memcpy(strides[1], t.dst_strides, sizeof(t.dst_strides));
  if (t.to_bool) {
    kernels::ForEachBroadcast<2>(t.rank, t.dims, strides, b, e, [&](int64_t, const int64_t* offs) {
      dst[offs[1]] = static_cast<char>(src[offs[0]] != 0);
    });
    return;
  }
  kernels::ForEachBroadcast<2>(t.rank, t.dims, strides, b, e, [&](int64_t, const int64_t* offs) {
    std::memcpy(dst + offs[1] * es, src + offs[0] * es, es);
  });
}

void ScaleKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<ScaleTiling>(args);
  int64_t b, e;
  BlockRange(t.numel, args->blockIdx, args->blockDim, &b, &e);
  Dispatch<kernels::Numerics>(t.dtype, [&](auto tag) {
    using T = TypeOf<decltype(tag)>;
    const T* x = static_cast<const T*>(args->addrs[0]);
    T* y = static_cast<T*>(args->addrs[1]);
    for (int64_t i = b; i < e; ++i)
      y[i] = FromDouble<T>(x[i] * t.alpha);  // defined out of range (base/defined_arith.h)
  });
}

void SplitKGemmKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<SplitKTiling>(args);
  int64_t sb, se;
  BlockRange(t.splits, args->blockIdx, args->blockDim, &sb, &se);
  Dispatch<kernels::Numerics>(t.dtype, [&](auto tag) {
    using T = TypeOf<decltype(tag)>;
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
  const auto& t = GetTiling<ReduceSumTiling>(args);
  int64_t b, e;
  BlockRange(t.numel, args->blockIdx, args->blockDim, &b, &e);
  Dispatch<kernels::Numerics>(t.dtype, [&](auto tag) {
    using T = TypeOf<decltype(tag)>;
    const T* p = static_cast<const T*>(args->addrs[0]);
    T* y = static_cast<T*>(args->addrs[1]);
    for (int64_t i = b; i < e; ++i) y[i] = p[i];
    for (int64_t s = 1; s < t.parts; ++s)
      for (int64_t i = b; i < e; ++i) y[i] += p[s * t.numel + i];
  });
}

void SoftmaxPartialKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<SoftmaxSplitTiling>(args);
  int64_t b, e;
  BlockRange(t.rows * t.chunks, args->blockIdx, args->blockDim, &b, &e);
  double* stats = static_cast<double*>(args->addrs[1]);
  Dispatch<kernels::Floats>(t.dtype, [&](auto tag) {
    using T = TypeOf<decltype(tag)>;
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
  const auto& t = GetTiling<SoftmaxSplitTiling>(args);
  int64_t b, e;
  BlockRange(t.rows, args->blockIdx, args->blockDim, &b, &e);
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
  const auto& t = GetTiling<SoftmaxSplitTiling>(args);
  int64_t b, e;
  BlockRange(t.rows * t.chunks, args->blockIdx, args->blockDim, &b, &e);
  const double* row = static_cast<const double*>(args->addrs[1]);
  Dispatch<kernels::Floats>(t.dtype, [&](auto tag) {
    using T = TypeOf<decltype(tag)>;
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
  const auto& t = GetTiling<LayerNormTiling>(args);
  int64_t b, e;
  BlockRange(t.rows, args->blockIdx, args->blockDim, &b, &e);
  Dispatch<kernels::Floats>(t.dtype, [&](auto tag) {
    using T = TypeOf<decltype(tag)>;
    void* const* a = args->addrs;
    const kernels::LayerNormParams p{t.cols, a[1] ? t.cols : 0, a[2] ? t.cols : 0, t.eps};
    kernels::LayerNormRows<T, T>(p, static_cast<const T*>(a[0]), static_cast<const T*>(a[1]),
                                 static_cast<const T*>(a[2]), static_cast<T*>(a[3]), static_cast<T*>(a[4]),
                                 static_cast<T*>(a[5]), b, e);
  });
}

}  // namespace ge::opapi
