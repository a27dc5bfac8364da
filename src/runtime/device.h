// The CPU device: a process-wide singleton owning the core pool, device memory, the default
// stream and the registries that turn C handles into objects (so bad handles are errors, not
// crashes). Created on first use and never destroyed, so threads never outlive their owner.
#ifndef GE_SRC_RUNTIME_DEVICE_H_
#define GE_SRC_RUNTIME_DEVICE_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

#include "acl/acl_base.h"
#include "runtime/core_pool.h"
#include "runtime/event.h"
#include "runtime/memory.h"
#include "runtime/model.h"
#include "runtime/stream.h"

namespace ge::rt {

class Device {
 public:
  static Device& Get();

  CorePool& pool() { return pool_; }
  DeviceMemory& memory() { return memory_; }
  // Restarts the core threads with `num_cores` (0 = GE_DEVICE_CORES, else the machine's cores).
  void SetCoreNum(uint32_t num_cores);

  // Streams. A null handle is the default stream. FindStream returns nullptr (and sets the
  // error message) for an unknown handle.
  Stream* CreateStream();
  aclError DestroyStream(void* handle);
  Stream* FindStream(void* handle, const char* what);
  // Waits for every stream; returns the first asynchronous error.
  aclError Synchronize();

  void* CreateEvent();
  aclError DestroyEvent(void* handle);
  std::shared_ptr<Event> FindEvent(void* handle, const char* what);

  Model* CreateModel(uint32_t num_streams, uint32_t num_events);
  aclError DestroyModel(void* handle);
  Model* FindModel(void* handle, const char* what);

 private:
  Device();
  static uint32_t DefaultCoreNum();

  CorePool pool_;
  DeviceMemory memory_;
  std::shared_mutex mu_;  // guards the registries
  std::unordered_map<void*, std::shared_ptr<Stream>> streams_;
  std::unordered_map<void*, std::shared_ptr<Event>> events_;
  std::unordered_map<void*, std::unique_ptr<Model>> models_;
  std::unique_ptr<Stream> default_stream_;
};

}  // namespace ge::rt

#endif  // GE_SRC_RUNTIME_DEVICE_H_
