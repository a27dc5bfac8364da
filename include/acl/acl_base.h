// Error codes, data types, fp16 and data buffers, and the per-thread error message shared by the
// aclrt*, aclmdl* and aclnn* C APIs (Ascend's acl/acl_base.h).
#ifndef GE_INCLUDE_ACL_ACL_BASE_H_
#define GE_INCLUDE_ACL_ACL_BASE_H_

#include <stddef.h>
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
#define ACL_ERROR_INVALID_FILE_SIZE 100005
#define ACL_ERROR_INVALID_MODEL_ID 100011
#define ACL_ERROR_PARSE_MODEL 100013
#define ACL_ERROR_READ_MODEL_FAILURE 100014
#define ACL_ERROR_MODEL_SIZE_INVALID 100015
#define ACL_ERROR_MODEL_INPUT_NOT_MATCH 100017
#define ACL_ERROR_MODEL_OUTPUT_NOT_MATCH 100018
#define ACL_ERROR_UNSUPPORTED_DATA_TYPE 100019
#define ACL_ERROR_STORAGE_OVER_LIMIT 100029
#define ACL_ERROR_BAD_ALLOC 200000
#define ACL_ERROR_API_NOT_SUPPORT 200001
#define ACL_ERROR_FEATURE_UNSUPPORTED 200006
#define ACL_ERROR_INTERNAL_ERROR 500000
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

// Element types of tensors and model inputs/outputs: the same values as ge::DataType.
typedef enum aclDataType {
  ACL_DT_UNDEFINED = -1,
  ACL_FLOAT = 0,
  ACL_FLOAT16 = 1,
  ACL_INT8 = 2,
  ACL_INT32 = 3,
  ACL_UINT8 = 4,
  ACL_INT16 = 6,
  ACL_UINT16 = 7,
  ACL_UINT32 = 8,
  ACL_INT64 = 9,
  ACL_UINT64 = 10,
  ACL_DOUBLE = 11,
  ACL_BOOL = 12,
  ACL_STRING = 13,
  ACL_COMPLEX64 = 16,
  ACL_COMPLEX128 = 17,
  ACL_BF16 = 27,
} aclDataType;

// Bytes per element; 0 for ACL_DT_UNDEFINED or an unknown value.
size_t aclDataTypeSize(aclDataType dataType);

// IEEE 754 half precision, stored as its bits. Conversions round to nearest even.
typedef uint16_t aclFloat16;
aclFloat16 aclFloatToFloat16(float value);
float aclFloat16ToFloat(aclFloat16 value);

// A caller-owned memory region (device memory from aclrtMalloc for model inputs/outputs): the
// buffer records the address and size, it never owns or frees the memory.
typedef struct aclDataBuffer aclDataBuffer;
// Null when out of host memory. data may be null only with size 0.
aclDataBuffer* aclCreateDataBuffer(void* data, size_t size);
aclError aclDestroyDataBuffer(const aclDataBuffer* dataBuffer);
// Null / 0 for a null buffer.
void* aclGetDataBufferAddr(const aclDataBuffer* dataBuffer);
size_t aclGetDataBufferSizeV2(const aclDataBuffer* dataBuffer);
// Points an existing buffer at another region.
aclError aclUpdateDataBuffer(aclDataBuffer* dataBuffer, void* data, size_t size);

// The message of the most recent failure on this thread ("" if none). Valid until the next
// failing call on this thread.
const char* aclGetRecentErrMsg(void);

#ifdef __cplusplus
}
#endif

#endif  // GE_INCLUDE_ACL_ACL_BASE_H_
