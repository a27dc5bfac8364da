// aclnnMatmul: out = self @ mat2 (numpy matmul). Multi-kernel: a pack kernel per non-contiguous operand, split-K
// partial GEMMs + a reduction when K is large against M x N, else one GEMM. cubeMathType is accepted and ignored (no
// reduced-precision modes on this device).
#ifndef GE_INCLUDE_ACLNN_ACLNN_MATMUL_H_
#define GE_INCLUDE_ACLNN_ACLNN_MATMUL_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out,
                                        int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnMatmul(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // GE_INCLUDE_ACLNN_ACLNN_MATMUL_H_
