// aclnnCat: concatenates tensors along dim.
#ifndef GE_INCLUDE_ACLNN_ACLNN_CAT_H_
#define GE_INCLUDE_ACLNN_ACLNN_CAT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnCatGetWorkspaceSize(const aclTensorList* tensors, int64_t dim, aclTensor* out, uint64_t* workspaceSize,
                                     aclOpExecutor** executor);
aclnnStatus aclnnCat(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // GE_INCLUDE_ACLNN_ACLNN_CAT_H_
