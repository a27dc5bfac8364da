// Kernel execution: SPMD blocks over the core pool.
#include "runtime/kernel.h"

#include <cstring>

#include <fmt/format.h>

#include "base/trace.h"
#include "runtime/kernel_error.h"

namespace ge::rt {
namespace {

struct KernelJobCtx {
  aclrtKernelFunc func;
  const aclrtKernelArgs* args;
};

void RunBlock(void* ctx, uint32_t index) {
  auto* k = static_cast<KernelJobCtx*>(ctx);
  aclrtKernelArgs args = *k->args;
  args.blockIdx = index;
  k->func(&args);
}

// The same, recorded on the running core's track.
void RunBlockTraced(void* ctx, uint32_t index) {
  auto* k = static_cast<KernelJobCtx*>(ctx);
  aclrtKernelArgs args = *k->args;
  args.blockIdx = index;
  const auto start = trace::Clock::now();
  k->func(&args);
  const auto end = trace::Clock::now();
  trace::Record(trace::kCoreTrack + trace::CoreIndex(), KernelName(args), start, end,
                fmt::format("{{\"block\":{},\"blocks\":{}}}", index, args.blockDim));
}

}  // namespace

std::string KernelName(const aclrtKernelArgs& args) {
  const auto* tag = static_cast<const KernelErrorTag*>(args.errorSlot);
  return tag && tag->name && tag->name[0] ? std::string(tag->name) : std::string("kernel");
}

void RunKernel(CorePool& pool, aclrtKernelFunc func, const aclrtKernelArgs& args) {
  if (trace::Enabled()) {
    KernelJobCtx ctx{func, &args};
    if (args.blockDim <= 1) {
      RunBlockTraced(&ctx, 0);
      return;
    }
    Job job;
    job.fn = RunBlockTraced;
    job.ctx = &ctx;
    job.count = args.blockDim;
    pool.Run(&job);
    return;
  }
  if (args.blockDim == 1) {
    aclrtKernelArgs one = args;
    one.blockIdx = 0;
    func(&one);
    return;
  }
  KernelJobCtx ctx{func, &args};
  Job job;
  job.fn = RunBlock;
  job.ctx = &ctx;
  job.count = args.blockDim;
  pool.Run(&job);
}

void KernelArgBuffer::Assign(void* const* addrs, uint32_t num_addrs, const void* tiling, uint32_t tiling_size) {
  tiling_offset_ = TilingOffset(num_addrs);
  const size_t total = tiling_offset_ + tiling_size;
  uint8_t* dst = inline_;
  if (total > kInlineBytes) {
    heap_.reset(new uint8_t[total]);  // operator new[] returns 16-byte aligned storage
    dst = heap_.get();
  } else {
    heap_.reset();
  }
  if (num_addrs > 0) std::memcpy(dst, addrs, size_t{num_addrs} * sizeof(void*));
  if (tiling_size > 0) std::memcpy(dst + tiling_offset_, tiling, tiling_size);
}

}  // namespace ge::rt
