// oneDNN pieces the kernel-library wrappers share (dnnl_conv.cc, dnnl_matmul.cc); included only
// by them, so dnnl.hpp stays out of every other translation unit.
#ifndef GE_SRC_OPS_DNNL_COMMON_H_
#define GE_SRC_OPS_DNNL_COMMON_H_

#include <dnnl.hpp>
#include <unordered_map>

#include "ops/dnnl_conv.h"

namespace ge::ops_util {

dnnl::engine& Engine();
// The calling thread's stream; oneDNN runs single-threaded on it (the device's cores are the
// parallelism). Call before creating primitives too: they plan their thread count at creation.
dnnl::stream& ThreadStream();
// A primitive block's execution arguments, made once per thread (keyed by the block) and rebound
// to each run's pointers with set_data_handle: creating memory objects and the argument map on
// every call cost ~15% of a small model.
struct BoundArgs {
  std::unordered_map<int, dnnl::memory> args;
  dnnl::memory *src, *weights, *bias, *dst, *scratch;  // bias null when absent
};
BoundArgs& BindArgs(const void* key, const dnnl::memory::desc& src, const dnnl::memory::desc& weights,
                    const dnnl::memory::desc* bias, const dnnl::memory::desc& dst, const dnnl::memory::desc& scratch);
// The calling thread's scratchpad, at least `bytes` long.
void* ThreadScratch(size_t bytes);

// The fused activation as eltwise post-ops.
void AppendAct(ConvAct act, float a0, float a1, dnnl::post_ops* po);

}  // namespace ge::ops_util

#endif  // GE_SRC_OPS_DNNL_COMMON_H_
