// CorePool's hand-out order: the submitting thread takes a job's items from the front, core
// threads from the back (GE_CORE_ENDS, core_pool.cc), so a kernel's row blocks stay split in two
// contiguous halves from one kernel to the next; and Wait() withdraws only the items no thread
// took from either end.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "runtime/core_pool.h"

namespace ge::rt {
namespace {

struct Record {
  std::vector<std::thread::id> by;  // thread that ran item i
  std::vector<std::atomic<int>> runs;
  explicit Record(uint32_t n) : by(n), runs(n) {}
};

void RunItem(void* ctx, uint32_t index) {
  auto* r = static_cast<Record*>(ctx);
  r->by[index] = std::this_thread::get_id();
  r->runs[index].fetch_add(1);
  std::this_thread::sleep_for(std::chrono::milliseconds(2));  // long enough for the core thread to join
}

void Init(Job* job, Record* r, uint32_t items) {
  job->fn = RunItem;
  job->ctx = r;
  job->count = items;
}

TEST(CorePool, SubmitterTakesTheFrontCoreThreadsTheBack) {
  CorePool pool(2);
  for (int attempt = 0; attempt < 5; ++attempt) {
    constexpr uint32_t kItems = 16;
    Record r(kItems);
    Job job;
    Init(&job, &r, kItems);
    pool.Run(&job);
    const auto me = std::this_thread::get_id();
    int last_mine = -1, first_other = kItems;
    for (uint32_t i = 0; i < kItems; ++i) {
      EXPECT_EQ(r.runs[i].load(), 1) << "item " << i;
      if (r.by[i] == me) {
        last_mine = std::max<int>(last_mine, static_cast<int>(i));
      } else {
        first_other = std::min<int>(first_other, static_cast<int>(i));
      }
    }
    EXPECT_LT(last_mine, first_other) << "the submitter's items are a prefix, the core thread's a suffix";
  }
}

TEST(CorePool, WaitWithdrawsOnlyTheUntakenMiddle) {
  CorePool pool(2);
  constexpr uint32_t kItems = 8;
  Record r(kItems);
  Job job;
  Init(&job, &r, kItems);
  pool.Submit(&job);
  // The core thread takes an item from the back; wait until it has (up to 10 s on a loaded
  // machine), then withdraw the rest: the submitter took none.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  auto started = [&r] {
    for (auto& n : r.runs)
      if (n.load() > 0) return true;
    return false;
  };
  while (!started() && std::chrono::steady_clock::now() < give_up) std::this_thread::yield();
  pool.Wait(&job);
  const uint32_t taken = job.count;
  EXPECT_EQ(job.finished.load(), taken);
  EXPECT_GE(taken, 1u);
  for (uint32_t i = 0; i < kItems; ++i)
    EXPECT_EQ(r.runs[i].load(), i >= kItems - taken ? 1 : 0) << "item " << i << " of " << taken << " taken";
}

}  // namespace
}  // namespace ge::rt
