#include "ops/gemm_util.h"
#include "base/defined_arith.h"

#ifdef GE_HAVE_DNNL
#include <dnnl.h>
#include <omp.h>
#endif

namespace ge::ops_util {

template <typename T>
void GemmRef(bool ta, bool tb, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, const T* b,
             int64_t ldb, T beta, T* c, int64_t ldc) {
  for (int64_t i = 0; i < m; ++i) {
    T* crow = c + i * ldc;
    // Integer T wraps (base/defined_arith.h) instead of overflowing; floats are unchanged.
    for (int64_t j = 0; j < n; ++j) crow[j] = beta == T(0) ? T(0) : WrapMul<T>(beta, crow[j]);
    for (int64_t p = 0; p < k; ++p) {
      T av = WrapMul<T>(alpha, ta ? a[p * lda + i] : a[i * lda + p]);
      if (av == T(0)) continue;
      if (!tb) {
        const T* brow = b + p * ldb;
        for (int64_t j = 0; j < n; ++j) crow[j] = WrapAdd<T>(crow[j], WrapMul<T>(av, brow[j]));
      } else {
        for (int64_t j = 0; j < n; ++j) crow[j] = WrapAdd<T>(crow[j], WrapMul<T>(av, b[j * ldb + p]));
      }
    }
  }
}

template void GemmRef<float>(bool, bool, int64_t, int64_t, int64_t, float, const float*, int64_t, const float*, int64_t,
                             float, float*, int64_t);
template void GemmRef<double>(bool, bool, int64_t, int64_t, int64_t, double, const double*, int64_t, const double*,
                              int64_t, double, double*, int64_t);
template void GemmRef<int32_t>(bool, bool, int64_t, int64_t, int64_t, int32_t, const int32_t*, int64_t, const int32_t*,
                               int64_t, int32_t, int32_t*, int64_t);
template void GemmRef<int64_t>(bool, bool, int64_t, int64_t, int64_t, int64_t, const int64_t*, int64_t, const int64_t*,
                               int64_t, int64_t, int64_t*, int64_t);
template void GemmRef<uint32_t>(bool, bool, int64_t, int64_t, int64_t, uint32_t, const uint32_t*, int64_t,
                                const uint32_t*, int64_t, uint32_t, uint32_t*, int64_t);
template void GemmRef<uint64_t>(bool, bool, int64_t, int64_t, int64_t, uint64_t, const uint64_t*, int64_t,
                                const uint64_t*, int64_t, uint64_t, uint64_t*, int64_t);

void Sgemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda, const float* b,
           int64_t ldb, float beta, float* c, int64_t ldc) {
  if (m <= 0 || n <= 0) return;
#ifdef GE_HAVE_DNNL
  // The device's core threads are the parallelism: oneDNN runs single-threaded inside a block.
  thread_local bool single = [] {
    omp_set_num_threads(1);
    return true;
  }();
  (void)single;
  if (k > 0) {
    dnnl_sgemm(ta ? 'T' : 'N', tb ? 'T' : 'N', m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    return;
  }
#endif
  GemmRef<float>(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

}  // namespace ge::ops_util
