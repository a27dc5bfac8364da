// The aclmdlRI* C entry points: model building, loading and execution.
#include <fmt/format.h>

#include "acl/acl_rt.h"
#include "runtime/api_guard.h"
#include "runtime/device.h"

using ge::rt::Device;
using ge::rt::Guarded;
using ge::rt::InvalidParam;
using ge::rt::Model;
using ge::rt::Stream;
using ge::rt::Task;
using ge::rt::TaskType;

namespace {

constexpr uint32_t kMaxModelStreams = 1024;
constexpr uint32_t kMaxModelEvents = 1u << 20;

// Runs `body(Model&)` for a live model handle; unknown handles are ACL_ERROR_RT_PARAM_INVALID.
template <typename Body>
aclError WithModel(const char* api, aclmdlRI handle, Body&& body) {
  return Guarded(api, [&]() -> aclError {
    Model* model = Device::Get().FindModel(handle, api);
    return model == nullptr ? ACL_ERROR_RT_PARAM_INVALID : body(*model);
  });
}

aclError NotLoaded(const char* api) {
  ge::SetRecentErrMsg(fmt::format("{}: model is not loaded (call aclmdlRILoadComplete)", api));
  return ACL_ERROR_RT_MODEL_CONTEXT;
}

}  // namespace

namespace ge::rt {
Model* FindModel(aclmdlRI handle) { return Device::Get().FindModel(handle, "trace"); }
}  // namespace ge::rt

extern "C" {

aclError aclmdlRICreate(uint32_t numStreams, uint32_t numEvents, aclmdlRI* model) {
  if (model == nullptr) return InvalidParam("aclmdlRICreate: model is null");
  if (numStreams == 0 || numStreams > kMaxModelStreams || numEvents > kMaxModelEvents) {
    return InvalidParam(fmt::format("aclmdlRICreate: {} streams (1..{}), {} events (0..{})", numStreams,
                                    kMaxModelStreams, numEvents, kMaxModelEvents));
  }
  return Guarded("aclmdlRICreate", [&]() -> aclError {
    *model = reinterpret_cast<aclmdlRI>(Device::Get().CreateModel(numStreams, numEvents));
    return ACL_SUCCESS;
  });
}

aclError aclmdlRIAddKernelTask(aclmdlRI model, uint32_t modelStream, aclrtKernelFunc func, uint32_t blockDim,
                               void* const* addrs, uint32_t numAddrs, const void* tiling, uint32_t tilingSize) {
  return WithModel("aclmdlRIAddKernelTask", model, [&](Model& m) {
    return m.AddKernel(modelStream, func, blockDim, addrs, numAddrs, tiling, tilingSize);
  });
}

aclError aclmdlRIAddKernelTaskWithName(aclmdlRI model, uint32_t modelStream, const char* name, aclrtKernelFunc func,
                                       uint32_t blockDim, void* const* addrs, uint32_t numAddrs, const void* tiling,
                                       uint32_t tilingSize) {
  return WithModel("aclmdlRIAddKernelTask", model, [&](Model& m) {
    return m.AddKernel(modelStream, func, blockDim, addrs, numAddrs, tiling, tilingSize, name);
  });
}

aclError aclmdlRIAddMemcpyTask(aclmdlRI model, uint32_t modelStream, void* dst, const void* src, size_t count) {
  return WithModel("aclmdlRIAddMemcpyTask", model, [&](Model& m) { return m.AddMemcpy(modelStream, dst, src, count); });
}

aclError aclmdlRIAddCallbackTask(aclmdlRI model, uint32_t modelStream, aclrtCallback fn, void* userData) {
  return WithModel("aclmdlRIAddCallbackTask", model,
                   [&](Model& m) { return m.AddCallback(modelStream, fn, userData); });
}

aclError aclmdlRIAddEventRecord(aclmdlRI model, uint32_t modelStream, uint32_t modelEvent) {
  return WithModel("aclmdlRIAddEventRecord", model,
                   [&](Model& m) { return m.AddEventRecord(modelStream, modelEvent); });
}

aclError aclmdlRIAddEventWait(aclmdlRI model, uint32_t modelStream, uint32_t modelEvent) {
  return WithModel("aclmdlRIAddEventWait", model, [&](Model& m) { return m.AddEventWait(modelStream, modelEvent); });
}

aclError aclmdlRILoadComplete(aclmdlRI model) {
  return WithModel("aclmdlRILoadComplete", model, [&](Model& m) { return m.LoadComplete(); });
}

aclError aclmdlRIExecuteAsync(aclmdlRI model, aclrtStream stream) {
  const char* api = "aclmdlRIExecuteAsync";
  return WithModel(api, model, [&](Model& m) -> aclError {
    if (!m.loaded()) return NotLoaded(api);
    Stream* s = Device::Get().FindStream(stream, api);
    if (s == nullptr) return ACL_ERROR_RT_PARAM_INVALID;
    m.BeginAsync();
    s->Enqueue([&](Task& t) {
      t.type = TaskType::kModel;
      t.model = &m;
    });
    return ACL_SUCCESS;
  });
}

// Runs on the calling thread, so the fixed cost is a lookup and a lock; `timeoutMs` is accepted
// but not enforced (an execution is never abandoned half-way).
aclError aclmdlRIExecute(aclmdlRI model, int32_t timeoutMs) {
  const char* api = "aclmdlRIExecute";
  if (timeoutMs < -1) return InvalidParam(fmt::format("{}: timeout {} ms", api, timeoutMs));
  return WithModel(api, model, [&](Model& m) -> aclError {
    if (!m.loaded()) return NotLoaded(api);
    return m.Execute();
  });
}

aclError aclmdlRIGetTaskNum(aclmdlRI model, uint32_t* numTasks) {
  if (numTasks == nullptr) return InvalidParam("aclmdlRIGetTaskNum: numTasks is null");
  return WithModel("aclmdlRIGetTaskNum", model, [&](Model& m) -> aclError {
    *numTasks = m.num_tasks();
    return ACL_SUCCESS;
  });
}

aclError aclmdlRISetProfiling(aclmdlRI model, int enable) {
  const char* api = "aclmdlRISetProfiling";
  return WithModel(api, model, [&](Model& m) -> aclError { return m.SetProfiling(enable != 0); });
}

aclError aclmdlRIGetKernelTimes(aclmdlRI model, uint64_t* ns, uint32_t count, uint32_t* executions) {
  const char* api = "aclmdlRIGetKernelTimes";
  if (count > 0 && ns == nullptr) return InvalidParam("aclmdlRIGetKernelTimes: ns is null");
  return WithModel(api, model, [&](Model& m) -> aclError { return m.TakeKernelTimes(ns, count, executions); });
}

aclError aclmdlRIUpdateTaskAddr(aclmdlRI model, uint32_t modelStream, uint32_t taskIndex, uint32_t addrIndex,
                                void* addr) {
  const char* api = "aclmdlRIUpdateTaskAddr";
  return WithModel(api, model, [&](Model& m) -> aclError {
    if (!m.loaded()) return NotLoaded(api);
    return m.UpdateTaskAddr(modelStream, taskIndex, addrIndex, addr);
  });
}

aclError aclmdlRIDestroy(aclmdlRI model) {
  if (model == nullptr) return InvalidParam("aclmdlRIDestroy: model is null");
  return Guarded("aclmdlRIDestroy", [&] { return Device::Get().DestroyModel(model); });
}

}  // extern "C"
