// A caching allocator over device memory for per-node tensors: blocks are size classes, freed
// blocks are cached in the order freed, and a request takes the latest freed one of its class up
// to twice it; when the device allocator hits its limit, the cache is emptied and
// the allocation retried once. Thread-safe.
//
// Planned runs: a host run brackets its allocations with BeginRun/EndRun, and the allocator
// records the run's sequence of Mallocs (sizes) and Frees. When two runs in a row make the same
// sequence (a model run again at the same shapes), the sequence's blocks get offsets in one
// arena, planned from their lifetimes (greedy by size, as the sink planner places a segment's
// tensors), and the following runs take their blocks from the arena: a repeated shape costs no
// cache search and its tensors reuse memory as a sunk model's do. A run that departs from the
// planned sequence (other shapes) takes its blocks from the cache from the first difference on,
// so no two live blocks ever share bytes. (Blocks that outlive their run retire their arena,
// which is freed with the allocator.)
#ifndef GE_SRC_RUNTIME_CACHING_ALLOCATOR_H_
#define GE_SRC_RUNTIME_CACHING_ALLOCATOR_H_

#include <cstddef>
#include <cstdint>
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

  // Brackets one run's allocations (a BeginRun inside a run starts it anew; no-ops while guard
  // bytes are on).
  void BeginRun();
  // ok: the run completed (only a completed run's sequence is planned).
  void EndRun(bool ok);
  // Whether the last run took every block from a planned arena, and the arena's size.
  bool last_run_planned() const;
  size_t planned_arena_bytes() const;

  // The size class of a request: multiples of 512 B up to 4 KiB, then four classes per power
  // of two (at most 25% slack).
  static size_t RoundSize(size_t size);

 private:
  void EmptyCacheLocked();
  void* CacheMalloc(size_t size);  // the cache path of Malloc (mu_ held)
  void CacheFree(void* ptr);       // the cache path of Free (mu_ held)
  void PlanRun();                  // offsets for run_ (mu_ held)

  // One recorded allocation event of a run: a Malloc of `size` bytes (block = its index among the
  // run's Mallocs) or the Free of block `block`.
  struct Event {
    int32_t block;
    bool alloc;
    size_t size;
    bool operator==(const Event&) const = default;
  };

  mutable std::mutex mu_;
  std::vector<std::pair<void*, size_t>> free_;  // cached blocks and their classes, in the order freed
  std::unordered_map<void*, size_t> live_;      // block -> size class
  static constexpr size_t kMaxSpareNodes = 256;
  std::vector<std::unordered_map<void*, size_t>::node_type> spare_nodes_;  // erased live_ entries, reused
  size_t in_use_ = 0;
  size_t cached_ = 0;
  const int64_t guard_;                            // GuardBytes() at construction
  std::unordered_map<const void*, size_t> asked_;  // with guards: block -> bytes requested

  bool in_run_ = false;
  std::vector<Event> run_, last_run_;             // this run's events and the previous run's
  std::unordered_map<void*, int32_t> run_block_;  // live block -> its index in run_'s Mallocs
  int32_t run_mallocs_ = 0;
  std::vector<Event> plan_;      // the planned sequence
  std::vector<size_t> offsets_;  // per planned block
  size_t pos_ = 0;               // the next expected event of plan_
  bool replaying_ = false;       // this run has matched plan_ so far
  bool last_planned_ = false;
  char* arena_ = nullptr;
  size_t arena_bytes_ = 0;
  int32_t arena_live_ = 0;                         // arena blocks handed out and not freed
  std::vector<std::pair<char*, size_t>> retired_;  // arenas whose blocks outlived a run: freed last
};

}  // namespace ge::rt

#endif  // GE_SRC_RUNTIME_CACHING_ALLOCATOR_H_
