// The CPU kernel of AxpyOpt. addrs: x, bias (null when omitted), y.
#include <algorithm>

#include "../op_host/axpy_opt_tiling.h"
#include "kernel_tiling/kernel_tiling.h"
#include "register/op_impl_registry.h"

namespace {
void AxpyOptKernel(const aclrtKernelArgs* args) {
  GET_TILING_DATA_WITH_STRUCT(optiling::AxpyOptTilingData, t, args->tiling);
  const float* x = static_cast<const float*>(args->addrs[0]);
  const float* bias = static_cast<const float*>(args->addrs[1]);
  float* y = static_cast<float*>(args->addrs[2]);
  int64_t begin = t.blockFactor * args->blockIdx, end = std::min(t.totalLength, begin + t.blockFactor);
  for (int64_t i = begin; i < end; ++i) {
    float v = t.alpha * x[i] + (t.hasBias ? bias[i] : 0.f);
    y[i] = t.withRelu ? std::max(v, 0.f) : v;
  }
}
}  // namespace

IMPL_OP(AxpyOpt).Kernel(AxpyOptKernel);
