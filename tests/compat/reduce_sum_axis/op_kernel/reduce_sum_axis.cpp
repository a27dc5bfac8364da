// The CPU kernel of ReduceSumAxisCustom. addrs: x, axes, y.
#include "../../common/cpu_kernel_util.h"
#include "../op_host/reduce_sum_axis_tiling.h"
#include "kernel_tiling/kernel_tiling.h"
#include "register/op_impl_registry.h"

namespace {
void ReduceSumAxisKernel(const aclrtKernelArgs* args) {
  GET_TILING_DATA_WITH_STRUCT(optiling::ReduceSumAxisTilingData, t, args->tiling);
  const float* x = static_cast<const float*>(args->addrs[0]);
  float* y = static_cast<float*>(args->addrs[2]);
  int64_t begin = 0, end = 0;
  compat_kernel::BlockRange(static_cast<int64_t>(t.outerNum), args->blockIdx, args->blockDim, &begin, &end);
  for (int64_t o = begin; o < end; ++o)
    for (uint64_t i = 0; i < t.innerNum; ++i) {
      double acc = 0;
      for (uint64_t r = 0; r < t.reduceNum; ++r) acc += x[(o * t.reduceNum + r) * t.innerNum + i];
      y[o * t.innerNum + i] = static_cast<float>(acc);
    }
}
}  // namespace

IMPL_OP(ReduceSumAxisCustom).Kernel(ReduceSumAxisKernel);
