// Helpers shared by the runtime tests: RAII handles and small kernels.
#ifndef GE_TESTS_COMMON_RUNTIME_TEST_UTIL_H_
#define GE_TESTS_COMMON_RUNTIME_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstring>

#include "acl/acl_rt.h"

namespace ge::rt::testing {

class ScopedStream {
 public:
  ScopedStream() { EXPECT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS); }
  ~ScopedStream() {
    if (stream_ != nullptr) {
      EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
    }
  }
  ScopedStream(const ScopedStream&) = delete;
  ScopedStream& operator=(const ScopedStream&) = delete;
  aclrtStream get() const { return stream_; }

 private:
  aclrtStream stream_ = nullptr;
};

class ScopedEvent {
 public:
  ScopedEvent() { EXPECT_EQ(aclrtCreateEvent(&event_), ACL_SUCCESS); }
  ~ScopedEvent() { EXPECT_EQ(aclrtDestroyEvent(event_), ACL_SUCCESS); }
  ScopedEvent(const ScopedEvent&) = delete;
  ScopedEvent& operator=(const ScopedEvent&) = delete;
  aclrtEvent get() const { return event_; }

 private:
  aclrtEvent event_ = nullptr;
};

// Restores the core count (machine default) when a test changes it.
class ScopedCoreNum {
 public:
  explicit ScopedCoreNum(uint32_t n) {
    EXPECT_EQ(aclrtGetDeviceCoreNum(&saved_), ACL_SUCCESS);
    EXPECT_EQ(aclrtSetDeviceCoreNum(n), ACL_SUCCESS);
  }
  ~ScopedCoreNum() { EXPECT_EQ(aclrtSetDeviceCoreNum(saved_), ACL_SUCCESS); }

 private:
  uint32_t saved_ = 0;
};

template <typename T>
T TilingAs(const aclrtKernelArgs* args) {
  T v;
  std::memcpy(&v, args->tiling, sizeof(T));
  return v;
}

// addrs[0]: std::atomic<int64_t>*; tiling: int64_t amount (1 if none).
inline void AtomicAddKernel(const aclrtKernelArgs* args) {
  int64_t amount = args->tilingSize >= sizeof(int64_t) ? TilingAs<int64_t>(args) : 1;
  static_cast<std::atomic<int64_t>*>(args->addrs[0])->fetch_add(amount);
}

// An enum holding a value outside its range, as a C caller may pass.
template <typename Enum>
Enum BogusEnum(int value) {
  Enum e;
  std::memcpy(&e, &value, sizeof(e));
  return e;
}

inline void EmptyKernel(const aclrtKernelArgs*) {}

}  // namespace ge::rt::testing

#endif  // GE_TESTS_COMMON_RUNTIME_TEST_UTIL_H_
