// The CPU kernel of LayerNormCustom. addrs: x, gamma, beta (null when omitted), y.
#include <cmath>

#include "../op_host/layer_norm_tiling.h"
#include "kernel_tiling/kernel_tiling.h"
#include "register/op_impl_registry.h"

namespace {
void LayerNormCustomKernel(const aclrtKernelArgs* args) {
  GET_TILING_DATA_WITH_STRUCT(optiling::LayerNormCustomTilingData, t, args->tiling);
  const float* x = static_cast<const float*>(args->addrs[0]);
  const float* gamma = static_cast<const float*>(args->addrs[1]);
  const float* beta = static_cast<const float*>(args->addrs[2]);
  float* y = static_cast<float*>(args->addrs[3]);
  uint32_t first = args->blockIdx * t.rowSplit.rowsPerCore;
  uint32_t count = args->blockIdx + 1 == t.rowSplit.usedCoreNum ? t.rowSplit.tailCoreRows : t.rowSplit.rowsPerCore;
  if (args->blockIdx >= t.rowSplit.usedCoreNum) return;
  for (uint32_t r = first; r < first + count; ++r) {
    const float* row = x + static_cast<uint64_t>(r) * t.colNum;
    double mean = 0, var = 0;
    for (uint32_t c = 0; c < t.colNum; ++c) mean += row[c];
    mean /= t.colNum;
    for (uint32_t c = 0; c < t.colNum; ++c) var += (row[c] - mean) * (row[c] - mean);
    double rstd = 1.0 / std::sqrt(var / t.colNum + t.epsilon);
    for (uint32_t c = 0; c < t.colNum; ++c)
      y[static_cast<uint64_t>(r) * t.colNum + c] =
          static_cast<float>((row[c] - mean) * rstd * gamma[c] + (t.hasBeta ? beta[c] : 0.f));
  }
}
}  // namespace

IMPL_OP(LayerNormCustom).Kernel(LayerNormCustomKernel);
