// SPMD launch helpers: how a kernel's work splits over its blocks, how many blocks a tiling
// function asks for, and the POD tiling data that travels from tiling to kernel.
#ifndef GE_SRC_KERNELS_BLOCK_RANGE_H_
#define GE_SRC_KERNELS_BLOCK_RANGE_H_

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "acl/acl_rt.h"
#include "exe_graph/runtime/tiling_context.h"

namespace ge::kernels {

// [begin, end) of `total` items for block `idx` of `dim` blocks: contiguous, total / dim each,
// the remainder one more each to the blocks at both ends, alternately (front first). Core threads
// take blocks from both ends (runtime/core_pool.cc), so the extras split evenly between two cores:
// 14 rows in 4 blocks are 4,3,3,4, 7 rows a core, where 4,4,3,3 gave one core 8 and the other 6
// and left it idle for a seventh of every such node (mobilenet_v2's 14x14 convolutions at 2 threads).
inline void BlockRange(int64_t total, uint32_t idx, uint32_t dim, int64_t* begin, int64_t* end) {
  if (dim == 1) {  // the common launch: no 64-bit division on the per-kernel path
    *begin = 0;
    *end = total;
    return;
  }
  const int64_t per = total / dim, rem = total % dim, i = idx;
  const int64_t front = (rem + 1) / 2, back_from = static_cast<int64_t>(dim) - rem / 2;
  *begin = i * per + std::min<int64_t>(i, front) + std::max<int64_t>(0, i - back_from);
  *end = *begin + per + (i < front || i >= back_from ? 1 : 0);
}

// Product of dims[0..rank): a kernel's element count from the dims in its tiling data.
inline int64_t NumElements(const int64_t* dims, int rank) {
  int64_t n = 1;
  for (int d = 0; d < rank; ++d) n *= dims[d];
  return n;
}

// Blocks for `work` units of roughly `min_per_block` each, at most `core_num` (tiling functions:
// ChooseBlockDim with the context's core count).
uint32_t BlocksFor(int64_t work, int64_t min_per_block, int64_t core_num);
inline uint32_t ChooseBlockDim(const gert::TilingContext* ctx, int64_t work, int64_t min_per_block) {
  return BlocksFor(work, min_per_block, ctx->GetCoreNum());
}

// Writes a POD tiling struct; fails when it does not fit.
template <typename T>
ge::graphStatus SetTiling(gert::TilingContext* ctx, const T& t) {
  T* dst = ctx->GetTilingData<T>();
  if (dst == nullptr) return ge::GRAPH_FAILED;
  std::memcpy(dst, &t, sizeof(T));
  return ge::GRAPH_SUCCESS;
}
// The kernel's view of the tiling struct its tiling function wrote.
template <typename T>
const T& GetTiling(const aclrtKernelArgs* args) {
  return *static_cast<const T*>(args->tiling);
}

}  // namespace ge::kernels

#endif  // GE_SRC_KERNELS_BLOCK_RANGE_H_
