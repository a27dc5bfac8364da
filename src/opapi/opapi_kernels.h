// The single-op API's own device kernels: the pieces multi-kernel operators are assembled from
// (strided copy/pack, scale, split-K partial GEMM, partial-sum reduction, softmax passes) and
// the kernels of operators with no registered kernel yet (LayerNorm). SPMD like every kernel.
#ifndef GE_SRC_OPAPI_OPAPI_KERNELS_H_
#define GE_SRC_OPAPI_OPAPI_KERNELS_H_

#include <cstdint>

#include "acl/acl_rt.h"

namespace ge::opapi {

constexpr int kMaxKernelRank = 8;

// args: src, dst. Copies a strided view into a strided destination (element strides).
struct CopyTiling {
  int32_t elem_size;
  int32_t rank;
  int32_t to_bool;  // 1: bytes to 0 / 1 (a caller's bool tensor may hold any byte; kernels read C++ bool)
  int64_t numel;
  int64_t dims[kMaxKernelRank];
  int64_t src_strides[kMaxKernelRank];
  int64_t dst_strides[kMaxKernelRank];
};
void CopyKernel(const aclrtKernelArgs* args);

// args: in, out. out = in * alpha.
struct ScaleTiling {
  int32_t dtype;
  int64_t numel;
  double alpha;
};
void ScaleKernel(const aclrtKernelArgs* args);

// args: a [m, k], b [k, n], partials [splits, m, n]. Block s computes a[:, ks] @ b[ks, :].
struct SplitKTiling {
  int32_t dtype;
  int64_t m, n, k;
  int64_t splits, chunk;
};
void SplitKGemmKernel(const aclrtKernelArgs* args);

// args: partials [parts, numel], out [numel]. out = sum over parts.
struct ReduceSumTiling {
  int32_t dtype;
  int64_t parts, numel;
};
void ReduceSumKernel(const aclrtKernelArgs* args);

// Softmax over the last axis in three passes for few long rows. stats: double [rows, chunks, 2]
// (chunk max, chunk sum of exp(x - chunk max)); row_stats: double [rows, 2] (max, sum).
struct SoftmaxSplitTiling {
  int32_t dtype;
  int64_t rows, len, chunks, chunk;
};
void SoftmaxPartialKernel(const aclrtKernelArgs* args);    // args: x, stats
void SoftmaxCombineKernel(const aclrtKernelArgs* args);    // args: stats, row_stats
void SoftmaxNormalizeKernel(const aclrtKernelArgs* args);  // args: x, row_stats, y

// args: x, weight|null, bias|null, y, mean|null, rstd|null. Rows of `cols` elements.
struct LayerNormTiling {
  int32_t dtype;
  int64_t rows, cols;
  double eps;
};
void LayerNormKernel(const aclrtKernelArgs* args);

}  // namespace ge::opapi

#endif  // GE_SRC_OPAPI_OPAPI_KERNELS_H_
