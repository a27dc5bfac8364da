// Device memory: allocation, alignment, limit and out-of-memory, misuse; memcpy and memset.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "runtime_test_util.h"

namespace ge::rt::testing {
namespace {

size_t DeviceBytesInUse() {
  size_t free = 0, total = 0;
  EXPECT_EQ(aclrtGetMemInfo(0, &free, &total), ACL_SUCCESS);
  return total - free;
}

class ScopedMemLimit {
 public:
  explicit ScopedMemLimit(size_t bytes) { EXPECT_EQ(aclrtSetDeviceMemLimit(bytes), ACL_SUCCESS); }
  ~ScopedMemLimit() { EXPECT_EQ(aclrtSetDeviceMemLimit(0), ACL_SUCCESS); }
};

TEST(RuntimeMemory, MallocIsAlignedAndAccounted) {
  EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  const size_t before = DeviceBytesInUse();
  std::vector<void*> ptrs;
  for (size_t size : {1, 63, 64, 65, 1000, 4096, 100000}) {
    void* p = nullptr;
    ASSERT_EQ(aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u) << size;
    std::memset(p, 0xab, size);  // the whole requested size is usable
    ptrs.push_back(p);
  }
  EXPECT_EQ(DeviceBytesInUse() - before, 64u + 64 + 64 + 128 + 1024 + 4096 + 100032);
  for (void* p : ptrs) EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
  EXPECT_EQ(DeviceBytesInUse(), before);
}

TEST(RuntimeMemory, OutOfMemoryIsAnErrorWithSizes) {
  const size_t base = DeviceBytesInUse();
  ScopedMemLimit limit(base + 1048576);
  void* half = nullptr;
  ASSERT_EQ(aclrtMalloc(&half, 524288, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  void* big = reinterpret_cast<void*>(1);
  EXPECT_EQ(aclrtMalloc(&big, 1048576, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
  EXPECT_EQ(big, nullptr);
  const std::string expected = "device out of memory: requested 1048576 bytes, " + std::to_string(base + 524288) +
                               " of " + std::to_string(base + 1048576) + " in use";
  EXPECT_EQ(std::string(aclGetRecentErrMsg()), expected);
  size_t free = 0, total = 0;
  ASSERT_EQ(aclrtGetMemInfo(0, &free, &total), ACL_SUCCESS);
  EXPECT_EQ(total, base + 1048576);
  EXPECT_EQ(free, 524288u);
  ASSERT_EQ(aclrtFree(half), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&big, 1048576, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(big), ACL_SUCCESS);
}

TEST(RuntimeMemory, MisuseReturnsErrors) {
  void* p = nullptr;
  EXPECT_EQ(aclrtMalloc(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFree(nullptr), ACL_ERROR_INVALID_PARAM);
  int local = 0;
  EXPECT_EQ(aclrtFree(&local), ACL_ERROR_RT_MEMORY_FREE);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("not a device allocation"), std::string::npos);
  ASSERT_EQ(aclrtMalloc(&p, 128, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(p), ACL_ERROR_RT_MEMORY_FREE);  // device pointer is not host memory
  EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(p), ACL_ERROR_RT_MEMORY_FREE);  // double free
  EXPECT_EQ(aclrtSetDevice(1), ACL_ERROR_INVALID_PARAM);
  uint32_t count = 0;
  EXPECT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
  EXPECT_EQ(count, 1u);
  EXPECT_EQ(aclrtGetMemInfo(0, nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST(RuntimeMemory, HostMemory) {
  void* h = nullptr;
  ASSERT_EQ(aclrtMallocHost(&h, 1000), ACL_SUCCESS);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(h) % 64, 0u);
  std::memset(h, 1, 1000);
  EXPECT_EQ(aclrtFree(h), ACL_ERROR_RT_MEMORY_FREE);  // host pointer is not device memory
  EXPECT_EQ(aclrtFreeHost(h), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(h), ACL_ERROR_RT_MEMORY_FREE);
}

TEST(RuntimeMemory, MemcpyAndMemsetSync) {
  std::vector<uint8_t> host(256);
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<uint8_t>(i);
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(dev, 256, host.data(), 256, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(dev, 256, 0x5a, 16), ACL_SUCCESS);
  std::vector<uint8_t> back(256, 0);
  ASSERT_EQ(aclrtMemcpy(back.data(), 256, dev, 256, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (size_t i = 0; i < 256; ++i) EXPECT_EQ(back[i], i < 16 ? 0x5a : i) << i;
  EXPECT_EQ(aclrtMemcpy(back.data(), 8, dev, 16, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpy(nullptr, 8, dev, 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpy(back.data(), 8, dev, 8, BogusEnum<aclrtMemcpyKind>(9)), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemset(dev, 8, 0, 16), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemset(nullptr, 8, 0, 8), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

void DoubleKernel(const aclrtKernelArgs* args) {
  auto* p = static_cast<int32_t*>(args->addrs[0]);
  for (int i = 0; i < 64; ++i) p[i] *= 2;
}

TEST(RuntimeMemory, MemcpyAndMemsetAsyncAreStreamOrdered) {
  ScopedStream stream;
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 64 * sizeof(int32_t), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  std::vector<int32_t> src(64), dst(64, -1);
  for (int i = 0; i < 64; ++i) src[i] = i;
  const size_t bytes = 64 * sizeof(int32_t);
  for (int round = 0; round < 50; ++round) {
    ASSERT_EQ(aclrtMemsetAsync(dev, bytes, 0, bytes, stream.get()), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(dev, bytes, src.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE, stream.get()), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchKernel(DoubleKernel, 1, &dev, 1, nullptr, 0, stream.get()), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(dst.data(), bytes, dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST, stream.get()), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream.get()), ACL_SUCCESS);
    for (int i = 0; i < 64; ++i) ASSERT_EQ(dst[i], 2 * i);
    dst.assign(64, -1);
  }
  EXPECT_EQ(aclrtMemcpyAsync(dst.data(), 4, dev, 8, ACL_MEMCPY_DEVICE_TO_HOST, stream.get()), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemsetAsync(nullptr, 4, 0, 4, stream.get()), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

}  // namespace
}  // namespace ge::rt::testing
