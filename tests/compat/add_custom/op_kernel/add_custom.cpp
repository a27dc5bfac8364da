// The CPU kernel of AddCustom: each block adds its tiles (float32, or float16 when typeSize is 2).
// addrs: x, y, z.
#include <algorithm>

#include "../op_host/add_custom_tiling.h"
#include "../../common/cpu_kernel_util.h"
#include "kernel_tiling/kernel_tiling.h"
#include "register/op_impl_registry.h"

namespace {

template <typename T, typename Load, typename Store>
void AddTiles(const aclrtKernelArgs* args, Load load, Store store) {
  GET_TILING_DATA_WITH_STRUCT(optiling::TilingData, tiling, args->tiling);
  int64_t first = 0, last = 0;
  compat_kernel::BlockRange(tiling.tileNum, args->blockIdx, args->blockDim, &first, &last);
  const T* x = static_cast<const T*>(args->addrs[0]);
  const T* y = static_cast<const T*>(args->addrs[1]);
  T* z = static_cast<T*>(args->addrs[2]);
  for (int64_t t = first; t < last; ++t) {
    int64_t begin = t * tiling.tileLength;
    int64_t end = std::min<int64_t>(begin + tiling.tileLength, tiling.totalLength);
    for (int64_t i = begin; i < end; ++i) z[i] = store(load(x[i]) + load(y[i]));
  }
}

void AddCustomKernel(const aclrtKernelArgs* args) {
  GET_TILING_DATA_PTR_WITH_STRUCT(optiling::TilingData, t, args->tiling);
  if (t->typeSize == 2)
    AddTiles<uint16_t>(args, compat_kernel::HalfToFloat, compat_kernel::FloatToHalf);
  else
    AddTiles<float>(args, [](float v) { return v; }, [](float v) { return v; });
}

}  // namespace

IMPL_OP(AddCustom).Kernel(AddCustomKernel);
