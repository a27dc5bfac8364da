// Multi-stream model execution: cooperative model streams run by the caller and core helpers.
#include "runtime/model_scheduler.h"

#include <fmt/format.h>

#include <algorithm>
#include <thread>

#include "base/error_message.h"
#include "base/trace.h"
#include "runtime/spin_wait.h"

namespace ge::rt {

ModelScheduler::ModelScheduler(CorePool* pool, const StreamTasks* tasks, uint32_t num_events,
                               const TaskTraceInfo* trace)
    : pool_(pool),
      tasks_(tasks),
      num_events_(num_events),
      trace_(trace),
      pc_(tasks->size()),
      parked_(num_events),
      counts_(new std::atomic<uint32_t>[num_events]) {
  ready_.reserve(tasks->size());
}

void ModelScheduler::Reset() {
  std::lock_guard<std::mutex> lk(mu_);
  const uint32_t n = static_cast<uint32_t>(tasks_->size());
  ready_.clear();
  for (uint32_t s = n; s > 0; --s) ready_.push_back(s - 1);  // stream 0 is taken first
  std::fill(pc_.begin(), pc_.end(), 0);
  for (auto& p : parked_) p.clear();
  for (uint32_t e = 0; e < num_events_; ++e) counts_[e].store(0, std::memory_order_relaxed);
  num_ready_.store(n, std::memory_order_relaxed);
  over_.store(false, std::memory_order_relaxed);
  finished_ = 0;
  running_ = 0;
  error_ = ACL_SUCCESS;
  error_msg_.clear();
}

ModelScheduler::~ModelScheduler() {
  detach_.store(true, std::memory_order_seq_cst);
  if (job_submitted_) pool_->Wait(&job_);  // withdraws items no core took; attached ones leave
}

aclError ModelScheduler::Run() {
  Reset();  // no helper is inside Work() (the previous Run waited for that)
  const uint32_t n = static_cast<uint32_t>(tasks_->size());
  const uint32_t want = std::min(n - 1, pool_->num_threads());
  if (job_submitted_ && attached_.load(std::memory_order_acquire) == 0) {
    pool_->Wait(&job_);  // every item detached: the job can be reused
    job_submitted_ = false;
  }
  gen_.fetch_add(1, std::memory_order_seq_cst);  // attached helpers join this execution
  if (!job_submitted_ && want > 0) {
    job_.fn = HelperEntry;
    job_.ctx = this;
    job_.count = want;
    job_.next = 0;
    job_.taken_back = 0;
    job_.finished.store(0, std::memory_order_relaxed);
    attached_.store(want, std::memory_order_seq_cst);
    job_submitted_ = true;
    pool_->Submit(&job_);
  }
  Work();
  // Dekker pairing with HelperLoop: a helper announces itself in helpers_in_ before it looks at
  // over_, so once helpers_in_ reads 0 here, any later helper sees this execution over.
  auto helpers_out = [this] { return helpers_in_.load(std::memory_order_seq_cst) == 0; };
  while (!SpinUntil(helpers_out)) std::this_thread::yield();
  std::lock_guard<std::mutex> lk(mu_);
  if (error_ != ACL_SUCCESS) SetRecentErrMsg(error_msg_);
  return error_;
}

void ModelScheduler::HelperEntry(void* ctx, uint32_t /*index*/) { static_cast<ModelScheduler*>(ctx)->HelperLoop(); }

// Joins the execution that submitted the job (or a later one), then every execution that starts
// within the spin budget after it finished its part; then detaches.
void ModelScheduler::HelperLoop() {
  uint64_t seen = 0;  // generation last worked on; 0 = none yet (the submitting one is >= 1)
  for (;;) {
    const bool next = SpinUntil([this, seen] {
      return gen_.load(std::memory_order_acquire) != seen || detach_.load(std::memory_order_relaxed);
    });
    if (!next || detach_.load(std::memory_order_acquire)) break;
    helpers_in_.fetch_add(1, std::memory_order_seq_cst);
    seen = gen_.load(std::memory_order_seq_cst);
    Work();  // returns at once if that execution is already over
    helpers_in_.fetch_sub(1, std::memory_order_seq_cst);
  }
  attached_.fetch_sub(1, std::memory_order_seq_cst);
}

void ModelScheduler::Work() {
  std::unique_lock<std::mutex> lk(mu_);
  while (!over_.load(std::memory_order_seq_cst)) {
    if (!ready_.empty()) {
      const uint32_t s = ready_.back();
      ready_.pop_back();
      num_ready_.store(static_cast<uint32_t>(ready_.size()), std::memory_order_relaxed);
      ++running_;
      lk.unlock();
      RunStream(s);
      lk.lock();
      continue;
    }
    lk.unlock();
    SpinUntil(
        [this] { return num_ready_.load(std::memory_order_relaxed) > 0 || over_.load(std::memory_order_relaxed); });
    // over_ is set once per execution and never cleared during it: leave without taking mu_,
    // which the thread that set it may still hold (blocking on it would cost a futex hand-off).
    if (over_.load(std::memory_order_acquire)) return;
    lk.lock();
    cv_.wait(lk, [this] { return over_.load(std::memory_order_relaxed) || !ready_.empty(); });
  }
}

void ModelScheduler::RunStream(uint32_t stream) {
  const std::vector<ModelTask>& list = (*tasks_)[stream];
  static const TaskTraceInfo kNoInfo;
  const bool traced = trace::Enabled();
  // pc_[stream] is only written by the thread running the stream; taking the stream from
  // ready_ under mu_ orders this read after that write.
  for (uint32_t pc = pc_[stream]; pc < list.size(); ++pc) {
    const ModelTask& task = list[pc];
    if (task.type == ModelTaskType::kEventRecord) {
      Record(task.event);
    } else if (task.type == ModelTaskType::kEventWait) {
      if (counts_[task.event].load(std::memory_order_acquire) >= task.required) continue;
      if (ParkIfUnmet(stream, pc, task)) return;
    } else if (traced) {
      RunComputeTaskTraced(*pool_, task, trace::kStreamTrack + static_cast<int>(stream), trace_ ? *trace_ : kNoInfo);
    } else {
      RunComputeTask(*pool_, task);
    }
  }
  std::lock_guard<std::mutex> lk(mu_);
  FinishStreamLocked();
}

void ModelScheduler::Record(uint32_t event) {
  uint32_t woken = 0, ready = 0;
  {
    std::lock_guard<std::mutex> lk(mu_);
    const uint32_t count = counts_[event].fetch_add(1, std::memory_order_release) + 1;
    std::vector<uint32_t>& parked = parked_[event];
    for (size_t i = 0; i < parked.size();) {
      const uint32_t s = parked[i];
      if ((*tasks_)[s][pc_[s]].required <= count) {
        ready_.push_back(s);
        parked[i] = parked.back();
        parked.pop_back();
        ++woken;
      } else {
        ++i;
      }
    }
    ready = static_cast<uint32_t>(ready_.size());
  }
  if (woken == 0) return;
  // The spinners' hint, published after the unlock for the same reason as in Work(). A late
  // store can only overstate what is ready (a spinner then finds nothing and waits on cv_).
  num_ready_.store(ready, std::memory_order_relaxed);
  for (uint32_t i = 0; i < woken; ++i) cv_.notify_one();
}

bool ModelScheduler::ParkIfUnmet(uint32_t stream, uint32_t pc, const ModelTask& wait) {
  std::lock_guard<std::mutex> lk(mu_);
  if (counts_[wait.event].load(std::memory_order_acquire) >= wait.required) return false;
  pc_[stream] = pc;
  parked_[wait.event].push_back(stream);
  --running_;
  CheckStuckLocked();
  return true;
}

void ModelScheduler::FinishStreamLocked() {
  --running_;
  ++finished_;
  if (finished_ == tasks_->size()) {
    over_.store(true, std::memory_order_relaxed);
    cv_.notify_all();
  } else {
    CheckStuckLocked();
  }
}

// Nothing running and nothing ready, yet streams remain: every remaining stream waits on a
// record that no stream can make any more.
void ModelScheduler::CheckStuckLocked() {
  if (running_ != 0 || !ready_.empty() || finished_ == tasks_->size()) return;
  std::string waits;
  for (uint32_t e = 0; e < num_events_; ++e) {
    for (uint32_t s : parked_[e]) {
      waits += fmt::format("{}model stream {} waits on event {} (needs {} records, got {})", waits.empty() ? "" : "; ",
                           s, e, (*tasks_)[s][pc_[s]].required, counts_[e].load(std::memory_order_relaxed));
    }
  }
  error_ = ACL_ERROR_RT_INTERNAL_ERROR;
  error_msg_ = "model execution cannot progress: " + waits;
  over_.store(true, std::memory_order_relaxed);
  cv_.notify_all();
}

}  // namespace ge::rt
