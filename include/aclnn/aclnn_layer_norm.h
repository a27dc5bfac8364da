// aclnnLayerNorm: normalizes over the trailing normalizedShape dims; weight, bias, meanOut and rstdOut are optional
// (null).
#ifndef GE_INCLUDE_ACLNN_ACLNN_LAYER_NORM_H_
#define GE_INCLUDE_ACLNN_ACLNN_LAYER_NORM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnLayerNormGetWorkspaceSize(const aclTensor* input, const aclIntArray* normalizedShape,
                                           const aclTensor* weightOptional, const aclTensor* biasOptional, double eps,
                                           aclTensor* out, aclTensor* meanOutOptional, aclTensor* rstdOutOptional,
                                           uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnLayerNorm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // GE_INCLUDE_ACLNN_ACLNN_LAYER_NORM_H_
