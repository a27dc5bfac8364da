// Device and pinned-host memory of the CPU device: 64-byte aligned, accounted allocations with a
// configurable limit, so running out of memory is a clean error code and message, not a crash.
#ifndef GE_SRC_RUNTIME_MEMORY_H_
#define GE_SRC_RUNTIME_MEMORY_H_

#include <cstddef>
#include <mutex>
#include <unordered_map>

#include "acl/acl_base.h"

namespace ge::rt {

inline constexpr size_t kDeviceMemAlign = 64;

class DeviceMemory {
 public:
  // `limit` bytes of device memory may be in use at once (0 = unlimited).
  explicit DeviceMemory(size_t limit) : limit_(limit) {}
  ~DeviceMemory();
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;

  // Errors set the recent error message.
  aclError Malloc(size_t size, void** ptr);
  aclError Free(void* ptr);
  aclError MallocHost(size_t size, void** ptr);
  aclError FreeHost(void* ptr);

  void SetLimit(size_t limit);
  size_t limit() const;   // 0 = unlimited
  size_t in_use() const;  // accounted bytes (sizes rounded up to kDeviceMemAlign)

 private:
  mutable std::mutex mu_;
  size_t limit_;
  size_t in_use_ = 0;
  std::unordered_map<void*, size_t> device_blocks_;
  std::unordered_map<void*, size_t> host_blocks_;
};

}  // namespace ge::rt

#endif  // GE_SRC_RUNTIME_MEMORY_H_
