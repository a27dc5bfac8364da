// The single-op API's value types (Ascend aclnn "acl_meta"): tensors (views on device memory),
// scalars, arrays and lists, the op executor handle, and their create/destroy functions.
// C ABI; no function throws. Failures return null / an error code and set aclGetRecentErrMsg().
#ifndef GE_INCLUDE_ACLNN_ACL_META_H_
#define GE_INCLUDE_ACLNN_ACL_META_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"
#include "acl/acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int32_t aclnnStatus;
#define ACLNN_SUCCESS 0
#define ACLNN_ERR_PARAM_NULLPTR 161001
#define ACLNN_ERR_PARAM_INVALID 161002
#define ACLNN_ERR_RUNTIME_ERROR 361001
#define ACLNN_ERR_INNER 561000
#define ACLNN_ERR_INNER_NULLPTR 561103

// aclDataType (ACL_FLOAT16, ACL_BF16, ...): acl/acl_base.h. aclFormat has the same values as
// ge::Format. GE's kernels read ND-style layouts: a tensor in a private Ascend format
// (NC1HWC0, FRACTAL_*) is accepted and described, and a kernel that needs ND rejects it.
typedef enum aclFormat {
  ACL_FORMAT_UNDEFINED = -1,
  ACL_FORMAT_NCHW = 0,
  ACL_FORMAT_NHWC = 1,
  ACL_FORMAT_ND = 2,
  ACL_FORMAT_NC1HWC0 = 3,
  ACL_FORMAT_FRACTAL_Z = 4,
  ACL_FORMAT_NC1HWC0_C04 = 12,
  ACL_FORMAT_HWCN = 16,
  ACL_FORMAT_NDHWC = 27,
  ACL_FORMAT_FRACTAL_NZ = 29,
  ACL_FORMAT_NCDHW = 30,
  ACL_FORMAT_NDC1HWC0 = 32,
  ACL_FRACTAL_Z_3D = 33,
  ACL_FORMAT_NC = 35,
  ACL_FORMAT_NCL = 47,
} aclFormat;

typedef struct aclTensor aclTensor;
typedef struct aclScalar aclScalar;
typedef struct aclIntArray aclIntArray;
typedef struct aclFloatArray aclFloatArray;
typedef struct aclBoolArray aclBoolArray;
typedef struct aclTensorList aclTensorList;
typedef struct aclScalarList aclScalarList;
typedef struct aclOpExecutor aclOpExecutor;

// A view of `viewDimsNum` dims with per-dim `stride` (elements) starting `offset` elements into
// the storage at `data` (device memory of `storageDims`). stride null = contiguous.
aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t* stride,
                           int64_t offset, aclFormat format, const int64_t* storageDims, uint64_t storageDimsNum,
                           void* tensorData);
aclScalar* aclCreateScalar(void* value, aclDataType dataType);
aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size);
aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size);
aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size);
// Lists keep pointers to their elements; they do not own them. An element may be null (an
// absent optional input in the generic entry).
aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size);
aclScalarList* aclCreateScalarList(const aclScalar* const* value, uint64_t size);

aclnnStatus aclDestroyTensor(const aclTensor* tensor);
aclnnStatus aclDestroyScalar(const aclScalar* scalar);
aclnnStatus aclDestroyIntArray(const aclIntArray* array);
aclnnStatus aclDestroyFloatArray(const aclFloatArray* array);
aclnnStatus aclDestroyBoolArray(const aclBoolArray* array);
aclnnStatus aclDestroyTensorList(const aclTensorList* array);
aclnnStatus aclDestroyScalarList(const aclScalarList* array);

aclnnStatus aclGetViewShape(const aclTensor* tensor, int64_t** viewDims, uint64_t* viewDimsNum);
aclnnStatus aclGetDataType(const aclTensor* tensor, aclDataType* dataType);
// The storage dims (`*storageDims` is allocated with new[]: the caller delete[]s it, as for
// aclGetViewShape), the view's strides in elements (allocated the same way), its offset in
// elements into the storage, and its format.
aclnnStatus aclGetStorageShape(const aclTensor* tensor, int64_t** storageDims, uint64_t* storageDimsNum);
aclnnStatus aclGetViewStrides(const aclTensor* tensor, int64_t** stridesValue, uint64_t* stridesNum);
aclnnStatus aclGetViewOffset(const aclTensor* tensor, int64_t* offset);
aclnnStatus aclGetFormat(const aclTensor* tensor, aclFormat* format);
aclnnStatus aclGetIntArraySize(const aclIntArray* array, uint64_t* size);
aclnnStatus aclGetFloatArraySize(const aclFloatArray* array, uint64_t* size);
aclnnStatus aclGetBoolArraySize(const aclBoolArray* array, uint64_t* size);
aclnnStatus aclGetScalarListSize(const aclScalarList* scalarList, uint64_t* size);
aclnnStatus aclGetTensorListSize(const aclTensorList* tensorList, uint64_t* size);
// GE: element `index` of a tensor list (null when out of range).
const aclTensor* aclGetTensorListItem(const aclTensorList* tensorList, uint64_t index);

// Executors: by default an executor is destroyed by the second phase (aclnnXxx) that runs it.
// A repeatable one may be run again (same addresses) and is destroyed by aclDestroyAclOpExecutor.
aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor* executor);
aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor);

#ifdef __cplusplus
}
#endif

#endif  // GE_INCLUDE_ACLNN_ACL_META_H_
