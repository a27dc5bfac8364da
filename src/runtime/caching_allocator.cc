// Caching allocator: size-class blocks, cached in the order freed, over DeviceMemory, with an empty-and-retry on OOM.
#include "runtime/caching_allocator.h"

#include <algorithm>

#include <bit>
#include <cstring>

#include "acl/acl_base.h"
#include "base/guard_bytes.h"
#include "base/log.h"
#include "runtime/device.h"

namespace ge::rt {

size_t CachingAllocator::RoundSize(size_t size) {
  constexpr size_t kMin = 512;
  constexpr size_t kSmall = 4096;
  if (size <= kSmall) return (size + kMin - 1) / kMin * kMin;
  // Four classes per power of two: step = 2^(floor(log2(size)) - 2).
  const size_t step = std::bit_floor(size) >> 2;
  return (size + step - 1) / step * step;
}

CachingAllocator::CachingAllocator() : guard_(GuardBytes()) {}

CachingAllocator::~CachingAllocator() {
  std::lock_guard<std::mutex> lk(mu_);
  EmptyCacheLocked();
  DeviceMemory& mem = Device::Get().memory();
  if (arena_ != nullptr && arena_live_ == 0) (void)mem.Free(arena_);
  for (const auto& [p, bytes] : retired_) (void)mem.Free(p);
  if (!live_.empty()) {
    GELOGW("caching allocator destroyed with {} blocks ({} bytes) still in use", live_.size(), in_use_);
  }
}

void* CachingAllocator::Malloc(size_t size) {
  if (size == 0) return nullptr;
  std::lock_guard<std::mutex> lk(mu_);
  void* ptr = nullptr;
  if (replaying_ && pos_ < plan_.size() && plan_[pos_].alloc && plan_[pos_].size == size) {
    ptr = arena_ + offsets_[plan_[pos_].block];
    ++pos_;
    ++arena_live_;
  } else {
    replaying_ = false;  // from here on this run's blocks come from the cache
    ptr = CacheMalloc(size);
    if (ptr == nullptr) return nullptr;
  }
  if (in_run_) {
    run_block_[ptr] = run_mallocs_;
    run_.push_back({run_mallocs_++, true, size});
  }
  return ptr;
}

void* CachingAllocator::CacheMalloc(size_t size) {
  const size_t cls = RoundSize(guard_ > 0 ? size + static_cast<size_t>(guard_) : size);
  void* ptr = nullptr;
  size_t block = cls;  // the bytes of the block handed out
  // The most recently freed cached block of at least the class and at most twice it: its bytes
  // are the likeliest still in cache, and a block serves the next tensor of a similar size, so a
  // host run touches about as few bytes as a planned arena. mobilenet_v2_dynbatch host-scheduled,
  // 1 thread, against its sunk form: 1.15x with exact classes, 1.0-1.1x with this; blocks up to
  // 4x or 8x the class ran slower again (a sink arena without reuse: 1.25x).
  auto it = std::find_if(free_.rbegin(), free_.rend(),
                         [&](const std::pair<void*, size_t>& f) { return f.second >= cls && f.second <= 2 * cls; });
  if (it != free_.rend()) {
    ptr = it->first;
    block = it->second;
    free_.erase(std::next(it).base());
    cached_ -= block;
  } else {
    DeviceMemory& mem = Device::Get().memory();
    aclError ret = mem.Malloc(cls, &ptr);
    if (ret == ACL_ERROR_RT_MEMORY_ALLOCATION && cached_ > 0) {
      GELOGI("caching allocator: out of device memory for {} bytes, releasing {} cached bytes", cls, cached_);
      EmptyCacheLocked();
      ret = mem.Malloc(cls, &ptr);
    }
    if (ret != ACL_SUCCESS) return nullptr;
  }
  if (!spare_nodes_.empty()) {  // reuse a freed entry: no heap allocation per tensor
    auto node = std::move(spare_nodes_.back());
    spare_nodes_.pop_back();
    node.key() = ptr;
    node.mapped() = block;
    live_.insert(std::move(node));
  } else {
    live_.emplace(ptr, block);
  }
  in_use_ += block;
  if (guard_ > 0) {
    std::memset(static_cast<uint8_t*>(ptr) + size, kGuardByte, block - size);
    asked_[ptr] = size;
  }
  return ptr;
}

int64_t CachingAllocator::CheckGuard(const void* ptr) const {
  if (guard_ == 0 || ptr == nullptr) return -1;
  std::lock_guard<std::mutex> lk(mu_);
  auto a = asked_.find(ptr);
  auto l = live_.find(const_cast<void*>(ptr));
  if (a == asked_.end() || l == live_.end()) return -1;
  return FirstBrokenGuardByte(static_cast<const uint8_t*>(ptr) + a->second, l->second - a->second);
}

void CachingAllocator::Free(void* ptr) {
  if (ptr == nullptr) return;
  std::lock_guard<std::mutex> lk(mu_);
  int32_t block = -1;
  if (auto it = run_block_.find(ptr); it != run_block_.end()) {
    block = it->second;
    run_block_.erase(it);
    if (in_run_) run_.push_back({block, false, 0});
  }
  char* p = static_cast<char*>(ptr);
  if (arena_ != nullptr && p >= arena_ && p < arena_ + arena_bytes_) {
    if (block < 0) {
      GELOGE("caching allocator: Free({}) of an arena block that is not live", ptr);
      return;
    }
    --arena_live_;
    if (replaying_ && pos_ < plan_.size() && !plan_[pos_].alloc && plan_[pos_].block == block)
      ++pos_;
    else
      replaying_ = false;
    return;
  }
  for (const auto& [a, bytes] : retired_)
    if (p >= a && p < a + bytes) return;  // a block of an arena given up: freed with the allocator
  CacheFree(ptr);
}

void CachingAllocator::CacheFree(void* ptr) {
  auto it = live_.find(ptr);
  if (it == live_.end()) {
    GELOGE("caching allocator: Free({}) of a block it did not hand out (or already freed)", ptr);
    return;
  }
  const size_t cls = it->second;
  if (guard_ > 0) asked_.erase(ptr);
  if (spare_nodes_.size() < kMaxSpareNodes) {
    spare_nodes_.push_back(live_.extract(it));
  } else {
    live_.erase(it);
  }
  in_use_ -= cls;
  free_.emplace_back(ptr, cls);
  cached_ += cls;
}

void CachingAllocator::BeginRun() {
  std::lock_guard<std::mutex> lk(mu_);
  if (guard_ > 0) return;
  in_run_ = true;
  run_.clear();
  run_block_.clear();
  run_mallocs_ = 0;
  pos_ = 0;
  replaying_ = arena_ != nullptr && !plan_.empty();
}

void CachingAllocator::EndRun(bool ok) {
  std::lock_guard<std::mutex> lk(mu_);
  if (!in_run_) return;
  in_run_ = false;
  last_planned_ = replaying_ && pos_ == plan_.size();
  replaying_ = false;
  if (arena_live_ > 0) {  // blocks outlive the run: the arena is not reused while they live
    GELOGW("caching allocator: {} planned blocks outlive their run; their arena is no longer reused", arena_live_);
    retired_.emplace_back(arena_, arena_bytes_);
    arena_ = nullptr;
    arena_bytes_ = 0;
    arena_live_ = 0;
    plan_.clear();
  }
  // Only a run that freed every block it took is planned.
  const bool complete = ok && run_block_.empty() && !run_.empty();
  run_block_.clear();
  if (!complete) {
    last_run_.clear();
  } else if (!last_planned_) {
    if (run_ == last_run_) PlanRun();  // the same sequence twice: plan it
    last_run_.swap(run_);
  }
  run_.clear();
}

void CachingAllocator::PlanRun() {
  // Lifetimes in event positions; a block lives from its Malloc to its Free.
  const size_t n = static_cast<size_t>(run_mallocs_);
  std::vector<size_t> bytes(n), start(n), end(n), order(n);
  for (size_t i = 0; i < run_.size(); ++i) {
    const Event& e = run_[i];
    if (e.alloc) {
      start[e.block] = i;
      bytes[e.block] = (e.size + kDeviceMemAlign - 1) / kDeviceMemAlign * kDeviceMemAlign;
    } else {
      end[e.block] = i;
    }
  }
  for (size_t b = 0; b < n; ++b) order[b] = b;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return bytes[a] > bytes[b]; });
  // Greedy by size: each block at the lowest offset clear of the placed blocks it overlaps in time.
  std::vector<size_t> offsets(n, 0), placed;
  std::vector<std::pair<size_t, size_t>> busy;  // [offset, end) of the placed blocks live with it
  size_t total = 0;
  for (size_t b : order) {
    busy.clear();
    for (size_t q : placed)
      if (start[q] < end[b] && start[b] < end[q]) busy.emplace_back(offsets[q], offsets[q] + bytes[q]);
    std::sort(busy.begin(), busy.end());
    size_t off = 0;
    for (const auto& [lo, hi] : busy) {
      if (off + bytes[b] <= lo) break;
      off = std::max(off, hi);
    }
    offsets[b] = off;
    total = std::max(total, off + bytes[b]);
    placed.push_back(b);
  }
  EmptyCacheLocked();  // the recorded runs' blocks: the arena replaces them
  DeviceMemory& mem = Device::Get().memory();
  if (total > arena_bytes_) {
    if (arena_ != nullptr) (void)mem.Free(arena_);
    arena_ = nullptr;
    arena_bytes_ = 0;
    void* p = nullptr;
    if (mem.Malloc(total, &p) != ACL_SUCCESS) {  // no plan: the cache serves the runs
      GELOGI("caching allocator: no arena for a planned run of {} bytes: {}", total, aclGetRecentErrMsg());
      plan_.clear();
      return;
    }
    arena_ = static_cast<char*>(p);
    arena_bytes_ = total;
  }
  plan_ = run_;
  offsets_ = std::move(offsets);
  GELOGD("caching allocator: planned a run of {} blocks in a {}-byte arena", n, total);
}

bool CachingAllocator::last_run_planned() const {
  std::lock_guard<std::mutex> lk(mu_);
  return last_planned_;
}

size_t CachingAllocator::planned_arena_bytes() const {
  std::lock_guard<std::mutex> lk(mu_);
  return plan_.empty() ? 0 : arena_bytes_;
}

void CachingAllocator::EmptyCache() {
  std::lock_guard<std::mutex> lk(mu_);
  EmptyCacheLocked();
}

void CachingAllocator::EmptyCacheLocked() {
  DeviceMemory& mem = Device::Get().memory();
  for (const auto& [p, cls] : free_) (void)mem.Free(p);
  free_.clear();
  cached_ = 0;
}

size_t CachingAllocator::BytesInUse() const {
  std::lock_guard<std::mutex> lk(mu_);
  return in_use_;
}

size_t CachingAllocator::BytesCached() const {
  std::lock_guard<std::mutex> lk(mu_);
  return cached_;
}

}  // namespace ge::rt
