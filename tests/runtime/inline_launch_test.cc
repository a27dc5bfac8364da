// Inline launch: a kernel launched on an idle stream runs on the launching thread (a wider one
// with the core pool's threads taking the other blocks).
// Stream order, Synchronize and kernel-error reporting must be exactly those of a queued launch,
// from one thread and from two threads sharing the stream.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl_rt.h"
#include "runtime_test_util.h"

namespace ge::rt::testing {
namespace {

// What the tasks of one sequence append to; only stream order protects it (TSan checks that).
struct Log {
  std::vector<int64_t> seq;
  std::vector<std::thread::id> threads;
  std::atomic<int> running{0};  // tasks of the stream running now (must never exceed 1)
  std::atomic<int> overlaps{0};
};

void Enter(Log* log) {
  if (log->running.fetch_add(1) != 0) log->overlaps.fetch_add(1);
}
void Leave(Log* log) { log->running.fetch_sub(1); }

// addrs[0]: Log*; tiling: int64_t sequence number. Block 0 appends (other blocks only spin).
void AppendKernel(const aclrtKernelArgs* args) {
  auto* log = static_cast<Log*>(args->addrs[0]);
  if (args->blockIdx != 0) return;
  Enter(log);
  log->seq.push_back(TilingAs<int64_t>(args));
  log->threads.push_back(std::this_thread::get_id());
  Leave(log);
}

// As AppendKernel, slowly (so that later launches find the stream busy).
void SlowAppendKernel(const aclrtKernelArgs* args) {
  if (args->blockIdx == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  AppendKernel(args);
}

struct CallbackArg {
  Log* log;
  int64_t seq;
};
void AppendCallback(void* user_data) {
  auto* a = static_cast<CallbackArg*>(user_data);
  Enter(a->log);
  a->log->seq.push_back(a->seq);
  a->log->threads.push_back(std::this_thread::get_id());
  Leave(a->log);
}

// Launches task `i` of a mixed sequence: single-block and multi-block kernels, slow ones, and
// host callbacks (always queued: the kernels after one find the stream busy). `args` keeps the callbacks' user data
// alive.
void LaunchMixed(aclrtStream stream, Log* log, int64_t i, std::vector<CallbackArg>* args) {
  void* addrs[] = {log};
  switch (i % 7) {
    case 2: ASSERT_EQ(aclrtLaunchKernel(AppendKernel, 4, addrs, 1, &i, sizeof(i), stream), ACL_SUCCESS); break;
    case 4:
      ASSERT_EQ(aclrtLaunchCallback(AppendCallback, &(*args)[static_cast<size_t>(i)], ACL_CALLBACK_BLOCK, stream),
                ACL_SUCCESS);
      break;
    case 5: ASSERT_EQ(aclrtLaunchKernel(SlowAppendKernel, 2, addrs, 1, &i, sizeof(i), stream), ACL_SUCCESS); break;
    default: ASSERT_EQ(aclrtLaunchKernel(AppendKernel, 1, addrs, 1, &i, sizeof(i), stream), ACL_SUCCESS); break;
  }
}

TEST(InlineLaunch, IdleStreamRunsASingleBlockKernelOnTheCaller) {
  ScopedStream s;
  Log log;
  void* addrs[] = {&log};
  int64_t seq = 0;
  ASSERT_EQ(aclrtSynchronizeStream(s.get()), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernel(AppendKernel, 1, addrs, 1, &seq, sizeof(seq), s.get()), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s.get()), ACL_SUCCESS);
  ASSERT_EQ(log.threads.size(), 1u);
  EXPECT_EQ(log.threads[0], std::this_thread::get_id());
}

// addrs[0]: std::atomic<uint32_t>[8], one counter per block; addrs[1]: std::atomic<int>, blocks run.
void CountBlocksKernel(const aclrtKernelArgs* args) {
  static_cast<std::atomic<uint32_t>*>(args->addrs[0])[args->blockIdx].fetch_add(1);
  std::this_thread::sleep_for(std::chrono::microseconds(200));
  static_cast<std::atomic<int>*>(args->addrs[1])->fetch_add(1);
}

TEST(InlineLaunch, IdleStreamRunsAMultiBlockKernelBeforeTheLaunchReturns) {
  ScopedStream s;
  std::atomic<uint32_t> per_block[8] = {};
  std::atomic<int> done{0};
  void* addrs[] = {per_block, &done};
  ASSERT_EQ(aclrtSynchronizeStream(s.get()), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernel(CountBlocksKernel, 8, addrs, 2, nullptr, 0, s.get()), ACL_SUCCESS);
  EXPECT_EQ(done.load(), 8);  // ran inline: every block finished inside the launch
  for (auto& b : per_block) EXPECT_EQ(b.load(), 1u);
  ASSERT_EQ(aclrtSynchronizeStream(s.get()), ACL_SUCCESS);
}

TEST(InlineLaunch, MixedSequenceFromOneThreadKeepsOrder) {
  ScopedStream s;
  for (int rep = 0; rep < 5; ++rep) {
    Log log;
    constexpr int64_t kTasks = 200;
    std::vector<CallbackArg> args;
    for (int64_t i = 0; i < kTasks; ++i) args.push_back({&log, i});
    for (int64_t i = 0; i < kTasks; ++i) LaunchMixed(s.get(), &log, i, &args);
    ASSERT_EQ(aclrtSynchronizeStream(s.get()), ACL_SUCCESS);
    ASSERT_EQ(log.seq.size(), static_cast<size_t>(kTasks));
    for (int64_t i = 0; i < kTasks; ++i) EXPECT_EQ(log.seq[static_cast<size_t>(i)], i);
    EXPECT_EQ(log.overlaps.load(), 0);
  }
}

TEST(InlineLaunch, TwoThreadsOnOneStreamNeverOverlapAndKeepTheirOrder) {
  ScopedStream s;
  constexpr int64_t kTasks = 300;
  for (int rep = 0; rep < 5; ++rep) {
    Log shared;  // every task of both threads: they must run one at a time
    Log logs[2];
    std::vector<CallbackArg> args[2];
    for (int t = 0; t < 2; ++t)
      for (int64_t i = 0; i < kTasks; ++i) args[t].push_back({&logs[t], i});
    auto worker = [&](int t) {
      for (int64_t i = 0; i < kTasks; ++i) {
        LaunchMixed(s.get(), &logs[t], i, &args[t]);
        void* addrs[] = {&shared};
        ASSERT_EQ(aclrtLaunchKernel(AppendKernel, 1, addrs, 1, &i, sizeof(i), s.get()), ACL_SUCCESS);
      }
    };
    std::thread a(worker, 0), b(worker, 1);
    a.join();
    b.join();
    ASSERT_EQ(aclrtSynchronizeStream(s.get()), ACL_SUCCESS);
    EXPECT_EQ(shared.seq.size(), static_cast<size_t>(2 * kTasks));
    EXPECT_EQ(shared.overlaps.load(), 0);
    for (int t = 0; t < 2; ++t) {
      ASSERT_EQ(logs[t].seq.size(), static_cast<size_t>(kTasks));
      for (int64_t i = 0; i < kTasks; ++i) EXPECT_EQ(logs[t].seq[static_cast<size_t>(i)], i) << "thread " << t;
    }
  }
}

// Blocks until `release` is set; addrs[0]: std::atomic<int>* (0 -> 1 started, waits for 2).
void GateKernel(const aclrtKernelArgs* args) {
  auto* gate = static_cast<std::atomic<int>*>(args->addrs[0]);
  gate->store(1);
  while (gate->load() != 2) std::this_thread::yield();
}

TEST(InlineLaunch, SynchronizeFromAnotherThreadWaitsForAnInlineKernel) {
  ScopedStream s;
  std::atomic<int> gate{0};
  std::atomic<bool> synced{false};
  void* addrs[] = {&gate};
  std::thread launcher(
      [&] { EXPECT_EQ(aclrtLaunchKernel(GateKernel, 1, addrs, 1, nullptr, 0, s.get()), ACL_SUCCESS); });
  while (gate.load() != 1) std::this_thread::yield();
  // Another thread's launch meanwhile is queued behind the running kernel.
  std::atomic<int64_t> counter{0};
  void* counter_addrs[] = {&counter};
  ASSERT_EQ(aclrtLaunchKernel(AtomicAddKernel, 1, counter_addrs, 1, nullptr, 0, s.get()), ACL_SUCCESS);
  std::thread syncer([&] {
    EXPECT_EQ(aclrtSynchronizeStream(s.get()), ACL_SUCCESS);
    synced.store(true);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(synced.load());
  EXPECT_EQ(counter.load(), 0);  // not before the inline kernel ends
  gate.store(2);
  syncer.join();
  launcher.join();
  EXPECT_TRUE(synced.load());
  EXPECT_EQ(counter.load(), 1);
}

void SleepThenAppendCallback(void* user_data) {
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  AppendCallback(user_data);
}

// Reports "bad <seq>" when tiling's seq is odd; addrs[0]: Log*.
void MaybeReportKernel(const aclrtKernelArgs* args) {
  const auto seq = TilingAs<int64_t>(args);
  if (seq % 2 != 0) aclrtReportKernelError(args, ("bad " + std::to_string(seq)).c_str());
  AppendKernel(args);
}

TEST(InlineLaunch, InlineKernelErrorsAreReportedAtSynchronizeWithTheLaunchName) {
  ScopedStream s;
  Log log;
  void* addrs[] = {&log};
  int64_t seq = 1;
  ASSERT_EQ(aclrtSynchronizeStream(s.get()), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernelWithName("node 'n1' (Gather)", MaybeReportKernel, 1, addrs, 1, &seq, sizeof(seq), s.get()),
            ACL_SUCCESS);
  ASSERT_EQ(log.threads.size(), 1u);
  EXPECT_EQ(log.threads[0], std::this_thread::get_id());  // it ran inline
  seq = 3;                                                // a later failure does not replace the first report
  ASSERT_EQ(aclrtLaunchKernelWithName("node 'n3' (Gather)", MaybeReportKernel, 2, addrs, 1, &seq, sizeof(seq), s.get()),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s.get()), ACL_ERROR_RT_KERNEL_DATA);
  EXPECT_STREQ(aclGetRecentErrMsg(), "node 'n1' (Gather): bad 1");
  seq = 2;
  ASSERT_EQ(aclrtLaunchKernelWithName("ok", MaybeReportKernel, 1, addrs, 1, &seq, sizeof(seq), s.get()), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s.get()), ACL_SUCCESS);  // cleared by the synchronize
  // A queued kernel's report and an inline one's after it: the first in stream order wins. (The
  // callback keeps the stream busy, so the kernel after it is queued.)
  seq = 5;
  CallbackArg slow{&log, 4};
  ASSERT_EQ(aclrtLaunchCallback(SleepThenAppendCallback, &slow, ACL_CALLBACK_BLOCK, s.get()), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernelWithName("queued", MaybeReportKernel, 1, addrs, 1, &seq, sizeof(seq), s.get()),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s.get()), ACL_ERROR_RT_KERNEL_DATA);
  EXPECT_STREQ(aclGetRecentErrMsg(), "queued: bad 5");
  EXPECT_EQ(aclrtSynchronizeStream(s.get()), ACL_SUCCESS);
}

}  // namespace
}  // namespace ge::rt::testing
