// The aclrt* C entry points for streams, events, host callbacks and kernel launch.
#include <fmt/format.h>

#include "acl/acl_rt.h"
#include "runtime/api_guard.h"
#include "runtime/device.h"

using ge::rt::Device;
using ge::rt::Event;
using ge::rt::Guarded;
using ge::rt::InvalidParam;
using ge::rt::RawEnum;
using ge::rt::Stream;
using ge::rt::Task;
using ge::rt::TaskType;

extern "C" {

aclError aclrtCreateStream(aclrtStream* stream) {
  if (stream == nullptr) return InvalidParam("aclrtCreateStream: stream is null");
  return Guarded("aclrtCreateStream", [&]() -> aclError {
    *stream = Device::Get().CreateStream();
    return ACL_SUCCESS;
  });
}

aclError aclrtDestroyStream(aclrtStream stream) {
  if (stream == nullptr) return InvalidParam("aclrtDestroyStream: stream is null");
  return Guarded("aclrtDestroyStream", [&] { return Device::Get().DestroyStream(stream); });
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
  return Guarded("aclrtSynchronizeStream", [&]() -> aclError {
    Stream* s = Device::Get().FindStream(stream, "aclrtSynchronizeStream");
    return s == nullptr ? ACL_ERROR_RT_PARAM_INVALID : s->Synchronize();
  });
}

aclError aclrtCreateEvent(aclrtEvent* event) {
  if (event == nullptr) return InvalidParam("aclrtCreateEvent: event is null");
  return Guarded("aclrtCreateEvent", [&]() -> aclError {
    *event = Device::Get().CreateEvent();
    return ACL_SUCCESS;
  });
}

aclError aclrtDestroyEvent(aclrtEvent event) {
  if (event == nullptr) return InvalidParam("aclrtDestroyEvent: event is null");
  return Guarded("aclrtDestroyEvent", [&] { return Device::Get().DestroyEvent(event); });
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  return Guarded("aclrtRecordEvent", [&]() -> aclError {
    Device& dev = Device::Get();
    std::shared_ptr<Event> ev = dev.FindEvent(event, "aclrtRecordEvent");
    if (ev == nullptr) return ACL_ERROR_RT_PARAM_INVALID;
    Stream* s = dev.FindStream(stream, "aclrtRecordEvent");
    if (s == nullptr) return ACL_ERROR_RT_PARAM_INVALID;
    s->Enqueue([&](Task& t) {
      t.type = TaskType::kEventRecord;
      t.generation = ev->NextRecord();
      t.event = std::move(ev);
    });
    return ACL_SUCCESS;
  });
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
  return Guarded("aclrtStreamWaitEvent", [&]() -> aclError {
    Device& dev = Device::Get();
    std::shared_ptr<Event> ev = dev.FindEvent(event, "aclrtStreamWaitEvent");
    if (ev == nullptr) return ACL_ERROR_RT_PARAM_INVALID;
    Stream* s = dev.FindStream(stream, "aclrtStreamWaitEvent");
    if (s == nullptr) return ACL_ERROR_RT_PARAM_INVALID;
    const uint64_t gen = ev->LatestRecord();
    if (gen == 0 || ev->IsComplete(gen)) return ACL_SUCCESS;  // nothing to wait for
    s->Enqueue([&](Task& t) {
      t.type = TaskType::kEventWait;
      t.generation = gen;
      t.event = std::move(ev);
    });
    return ACL_SUCCESS;
  });
}

aclError aclrtSynchronizeEvent(aclrtEvent event) {
  return Guarded("aclrtSynchronizeEvent", [&]() -> aclError {
    std::shared_ptr<Event> ev = Device::Get().FindEvent(event, "aclrtSynchronizeEvent");
    if (ev == nullptr) return ACL_ERROR_RT_PARAM_INVALID;
    ev->WaitFor(ev->LatestRecord());
    return ACL_SUCCESS;
  });
}

aclError aclrtLaunchCallback(aclrtCallback fn, void* userData, aclrtCallbackBlockType blockType, aclrtStream stream) {
  return Guarded("aclrtLaunchCallback", [&]() -> aclError {
    if (fn == nullptr) return InvalidParam("aclrtLaunchCallback: fn is null");
    const int block_type = RawEnum(blockType);
    if (block_type != ACL_CALLBACK_NO_BLOCK && block_type != ACL_CALLBACK_BLOCK) {
      return InvalidParam(fmt::format("aclrtLaunchCallback: unknown block type {}", block_type));
    }
    Stream* s = Device::Get().FindStream(stream, "aclrtLaunchCallback");
    if (s == nullptr) return ACL_ERROR_RT_PARAM_INVALID;
    // Callbacks run on the stream's thread, in stream order, whichever the block type.
    s->Enqueue([&](Task& t) {
      t.type = TaskType::kCallback;
      t.callback = fn;
      t.user_data = userData;
    });
    return ACL_SUCCESS;
  });
}

aclError aclrtLaunchHostFunc(aclrtHostFunc fn, void* userData, aclrtStream stream) {
  return Guarded("aclrtLaunchHostFunc", [&]() -> aclError {
    if (fn == nullptr) return InvalidParam("aclrtLaunchHostFunc: fn is null");
    Stream* s = Device::Get().FindStream(stream, "aclrtLaunchHostFunc");
    if (s == nullptr) return ACL_ERROR_RT_PARAM_INVALID;
    s->Enqueue([&](Task& t) {
      t.type = TaskType::kHostFunc;
      t.host_func = fn;
      t.user_data = userData;
    });
    return ACL_SUCCESS;
  });
}

aclError aclrtLaunchKernel(aclrtKernelFunc func, uint32_t blockDim, void* const* addrs, uint32_t numAddrs,
                           const void* tiling, uint32_t tilingSize, aclrtStream stream) {
  return aclrtLaunchKernelWithName(ge::rt::ThreadLaunchName(), func, blockDim, addrs, numAddrs, tiling, tilingSize,
                                   stream);
}

aclError aclrtLaunchKernelWithName(const char* name, aclrtKernelFunc func, uint32_t blockDim, void* const* addrs,
                                   uint32_t numAddrs, const void* tiling, uint32_t tilingSize, aclrtStream stream) {
  if (func == nullptr || blockDim == 0 || (numAddrs > 0 && addrs == nullptr) || (tilingSize > 0 && tiling == nullptr)) {
    return InvalidParam(fmt::format("aclrtLaunchKernel: func={}, blockDim={}, addrs={} ({}), tiling={} ({} bytes)",
                                    reinterpret_cast<void*>(func), blockDim, static_cast<const void*>(addrs), numAddrs,
                                    tiling, tilingSize));
  }
  return Guarded("aclrtLaunchKernel", [&]() -> aclError {
    Stream* s = Device::Get().FindStream(stream, "aclrtLaunchKernel");
    if (s == nullptr) return ACL_ERROR_RT_PARAM_INVALID;
    if (s->TryRunInline(func, blockDim, addrs, numAddrs, tiling, tilingSize, name)) return ACL_SUCCESS;
    s->Enqueue([&](Task& t) {
      t.type = TaskType::kKernel;
      t.func = func;
      t.block_dim = blockDim;
      t.num_addrs = numAddrs;
      t.tiling_size = tilingSize;
      t.name = name;
      t.args.Assign(addrs, numAddrs, tiling, tilingSize);
    });
    return ACL_SUCCESS;
  });
}

}  // extern "C"
