// The model C API (Ascend's acl/acl_mdl.h): load a model (an ONNX file or bytes; a compiled .gem
// once the offline format lands, detected by its contents), describe its inputs and outputs, and
// execute it on datasets of caller-owned device buffers (aclrtMalloc), synchronously or on a
// stream. Implemented over ge::Model (src/api/acl_mdl.cc).
//
// Model ids come from a process-wide, thread-safe registry; several threads may execute one
// model at once, each with its own datasets. No function crashes on a bad argument: a null
// pointer, an unknown model id, an index out of range, a wrong number of buffers or a buffer
// smaller than its tensor returns an error code (functions returning a size return 0, those
// returning a pointer null) and sets aclGetRecentErrMsg().
#ifndef GE_INCLUDE_ACL_ACL_MDL_H_
#define GE_INCLUDE_ACL_ACL_MDL_H_

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"
#include "acl/acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_MAX_DIM_CNT 128
#define ACL_MAX_TENSOR_NAME_LEN 128

typedef struct aclmdlDataset aclmdlDataset;
typedef struct aclmdlDesc aclmdlDesc;

// A model input's or output's name and dims (-1 for a dimension only known at run time).
typedef struct aclmdlIODims {
  char name[ACL_MAX_TENSOR_NAME_LEN];  // truncated to ACL_MAX_TENSOR_NAME_LEN - 1 bytes
  size_t dimCount;
  int64_t dims[ACL_MAX_DIM_CNT];
} aclmdlIODims;

// ---- loading ------------------------------------------------------------------------------
// Parses, compiles and loads the model; *modelId names it until aclmdlUnload. A missing or
// unreadable file is ACL_ERROR_READ_MODEL_FAILURE, a file that is not a valid model (or a model
// the engine cannot compile) ACL_ERROR_PARSE_MODEL, with the reason in aclGetRecentErrMsg().
aclError aclmdlLoadFromFile(const char* modelPath, uint32_t* modelId);
// The same from a model held in host memory (copied; the caller may free it on return).
aclError aclmdlLoadFromMem(const void* model, size_t modelSize, uint32_t* modelId);
// As aclmdlLoadFromFile / aclmdlLoadFromMem. The engine plans and owns its working and weight
// memory, so workPtr/weightPtr are not used: each must be null with size 0, or non-null with a
// size > 0 (checked, then ignored); a pointer with size 0 or a size without a pointer is
// ACL_ERROR_INVALID_PARAM.
aclError aclmdlLoadFromFileWithMem(const char* modelPath, uint32_t* modelId, void* workPtr, size_t workSize,
                                   void* weightPtr, size_t weightSize);
aclError aclmdlLoadFromMemWithMem(const void* model, size_t modelSize, uint32_t* modelId, void* workPtr,
                                  size_t workSize, void* weightPtr, size_t weightSize);
// Waits for the model's pending asynchronous executions, then frees it; the id becomes unknown.
aclError aclmdlUnload(uint32_t modelId);

// ---- execution ----------------------------------------------------------------------------
// input/output hold one buffer per model input/output, in order, each at least the tensor's
// bytes (aclmdlGetInputSizeByIndex). Inputs and outputs must have static shapes. Otherwise
// ACL_ERROR_MODEL_INPUT_NOT_MATCH / ACL_ERROR_MODEL_OUTPUT_NOT_MATCH naming the buffer.
aclError aclmdlExecute(uint32_t modelId, const aclmdlDataset* input, aclmdlDataset* output);
// Checks its arguments, then enqueues the execution on `stream` (null: the default stream) and
// returns: it runs after the work enqueued on the stream before it, work enqueued later waits
// for it, and an error it hits is returned by the next aclrtSynchronizeStream. The datasets'
// buffer addresses are read at the call (the datasets may be destroyed on return); the memory
// they point to must stay valid until the stream has run the execution.
aclError aclmdlExecuteAsync(uint32_t modelId, const aclmdlDataset* input, aclmdlDataset* output, aclrtStream stream);

// ---- description --------------------------------------------------------------------------
aclmdlDesc* aclmdlCreateDesc(void);
aclError aclmdlDestroyDesc(aclmdlDesc* modelDesc);
// Fills the description of a loaded model.
aclError aclmdlGetDesc(aclmdlDesc* modelDesc, uint32_t modelId);
size_t aclmdlGetNumInputs(aclmdlDesc* modelDesc);
size_t aclmdlGetNumOutputs(aclmdlDesc* modelDesc);
// Bytes of the tensor (0 for a dynamic shape, a bad index or a null desc).
size_t aclmdlGetInputSizeByIndex(aclmdlDesc* modelDesc, size_t index);
size_t aclmdlGetOutputSizeByIndex(aclmdlDesc* modelDesc, size_t index);
aclError aclmdlGetInputDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims);
aclError aclmdlGetOutputDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims);
// Valid while the desc lives and is not refilled; null for a bad index.
const char* aclmdlGetInputNameByIndex(const aclmdlDesc* modelDesc, size_t index);
const char* aclmdlGetOutputNameByIndex(const aclmdlDesc* modelDesc, size_t index);
// ACL_DT_UNDEFINED for a bad index.
aclDataType aclmdlGetInputDataType(const aclmdlDesc* modelDesc, size_t index);
aclDataType aclmdlGetOutputDataType(const aclmdlDesc* modelDesc, size_t index);
// The index of the input/output with this name.
aclError aclmdlGetInputIndexByName(const aclmdlDesc* modelDesc, const char* name, size_t* index);
aclError aclmdlGetOutputIndexByName(const aclmdlDesc* modelDesc, const char* name, size_t* index);

// ---- datasets -----------------------------------------------------------------------------
// A list of data buffers (not owned: destroying the dataset does not destroy its buffers).
aclmdlDataset* aclmdlCreateDataset(void);
aclError aclmdlDestroyDataset(const aclmdlDataset* dataset);
aclError aclmdlAddDatasetBuffer(aclmdlDataset* dataset, aclDataBuffer* dataBuffer);
size_t aclmdlGetDatasetNumBuffers(const aclmdlDataset* dataset);
// Null for a bad index.
aclDataBuffer* aclmdlGetDatasetBuffer(const aclmdlDataset* dataset, size_t index);

#ifdef __cplusplus
}
#endif

#endif  // GE_INCLUDE_ACL_ACL_MDL_H_
