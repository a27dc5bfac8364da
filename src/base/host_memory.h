// Host memory limit: the bytes of all host tensors (ge::HostTensor) alive at once are accounted
// against GE_HOST_MEMORY_LIMIT (bytes; default 3/4 of physical memory), so a model or input
// that asks for more fails cleanly with an out-of-memory error naming the sizes, as device
// allocations already do (runtime/memory.h), instead of the kernel's OOM killer.
#ifndef GE_SRC_BASE_HOST_MEMORY_H_
#define GE_SRC_BASE_HOST_MEMORY_H_

#include <cstdint>
#include <new>
#include <string>

namespace ge {

// What a host allocation over the limit throws (a std::bad_alloc: every API entry turns it into
// an out-of-memory Status).
class HostMemoryLimitError : public std::bad_alloc {
 public:
  explicit HostMemoryLimitError(std::string msg) : msg_(std::move(msg)) {}
  const char* what() const noexcept override { return msg_.c_str(); }

 private:
  std::string msg_;
};

int64_t HostMemoryLimit();
int64_t HostMemoryInUse();
// Accounts `bytes` (throws HostMemoryLimitError when over the limit) / releases them.
void ReserveHostMemory(int64_t bytes);
void ReleaseHostMemory(int64_t bytes);
// Tests: a limit from now on (<= 0: back to the environment's / the default).
void SetHostMemoryLimitForTesting(int64_t bytes);

}  // namespace ge

#endif  // GE_SRC_BASE_HOST_MEMORY_H_
