// Bounded spin-then-block waiting. Device threads spin briefly (GE_DEVICE_SPIN_US, default 300 µs)
// before sleeping, so back-to-back work avoids the futex wakeup latency but idle threads sleep.
// The budget spans the single-block kernels between two multi-block ones (efficientnet's squeeze-
// and-excitation: a 100 µs pool and two tiny convolutions): at 50 µs the core threads slept
// there, and waking one cost 40-60 µs on a VM before the next kernel's second block started
// (2 threads: efficientnet_b0 9.8 -> 8.9 ms, mobilenet_v3_small 1.65 -> 1.52 ms).
#ifndef GE_SRC_RUNTIME_SPIN_WAIT_H_
#define GE_SRC_RUNTIME_SPIN_WAIT_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace ge::rt {

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#else
  std::this_thread::yield();
#endif
}

// Microseconds that device threads spin before blocking (read once from GE_DEVICE_SPIN_US).
int64_t SpinMicros();

// Spins until done() is true or the spin budget runs out; returns done()'s last value. After a
// few microseconds of pause instructions it yields, so a spinner sharing a core with the thread
// it waits for lets that thread run.
template <typename Pred>
bool SpinUntil(Pred done) {
  const int64_t budget_us = SpinMicros();
  if (done()) return true;
  if (budget_us <= 0) return false;
  const auto start = std::chrono::steady_clock::now();
  const auto limit = start + std::chrono::microseconds(budget_us);
  const auto yield_after = start + std::chrono::microseconds(budget_us < 4 ? budget_us : 4);
  for (uint32_t i = 1;; ++i) {
    for (int k = 0; k < 16; ++k) {
      if (done()) return true;
      CpuRelax();
    }
    auto now = std::chrono::steady_clock::now();
    if (now >= limit) return done();
    if (now >= yield_after) std::this_thread::yield();
  }
}

// A test-and-test-and-set lock for critical sections of a few hundred nanoseconds. Waiters yield
// after a short spin, so a holder preempted on an oversubscribed machine gets its CPU back.
class SpinLock {
 public:
  void lock() {
    for (uint32_t i = 0;; ++i) {
      if (!locked_.exchange(true, std::memory_order_acquire)) return;
      while (locked_.load(std::memory_order_relaxed)) {
        if (++i < 64) {
          CpuRelax();
        } else {
          std::this_thread::yield();
        }
      }
    }
  }
  void unlock() { locked_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> locked_{false};
};

class SpinLockGuard {
 public:
  explicit SpinLockGuard(SpinLock& lock) : lock_(lock) { lock_.lock(); }
  ~SpinLockGuard() { lock_.unlock(); }
  SpinLockGuard(const SpinLockGuard&) = delete;
  SpinLockGuard& operator=(const SpinLockGuard&) = delete;

 private:
  SpinLock& lock_;
};

}  // namespace ge::rt

#endif  // GE_SRC_RUNTIME_SPIN_WAIT_H_
