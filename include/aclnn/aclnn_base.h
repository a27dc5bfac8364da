// The generic single-op entry (any registered operator by type, GE extension) and executor
// introspection used by tests and tools.
#ifndef GE_INCLUDE_ACLNN_ACLNN_BASE_H_
#define GE_INCLUDE_ACLNN_ACLNN_BASE_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

// Attributes by name for the generic entry; unset ones take the OpDef's defaults.
typedef struct aclOpAttrs aclOpAttrs;
aclOpAttrs* aclCreateOpAttrs(void);
aclnnStatus aclDestroyOpAttrs(const aclOpAttrs* attrs);
aclnnStatus aclOpAttrsSetInt(aclOpAttrs* attrs, const char* name, int64_t value);
aclnnStatus aclOpAttrsSetFloat(aclOpAttrs* attrs, const char* name, float value);
aclnnStatus aclOpAttrsSetBool(aclOpAttrs* attrs, const char* name, bool value);
aclnnStatus aclOpAttrsSetString(aclOpAttrs* attrs, const char* name, const char* value);
aclnnStatus aclOpAttrsSetIntArray(aclOpAttrs* attrs, const char* name, const aclIntArray* value);
aclnnStatus aclOpAttrsSetFloatArray(aclOpAttrs* attrs, const char* name, const aclFloatArray* value);
aclnnStatus aclOpAttrsSetBoolArray(aclOpAttrs* attrs, const char* name, const aclBoolArray* value);

// Any registered operator: `inputs` by instance (null element = absent optional input, dynamic
// inputs flattened in place), `outputs` by instance, `attrs` may be null.
aclnnStatus aclnnOpGetWorkspaceSize(const char* opType, const aclTensorList* inputs, const aclTensorList* outputs,
                                    const aclOpAttrs* attrs, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnOp(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

// GE: kernels the executor holds (before running) / launched by its last run.
aclnnStatus aclnnGetPlannedKernelCount(const aclOpExecutor* executor, uint64_t* count);
aclnnStatus aclnnGetLaunchedKernelCount(const aclOpExecutor* executor, uint64_t* count);
// GE: the names of the executor's kernels, comma separated ("pack,gemm,reduce_sum").
const char* aclnnGetKernelNames(const aclOpExecutor* executor);

#ifdef __cplusplus
}
#endif

#endif  // GE_INCLUDE_ACLNN_ACLNN_BASE_H_
