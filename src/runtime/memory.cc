// Device and pinned-host memory: aligned_alloc (mappings in huge pages for large blocks) with a
// byte account and a limit.
#include "runtime/memory.h"

#include <fmt/format.h>

#include <cstdlib>

#include "base/error_message.h"
#include "base/host_memory.h"
#include "base/page_map.h"

namespace ge::rt {
namespace {

size_t RoundUp(size_t size) { return (size + kDeviceMemAlign - 1) & ~(kDeviceMemAlign - 1); }

// Blocks of at least kPageMapMinBytes (weights, arenas) are mappings in huge pages
// (base/page_map.h); smaller ones come from aligned_alloc. The rounded size tells which.
void* AllocBlock(size_t rounded) {
  return rounded >= kPageMapMinBytes ? MapPages(rounded) : std::aligned_alloc(kDeviceMemAlign, rounded);
}

void FreeBlock(void* p, size_t rounded) {
  if (rounded >= kPageMapMinBytes)
    UnmapPages(p, rounded);
  else
    std::free(p);
}

bool CheckSize(size_t size) {
  if (size == 0) {
    SetRecentErrMsg("memory allocation of 0 bytes");
    return false;
  }
  if (size > (SIZE_MAX >> 1)) {
    SetRecentErrMsg(fmt::format("memory allocation of {} bytes is too large", size));
    return false;
  }
  return true;
}

// The CPU device's memory is the host's: both kinds of block are also accounted against the host
// memory limit (base/host_memory.h), which host tensors share.
bool ReserveAsHost(size_t rounded, const char* what, size_t size) {
  if (TryReserveHostMemory(static_cast<int64_t>(rounded))) return true;
  SetRecentErrMsg(
      fmt::format("{} out of memory: requested {} bytes, which with the {} bytes of host tensors and device memory in "
                  "use would exceed the host memory limit of {} bytes (the CPU device's memory is the host's; "
                  "GE_HOST_MEMORY_LIMIT)",
                  what, size, HostMemoryInUse(), HostMemoryLimit()));
  return false;
}

}  // namespace

DeviceMemory::~DeviceMemory() {
  for (auto& [ptr, size] : device_blocks_) {
    FreeBlock(ptr, size);
    ReleaseHostMemory(static_cast<int64_t>(size));
  }
  for (auto& [ptr, size] : host_blocks_) {
    std::free(ptr);
    ReleaseHostMemory(static_cast<int64_t>(RoundUp(size)));
  }
}

aclError DeviceMemory::Malloc(size_t size, void** ptr) {
  if (ptr == nullptr) {
    SetRecentErrMsg("aclrtMalloc: devPtr is null");
    return ACL_ERROR_INVALID_PARAM;
  }
  *ptr = nullptr;
  if (!CheckSize(size)) return ACL_ERROR_INVALID_PARAM;
  const size_t rounded = RoundUp(size);
  std::lock_guard<std::mutex> lk(mu_);
  if (limit_ != 0 && (rounded > limit_ || in_use_ > limit_ - rounded)) {
    SetRecentErrMsg(fmt::format("device out of memory: requested {} bytes, {} of {} in use", size, in_use_, limit_));
    return ACL_ERROR_RT_MEMORY_ALLOCATION;
  }
  if (!ReserveAsHost(rounded, "device", size)) return ACL_ERROR_RT_MEMORY_ALLOCATION;
  void* p = AllocBlock(rounded);
  if (p == nullptr) {
    ReleaseHostMemory(static_cast<int64_t>(rounded));
    SetRecentErrMsg(
        fmt::format("device out of memory: requested {} bytes, host allocation "
                    "failed with {} bytes in use",
                    size, in_use_));
    return ACL_ERROR_RT_MEMORY_ALLOCATION;
  }
  device_blocks_.emplace(p, rounded);
  in_use_ += rounded;
  *ptr = p;
  return ACL_SUCCESS;
}

aclError DeviceMemory::Free(void* ptr) {
  if (ptr == nullptr) {
    SetRecentErrMsg("aclrtFree: devPtr is null");
    return ACL_ERROR_INVALID_PARAM;
  }
  size_t rounded = 0;
  {
    std::lock_guard<std::mutex> lk(mu_);
    auto it = device_blocks_.find(ptr);
    if (it == device_blocks_.end()) {
      SetRecentErrMsg(fmt::format("aclrtFree: {} is not a device allocation (or already freed)", ptr));
      return ACL_ERROR_RT_MEMORY_FREE;
    }
    rounded = it->second;
    in_use_ -= rounded;
    device_blocks_.erase(it);
  }
  FreeBlock(ptr, rounded);
  ReleaseHostMemory(static_cast<int64_t>(rounded));
  return ACL_SUCCESS;
}

aclError DeviceMemory::MallocHost(size_t size, void** ptr) {
  if (ptr == nullptr) {
    SetRecentErrMsg("aclrtMallocHost: hostPtr is null");
    return ACL_ERROR_INVALID_PARAM;
  }
  *ptr = nullptr;
  if (!CheckSize(size)) return ACL_ERROR_INVALID_PARAM;
  if (!ReserveAsHost(RoundUp(size), "host", size)) return ACL_ERROR_BAD_ALLOC;
  void* p = std::aligned_alloc(kDeviceMemAlign, RoundUp(size));
  if (p == nullptr) {
    ReleaseHostMemory(static_cast<int64_t>(RoundUp(size)));
    SetRecentErrMsg(fmt::format("host out of memory: requested {} bytes", size));
    return ACL_ERROR_BAD_ALLOC;
  }
  std::lock_guard<std::mutex> lk(mu_);
  host_blocks_.emplace(p, size);
  *ptr = p;
  return ACL_SUCCESS;
}

aclError DeviceMemory::FreeHost(void* ptr) {
  if (ptr == nullptr) {
    SetRecentErrMsg("aclrtFreeHost: hostPtr is null");
    return ACL_ERROR_INVALID_PARAM;
  }
  size_t size = 0;
  {
    std::lock_guard<std::mutex> lk(mu_);
    auto it = host_blocks_.find(ptr);
    if (it == host_blocks_.end()) {
      SetRecentErrMsg(fmt::format("aclrtFreeHost: {} is not a host allocation (or already freed)", ptr));
      return ACL_ERROR_RT_MEMORY_FREE;
    }
    size = it->second;
    host_blocks_.erase(it);
  }
  std::free(ptr);
  ReleaseHostMemory(static_cast<int64_t>(RoundUp(size)));
  return ACL_SUCCESS;
}

void DeviceMemory::SetLimit(size_t limit) {
  std::lock_guard<std::mutex> lk(mu_);
  limit_ = limit;
}

size_t DeviceMemory::limit() const {
  std::lock_guard<std::mutex> lk(mu_);
  return limit_;
}

size_t DeviceMemory::in_use() const {
  std::lock_guard<std::mutex> lk(mu_);
  return in_use_;
}

}  // namespace ge::rt
