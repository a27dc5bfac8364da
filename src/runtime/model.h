// A model (aclmdlRI): a task list over model-internal streams, built once, frozen by
// LoadComplete, then executed any number of times. One model stream runs as a tight loop on the
// executing thread; several run through ModelScheduler. Executions of one model are serialized.
#ifndef GE_SRC_RUNTIME_MODEL_H_
#define GE_SRC_RUNTIME_MODEL_H_

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "runtime/core_pool.h"
#include "runtime/kernel_error.h"
#include "runtime/model_scheduler.h"
#include "runtime/model_task.h"

namespace ge::rt {

class Model {
 public:
  Model(CorePool* pool, uint32_t num_streams, uint32_t num_events);
  ~Model();
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  // Building; each returns an error after LoadComplete or on bad arguments.
  // `name` (copied; may be null) names the task in the errors its kernel reports.
  aclError AddKernel(uint32_t stream, aclrtKernelFunc func, uint32_t block_dim, void* const* addrs, uint32_t num_addrs,
                     const void* tiling, uint32_t tiling_size, const char* name = nullptr);
  aclError AddMemcpy(uint32_t stream, void* dst, const void* src, size_t count);
  aclError AddCallback(uint32_t stream, aclrtCallback fn, void* user_data);
  aclError AddEventRecord(uint32_t stream, uint32_t event);
  aclError AddEventWait(uint32_t stream, uint32_t event);
  aclError LoadComplete();

  // Rebinds one address argument of a kernel task (after LoadComplete; zero-copy I/O). Waits
  // for pending asynchronous executions.
  aclError UpdateTaskAddr(uint32_t stream, uint32_t task, uint32_t addr_index, void* addr);

  // Runs the model on the calling thread (and core helpers for multi-stream models). A kernel's
  // report (aclrtReportKernelError) fails the execution with ACL_ERROR_RT_KERNEL_DATA once every
  // task has run (kernels that validate their data stay in bounds, so the rest run harmlessly).
  aclError Execute();
  // Execution as a stream task: BeginAsync() when enqueued, RunFromStream() on the stream.
  void BeginAsync();
  aclError RunFromStream();
  // Blocks until no asynchronous execution is pending (before destruction).
  void WaitIdle();

  // Per-kernel-task timing (single-stream models; ACL_ERROR_RT_FEATURE_NOT_SUPPORT for several
  // streams): while on, each execution adds every kernel task's steady_clock duration to its
  // total. Off (the default) costs one relaxed load per execution.
  aclError SetProfiling(bool on);
  // Totals in nanoseconds by kernel task, in the order the kernel tasks were added (`count`
  // entries at most), and the executions they cover; then clears them.
  aclError TakeKernelTimes(uint64_t* ns, uint32_t count, uint32_t* executions);

  // What a trace (base/trace.h) shows for each kernel task, by the order added (before
  // LoadComplete).
  void SetTraceInfo(TaskTraceInfo info) { trace_info_ = std::move(info); }

  bool loaded() const { return loaded_; }
  uint32_t num_tasks() const;

 private:
  aclError CheckAdd(uint32_t stream, const char* what) const;
  aclError CheckEvent(uint32_t event, const char* what) const;
  aclError AddEventTask(uint32_t stream, uint32_t event, ModelTaskType type, const char* what);
  template <bool kProfiled>
  aclError RunSingleStream();
  aclError RunSingleStreamTraced();
  void BindWaits();

  CorePool* pool_;
  uint32_t num_events_;
  std::vector<std::vector<ModelTask>> tasks_;
  std::vector<uint8_t> build_arena_;           // addrs + tiling while building
  std::unique_ptr<std::max_align_t[]> arena_;  // the same, frozen and 16-byte aligned
  std::vector<std::string> kernel_names_;      // per kernel task, in the order added
  std::unique_ptr<KernelErrorTag[]> tags_;     // per kernel task, bound at LoadComplete
  KernelErrorSlot kernel_error_;
  TaskTraceInfo trace_info_;
  bool loaded_ = false;
  std::unique_ptr<ModelScheduler> scheduler_;  // multi-stream models
  std::unique_ptr<uint32_t[]> single_counts_;  // single-stream models: records per event
  std::atomic<bool> profiling_{false};
  std::vector<uint64_t> kernel_ns_;  // per kernel task while profiling (guarded by exec_mu_)
  uint32_t profiled_executions_ = 0;
  std::mutex exec_mu_;  // one execution at a time
  std::mutex pending_mu_;
  std::condition_variable pending_cv_;
  uint32_t pending_ = 0;  // enqueued asynchronous executions not yet finished
};

// The runtime model behind a handle (null for an unknown one), for the executors' trace info.
Model* FindModel(aclmdlRI handle);

}  // namespace ge::rt

#endif  // GE_SRC_RUNTIME_MODEL_H_
