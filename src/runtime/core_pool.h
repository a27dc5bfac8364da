// The device's cores ("AI cores"). A Job is a set of `count` indexed work items (the blocks of a
// kernel, or helpers of a model run); the submitting thread always takes part, so a job completes
// even when every core thread is busy, and nested submission cannot deadlock. Because the
// submitter is one of the workers, a device of N cores runs N - 1 core threads: N spinning
// threads plus the submitter would oversubscribe N CPUs.
#ifndef GE_SRC_RUNTIME_CORE_POOL_H_
#define GE_SRC_RUNTIME_CORE_POOL_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace ge::rt {

struct Job {
  void (*fn)(void* ctx, uint32_t index) = nullptr;
  void* ctx = nullptr;
  uint32_t count = 0;                 // items; lowered by Wait() to what was handed out
  uint32_t next = 0;                  // next item to hand out from the front (guarded by the pool mutex)
  uint32_t taken_back = 0;            // items handed out from the back (guarded by the pool mutex)
  std::atomic<uint32_t> finished{0};  // items run to completion
};

class CorePool {
 public:
  explicit CorePool(uint32_t num_cores);
  ~CorePool();
  CorePool(const CorePool&) = delete;
  CorePool& operator=(const CorePool&) = delete;

  // Cores (what tiling splits work over) and core threads (size() - 1, the submitter being one).
  uint32_t size() const { return num_cores_.load(std::memory_order_relaxed); }
  uint32_t num_threads() const { return size() - 1; }
  // Stops the core threads and starts `num_cores` new ones. Queued jobs are kept.
  void Resize(uint32_t num_cores);

  // Runs all items of `job`: the caller works on them alongside the core threads.
  void Run(Job* job);
  // Lower-level: queue `job` for the core threads; the caller may work on it with TryRunOne();
  // Wait() withdraws the items no one has taken yet and waits for the taken ones to finish.
  void Submit(Job* job);
  bool TryRunOne(Job* job);
  void Wait(Job* job);

 private:
  void WorkerLoop();
  bool TakeLocked(Job* job, bool from_back, uint32_t* index);
  void Finish(Job* job);
  void StartThreads(uint32_t n);
  void StopThreads();

  std::mutex mu_;
  std::condition_variable work_cv_;
  std::condition_variable done_cv_;
  std::deque<Job*> queue_;
  std::atomic<int32_t> queued_{0};  // queue_.size() (briefly -1 around Submit), a hint for spinning
  std::atomic<uint32_t> num_cores_{0};
  bool stop_ = false;
  std::atomic<bool> stopping_{false};  // stop_, readable without the lock for spinning
  uint32_t sleepers_ = 0;              // core threads blocked on work_cv_
  int done_waiters_ = 0;
  std::mutex resize_mu_;
  std::vector<std::thread> threads_;
};

}  // namespace ge::rt

#endif  // GE_SRC_RUNTIME_CORE_POOL_H_
