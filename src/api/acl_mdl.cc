// The acl model API (include/acl/acl_mdl.h) and the acl_base.h helpers it needs (data buffers,
// fp16, data type sizes) over ge::Model: a process-wide registry maps model ids to loaded models.
// Every entry point checks its arguments and catches exceptions; failures set the recent error
// message (base/error_message.h) and return an ACL code.
#include <fmt/format.h>

#include <condition_variable>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "api/model.h"
#include "base/error_message.h"
#include "base/log.h"
#include "kernels/float16.h"

struct aclDataBuffer {
  void* data = nullptr;
  size_t size = 0;
};

struct aclmdlDataset {
  std::vector<aclDataBuffer*> buffers;
};

struct aclmdlDesc {
  std::vector<ge::TensorInfo> inputs;
  std::vector<ge::TensorInfo> outputs;
};

namespace {

// A loaded model. Shared with the asynchronous executions still queued on streams, so unloading
// never frees a model a stream is about to run.
struct LoadedModel {
  std::unique_ptr<ge::Model> model;
  std::vector<ge::TensorInfo> inputs;
  std::vector<ge::TensorInfo> outputs;
  std::mutex pending_mu;
  std::condition_variable pending_cv;
  int pending = 0;  // asynchronous executions enqueued and not yet run
};

class Registry {
 public:
  static Registry& Get() {
    static Registry* r = new Registry();  // never destroyed: streams may run work at exit
    return *r;
  }
  uint32_t Add(std::shared_ptr<LoadedModel> m) {
    std::lock_guard<std::mutex> lk(mu_);
    uint32_t id = next_id_++;
    if (next_id_ == 0) next_id_ = 1;  // ids wrap after 2^32 loads; 0 is never handed out
    models_[id] = std::move(m);
    return id;
  }
  std::shared_ptr<LoadedModel> Find(uint32_t id) {
    std::lock_guard<std::mutex> lk(mu_);
    auto it = models_.find(id);
    return it == models_.end() ? nullptr : it->second;
  }
  std::shared_ptr<LoadedModel> Remove(uint32_t id) {
    std::lock_guard<std::mutex> lk(mu_);
    auto it = models_.find(id);
    if (it == models_.end()) return nullptr;
    auto m = std::move(it->second);
    models_.erase(it);
    return m;
  }

 private:
  std::mutex mu_;
  uint32_t next_id_ = 1;
  std::map<uint32_t, std::shared_ptr<LoadedModel>> models_;
};

aclError Fail(aclError code, std::string msg) {
  GELOGD("{}", msg);
  ge::SetRecentErrMsg(std::move(msg));
  return code;
}

template <typename Body>
aclError Guard(const char* api, Body&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return Fail(ACL_ERROR_BAD_ALLOC, fmt::format("{}: out of host memory", api));
  } catch (const std::exception& e) {
    return Fail(ACL_ERROR_INTERNAL_ERROR, fmt::format("{}: internal error: {}", api, e.what()));
  } catch (...) {
    return Fail(ACL_ERROR_INTERNAL_ERROR, fmt::format("{}: internal error", api));
  }
}

aclError LoadStatusToAcl(const char* api, const ge::Status& st) {
  const aclError code = st.code() == ge::Status::kOutOfMemory ? ACL_ERROR_BAD_ALLOC : ACL_ERROR_PARSE_MODEL;
  return Fail(code, fmt::format("{}: {}", api, st.message()));
}

aclError Register(std::unique_ptr<ge::Model> model, uint32_t* modelId) {
  auto m = std::make_shared<LoadedModel>();
  m->inputs = model->inputs();
  m->outputs = model->outputs();
  m->model = std::move(model);
  *modelId = Registry::Get().Add(std::move(m));
  return ACL_SUCCESS;
}

aclError CheckWithMem(const char* api, void* workPtr, size_t workSize, void* weightPtr, size_t weightSize) {
  if ((workPtr == nullptr) != (workSize == 0))
    return Fail(ACL_ERROR_INVALID_PARAM,
                fmt::format("{}: workPtr {} with workSize {} (give both or neither)", api, workPtr, workSize));
  if ((weightPtr == nullptr) != (weightSize == 0))
    return Fail(ACL_ERROR_INVALID_PARAM,
                fmt::format("{}: weightPtr {} with weightSize {} (give both or neither)", api, weightPtr, weightSize));
  return ACL_SUCCESS;
}

aclError LoadFile(const char* api, const char* modelPath, uint32_t* modelId) {
  if (modelPath == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, fmt::format("{}: modelPath is null", api));
  if (modelId == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, fmt::format("{}: modelId is null", api));
  return Guard(api, [&]() -> aclError {
    {
      std::ifstream f(modelPath, std::ios::binary);
      if (!f) return Fail(ACL_ERROR_READ_MODEL_FAILURE, fmt::format("{}: cannot open '{}'", api, modelPath));
    }
    std::unique_ptr<ge::Model> model;
    ge::Status st = ge::Model::Load(modelPath, ge::ModelOptions(), &model);
    if (!st.ok()) return LoadStatusToAcl(api, st);
    return Register(std::move(model), modelId);
  });
}

aclError LoadMem(const char* api, const void* data, size_t size, uint32_t* modelId) {
  if (data == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, fmt::format("{}: model is null", api));
  if (size == 0) return Fail(ACL_ERROR_MODEL_SIZE_INVALID, fmt::format("{}: modelSize is 0", api));
  if (modelId == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, fmt::format("{}: modelId is null", api));
  return Guard(api, [&]() -> aclError {
    std::unique_ptr<ge::Model> model;
    ge::Status st = ge::Model::LoadFromMemory(data, size, ge::ModelOptions(), &model);
    if (!st.ok()) return LoadStatusToAcl(api, st);
    return Register(std::move(model), modelId);
  });
}

size_t TensorBytes(const ge::TensorDesc& d) {
  if (!d.shape.IsStatic()) return 0;
  return static_cast<size_t>(d.shape.GetShapeSize()) * ge::GetSizeByDataType(d.dtype);
}

// The dataset's buffers as DeviceBuffers, checked against the model's tensors.
aclError CollectBuffers(const char* api, const char* what, const aclmdlDataset* ds,
                        const std::vector<ge::TensorInfo>& infos, aclError mismatch,
                        std::vector<ge::DeviceBuffer>* out) {
  if (ds == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, fmt::format("{}: {} dataset is null", api, what));
  if (ds->buffers.size() != infos.size())
    return Fail(mismatch, fmt::format("{}: the {} dataset has {} buffers, the model has {} {}s", api, what,
                                      ds->buffers.size(), infos.size(), what));
  out->clear();
  for (size_t i = 0; i < infos.size(); ++i) {
    const aclDataBuffer* b = ds->buffers[i];
    const ge::TensorDesc& d = infos[i].desc;
    if (!d.shape.IsStatic())
      return Fail(mismatch, fmt::format("{}: {} {} '{}' has a dynamic shape ({}); only static shapes can run here", api,
                                        what, i, infos[i].name, d.ToString()));
    const size_t need = TensorBytes(d);
    if (b == nullptr)
      return Fail(ACL_ERROR_INVALID_PARAM, fmt::format("{}: {} buffer {} ('{}') is null", api, what, i, infos[i].name));
    if (b->size < need || (need > 0 && b->data == nullptr))
      return Fail(mismatch, fmt::format("{}: {} buffer {} ('{}', {}) holds {} bytes at {}, the tensor needs {}", api,
                                        what, i, infos[i].name, d.ToString(), b->size, b->data, need));
    out->push_back({b->data, b->size});
  }
  return ACL_SUCCESS;
}

aclError RunModel(const char* api, LoadedModel& m, const std::vector<ge::DeviceBuffer>& in,
                  const std::vector<ge::DeviceBuffer>& out) {
  ge::Status st = m.model->RunWithDeviceBuffers(in, out);
  if (st.ok()) return ACL_SUCCESS;
  const aclError code = st.code() == ge::Status::kOutOfMemory       ? ACL_ERROR_BAD_ALLOC
                        : st.code() == ge::Status::kInvalidArgument ? ACL_ERROR_INVALID_PARAM
                                                                    : ACL_ERROR_INTERNAL_ERROR;
  return Fail(code, fmt::format("{}: {}", api, st.message()));
}

struct AsyncExecution {
  std::shared_ptr<LoadedModel> model;
  std::vector<ge::DeviceBuffer> inputs, outputs;
};

aclError RunAsyncExecution(void* user) {
  std::unique_ptr<AsyncExecution> job(static_cast<AsyncExecution*>(user));
  aclError ret = Guard("aclmdlExecuteAsync",
                       [&] { return RunModel("aclmdlExecuteAsync", *job->model, job->inputs, job->outputs); });
  {
    std::lock_guard<std::mutex> lk(job->model->pending_mu);
    --job->model->pending;
  }
  job->model->pending_cv.notify_all();
  return ret;
}

const ge::TensorInfo* DescEntry(const char* api, const aclmdlDesc* desc, bool input, size_t index) {
  if (desc == nullptr) {
    Fail(ACL_ERROR_INVALID_PARAM, fmt::format("{}: modelDesc is null", api));
    return nullptr;
  }
  const auto& v = input ? desc->inputs : desc->outputs;
  if (index >= v.size()) {
    Fail(ACL_ERROR_INVALID_PARAM, fmt::format("{}: index {} out of range (the model has {} {}s)", api, index, v.size(),
                                              input ? "input" : "output"));
    return nullptr;
  }
  return &v[index];
}

aclError GetDims(const char* api, const aclmdlDesc* desc, bool input, size_t index, aclmdlIODims* dims) {
  if (dims == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, fmt::format("{}: dims is null", api));
  const ge::TensorInfo* t = DescEntry(api, desc, input, index);
  if (t == nullptr) return ACL_ERROR_INVALID_PARAM;
  const ge::Shape& s = t->desc.shape;
  if (s.IsUnknownRank())
    return Fail(ACL_ERROR_FEATURE_UNSUPPORTED, fmt::format("{}: '{}' has an unknown rank", api, t->name));
  if (s.GetDimNum() > ACL_MAX_DIM_CNT)
    return Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                fmt::format("{}: '{}' has {} dims (at most {})", api, t->name, s.GetDimNum(), ACL_MAX_DIM_CNT));
  std::memset(dims->name, 0, sizeof(dims->name));
  std::strncpy(dims->name, t->name.c_str(), ACL_MAX_TENSOR_NAME_LEN - 1);
  dims->dimCount = s.GetDimNum();
  for (size_t i = 0; i < s.GetDimNum(); ++i) dims->dims[i] = s.GetDim(i);
  return ACL_SUCCESS;
}

aclError IndexByName(const char* api, const aclmdlDesc* desc, bool input, const char* name, size_t* index) {
  if (desc == nullptr || name == nullptr || index == nullptr)
    return Fail(ACL_ERROR_INVALID_PARAM, fmt::format("{}: modelDesc, name and index must not be null", api));
  const auto& v = input ? desc->inputs : desc->outputs;
  for (size_t i = 0; i < v.size(); ++i)
    if (v[i].name == name) {
      *index = i;
      return ACL_SUCCESS;
    }
  return Fail(ACL_ERROR_INVALID_PARAM,
              fmt::format("{}: the model has no {} named '{}'", api, input ? "input" : "output", name));
}

}  // namespace

extern "C" {

// ---- acl_base.h -----------------------------------------------------------------------------

size_t aclDataTypeSize(aclDataType dataType) {
  int raw = 0;
  std::memcpy(&raw, &dataType, sizeof(raw));
  switch (raw) {
    case ACL_FLOAT:
    case ACL_INT32:
    case ACL_UINT32: return 4;
    case ACL_FLOAT16:
    case ACL_INT16:
    case ACL_UINT16:
    case ACL_BF16: return 2;
    case ACL_INT8:
    case ACL_UINT8:
    case ACL_BOOL: return 1;
    case ACL_INT64:
    case ACL_UINT64:
    case ACL_DOUBLE:
    case ACL_COMPLEX64: return 8;
    case ACL_COMPLEX128: return 16;
    case ACL_STRING: return ge::kStringSlotBytes;
    default: return 0;
  }
}

aclFloat16 aclFloatToFloat16(float value) { return ge::kernels::FloatToHalf(value); }

float aclFloat16ToFloat(aclFloat16 value) { return ge::kernels::HalfToFloat(value); }

aclDataBuffer* aclCreateDataBuffer(void* data, size_t size) {
  if (data == nullptr && size != 0) {
    Fail(ACL_ERROR_INVALID_PARAM, fmt::format("aclCreateDataBuffer: data is null with size {}", size));
    return nullptr;
  }
  aclDataBuffer* b = new (std::nothrow) aclDataBuffer;
  if (b == nullptr) {
    Fail(ACL_ERROR_BAD_ALLOC, "aclCreateDataBuffer: out of host memory");
    return nullptr;
  }
  b->data = data;
  b->size = size;
  return b;
}

aclError aclDestroyDataBuffer(const aclDataBuffer* dataBuffer) {
  if (dataBuffer == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "aclDestroyDataBuffer: dataBuffer is null");
  delete dataBuffer;
  return ACL_SUCCESS;
}

void* aclGetDataBufferAddr(const aclDataBuffer* dataBuffer) {
  if (dataBuffer == nullptr) {
    Fail(ACL_ERROR_INVALID_PARAM, "aclGetDataBufferAddr: dataBuffer is null");
    return nullptr;
  }
  return dataBuffer->data;
}

size_t aclGetDataBufferSizeV2(const aclDataBuffer* dataBuffer) {
  if (dataBuffer == nullptr) {
    Fail(ACL_ERROR_INVALID_PARAM, "aclGetDataBufferSizeV2: dataBuffer is null");
    return 0;
  }
  return dataBuffer->size;
}

aclError aclUpdateDataBuffer(aclDataBuffer* dataBuffer, void* data, size_t size) {
  if (dataBuffer == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "aclUpdateDataBuffer: dataBuffer is null");
  if (data == nullptr && size != 0)
    return Fail(ACL_ERROR_INVALID_PARAM, fmt::format("aclUpdateDataBuffer: data is null with size {}", size));
  dataBuffer->data = data;
  dataBuffer->size = size;
  return ACL_SUCCESS;
}

aclError aclrtGetVersion(int32_t* majorVersion, int32_t* minorVersion, int32_t* patchVersion) {
  if (majorVersion == nullptr || minorVersion == nullptr || patchVersion == nullptr)
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtGetVersion: a version pointer is null");
  *majorVersion = ACL_MAJOR_VERSION;
  *minorVersion = ACL_MINOR_VERSION;
  *patchVersion = ACL_PATCH_VERSION;
  return ACL_SUCCESS;
}

// ---- loading --------------------------------------------------------------------------------

aclError aclmdlLoadFromFile(const char* modelPath, uint32_t* modelId) {
  return LoadFile("aclmdlLoadFromFile", modelPath, modelId);
}

aclError aclmdlLoadFromMem(const void* model, size_t modelSize, uint32_t* modelId) {
  return LoadMem("aclmdlLoadFromMem", model, modelSize, modelId);
}

aclError aclmdlLoadFromFileWithMem(const char* modelPath, uint32_t* modelId, void* workPtr, size_t workSize,
                                   void* weightPtr, size_t weightSize) {
  const char* api = "aclmdlLoadFromFileWithMem";
  if (aclError e = CheckWithMem(api, workPtr, workSize, weightPtr, weightSize); e != ACL_SUCCESS) return e;
  return LoadFile(api, modelPath, modelId);
}

aclError aclmdlLoadFromMemWithMem(const void* model, size_t modelSize, uint32_t* modelId, void* workPtr,
                                  size_t workSize, void* weightPtr, size_t weightSize) {
  const char* api = "aclmdlLoadFromMemWithMem";
  if (aclError e = CheckWithMem(api, workPtr, workSize, weightPtr, weightSize); e != ACL_SUCCESS) return e;
  return LoadMem(api, model, modelSize, modelId);
}

aclError aclmdlUnload(uint32_t modelId) {
  return Guard("aclmdlUnload", [&]() -> aclError {
    std::shared_ptr<LoadedModel> m = Registry::Get().Remove(modelId);
    if (m == nullptr)
      return Fail(ACL_ERROR_INVALID_MODEL_ID, fmt::format("aclmdlUnload: no model with id {} is loaded", modelId));
    std::unique_lock<std::mutex> lk(m->pending_mu);
    m->pending_cv.wait(lk, [&] { return m->pending == 0; });
    return ACL_SUCCESS;
  });
}

// ---- execution ------------------------------------------------------------------------------

aclError aclmdlExecute(uint32_t modelId, const aclmdlDataset* input, aclmdlDataset* output) {
  const char* api = "aclmdlExecute";
  return Guard(api, [&]() -> aclError {
    std::shared_ptr<LoadedModel> m = Registry::Get().Find(modelId);
    if (m == nullptr)
      return Fail(ACL_ERROR_INVALID_MODEL_ID, fmt::format("{}: no model with id {} is loaded", api, modelId));
    std::vector<ge::DeviceBuffer> in, out;
    if (aclError e = CollectBuffers(api, "input", input, m->inputs, ACL_ERROR_MODEL_INPUT_NOT_MATCH, &in);
        e != ACL_SUCCESS)
      return e;
    if (aclError e = CollectBuffers(api, "output", output, m->outputs, ACL_ERROR_MODEL_OUTPUT_NOT_MATCH, &out);
        e != ACL_SUCCESS)
      return e;
    return RunModel(api, *m, in, out);
  });
}

aclError aclmdlExecuteAsync(uint32_t modelId, const aclmdlDataset* input, aclmdlDataset* output, aclrtStream stream) {
  const char* api = "aclmdlExecuteAsync";
  return Guard(api, [&]() -> aclError {
    std::shared_ptr<LoadedModel> m = Registry::Get().Find(modelId);
    if (m == nullptr)
      return Fail(ACL_ERROR_INVALID_MODEL_ID, fmt::format("{}: no model with id {} is loaded", api, modelId));
    auto job = std::make_unique<AsyncExecution>();
    if (aclError e = CollectBuffers(api, "input", input, m->inputs, ACL_ERROR_MODEL_INPUT_NOT_MATCH, &job->inputs);
        e != ACL_SUCCESS)
      return e;
    if (aclError e = CollectBuffers(api, "output", output, m->outputs, ACL_ERROR_MODEL_OUTPUT_NOT_MATCH, &job->outputs);
        e != ACL_SUCCESS)
      return e;
    job->model = m;
    {
      std::lock_guard<std::mutex> lk(m->pending_mu);
      ++m->pending;
    }
    aclError e = aclrtLaunchHostFunc(RunAsyncExecution, job.get(), stream);
    if (e != ACL_SUCCESS) {
      {
        std::lock_guard<std::mutex> lk(m->pending_mu);
        --m->pending;
      }
      m->pending_cv.notify_all();
      return e;  // the recent error message names the stream
    }
    job.release();  // RunAsyncExecution owns it now
    return ACL_SUCCESS;
  });
}

// ---- description ----------------------------------------------------------------------------

aclmdlDesc* aclmdlCreateDesc(void) {
  aclmdlDesc* d = new (std::nothrow) aclmdlDesc;
  if (d == nullptr) Fail(ACL_ERROR_BAD_ALLOC, "aclmdlCreateDesc: out of host memory");
  return d;
}

aclError aclmdlDestroyDesc(aclmdlDesc* modelDesc) {
  if (modelDesc == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "aclmdlDestroyDesc: modelDesc is null");
  delete modelDesc;
  return ACL_SUCCESS;
}

aclError aclmdlGetDesc(aclmdlDesc* modelDesc, uint32_t modelId) {
  if (modelDesc == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "aclmdlGetDesc: modelDesc is null");
  return Guard("aclmdlGetDesc", [&]() -> aclError {
    std::shared_ptr<LoadedModel> m = Registry::Get().Find(modelId);
    if (m == nullptr)
      return Fail(ACL_ERROR_INVALID_MODEL_ID, fmt::format("aclmdlGetDesc: no model with id {} is loaded", modelId));
    modelDesc->inputs = m->inputs;
    modelDesc->outputs = m->outputs;
    return ACL_SUCCESS;
  });
}

size_t aclmdlGetNumInputs(aclmdlDesc* modelDesc) {
  if (modelDesc == nullptr) {
    Fail(ACL_ERROR_INVALID_PARAM, "aclmdlGetNumInputs: modelDesc is null");
    return 0;
  }
  return modelDesc->inputs.size();
}

size_t aclmdlGetNumOutputs(aclmdlDesc* modelDesc) {
  if (modelDesc == nullptr) {
    Fail(ACL_ERROR_INVALID_PARAM, "aclmdlGetNumOutputs: modelDesc is null");
    return 0;
  }
  return modelDesc->outputs.size();
}

size_t aclmdlGetInputSizeByIndex(aclmdlDesc* modelDesc, size_t index) {
  const ge::TensorInfo* t = DescEntry("aclmdlGetInputSizeByIndex", modelDesc, true, index);
  return t ? TensorBytes(t->desc) : 0;
}

size_t aclmdlGetOutputSizeByIndex(aclmdlDesc* modelDesc, size_t index) {
  const ge::TensorInfo* t = DescEntry("aclmdlGetOutputSizeByIndex", modelDesc, false, index);
  return t ? TensorBytes(t->desc) : 0;
}

aclError aclmdlGetInputDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims) {
  return GetDims("aclmdlGetInputDims", modelDesc, true, index, dims);
}

aclError aclmdlGetOutputDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims) {
  return GetDims("aclmdlGetOutputDims", modelDesc, false, index, dims);
}

const char* aclmdlGetInputNameByIndex(const aclmdlDesc* modelDesc, size_t index) {
  const ge::TensorInfo* t = DescEntry("aclmdlGetInputNameByIndex", modelDesc, true, index);
  return t ? t->name.c_str() : nullptr;
}

const char* aclmdlGetOutputNameByIndex(const aclmdlDesc* modelDesc, size_t index) {
  const ge::TensorInfo* t = DescEntry("aclmdlGetOutputNameByIndex", modelDesc, false, index);
  return t ? t->name.c_str() : nullptr;
}

aclDataType aclmdlGetInputDataType(const aclmdlDesc* modelDesc, size_t index) {
  const ge::TensorInfo* t = DescEntry("aclmdlGetInputDataType", modelDesc, true, index);
  return t && t->desc.dtype != ge::DT_UNDEFINED ? static_cast<aclDataType>(t->desc.dtype) : ACL_DT_UNDEFINED;
}

aclDataType aclmdlGetOutputDataType(const aclmdlDesc* modelDesc, size_t index) {
  const ge::TensorInfo* t = DescEntry("aclmdlGetOutputDataType", modelDesc, false, index);
  return t && t->desc.dtype != ge::DT_UNDEFINED ? static_cast<aclDataType>(t->desc.dtype) : ACL_DT_UNDEFINED;
}

aclError aclmdlGetInputIndexByName(const aclmdlDesc* modelDesc, const char* name, size_t* index) {
  return IndexByName("aclmdlGetInputIndexByName", modelDesc, true, name, index);
}

aclError aclmdlGetOutputIndexByName(const aclmdlDesc* modelDesc, const char* name, size_t* index) {
  return IndexByName("aclmdlGetOutputIndexByName", modelDesc, false, name, index);
}

// ---- datasets -------------------------------------------------------------------------------

aclmdlDataset* aclmdlCreateDataset(void) {
  aclmdlDataset* d = new (std::nothrow) aclmdlDataset;
  if (d == nullptr) Fail(ACL_ERROR_BAD_ALLOC, "aclmdlCreateDataset: out of host memory");
  return d;
}

aclError aclmdlDestroyDataset(const aclmdlDataset* dataset) {
  if (dataset == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "aclmdlDestroyDataset: dataset is null");
  delete dataset;
  return ACL_SUCCESS;
}

aclError aclmdlAddDatasetBuffer(aclmdlDataset* dataset, aclDataBuffer* dataBuffer) {
  if (dataset == nullptr || dataBuffer == nullptr)
    return Fail(ACL_ERROR_INVALID_PARAM,
                fmt::format("aclmdlAddDatasetBuffer: {} is null", dataset == nullptr ? "dataset" : "dataBuffer"));
  return Guard("aclmdlAddDatasetBuffer", [&]() -> aclError {
    dataset->buffers.push_back(dataBuffer);
    return ACL_SUCCESS;
  });
}

size_t aclmdlGetDatasetNumBuffers(const aclmdlDataset* dataset) {
  if (dataset == nullptr) {
    Fail(ACL_ERROR_INVALID_PARAM, "aclmdlGetDatasetNumBuffers: dataset is null");
    return 0;
  }
  return dataset->buffers.size();
}

aclDataBuffer* aclmdlGetDatasetBuffer(const aclmdlDataset* dataset, size_t index) {
  if (dataset == nullptr) {
    Fail(ACL_ERROR_INVALID_PARAM, "aclmdlGetDatasetBuffer: dataset is null");
    return nullptr;
  }
  if (index >= dataset->buffers.size()) {
    Fail(ACL_ERROR_INVALID_PARAM,
         fmt::format("aclmdlGetDatasetBuffer: index {} out of range ({} buffers)", index, dataset->buffers.size()));
    return nullptr;
  }
  return dataset->buffers[index];
}

}  // extern "C"
