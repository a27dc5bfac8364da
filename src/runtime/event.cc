// Device events: generation counters with a spin-then-block wait.
#include "runtime/event.h"

#include "runtime/spin_wait.h"

namespace ge::rt {

void Event::Complete(uint64_t gen) {
  uint64_t cur = completed_.load(std::memory_order_relaxed);
  while (cur < gen && !completed_.compare_exchange_weak(cur, gen, std::memory_order_seq_cst)) {
  }
  // Dekker pairing with WaitFor: completed_ is stored before waiters_ is read (both seq_cst).
  if (waiters_.load(std::memory_order_seq_cst) > 0) {
    std::lock_guard<std::mutex> lk(mu_);
    cv_.notify_all();
  }
}

void Event::WaitFor(uint64_t gen) {
  if (gen == 0 || IsComplete(gen)) return;
  if (SpinUntil([this, gen] { return IsComplete(gen); })) return;
  waiters_.fetch_add(1, std::memory_order_seq_cst);
  {
    std::unique_lock<std::mutex> lk(mu_);
    cv_.wait(lk, [this, gen] { return completed_.load(std::memory_order_seq_cst) >= gen; });
  }
  waiters_.fetch_sub(1, std::memory_order_relaxed);
}

}  // namespace ge::rt
