// Helpers for the single-op API tests, on the public aclnn/aclrt API: the device, device buffers,
// aclTensor RAII, two-phase calls.
#ifndef GE_TESTS_COMMON_OPAPI_TEST_UTIL_H_
#define GE_TESTS_COMMON_OPAPI_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn/aclnn_base.h"

namespace ge::testing {

// aclInit + aclrtSetDevice(0), once per process.
inline void EnsureTestDevice() {
  static const aclError ret = [] {
    aclError e = aclInit(nullptr);
    return e == ACL_SUCCESS || e == ACL_ERROR_REPEAT_INITIALIZE ? aclrtSetDevice(0) : e;
  }();
  ASSERT_EQ(ret, ACL_SUCCESS) << aclGetRecentErrMsg();
}

// Device memory holding `n` elements of T.
template <typename T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t n) : n_(n) {
    EXPECT_EQ(aclrtMalloc(&p_, std::max<size_t>(n * sizeof(T), 1), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  explicit DeviceBuffer(const std::vector<T>& v) : DeviceBuffer(v.size()) { Upload(v); }
  ~DeviceBuffer() { aclrtFree(p_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void Upload(const std::vector<T>& v) {
    aclrtMemcpy(p_, n_ * sizeof(T), v.data(), v.size() * sizeof(T), ACL_MEMCPY_HOST_TO_DEVICE);
  }
  std::vector<T> Download() const {
    std::vector<T> v(n_);
    aclrtMemcpy(v.data(), n_ * sizeof(T), p_, n_ * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST);
    return v;
  }
  void* get() const { return p_; }

 private:
  void* p_ = nullptr;
  size_t n_;
};

struct TensorDeleter {
  void operator()(aclTensor* t) const { aclDestroyTensor(t); }
};
using TensorPtr = std::unique_ptr<aclTensor, TensorDeleter>;

// A view on `data`: `dims` with optional element `strides` over a storage of `storage` dims.
inline TensorPtr MakeTensor(std::vector<int64_t> dims, aclDataType dt, void* data, std::vector<int64_t> strides = {},
                            std::vector<int64_t> storage = {}) {
  if (storage.empty()) storage = dims;
  return TensorPtr(aclCreateTensor(dims.data(), dims.size(), dt, strides.empty() ? nullptr : strides.data(), 0,
                                   ACL_FORMAT_ND, storage.data(), storage.size(), data));
}

inline std::vector<float> RandomFloats(size_t n, uint32_t seed, float lo = -1.f, float hi = 1.f) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = d(gen);
  return v;
}

// Runs phase 1 + 2 with a device workspace and waits; returns the kernels launched (-1 on error).
template <typename Phase1>
int64_t RunTwoPhase(Phase1 phase1, aclnnStatus (*phase2)(void*, uint64_t, aclOpExecutor*, aclrtStream)) {
  uint64_t ws_size = 0;
  aclOpExecutor* ex = nullptr;
  aclnnStatus phase1_rc = phase1(&ws_size, &ex);
  if (phase1_rc != ACLNN_SUCCESS) {
    ADD_FAILURE() << "phase 1 failed: " << aclGetRecentErrMsg();
    return -1;
  }
  aclSetAclOpExecutorRepeatable(ex);
  void* ws = nullptr;
  if (ws_size) aclrtMalloc(&ws, ws_size, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtStream stream = nullptr;
  aclrtCreateStream(&stream);
  aclnnStatus rc = phase2(ws, ws_size, ex, stream);
  std::string msg = aclGetRecentErrMsg();
  aclrtSynchronizeStream(stream);
  aclrtDestroyStream(stream);
  if (ws) aclrtFree(ws);
  uint64_t launched = 0;
  aclnnGetLaunchedKernelCount(ex, &launched);
  aclDestroyAclOpExecutor(ex);
  if (rc != ACLNN_SUCCESS) {
    ADD_FAILURE() << "phase 2 failed: " << msg;
    return -1;
  }
  return static_cast<int64_t>(launched);
}

}  // namespace ge::testing

#endif  // GE_TESTS_COMMON_OPAPI_TEST_UTIL_H_
