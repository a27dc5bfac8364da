// Calls the generated aclnnCustomOp directly (the single-op API, no graph): z = x + y.
// Usage: GE_CUSTOM_OP_LIB is not needed here; the demo loads libcustom_op.so itself.
#include <dlfcn.h>

#include <cstdio>
#include <vector>

#include "aclnn_custom_op.h"

int main(int argc, char** argv) {
  const char* lib = argc > 1 ? argv[1] : "./libcustom_op.so";
  if (dlopen(lib, RTLD_NOW) == nullptr) {
    std::fprintf(stderr, "cannot load %s: %s\n", lib, dlerror());
    return 1;
  }
  aclInit(nullptr);
  aclrtSetDevice(0);
  const int64_t n = 8;
  std::vector<float> hx(n), hy(n), hz(n);
  for (int i = 0; i < n; ++i) hx[i] = i, hy[i] = 10 * i;
  void *x, *y, *z;
  aclrtMalloc(&x, n * 4, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&y, n * 4, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&z, n * 4, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMemcpy(x, n * 4, hx.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(y, n * 4, hy.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE);
  int64_t dims[] = {n};
  aclTensor* tx = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, x);
  aclTensor* ty = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, y);
  aclTensor* tz = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, z);
  uint64_t ws_size = 0;
  aclOpExecutor* ex = nullptr;
  if (aclnnCustomOpGetWorkspaceSize(tx, ty, tz, &ws_size, &ex) != ACLNN_SUCCESS ||
      aclnnCustomOp(nullptr, ws_size, ex, nullptr) != ACLNN_SUCCESS) {
    std::fprintf(stderr, "aclnnCustomOp failed: %s\n", aclGetRecentErrMsg());
    return 1;
  }
  aclrtSynchronizeDevice();
  aclrtMemcpy(hz.data(), n * 4, z, n * 4, ACL_MEMCPY_DEVICE_TO_HOST);
  for (int i = 0; i < n; ++i) std::printf("%g%s", hz[i], i + 1 < n ? " " : "\n");
  aclDestroyTensor(tx);
  aclDestroyTensor(ty);
  aclDestroyTensor(tz);
  return 0;
}
