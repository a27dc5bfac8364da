// Error codes and the per-thread error message shared by the aclrt* and aclnn* C APIs.
#ifndef GE_INCLUDE_ACL_ACL_BASE_H_
#define GE_INCLUDE_ACL_ACL_BASE_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int aclError;

#define ACL_SUCCESS 0
#define ACL_ERROR_INVALID_PARAM 100000
#define ACL_ERROR_UNINITIALIZE 100001
#define ACL_ERROR_REPEAT_INITIALIZE 100002
#define ACL_ERROR_INVALID_FILE 100003
#define ACL_ERROR_UNSUPPORTED_DATA_TYPE 100019
#define ACL_ERROR_STORAGE_OVER_LIMIT 100029
#define ACL_ERROR_BAD_ALLOC 200000
#define ACL_ERROR_RT_PARAM_INVALID 107000
#define ACL_ERROR_RT_CONTEXT_NULL 107002
#define ACL_ERROR_RT_STREAM_CONTEXT 107003
#define ACL_ERROR_RT_MODEL_CONTEXT 107004
#define ACL_ERROR_RT_STREAM_TASK_FULL 107005
#define ACL_ERROR_RT_FEATURE_NOT_SUPPORT 207000
#define ACL_ERROR_RT_MEMORY_ALLOCATION 207001
#define ACL_ERROR_RT_MEMORY_FREE 207002
#define ACL_ERROR_RT_STREAM_SYNC_TIMEOUT 107022
#define ACL_ERROR_RT_INTERNAL_ERROR 507899
// A kernel found its input data invalid (an index out of range, ...) and reported it with
// aclrtReportKernelError; the message names the launch (node), the input and the value.
#define ACL_ERROR_RT_KERNEL_DATA 507015

// The message of the most recent failure on this thread ("" if none). Valid until the next
// failing call on this thread.
const char* aclGetRecentErrMsg(void);

#ifdef __cplusplus
}
#endif

#endif  // GE_INCLUDE_ACL_ACL_BASE_H_
