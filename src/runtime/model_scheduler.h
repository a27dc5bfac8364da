// Executes a multi-stream model. Model streams are cooperative task lists, not threads: the
// executing thread and up to (streams - 1) core threads take runnable model streams from a ready
// list and run each until it ends or reaches an unmet event wait, where it parks on the event and
// the thread takes another stream; a record moves satisfied waiters back to the ready list. No
// thread ever blocks inside a stream, so fewer cores than model streams cannot deadlock, and the
// executing thread alone can finish any model. A model that waits on a record that can never come
// is detected (nothing running, nothing ready) and fails with an error instead of hanging.
//
// Helpers stay attached between executions that follow each other closely: a helper that has
// finished its part spins (GE_DEVICE_SPIN_US) for the next execution's generation before it
// returns its core thread to the pool, so back-to-back executions skip the pool hand-off. The
// caller waits at the end of each execution until no helper is inside it.
#ifndef GE_SRC_RUNTIME_MODEL_SCHEDULER_H_
#define GE_SRC_RUNTIME_MODEL_SCHEDULER_H_

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "runtime/core_pool.h"
#include "runtime/model_task.h"

namespace ge::rt {

class ModelScheduler {
 public:
  using StreamTasks = std::vector<std::vector<ModelTask>>;
  // `trace` (may be null) names the kernel tasks in a trace (base/trace.h).
  ModelScheduler(CorePool* pool, const StreamTasks* tasks, uint32_t num_events, const TaskTraceInfo* trace = nullptr);
  // Detaches the helpers and waits for them to leave.
  ~ModelScheduler();

  // One execution of the model; the caller takes part. Not reentrant (the model serializes).
  aclError Run();

 private:
  static void HelperEntry(void* ctx, uint32_t index);
  void HelperLoop();
  void Reset();
  void Work();
  void RunStream(uint32_t stream);
  void Record(uint32_t event);
  bool ParkIfUnmet(uint32_t stream, uint32_t pc, const ModelTask& wait);
  void FinishStreamLocked();
  void CheckStuckLocked();

  CorePool* pool_;
  const StreamTasks* tasks_;
  uint32_t num_events_;
  const TaskTraceInfo* trace_;
  std::mutex mu_;  // guards everything below except the atomics
  std::condition_variable cv_;
  std::vector<uint32_t> ready_;                      // runnable model streams
  std::vector<uint32_t> pc_;                         // next task of each model stream
  std::vector<std::vector<uint32_t>> parked_;        // per event: streams parked on it
  std::unique_ptr<std::atomic<uint32_t>[]> counts_;  // per event: records this execution
  std::atomic<uint32_t> num_ready_{0};
  std::atomic<bool> over_{false};  // all streams ended, or the run failed
  uint32_t finished_ = 0;
  uint32_t running_ = 0;
  aclError error_ = ACL_SUCCESS;
  std::string error_msg_;

  // Attached helpers (a pool job whose items loop over executions).
  Job job_;                              // the helpers' job; reused once all have detached
  bool job_submitted_ = false;           // caller-side: job_ was submitted and not yet waited for
  std::atomic<uint64_t> gen_{0};         // executions started
  std::atomic<uint32_t> attached_{0};    // helper items submitted and not yet detached
  std::atomic<uint32_t> helpers_in_{0};  // helpers possibly inside Work()
  std::atomic<bool> detach_{false};      // the destructor asks helpers to leave
};

}  // namespace ge::rt

#endif  // GE_SRC_RUNTIME_MODEL_SCHEDULER_H_
