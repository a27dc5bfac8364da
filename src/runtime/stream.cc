// Streams: a queue swapped out in batches by the stream thread, which runs the tasks in order.
#include "runtime/stream.h"

#include "base/trace.h"

#include <cstdlib>
#include <cstring>

#include "base/error_message.h"
#include "base/log.h"
#include "runtime/model.h"
#include "runtime/spin_wait.h"

namespace ge::rt {
namespace {

// The widest kernel that runs inline: 0 (off), 1 (single-block kernels only) or every width.
// GE_INLINE_LAUNCH=0 / 1 / anything else (default: every width).
std::atomic<uint32_t>& InlineMaxBlocks() {
  static std::atomic<uint32_t> max_blocks{[] {
    const char* env = std::getenv("GE_INLINE_LAUNCH");
    if (env != nullptr && std::strcmp(env, "0") == 0) return 0u;
    if (env != nullptr && std::strcmp(env, "1") == 0) return 1u;
    return UINT32_MAX;
  }()};
  return max_blocks;
}

}  // namespace

void Stream::SetInlineLaunch(uint32_t max_blocks) { InlineMaxBlocks().store(max_blocks, std::memory_order_relaxed); }
uint32_t Stream::inline_max_blocks() { return InlineMaxBlocks().load(std::memory_order_relaxed); }

Stream::Stream(CorePool* pool) : pool_(pool) {
  thread_ = std::thread([this] { Loop(); });
}

Stream::~Stream() {
  (void)Synchronize();
  stopping_.store(true, std::memory_order_seq_cst);
  pushed_.fetch_add(1, std::memory_order_seq_cst);  // wakes a sleeping stream thread
  pushed_.notify_one();
  thread_.join();
}

bool Stream::NextBatch(std::vector<Task>* batch) {
  for (;;) {
    const uint64_t seen = pushed_.load(std::memory_order_acquire);
    uint64_t inline_done = 0;
    bool wait_inline = false;
    {
      SpinLockGuard lk(queue_lock_);
      if (!queue_.empty()) {
        if (!inline_running_) {
          batch->swap(queue_);
          return true;
        }
        // Stream order: the tasks enqueued during an inline kernel start after it ends.
        inline_waiter_ = true;
        wait_inline = true;
        inline_done = completed_.load(std::memory_order_seq_cst);
      }
    }
    if (wait_inline) {
      completed_.wait(inline_done, std::memory_order_seq_cst);
      continue;
    }
    if (stopping_.load(std::memory_order_acquire)) return false;
    // Spin briefly so that a producer issuing work back to back needs no wakeup, then sleep until
    // pushed_ moves. Dekker pairing with Enqueue: sleeping_ is set before pushed_ is re-read.
    if (SpinUntil([this, seen] { return pushed_.load(std::memory_order_acquire) != seen; })) continue;
    sleeping_.store(true, std::memory_order_seq_cst);
    if (pushed_.load(std::memory_order_seq_cst) == seen) pushed_.wait(seen, std::memory_order_seq_cst);
    sleeping_.store(false, std::memory_order_relaxed);
  }
}

void Stream::Loop() {
  std::vector<Task> batch;
  while (NextBatch(&batch)) {
    for (Task& task : batch) {
      Execute(task);
      // Dekker pairing with Synchronize: completed_ is stored before sync_waiters_ is read.
      completed_.fetch_add(1, std::memory_order_seq_cst);
      if (sync_waiters_.load(std::memory_order_seq_cst) > 0) {
        std::lock_guard<std::mutex> lk(done_mu_);
        done_cv_.notify_all();
      }
    }
    batch.clear();
  }
}

bool Stream::TryRunInline(aclrtKernelFunc func, uint32_t block_dim, void* const* addrs, uint32_t num_addrs,
                          const void* tiling, uint32_t tiling_size, const char* name) {
  if (block_dim > inline_max_blocks()) return false;
  {
    SpinLockGuard lk(queue_lock_);
    // Idle: nothing queued, every task and inline kernel started so far has completed (which
    // also excludes another thread's inline kernel).
    // (pushed_ is the stream thread's wake-up counter, so an inline kernel is counted apart and
    // never wakes it.)
    if (!queue_.empty() ||
        completed_.load(std::memory_order_seq_cst) !=
            pushed_.load(std::memory_order_relaxed) + inline_started_.load(std::memory_order_relaxed))
      return false;
    inline_running_ = true;
    inline_started_.fetch_add(1, std::memory_order_seq_cst);  // Synchronize from now on waits for it
  }
  // Kernels may read their tiling as a struct: give them the 16-byte alignment a queued launch's
  // copy has.
  alignas(16) uint8_t aligned[256];
  std::unique_ptr<uint8_t[]> heap;
  if (tiling_size > 0 && (reinterpret_cast<uintptr_t>(tiling) & 15) != 0) {
    uint8_t* dst = aligned;
    if (tiling_size > sizeof(aligned)) {
      heap.reset(new uint8_t[tiling_size]);
      dst = heap.get();
    }
    std::memcpy(dst, tiling, tiling_size);
    tiling = dst;
  }
  const KernelErrorTag tag{&kernel_error_, name};
  aclrtKernelArgs args{addrs, num_addrs, tiling, tiling_size, 0, block_dim, &tag};
  // A wider kernel's blocks: this thread is the submitting core, the pool's threads take the rest.
  if (trace::Enabled()) {
    const auto start = trace::Clock::now();
    RunKernel(*pool_, func, args);  // its blocks on the core tracks
    trace::Record(trace::kHostStreamTrack, KernelName(args), start, trace::Clock::now());
  } else if (block_dim > 1) {
    RunKernel(*pool_, func, args);
  } else {
    func(&args);
  }
  if (kernel_error_.failed()) {
    std::string msg;
    if (kernel_error_.Take(&msg)) SetError(ACL_ERROR_RT_KERNEL_DATA, std::move(msg));
  }
  bool wake_stream = false;
  {
    SpinLockGuard lk(queue_lock_);
    inline_running_ = false;
    wake_stream = inline_waiter_;
    inline_waiter_ = false;
    // Dekker pairing with Synchronize, as in Loop.
    completed_.fetch_add(1, std::memory_order_seq_cst);
  }
  if (wake_stream) completed_.notify_all();
  if (sync_waiters_.load(std::memory_order_seq_cst) > 0) {
    std::lock_guard<std::mutex> lk(done_mu_);
    done_cv_.notify_all();
  }
  return true;
}

void Stream::Execute(Task& task) {
  switch (task.type) {
    case TaskType::kKernel: {
      const KernelErrorTag tag{&kernel_error_, task.name};
      aclrtKernelArgs args{
          task.args.addrs(), task.num_addrs, task.args.tiling(), task.tiling_size, 0, task.block_dim, &tag};
      if (trace::Enabled()) {
        const auto start = trace::Clock::now();
        RunKernel(*pool_, task.func, args);
        trace::Record(trace::kHostStreamTrack, KernelName(args), start, trace::Clock::now());
      } else {
        RunKernel(*pool_, task.func, args);
      }
      if (kernel_error_.failed()) {
        std::string msg;
        if (kernel_error_.Take(&msg)) SetError(ACL_ERROR_RT_KERNEL_DATA, std::move(msg));
      }
      break;
    }
    case TaskType::kMemcpy:
      if (task.count > 0) std::memmove(task.dst, task.src, task.count);
      break;
    case TaskType::kMemset:
      if (task.count > 0) std::memset(task.dst, task.value, task.count);
      break;
    case TaskType::kEventRecord: task.event->Complete(task.generation); break;
    case TaskType::kEventWait: task.event->WaitFor(task.generation); break;
    case TaskType::kCallback: task.callback(task.user_data); break;
    case TaskType::kHostFunc: {
      aclError ret = task.host_func(task.user_data);
      if (ret != ACL_SUCCESS) SetError(ret, RecentErrMsg());
      break;
    }
    case TaskType::kModel: {
      aclError ret = task.model->RunFromStream();
      if (ret != ACL_SUCCESS) SetError(ret, RecentErrMsg());
      break;
    }
  }
}

void Stream::SetError(aclError code, std::string msg) {
  GELOGW("stream task failed ({}): {}", code, msg);
  std::lock_guard<std::mutex> lk(done_mu_);
  if (error_ == ACL_SUCCESS) {
    error_ = code;
    error_msg_ = std::move(msg);
  }
}

aclError Stream::Synchronize() {
  const uint64_t target = pushed_.load(std::memory_order_acquire) + inline_started_.load(std::memory_order_acquire);
  auto done = [this, target] { return completed_.load(std::memory_order_seq_cst) >= target; };
  if (!SpinUntil(done)) {
    sync_waiters_.fetch_add(1, std::memory_order_seq_cst);
    {
      std::unique_lock<std::mutex> lk(done_mu_);
      done_cv_.wait(lk, done);
    }
    sync_waiters_.fetch_sub(1, std::memory_order_relaxed);
  }
  std::lock_guard<std::mutex> lk(done_mu_);
  aclError ret = error_;
  if (ret != ACL_SUCCESS) {
    SetRecentErrMsg(error_msg_);
    error_ = ACL_SUCCESS;
    error_msg_.clear();
  }
  return ret;
}

}  // namespace ge::rt
