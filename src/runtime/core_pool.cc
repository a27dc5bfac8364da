// The device's core threads: a shared queue of indexed jobs, drained by core threads and by the
// submitting thread together.
#include "runtime/core_pool.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "base/trace.h"
#include "runtime/spin_wait.h"

namespace ge::rt {

CorePool::CorePool(uint32_t num_cores) { StartThreads(num_cores); }

CorePool::~CorePool() { StopThreads(); }

void CorePool::StartThreads(uint32_t n) {
  n = std::max<uint32_t>(n, 1);
  num_cores_.store(n, std::memory_order_relaxed);
  threads_.reserve(n - 1);
  for (uint32_t i = 0; i + 1 < n; ++i)
    threads_.emplace_back([this, i] {
      trace::SetCoreIndex(static_cast<int>(i) + 1);  // core 0: the submitting thread
      WorkerLoop();
    });
}

void CorePool::StopThreads() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    stop_ = true;
    stopping_.store(true, std::memory_order_relaxed);
  }
  work_cv_.notify_all();
  for (auto& t : threads_) t.join();
  threads_.clear();
  std::lock_guard<std::mutex> lk(mu_);
  stop_ = false;
  stopping_.store(false, std::memory_order_relaxed);
}

void CorePool::Resize(uint32_t num_cores) {
  std::lock_guard<std::mutex> resize_lk(resize_mu_);
  StopThreads();
  StartThreads(num_cores);
}

// The submitter takes items from the front, core threads from the back: a kernel's blocks split
// its rows in order, so consecutive kernels give the same rows to the same thread, and an
// operator reads what the previous one wrote from its own core's caches. Reading the other vCPU's
// freshly written lines is what makes memory-bound kernels slow at 2 threads here: a 1.5 MB
// channel Concat of two host-copied inputs ran 20-136 us in 2 blocks against 33-47 us in one
// (squeezenet1_0's eight Concats: 160-650 us a run at 2 threads, 309 at 1), varying with the
// VM's state. Alternated whole models at 2 threads, this order against the old one: densenet121
// 20.3 / 20.2 against 21.7 / 21.9 ms (its 62 Concats 1.56-1.60 ms against 2.07-2.14, its 62
// BatchNorm ScaleShifts 1.56-1.59 against 1.85-1.90), resnet18 9.53 / 9.61 against 9.75 / 9.78,
// mobilenet_v2 2.63 / 2.71 against 2.91 / 2.77, the others within noise. GE_CORE_ENDS=0 hands every thread the next
// item from the front (the old order).
namespace {
bool CoreThreadsTakeFromTheBack() {
  static const bool on = [] {
    const char* e = std::getenv("GE_CORE_ENDS");
    return !(e && std::strcmp(e, "0") == 0);
  }();
  return on;
}
}  // namespace

bool CorePool::TakeLocked(Job* job, bool from_back, uint32_t* index) {
  if (job->next + job->taken_back >= job->count) return false;
  *index = from_back ? job->count - 1 - job->taken_back++ : job->next++;
  if (job->next + job->taken_back == job->count) {
    auto it = std::find(queue_.begin(), queue_.end(), job);
    if (it != queue_.end()) {
      queue_.erase(it);
      queued_.fetch_sub(1, std::memory_order_relaxed);
    }
  }
  return true;
}

void CorePool::Submit(Job* job) {
  uint32_t wake = 0;
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (job->next + job->taken_back >= job->count) return;
    queue_.push_back(job);
    wake = std::min(job->count - job->next - job->taken_back, sleepers_);
  }
  // Published after the unlock: a spinning core thread that saw it inside the critical section
  // would block on mu_, and handing the mutex over costs a futex wake (~2 us on a VM).
  queued_.fetch_add(1, std::memory_order_release);
  for (uint32_t i = 0; i < wake; ++i) work_cv_.notify_one();
}

bool CorePool::TryRunOne(Job* job) {
  uint32_t index;
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (!TakeLocked(job, /*from_back=*/false, &index)) return false;
  }
  job->fn(job->ctx, index);
  std::lock_guard<std::mutex> lk(mu_);
  job->finished.fetch_add(1, std::memory_order_release);
  if (done_waiters_ > 0) done_cv_.notify_all();
  return true;
}

void CorePool::Wait(Job* job) {
  std::unique_lock<std::mutex> lk(mu_);
  if (job->next + job->taken_back < job->count) {  // withdraw what no one has taken
    job->count = job->next + job->taken_back;      // now the number of items taken
    auto it = std::find(queue_.begin(), queue_.end(), job);
    if (it != queue_.end()) {
      queue_.erase(it);
      queued_.fetch_sub(1, std::memory_order_relaxed);
    }
  }
  const uint32_t target = job->count;
  auto done = [job, target] { return job->finished.load(std::memory_order_acquire) == target; };
  if (done()) return;
  lk.unlock();
  // A worker bumps `finished` under mu_ and never touches the job afterwards, so returning
  // as soon as the counter is complete is safe.
  if (SpinUntil(done)) return;
  lk.lock();
  ++done_waiters_;
  done_cv_.wait(lk, done);
  --done_waiters_;
}

void CorePool::Run(Job* job) {
  if (job->count == 1 && job->next == 0) {
    job->next = 1;
    job->fn(job->ctx, 0);
    job->finished.store(1, std::memory_order_relaxed);
    return;
  }
  Submit(job);
  while (TryRunOne(job)) {
  }
  Wait(job);
}

void CorePool::WorkerLoop() {
  std::unique_lock<std::mutex> lk(mu_);
  while (!stop_) {
    if (!queue_.empty()) {
      Job* job = queue_.front();
      uint32_t index;
      TakeLocked(job, CoreThreadsTakeFromTheBack(), &index);
      lk.unlock();
      job->fn(job->ctx, index);
      lk.lock();
      job->finished.fetch_add(1, std::memory_order_release);
      if (done_waiters_ > 0) done_cv_.notify_all();
      continue;
    }
    lk.unlock();
    bool got = SpinUntil(
        [this] { return queued_.load(std::memory_order_acquire) > 0 || stopping_.load(std::memory_order_relaxed); });
    lk.lock();
    if (!got) {
      ++sleepers_;
      work_cv_.wait(lk, [this] { return stop_ || !queue_.empty(); });
      --sleepers_;
    }
  }
}

}  // namespace ge::rt
