// A caching allocator over device memory for per-node tensors: blocks are size classes, freed
// blocks are cached in the order freed, and a request takes the latest freed one of its class up
// to twice it; when the device allocator hits its limit, the cache is emptied and
// the allocation retried once. Thread-safe.
#ifndef GE_SRC_RUNTIME_CACHING_ALLOCATOR_H_
#define GE_SRC_RUNTIME_CACHING_ALLOCATOR_H_

#include <cstddef>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace ge::rt {

class CachingAllocator {
 public:
  CachingAllocator();
  // Returns the cached blocks to the device; blocks still in use stay allocated (and are
  // reported), since a tensor may outlive its allocator.
  ~CachingAllocator();
  CachingAllocator(const CachingAllocator&) = delete;
  CachingAllocator& operator=(const CachingAllocator&) = delete;

  // nullptr when size == 0 or the device is out of memory (aclGetRecentErrMsg() says why).
  void* Malloc(size_t size);
  // Returns a block to the cache. nullptr is ignored; unknown pointers are logged and ignored.
  void Free(void* ptr);
  // Returns every cached block to the device.
  void EmptyCache();

  // Guard bytes (base/guard_bytes.h, GE_GUARD_BYTES): with guard_bytes() > 0 every block is at
  // least that much larger than asked, the bytes past the request are filled with kGuardByte,
  // and CheckGuard says whether they are intact: the offset past the request of the first
  // changed byte, or -1 (also for an unknown pointer or with guards off).
  int64_t guard_bytes() const { return guard_; }
  int64_t CheckGuard(const void* ptr) const;

  size_t BytesInUse() const;   // size-class bytes handed out and not freed
  size_t BytesCached() const;  // size-class bytes held in free lists

  // The size class of a request: multiples of 512 B up to 4 KiB, then four classes per power
  // of two (at most 25% slack).
  static size_t RoundSize(size_t size);

 private:
  void EmptyCacheLocked();

  mutable std::mutex mu_;
  std::vector<std::pair<void*, size_t>> free_;  // cached blocks and their classes, in the order freed
  std::unordered_map<void*, size_t> live_;      // block -> size class
  static constexpr size_t kMaxSpareNodes = 256;
  std::vector<std::unordered_map<void*, size_t>::node_type> spare_nodes_;  // erased live_ entries, reused
  size_t in_use_ = 0;
  size_t cached_ = 0;
  const int64_t guard_;                            // GuardBytes() at construction
  std::unordered_map<const void*, size_t> asked_;  // with guards: block -> bytes requested
};

}  // namespace ge::rt

#endif  // GE_SRC_RUNTIME_CACHING_ALLOCATOR_H_
