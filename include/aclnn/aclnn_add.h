// aclnnAdd: out = self + alpha * other (broadcasting).
#ifndef GE_INCLUDE_ACLNN_ACLNN_ADD_H_
#define GE_INCLUDE_ACLNN_ACLNN_ADD_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor* self, const aclTensor* other, const aclScalar* alpha,
                                     aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnAdd(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // GE_INCLUDE_ACLNN_ACLNN_ADD_H_
