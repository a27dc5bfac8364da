// Host memory limit: the bytes of all host tensors (ge::HostTensor) alive at once, and the CPU
// device's memory (runtime/memory.h: it is the host's memory too), are accounted against
// GE_HOST_MEMORY_LIMIT (bytes; default 3/4 of physical memory), so a model or input that asks
// for more fails cleanly with an out-of-memory error naming the sizes instead of the kernel's OOM
// killer. Apart, the two limits (the device's is unlimited by default) added up to more than the
// machine has.
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
// The same without throwing: false (and nothing accounted) when over the limit.
bool TryReserveHostMemory(int64_t bytes);
void ReleaseHostMemory(int64_t bytes);
// Tests: a limit from now on (<= 0: back to the environment's / the default).
void SetHostMemoryLimitForTesting(int64_t bytes);

}  // namespace ge

#endif  // GE_SRC_BASE_HOST_MEMORY_H_
