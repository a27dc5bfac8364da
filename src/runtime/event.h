// A device event (CUDA semantics). Each record enqueued gets the next generation number; a wait
// or synchronize captures the newest generation enqueued at call time and waits for it (a later
// record completing also satisfies it). Waiting on a never-recorded event returns at once.
#ifndef GE_SRC_RUNTIME_EVENT_H_
#define GE_SRC_RUNTIME_EVENT_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace ge::rt {

class Event {
 public:
  // Host side, when a record is enqueued: returns its generation (1, 2, ...).
  uint64_t NextRecord() { return enqueued_.fetch_add(1, std::memory_order_acq_rel) + 1; }
  // The generation a wait enqueued now must wait for (0 = never recorded: nothing to wait for).
  uint64_t LatestRecord() const { return enqueued_.load(std::memory_order_acquire); }

  // Device side: the record with generation `gen` has executed.
  void Complete(uint64_t gen);
  bool IsComplete(uint64_t gen) const { return completed_.load(std::memory_order_acquire) >= gen; }
  // Blocks until generation `gen` has executed (spins briefly first).
  void WaitFor(uint64_t gen);

 private:
  std::atomic<uint64_t> enqueued_{0};
  std::atomic<uint64_t> completed_{0};
  std::atomic<int> waiters_{0};
  std::mutex mu_;
  std::condition_variable cv_;
};

}  // namespace ge::rt

#endif  // GE_SRC_RUNTIME_EVENT_H_
