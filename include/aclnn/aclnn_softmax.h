// aclnnSoftmax: softmax along dim. Multi-kernel: rows with a long axis on few rows are split into partial max/sum,
// combine and normalize passes.
#ifndef GE_INCLUDE_ACLNN_ACLNN_SOFTMAX_H_
#define GE_INCLUDE_ACLNN_ACLNN_SOFTMAX_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor);
aclnnStatus aclnnSoftmax(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // GE_INCLUDE_ACLNN_ACLNN_SOFTMAX_H_
