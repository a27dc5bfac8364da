// Row-major GEMM used by MatMul, Gemm and Conv kernels: C = alpha * op(A) * op(B) + beta * C.
// float goes to oneDNN's sgemm (single-threaded inside a kernel block: the device's cores are
// the parallelism); other types use a plain loop.
#ifndef GE_SRC_OPS_GEMM_UTIL_H_
#define GE_SRC_OPS_GEMM_UTIL_H_

#include <cstdint>

namespace ge::ops_util {

void Sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda,
           const float* b, int64_t ldb, float beta, float* c, int64_t ldc);

template <typename T>
void GemmRef(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, const T* b,
             int64_t ldb, T beta, T* c, int64_t ldc);

}  // namespace ge::ops_util

#endif  // GE_SRC_OPS_GEMM_UTIL_H_
