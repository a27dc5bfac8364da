// The CPU kernel of GeGluCustom (float32, or float16 when dtypeSize is 2). addrs: x, y. Block i takes rows [rowStart[i], rowStart[i+1]).
#include <cmath>

#include "../../common/cpu_kernel_util.h"
#include "../op_host/ge_glu_tiling.h"
#include "kernel_tiling/kernel_tiling.h"
#include "register/op_impl_registry.h"

namespace {
float Gelu(float v, bool tanh_form) {
  if (tanh_form) return 0.5f * v * (1.f + std::tanh(0.7978845608028654f * (v + 0.044715f * v * v * v)));
  return 0.5f * v * (1.f + std::erf(v * 0.7071067811865476f));
}

template <typename T, typename Load, typename Store>
void GeGluRows(const aclrtKernelArgs* args, const optiling::GeGluTilingData* t, Load load, Store store) {
  const T* x = static_cast<const T*>(args->addrs[0]);
  T* y = static_cast<T*>(args->addrs[1]);
  const uint32_t h = t->halfColNum;
  for (uint32_t r = t->rowStart[args->blockIdx]; r < t->rowStart[args->blockIdx + 1]; ++r)
    for (uint32_t c = 0; c < h; ++c)
      y[r * h + c] = store(load(x[r * 2 * h + c]) * Gelu(load(x[r * 2 * h + h + c]), t->approximate != 0));
}

void GeGluKernel(const aclrtKernelArgs* args) {
  GET_TILING_DATA_PTR_WITH_STRUCT(optiling::GeGluTilingData, t, args->tiling);
  if (t->dtypeSize == 2)
    GeGluRows<uint16_t>(args, t, compat_kernel::HalfToFloat, compat_kernel::FloatToHalf);
  else
    GeGluRows<float>(args, t, [](float v) { return v; }, [](float v) { return v; });
}
}  // namespace

IMPL_OP(GeGluCustom).Kernel(GeGluKernel);
