// The caching allocator: size classes, reuse, statistics, out-of-memory retry, threads.
#include "runtime/caching_allocator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl_rt.h"

namespace ge::rt {
namespace {

size_t DeviceBytesInUse() {
  size_t free = 0, total = 0;
  EXPECT_EQ(aclrtGetMemInfo(0, &free, &total), ACL_SUCCESS);
  return total - free;
}

TEST(RuntimeCachingAllocator, RoundSize) {
  EXPECT_EQ(CachingAllocator::RoundSize(1), 512u);
  EXPECT_EQ(CachingAllocator::RoundSize(512), 512u);
  EXPECT_EQ(CachingAllocator::RoundSize(513), 1024u);
  EXPECT_EQ(CachingAllocator::RoundSize(4096), 4096u);
  EXPECT_EQ(CachingAllocator::RoundSize(4097), 5120u);
  EXPECT_EQ(CachingAllocator::RoundSize(1000000), 1048576u);
  EXPECT_EQ(CachingAllocator::RoundSize(1048577), 1310720u);
  for (size_t s = 1; s < 10000000; s = s * 3 + 7) {
    size_t r = CachingAllocator::RoundSize(s);
    EXPECT_GE(r, s);
    EXPECT_LE(r, s < 512 ? 512 : s + s / 4 + 512) << s;
  }
}

TEST(RuntimeCachingAllocator, ReusesFreedBlocks) {
  CachingAllocator alloc;
  EXPECT_EQ(alloc.Malloc(0), nullptr);
  void* a = alloc.Malloc(1000);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 64, 0u);
  EXPECT_EQ(alloc.BytesInUse(), 1024u);
  EXPECT_EQ(alloc.BytesCached(), 0u);
  alloc.Free(a);
  EXPECT_EQ(alloc.BytesInUse(), 0u);
  EXPECT_EQ(alloc.BytesCached(), 1024u);
  void* b = alloc.Malloc(600);  // same class: the cached block comes back
  EXPECT_EQ(b, a);
  EXPECT_EQ(alloc.BytesCached(), 0u);
  void* c = alloc.Malloc(2000);  // another class: fresh memory
  EXPECT_NE(c, a);
  alloc.Free(b);
  alloc.Free(c);
  alloc.Free(nullptr);
  int local = 0;
  alloc.Free(&local);  // not ours: logged, ignored
  EXPECT_EQ(alloc.BytesCached(), 1024u + 2048u);
  const size_t device_before = DeviceBytesInUse();
  alloc.EmptyCache();
  EXPECT_EQ(alloc.BytesCached(), 0u);
  EXPECT_EQ(device_before - DeviceBytesInUse(), 1024u + 2048u);
}

// A request takes the most recently freed cached block of its class up to twice it (the bytes
// likeliest still in cache; host runs then touch about what a planned arena would), and never a
// block more than twice its class.
TEST(RuntimeCachingAllocator, TakesTheLatestFreedBlockUpToTwiceTheClass) {
  CachingAllocator alloc;
  void* small = alloc.Malloc(1024);  // class 1024
  void* mid = alloc.Malloc(2000);    // class 2048
  void* big = alloc.Malloc(4000);    // class 4096
  ASSERT_TRUE(small && mid && big);
  alloc.Free(small);
  alloc.Free(mid);
  alloc.Free(big);
  // Class 1024: small and mid qualify (big is 4x); mid was freed after small.
  void* a = alloc.Malloc(1000);
  EXPECT_EQ(a, mid);
  EXPECT_EQ(alloc.BytesInUse(), 2048u);  // the block's bytes, not the request's class
  EXPECT_EQ(alloc.BytesCached(), 1024u + 4096u);
  void* b = alloc.Malloc(1000);
  EXPECT_EQ(b, small);
  void* c = alloc.Malloc(600);  // class 1024: only big (4x) is cached, so fresh memory
  EXPECT_NE(c, big);
  EXPECT_EQ(alloc.BytesCached(), 4096u);
  alloc.Free(a);
  alloc.Free(b);
  alloc.Free(c);
  EXPECT_EQ(alloc.BytesInUse(), 0u);
  EXPECT_EQ(alloc.BytesCached(), 2048u + 1024u + 1024u + 4096u);
}

TEST(RuntimeCachingAllocator, EmptiesCacheAndRetriesOnOutOfMemory) {
  const size_t base = DeviceBytesInUse();
  ASSERT_EQ(aclrtSetDeviceMemLimit(base + 3 * 65536), ACL_SUCCESS);
  {
    CachingAllocator alloc;
    void* a = alloc.Malloc(65536);
    void* b = alloc.Malloc(65536);
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    alloc.Free(a);
    alloc.Free(b);
    EXPECT_EQ(alloc.BytesCached(), 2u * 65536);
    // A different class does not fit next to the cache: the cache is released, then it fits.
    void* big = alloc.Malloc(2 * 65536 + 1);
    ASSERT_NE(big, nullptr);
    EXPECT_EQ(alloc.BytesCached(), 0u);
    EXPECT_EQ(alloc.BytesInUse(), CachingAllocator::RoundSize(2 * 65536 + 1));
    // Past the limit even with an empty cache: nullptr and the device's message.
    EXPECT_EQ(alloc.Malloc(4 * 65536), nullptr);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("device out of memory"), std::string::npos);
    alloc.Free(big);
  }
  ASSERT_EQ(aclrtSetDeviceMemLimit(0), ACL_SUCCESS);
  EXPECT_EQ(DeviceBytesInUse(), base);  // the destructor returned the cache
}

TEST(RuntimeCachingAllocator, StressThreads) {
  CachingAllocator alloc;
  constexpr int kThreads = 4;
  constexpr int kIters = 2000;
  std::vector<std::thread> threads;
  std::vector<int> bad(kThreads, 0);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::vector<std::pair<uint8_t*, size_t>> held;
      for (int i = 0; i < kIters; ++i) {
        size_t size = 1 + (i * 7919 + t * 104729) % 20000;
        auto* p = static_cast<uint8_t*>(alloc.Malloc(size));
        std::memset(p, t + 1, size);
        held.emplace_back(p, size);
        if (held.size() > 8) {
          auto [q, n] = held.front();
          for (size_t k = 0; k < n; ++k) bad[t] += q[k] != t + 1;
          alloc.Free(q);
          held.erase(held.begin());
        }
      }
      for (auto [q, n] : held) alloc.Free(q);
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(bad[t], 0);
  EXPECT_EQ(alloc.BytesInUse(), 0u);
}

}  // namespace
}  // namespace ge::rt
