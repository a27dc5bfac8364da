// The task record of a model (aclmdlRI): a flat POD, pre-bound at LoadComplete so executing a
// model is a tight loop over these with no allocation or lookup.
#ifndef GE_SRC_RUNTIME_MODEL_TASK_H_
#define GE_SRC_RUNTIME_MODEL_TASK_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "runtime/kernel.h"

namespace ge::rt {

enum class ModelTaskType : uint8_t { kKernel, kMemcpy, kCallback, kEventRecord, kEventWait };

struct ModelTask {
  ModelTaskType type;
  uint32_t event;         // record / wait: model event index
  uint32_t required;      // wait: records of `event` needed in this execution (0 = no-op)
  aclrtKernelFunc func;   // kernel
  aclrtKernelArgs args;   // kernel: addrs/tiling point into the model's arena once loaded
  size_t arg_offset;      // kernel: offset of addrs in the arena while building
  uint32_t kernel_index;  // kernel: order among the model's kernel tasks (its name and error tag)
  void* dst;              // memcpy
  const void* src;
  size_t count;
  aclrtCallback callback;  // host callback
  void* user_data;
};

// What a trace shows for each kernel task (by kernel_index): its event name and args (JSON);
// empty vectors: the kernel's name, no args.
struct TaskTraceInfo {
  std::vector<std::string> names, args;
};

// Runs a kernel, memcpy or callback task (not event tasks).
inline void RunComputeTask(CorePool& pool, const ModelTask& task) {
  switch (task.type) {
    case ModelTaskType::kKernel:
      if (task.args.blockDim == 1) {
        task.func(&task.args);
      } else {
        RunKernel(pool, task.func, task.args);
      }
      break;
    case ModelTaskType::kMemcpy:
      if (task.count > 0) std::memmove(task.dst, task.src, task.count);
      break;
    case ModelTaskType::kCallback: task.callback(task.user_data); break;
    default: break;
  }
}

// The same, recorded as an event on `track` (base/trace.h); the kernel's blocks are recorded on
// the cores' tracks.
void RunComputeTaskTraced(CorePool& pool, const ModelTask& task, int track, const TaskTraceInfo& info);

}  // namespace ge::rt

#endif  // GE_SRC_RUNTIME_MODEL_TASK_H_
