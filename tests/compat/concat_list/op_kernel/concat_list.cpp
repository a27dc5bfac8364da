// The CPU kernel of ConcatListCustom: copies whole rows, any 4-byte dtype. addrs: x[0..n-1], y.
#include <cstring>

#include "../../common/cpu_kernel_util.h"
#include "../op_host/concat_list_tiling.h"
#include "kernel_tiling/kernel_tiling.h"
#include "register/op_impl_registry.h"

namespace {
void ConcatListKernel(const aclrtKernelArgs* args) {
  GET_TILING_DATA_WITH_STRUCT(optiling::ConcatListTilingData, t, args->tiling);
  char* y = static_cast<char*>(args->addrs[t.inputNum]);
  const size_t elem = 4;
  int64_t begin = 0, end = 0;
  compat_kernel::BlockRange(t.outerNum, args->blockIdx, args->blockDim, &begin, &end);
  for (int64_t o = begin; o < end; ++o) {
    uint64_t offset = 0;
    for (uint32_t i = 0; i < t.inputNum; ++i) {
      const char* x = static_cast<const char*>(args->addrs[i]);
      std::memcpy(y + (o * t.outRowLength + offset) * elem, x + o * t.rowLength[i] * elem, t.rowLength[i] * elem);
      offset += t.rowLength[i];
    }
  }
}
}  // namespace

IMPL_OP(ConcatListCustom).Kernel(ConcatListKernel);
