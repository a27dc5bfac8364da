// The CPU kernel of MatmulBiasCustom: blocks take output tiles round-robin. addrs: a, b, bias
// (null when omitted), c, workspace.
#include <algorithm>

#include "../op_host/matmul_bias_tiling.h"
#include "kernel_tiling/kernel_tiling.h"
#include "register/op_impl_registry.h"

namespace {
void MatmulBiasKernel(const aclrtKernelArgs* args) {
  GET_TILING_DATA_WITH_STRUCT(optiling::MatmulBiasTilingData, t, args->tiling);
  const float* a = static_cast<const float*>(args->addrs[0]);
  const float* b = static_cast<const float*>(args->addrs[1]);
  const float* bias = static_cast<const float*>(args->addrs[2]);
  float* c = static_cast<float*>(args->addrs[3]);
  const uint32_t M = t.shapeInfo.M, N = t.shapeInfo.N, K = t.shapeInfo.K;
  const uint32_t tiles = t.split.mBlocks * t.split.nBlocks;
  for (uint32_t tile = args->blockIdx; tile < tiles; tile += args->blockDim) {
    uint32_t m0 = (tile / t.split.nBlocks) * t.split.baseM, n0 = (tile % t.split.nBlocks) * t.split.baseN;
    for (uint32_t m = m0; m < std::min(M, m0 + t.split.baseM); ++m)
      for (uint32_t n = n0; n < std::min(N, n0 + t.split.baseN); ++n) {
        double acc = t.hasBias ? bias[n] : 0.0;
        for (uint32_t k = 0; k < K; ++k)
          acc += static_cast<double>(t.transA ? a[k * M + m] : a[m * K + k]) * (t.transB ? b[n * K + k] : b[k * N + n]);
        c[m * N + n] = static_cast<float>(acc);
      }
  }
}
}  // namespace

IMPL_OP(MatmulBiasCustom).Kernel(MatmulBiasKernel);
