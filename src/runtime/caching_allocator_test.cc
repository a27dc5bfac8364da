// The caching allocator: size classes, reuse, statistics, out-of-memory retry, threads.
#include "runtime/caching_allocator.h"

#include <gtest/gtest.h>

#include <algorithm>
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

// One run of a script of allocation events: a positive entry allocates that many bytes (and
// fills them with the block's own byte), a negative entry -k frees the k-th block allocated
// (1-based), after checking its bytes are still its own. Returns the blocks whose bytes another
// block overwrote while they lived (0: no two live blocks shared bytes), and the blocks' addresses.
int RunScript(CachingAllocator* alloc, const std::vector<int64_t>& script, std::vector<uint8_t*>* blocks = nullptr,
              bool end_ok = true) {
  std::vector<std::pair<uint8_t*, size_t>> held;
  int broken = 0;
  alloc->BeginRun();
  for (int64_t e : script) {
    if (e > 0) {
      auto* p = static_cast<uint8_t*>(alloc->Malloc(static_cast<size_t>(e)));
      EXPECT_NE(p, nullptr);
      std::memset(p, static_cast<int>(held.size() + 1), static_cast<size_t>(e));
      held.emplace_back(p, static_cast<size_t>(e));
    } else {
      auto [p, n] = held[static_cast<size_t>(-e - 1)];
      for (size_t i = 0; i < n; ++i)
        if (p[i] != static_cast<uint8_t>(-e)) {
          ++broken;
          break;
        }
      alloc->Free(p);
    }
  }
  alloc->EndRun(end_ok);
  if (blocks) {
    blocks->clear();
    for (auto& [p, n] : held) blocks->push_back(p);
  }
  return broken;
}

// A chain of tensors as a host run makes them: outputs, a workspace, frees after last use.
const std::vector<int64_t> kChain = {150000, 600000, -1, 4000, -3, 600000, 70000, -2, -5, 150000, -4, -6};

TEST(RuntimeCachingAllocator, PlansARunRepeatedWithTheSameSequence) {
  CachingAllocator alloc;
  std::vector<uint8_t*> first, third, fourth;
  EXPECT_EQ(RunScript(&alloc, kChain, &first), 0);
  EXPECT_FALSE(alloc.last_run_planned());
  EXPECT_EQ(alloc.planned_arena_bytes(), 0u);
  EXPECT_EQ(RunScript(&alloc, kChain), 0);  // the same sequence twice: planned after this run
  EXPECT_FALSE(alloc.last_run_planned());
  const size_t arena = alloc.planned_arena_bytes();
  EXPECT_GT(arena, 0u);
  EXPECT_EQ(alloc.BytesCached(), 0u);  // the cache gave its blocks back for the arena
  EXPECT_EQ(RunScript(&alloc, kChain, &third), 0);
  EXPECT_TRUE(alloc.last_run_planned());
  EXPECT_EQ(RunScript(&alloc, kChain, &fourth), 0);
  EXPECT_TRUE(alloc.last_run_planned());
  EXPECT_EQ(third, fourth);  // the same offsets every planned run
  // Every block in one arena, which reuses bytes: smaller than the blocks' sum, at least the
  // most bytes live at once (blocks 2, 4 and 5).
  std::vector<size_t> sizes;
  for (int64_t e : kChain)
    if (e > 0) sizes.push_back(static_cast<size_t>(e));
  const uint8_t* lo = *std::min_element(third.begin(), third.end());
  for (size_t b = 0; b < third.size(); ++b) EXPECT_LE(third[b] + sizes[b], lo + arena) << b;
  EXPECT_LT(arena, 150000u + 600000 + 4000 + 600000 + 70000 + 150000);
  EXPECT_GE(arena, 600000u + 600000 + 70000);
  EXPECT_EQ(alloc.BytesInUse(), 0u);
}

TEST(RuntimeCachingAllocator, ARunThatDepartsFromThePlanTakesTheCache) {
  CachingAllocator alloc;
  ASSERT_EQ(RunScript(&alloc, kChain), 0);
  ASSERT_EQ(RunScript(&alloc, kChain), 0);
  ASSERT_EQ(RunScript(&alloc, kChain), 0);
  ASSERT_TRUE(alloc.last_run_planned());
  // The same first blocks, then another size, another free order, another count: the blocks
  // before the difference keep their arena bytes, the rest come from the cache, none collide.
  const std::vector<std::vector<int64_t>> departures = {
      {150000, 600000, -1, 5000, -3, 600000, 70000, -2, -5, 150000, -4, -6},
      {150000, 600000, -2, 4000, -3, 600000, 70000, -1, -5, 150000, -4, -6},
      {150000, 600000, -1, 4000, -3, 600000, 70000, -2, -5, 150000, 9000, -4, -6, -7},
      {150000, 600000, -1, 4000, -3, 600000, 70000, -2, -5, -4},
      {300000, 1200000, -1, 8000, -3, 1200000, 140000, -2, -5, 300000, -4, -6}};
  for (const auto& d : departures) {
    EXPECT_EQ(RunScript(&alloc, d), 0);
    EXPECT_FALSE(alloc.last_run_planned());
    EXPECT_EQ(RunScript(&alloc, kChain), 0);  // one departure keeps the plan
    EXPECT_TRUE(alloc.last_run_planned());
  }
  // A run that failed is not planned.
  EXPECT_EQ(RunScript(&alloc, departures[4], nullptr, false), 0);
  EXPECT_EQ(RunScript(&alloc, departures[4], nullptr, false), 0);
  EXPECT_EQ(RunScript(&alloc, kChain), 0);
  EXPECT_TRUE(alloc.last_run_planned());
  EXPECT_EQ(alloc.BytesInUse(), 0u);
}

// A planned block still live when its run ends retires the arena: freed later, it is ignored (not
// reported as foreign); the next runs come from the cache until a sequence repeats again.
TEST(RuntimeCachingAllocator, APlannedBlockOutlivingItsRunRetiresTheArena) {
  CachingAllocator alloc;
  for (int i = 0; i < 3; ++i) ASSERT_EQ(RunScript(&alloc, kChain), 0);
  ASSERT_TRUE(alloc.last_run_planned());
  std::vector<int64_t> keeps(kChain.begin(), kChain.end() - 1);  // block 6 is not freed in the run
  std::vector<uint8_t*> blocks;
  EXPECT_EQ(RunScript(&alloc, keeps, &blocks), 0);
  EXPECT_EQ(alloc.planned_arena_bytes(), 0u);
  alloc.Free(blocks[5]);
  EXPECT_EQ(alloc.BytesInUse(), 0u);
  EXPECT_EQ(RunScript(&alloc, kChain), 0);
  EXPECT_FALSE(alloc.last_run_planned());
  EXPECT_EQ(RunScript(&alloc, kChain), 0);
  EXPECT_EQ(RunScript(&alloc, kChain), 0);
  EXPECT_TRUE(alloc.last_run_planned());
}

TEST(RuntimeCachingAllocator, ANewSequenceSeenTwiceIsPlanned) {
  CachingAllocator alloc;
  const std::vector<int64_t> bigger = {300000, 1200000, -1, 8000, -3, 1200000, 140000, -2, -5, 300000, -4, -6};
  for (int i = 0; i < 3; ++i) ASSERT_EQ(RunScript(&alloc, kChain), 0);
  const size_t small_arena = alloc.planned_arena_bytes();
  for (int i = 0; i < 2; ++i) EXPECT_EQ(RunScript(&alloc, bigger), 0);
  EXPECT_GT(alloc.planned_arena_bytes(), small_arena);  // planned anew, in a larger arena
  EXPECT_EQ(RunScript(&alloc, bigger), 0);
  EXPECT_TRUE(alloc.last_run_planned());
  EXPECT_EQ(RunScript(&alloc, kChain), 0);  // the old plan is gone: from the cache
  EXPECT_FALSE(alloc.last_run_planned());
}

}  // namespace
}  // namespace ge::rt
