// A device stream: an in-order task queue executed by its own thread. A dedicated thread per
// stream means a stream blocked on an event wait never holds a core thread; blockDim == 1
// kernels run inline on it, wider kernels spread their blocks over the core pool.
// A kernel launched on an idle stream (nothing queued or running) runs on the launching thread
// instead (TryRunInline), which then takes the stream thread's place as the submitting core: no
// hand-off, no wake-up, and no third thread spinning beside the two that compute. It counts as a task of the
// stream: Synchronize waits for it, a task enqueued meanwhile starts only after it, and its
// kernel error is reported by the next Synchronize like any other task's.
#ifndef GE_SRC_RUNTIME_STREAM_H_
#define GE_SRC_RUNTIME_STREAM_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl_rt.h"
#include "runtime/core_pool.h"
#include "runtime/event.h"
#include "runtime/kernel.h"
#include "runtime/kernel_error.h"
#include "runtime/spin_wait.h"

namespace ge::rt {

class Model;

enum class TaskType : uint8_t { kKernel, kMemcpy, kMemset, kEventRecord, kEventWait, kCallback, kHostFunc, kModel };

struct Task {
  TaskType type = TaskType::kKernel;
  // kernel
  aclrtKernelFunc func = nullptr;
  uint32_t block_dim = 0;
  uint32_t num_addrs = 0;
  uint32_t tiling_size = 0;
  const char* name = nullptr;  // names the launch in the errors its kernel reports
  KernelArgBuffer args;
  // memcpy, memset
  void* dst = nullptr;
  const void* src = nullptr;
  size_t count = 0;
  int32_t value = 0;
  // host callback
  aclrtCallback callback = nullptr;
  void* user_data = nullptr;
  aclrtHostFunc host_func = nullptr;  // kHostFunc (with user_data)
  // event record / wait
  std::shared_ptr<Event> event;
  uint64_t generation = 0;
  // model execute
  Model* model = nullptr;
};

class Stream {
 public:
  explicit Stream(CorePool* pool);
  // Waits for the pending tasks, then stops the thread.
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  // Appends a task, filled in place by `fill(Task&)`.
  // The queue lock is a spinlock: its critical sections are a few hundred nanoseconds, and a
  // contended std::mutex would put the host thread to sleep in the kernel on every hand-off.
  template <typename Fill>
  void Enqueue(Fill&& fill) {
    {
      SpinLockGuard lk(queue_lock_);
      fill(queue_.emplace_back());
      // Dekker pairing with NextBatch: pushed_ is bumped before sleeping_ is read.
      pushed_.fetch_add(1, std::memory_order_seq_cst);
    }
    if (sleeping_.load(std::memory_order_seq_cst)) pushed_.notify_one();
  }

  // Runs a kernel on the calling thread when the stream is idle and inline launch covers its
  // width (a wider kernel's blocks go to the core pool with this thread as the submitting core,
  // as the stream thread would); false (nothing run) otherwise, and the caller enqueues it.
  bool TryRunInline(aclrtKernelFunc func, uint32_t block_dim, void* const* addrs, uint32_t num_addrs,
                    const void* tiling, uint32_t tiling_size, const char* name);

  // The widest kernel launched inline, for every stream (default: any width; 1 = single-block
  // kernels only; 0 = off. GE_INLINE_LAUNCH=0 / 1 set it at start-up).
  static void SetInlineLaunch(uint32_t max_blocks);
  static uint32_t inline_max_blocks();

  // Waits for every task enqueued before the call. Returns (and clears) the first error an
  // asynchronous task hit since the last synchronize, setting the recent error message.
  aclError Synchronize();

 private:
  void Loop();
  bool NextBatch(std::vector<Task>* batch);
  void Execute(Task& task);
  void SetError(aclError code, std::string msg);

  CorePool* pool_;
  SpinLock queue_lock_;  // guards queue_
  std::vector<Task> queue_;
  bool inline_running_ = false;        // guarded by queue_lock_: a TryRunInline kernel is running
  bool inline_waiter_ = false;         // guarded by queue_lock_: the stream thread waits for it to end
  std::atomic<bool> sleeping_{false};  // the stream thread is (about to be) blocked on pushed_
  std::atomic<bool> stopping_{false};
  std::atomic<uint64_t> pushed_{0};          // tasks enqueued; the stream thread sleeps on it
  std::atomic<uint64_t> inline_started_{0};  // TryRunInline kernels (bumped under queue_lock_)
  std::atomic<uint64_t> completed_{0};       // tasks and inline kernels finished
  std::atomic<int> sync_waiters_{0};
  std::mutex done_mu_;  // guards error_, error_msg_; done_cv_'s mutex
  std::condition_variable done_cv_;
  aclError error_ = ACL_SUCCESS;
  std::string error_msg_;
  KernelErrorSlot kernel_error_;  // reports of this stream's kernels (taken by the stream thread)
  std::thread thread_;
};

}  // namespace ge::rt

#endif  // GE_SRC_RUNTIME_STREAM_H_
