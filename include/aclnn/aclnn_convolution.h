// aclnnConvolution: N-d convolution (NCHW), runs the registered Conv operator. transposed = true is not supported.
#ifndef GE_INCLUDE_ACLNN_ACLNN_CONVOLUTION_H_
#define GE_INCLUDE_ACLNN_ACLNN_CONVOLUTION_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnConvolutionGetWorkspaceSize(const aclTensor* input, const aclTensor* weight, const aclTensor* bias,
                                             const aclIntArray* stride, const aclIntArray* padding,
                                             const aclIntArray* dilation, bool transposed,
                                             const aclIntArray* outputPadding, int64_t groups, aclTensor* output,
                                             int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnConvolution(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // GE_INCLUDE_ACLNN_ACLNN_CONVOLUTION_H_
