// Float matrix products through oneDNN's matmul primitive (brgemm on AVX-512: ~200 GFLOP/s on
// one core here, and 5x dnnl_sgemm on matrix-vector products), with the epilogue fused: bias,
// residual sum, activation. B is either plain row-major [K, N] or packed once (at compile time,
// PackMatMulWeights) into the blocked layout brgemm reads; plain B costs a copy per execution,
// 3-4x the product for a large B ([768, 3072]: 17 ms against 4.4 ms packed, one core). The
// packed layout depends on K and N only (not on the row count, the block split or the core
// count), so dynamic sequence lengths and every plan share one packed B. A plan splits the rows
// (or, where the packed layout allows, the columns) into blocks, one single-threaded primitive
// per block; plans are cached for the process by shape.
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
  int32_t packed_b;         // B is in PackMatMulWeights' layout
  int32_t full_rows;        // every block holds whole rows of Y (a row epilogue follows: LayerNorm)
};

struct DnnlMatMulPlan;

// The cached plan (null where oneDNN is missing or rejects the parameters). Thread-safe.
const DnnlMatMulPlan* GetDnnlMatMulPlan(const DnnlMatMulParams& p, uint32_t max_blocks);
uint32_t DnnlMatMulPlanBlocks(const DnnlMatMulPlan* plan);
// The rows [*row0, *row0 + *rows) of Y that block `block` writes (with full_rows: whole rows).
void DnnlMatMulBlockRows(const DnnlMatMulPlan* plan, uint32_t block, int64_t* row0, int64_t* rows);
void RunDnnlMatMul(const DnnlMatMulPlan* plan, uint32_t block, const float* a, const float* b, const float* bias,
                   const float* z, float* y);

// Floats in the packed layout of a [k, n] B (0 where oneDNN is missing); packs a row-major
// [k, n] B into it.
size_t PackedMatMulWeightsSize(int64_t k, int64_t n);
bool PackMatMulWeights(int64_t k, int64_t n, const float* kn, float* packed);

}  // namespace ge::ops_util

#endif  // GE_SRC_OPS_DNNL_MATMUL_H_
