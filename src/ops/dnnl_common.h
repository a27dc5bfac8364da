// oneDNN pieces the kernel-library wrappers share (dnnl_conv.cc, dnnl_matmul.cc); included only
// by them, so dnnl.hpp stays out of every other translation unit.
#ifndef GE_SRC_OPS_DNNL_COMMON_H_
#define GE_SRC_OPS_DNNL_COMMON_H_

#include <dnnl.hpp>

#include "ops/dnnl_conv.h"

namespace ge::ops_util {

dnnl::engine& Engine();
// The calling thread's stream; oneDNN runs single-threaded on it (the device's cores are the
// parallelism). Call before creating primitives too: they plan their thread count at creation.
dnnl::stream& ThreadStream();
// The fused activation as eltwise post-ops.
void AppendAct(ConvAct act, float a0, float a1, dnnl::post_ops* po);

}  // namespace ge::ops_util

#endif  // GE_SRC_OPS_DNNL_COMMON_H_
