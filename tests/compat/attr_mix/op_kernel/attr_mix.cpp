// The CPU kernel of AttrMixCustom. addrs: x, y.
#include <algorithm>

#include "../../common/cpu_kernel_util.h"
#include "../op_host/attr_mix_tiling.h"
#include "kernel_tiling/kernel_tiling.h"
#include "register/op_impl_registry.h"

namespace {
void AttrMixKernel(const aclrtKernelArgs* args) {
  GET_TILING_DATA_WITH_STRUCT(optiling::AttrMixTilingData, t, args->tiling);
  const float* x = static_cast<const float*>(args->addrs[0]);
  float* y = static_cast<float*>(args->addrs[1]);
  int64_t begin = 0, end = 0;
  compat_kernel::BlockRange(static_cast<int64_t>(t.rowNum), args->blockIdx, args->blockDim, &begin, &end);
  for (int64_t r = begin; r < end; ++r)
    for (uint32_t j = 0; j < t.colNum; ++j) {
      float v = x[r * t.colNum + j] * t.scales[j % t.scaleNum] + static_cast<float>(t.shifts[j % t.shiftNum]);
      if (t.negate) v = -v;
      if (!t.mask[j % t.maskNum]) v = 0.f;
      if (t.clipMode) v = std::min(std::max(v, t.lo), t.hi);
      y[r * t.colNum + j] = v * t.factor;
    }
}
}  // namespace

IMPL_OP(AttrMixCustom).Kernel(AttrMixKernel);
