// Strided views for data-movement kernels (Transpose, Slice, Expand, Tile, DepthToSpace, ...):
// the output is a row-major walk over a view of input 0 with arbitrary strides, and one kernel
// copies it.
#ifndef GE_SRC_KERNELS_STRIDED_VIEW_H_
#define GE_SRC_KERNELS_STRIDED_VIEW_H_

#include <cstdint>

#include "acl/acl_rt.h"
#include "exe_graph/runtime/tiling_context.h"
#include "kernels/broadcast.h"

namespace ge::kernels {

// Row-major strides of dims[0..rank).
void ContiguousStrides(const int64_t* dims, int rank, int64_t* strides);

// A strided view for data-movement kernels: out[i] = in[offset + sum(idx_d * strides_d)] where
// idx is i's row-major index in dims. Strides may be 0 (broadcast) or negative (reversal).
struct StridedView {
  int32_t elem_size;
  int32_t rank;
  int64_t numel;
  int64_t offset;
  int64_t dims[kMaxRank];
  int64_t strides[kMaxRank];
};

// Copies out[begin, end) from the view of `in`.
void StridedCopy(const StridedView& v, const void* in, void* out, int64_t begin, int64_t end);
// Merges adjacent dims that are contiguous in both the view and the output (fewer loops).
void CoalesceView(StridedView* v);
// The tiling + kernel of an op whose output is a StridedView of input 0 (Transpose, Slice,
// Expand, Tile, DepthToSpace, ...): writes the view as tiling data, sets the block dim.
ge::graphStatus SetViewTiling(gert::TilingContext* ctx, StridedView v);
void StridedViewKernel(const aclrtKernelArgs* args);

}  // namespace ge::kernels

#endif  // GE_SRC_KERNELS_STRIDED_VIEW_H_
