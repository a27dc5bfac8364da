// Float matrix products through oneDNN's matmul primitive (brgemm on AVX-512: ~200 GFLOP/s on
// one core here, and 5x dnnl_sgemm on matrix-vector products), with the epilogue fused: bias,
// residual sum, activation. B is read in plain row-major [K, N] (no packing, so nothing depends
// on the row count: dynamic sequence lengths share the weights). A plan splits the rows into
// blocks, one single-threaded primitive per block; plans are cached for the process by shape.
#ifndef GE_SRC_OPS_DNNL_MATMUL_H_
#define GE_SRC_OPS_DNNL_MATMUL_H_

#include <cstdint>

#include "ops/dnnl_conv.h"

namespace ge::ops_util {

struct DnnlMatMulParams {
  int64_t rows, k, n;  // Y[rows, n] = A[rows, k] x B[k, n]
  int32_t act;         // ConvAct
  float a0, a1;
  int32_t has_bias, has_z;  // bias [n]; residual Z[rows, n] added before the activation
};

struct DnnlMatMulPlan;

// The cached plan (null where oneDNN is missing or rejects the parameters). Thread-safe.
const DnnlMatMulPlan* GetDnnlMatMulPlan(const DnnlMatMulParams& p, uint32_t max_blocks);
uint32_t DnnlMatMulPlanBlocks(const DnnlMatMulPlan* plan);
void RunDnnlMatMul(const DnnlMatMulPlan* plan, uint32_t block, const float* a, const float* b, const float* bias,
                   const float* z, float* y);

}  // namespace ge::ops_util

#endif  // GE_SRC_OPS_DNNL_MATMUL_H_
