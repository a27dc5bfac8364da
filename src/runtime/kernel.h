// Running a kernel launch: one block inline, or its blocks SPMD over the core threads. Also the
// storage that copies a launch's addrs and tiling (inline when small, no allocation).
#ifndef GE_SRC_RUNTIME_KERNEL_H_
#define GE_SRC_RUNTIME_KERNEL_H_

#include <cstdint>
#include <memory>
#include <string>

#include "acl/acl_rt.h"
#include "runtime/core_pool.h"

namespace ge::rt {

// Runs `func` for blocks 0..args.blockDim-1; args.blockIdx is ignored. blockDim == 1 runs on the
// calling thread; otherwise the caller and the core threads share the blocks.
// Traced (base/trace.h), each block is an event on its core's track.
void RunKernel(CorePool& pool, aclrtKernelFunc func, const aclrtKernelArgs& args);
// The launch's name (its error tag's), "kernel" when it has none.
std::string KernelName(const aclrtKernelArgs& args);

// A copy of a launch's addrs and tiling. Tiling starts 16-byte aligned.
class KernelArgBuffer {
 public:
  void Assign(void* const* addrs, uint32_t num_addrs, const void* tiling, uint32_t tiling_size);
  void* const* addrs() const { return reinterpret_cast<void* const*>(data()); }
  const void* tiling() const { return data() + tiling_offset_; }

  // Bytes needed for a launch's addrs and tiling, tiling 16-byte aligned.
  static size_t TilingOffset(uint32_t num_addrs) { return (size_t{num_addrs} * sizeof(void*) + 15) & ~size_t{15}; }

 private:
  static constexpr size_t kInlineBytes = 512;  // fits the broadcast tilings (rank-8 strides)
  const uint8_t* data() const { return heap_ ? heap_.get() : inline_; }
  alignas(16) uint8_t inline_[kInlineBytes];
  std::unique_ptr<uint8_t[]> heap_;
  size_t tiling_offset_ = 0;
};

}  // namespace ge::rt

#endif  // GE_SRC_RUNTIME_KERNEL_H_
