// Models (aclmdlRI): single and multi-stream task lists, events between model streams, more
// model streams than cores, asynchronous execution on streams, deadlock detection, misuse.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl_rt.h"
#include "runtime_test_util.h"

namespace ge::rt::testing {
namespace {

class ScopedModel {
 public:
  ScopedModel(uint32_t streams, uint32_t events) { EXPECT_EQ(aclmdlRICreate(streams, events, &model_), ACL_SUCCESS); }
  ~ScopedModel() { EXPECT_EQ(aclmdlRIDestroy(model_), ACL_SUCCESS); }
  ScopedModel(const ScopedModel&) = delete;
  ScopedModel& operator=(const ScopedModel&) = delete;
  aclmdlRI get() const { return model_; }

 private:
  aclmdlRI model_ = nullptr;
};

// out[i] = in[i] * mul + add over n elements; addrs {in, out}; tiling AxpyTiling.
struct AxpyTiling {
  int64_t mul, add, n;
};
void AxpyKernel(const aclrtKernelArgs* args) {
  auto t = TilingAs<AxpyTiling>(args);
  auto* in = static_cast<const int64_t*>(args->addrs[0]);
  auto* out = static_cast<int64_t*>(args->addrs[1]);
  // Blocks split the elements.
  int64_t per = (t.n + args->blockDim - 1) / args->blockDim;
  int64_t begin = per * args->blockIdx, end = std::min<int64_t>(t.n, begin + per);
  for (int64_t i = begin; i < end; ++i) out[i] = in[i] * t.mul + t.add;
}

aclError AddAxpy(aclmdlRI model, uint32_t stream, uint32_t dim, int64_t* in, int64_t* out, AxpyTiling t) {
  void* addrs[] = {in, out};
  return aclmdlRIAddKernelTask(model, stream, AxpyKernel, dim, addrs, 2, &t, sizeof(t));
}

TEST(RuntimeModel, SingleStreamChainExecutedManyTimes) {
  constexpr int kTasks = 100;
  constexpr int64_t kN = 8;
  std::vector<std::vector<int64_t>> bufs(kTasks + 1, std::vector<int64_t>(kN, 0));
  std::vector<int64_t> result(kN, 0);
  ScopedModel model(1, 0);
  for (int t = 0; t < kTasks; ++t) {
    ASSERT_EQ(AddAxpy(model.get(), 0, t % 10 == 0 ? 4 : 1, bufs[t].data(), bufs[t + 1].data(), {1, t % 7, kN}),
              ACL_SUCCESS);
  }
  ASSERT_EQ(aclmdlRIAddMemcpyTask(model.get(), 0, result.data(), bufs[kTasks].data(), kN * sizeof(int64_t)),
            ACL_SUCCESS);
  ASSERT_EQ(aclmdlRILoadComplete(model.get()), ACL_SUCCESS);
  uint32_t num_tasks = 0;
  ASSERT_EQ(aclmdlRIGetTaskNum(model.get(), &num_tasks), ACL_SUCCESS);
  EXPECT_EQ(num_tasks, kTasks + 1u);
  int64_t total_add = 0;
  for (int t = 0; t < kTasks; ++t) total_add += t % 7;
  for (int run = 0; run < 200; ++run) {
    for (int64_t i = 0; i < kN; ++i) bufs[0][i] = run * 100 + i;
    ASSERT_EQ(aclmdlRIExecute(model.get(), -1), ACL_SUCCESS);
    for (int64_t i = 0; i < kN; ++i) ASSERT_EQ(result[i], run * 100 + i + total_add);
  }
}

// The diamond: stream 0 computes a = x*2, records e0; streams 1..S-1 wait e0 and compute
// b_s = a*s + s (multi-block), each records e_s; stream 0 waits them all and sums into out.
struct Diamond {
  static constexpr int64_t kN = 64;
  explicit Diamond(uint32_t streams) : streams(streams), b(streams, std::vector<int64_t>(kN)) {}
  uint32_t streams;
  std::vector<int64_t> x = std::vector<int64_t>(kN), a = std::vector<int64_t>(kN);
  std::vector<std::vector<int64_t>> b;
  std::vector<int64_t> out = std::vector<int64_t>(kN);
};

void SumKernel(const aclrtKernelArgs* args) {
  auto* d = static_cast<Diamond*>(args->addrs[0]);
  for (int64_t i = 0; i < Diamond::kN; ++i) {
    int64_t sum = 0;
    for (uint32_t s = 1; s < d->streams; ++s) sum += d->b[s][i];
    d->out[i] = sum;
  }
}

void BuildDiamond(aclmdlRI model, Diamond* d) {
  const uint32_t n = d->streams;
  ASSERT_EQ(AddAxpy(model, 0, 1, d->x.data(), d->a.data(), {2, 0, Diamond::kN}), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIAddEventRecord(model, 0, 0), ACL_SUCCESS);
  for (uint32_t s = 1; s < n; ++s) {
    ASSERT_EQ(aclmdlRIAddEventWait(model, s, 0), ACL_SUCCESS);
    ASSERT_EQ(AddAxpy(model, s, 1 + s % 4, d->a.data(), d->b[s].data(), {s, s, Diamond::kN}), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIAddEventRecord(model, s, s), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIAddEventWait(model, 0, s), ACL_SUCCESS);
  }
  void* addrs[] = {d};
  ASSERT_EQ(aclmdlRIAddKernelTask(model, 0, SumKernel, 1, addrs, 1, nullptr, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRILoadComplete(model), ACL_SUCCESS);
}

void ExpectDiamond(const Diamond& d, int run) {
  for (int64_t i = 0; i < Diamond::kN; ++i) {
    int64_t a = (run + i) * 2, expected = 0;
    for (int64_t s = 1; s < d.streams; ++s) expected += a * s + s;
    ASSERT_EQ(d.out[i], expected) << "run " << run << " i " << i;
  }
}

void RunDiamond(uint32_t streams, int runs) {
  Diamond d(streams);
  ScopedModel model(streams, streams);
  BuildDiamond(model.get(), &d);
  for (int run = 0; run < runs; ++run) {
    for (int64_t i = 0; i < Diamond::kN; ++i) d.x[i] = run + i;
    ASSERT_EQ(aclmdlRIExecute(model.get(), -1), ACL_SUCCESS) << aclGetRecentErrMsg();
    ExpectDiamond(d, run);
  }
}

// Per-task timing: one total per kernel task (in the order added), the executions counted, the
// results unchanged; cleared when taken; refused for a multi-stream model.
TEST(RuntimeModel, ProfilingTimesEveryKernelTask) {
  constexpr int kTasks = 5;
  constexpr int64_t kN = 4096;
  std::vector<std::vector<int64_t>> bufs(kTasks + 1, std::vector<int64_t>(kN, 1));
  ScopedModel model(1, 0);
  for (int t = 0; t < kTasks; ++t)
    ASSERT_EQ(AddAxpy(model.get(), 0, t == 2 ? 4 : 1, bufs[t].data(), bufs[t + 1].data(), {2, 0, kN}), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRISetProfiling(model.get(), 1), ACL_ERROR_RT_MODEL_CONTEXT);  // not loaded yet
  ASSERT_EQ(aclmdlRILoadComplete(model.get()), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRISetProfiling(model.get(), 1), ACL_SUCCESS);
  for (int run = 0; run < 3; ++run) ASSERT_EQ(aclmdlRIExecute(model.get(), -1), ACL_SUCCESS);
  EXPECT_EQ(bufs[kTasks][kN - 1], 32);  // 1 * 2^5
  std::vector<uint64_t> ns(kTasks + 1, 7);
  uint32_t executions = 0;
  ASSERT_EQ(aclmdlRIGetKernelTimes(model.get(), ns.data(), kTasks + 1, &executions), ACL_SUCCESS);
  EXPECT_EQ(executions, 3u);
  for (int t = 0; t < kTasks; ++t) EXPECT_GT(ns[t], 0u) << "task " << t;
  EXPECT_EQ(ns[kTasks], 0u);  // past the kernel tasks
  ASSERT_EQ(aclmdlRIGetKernelTimes(model.get(), ns.data(), kTasks, &executions), ACL_SUCCESS);
  EXPECT_EQ(executions, 0u);
  for (int t = 0; t < kTasks; ++t) EXPECT_EQ(ns[t], 0u);
  ASSERT_EQ(aclmdlRISetProfiling(model.get(), 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIExecute(model.get(), -1), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIGetKernelTimes(model.get(), ns.data(), kTasks, &executions), ACL_SUCCESS);
  EXPECT_EQ(executions, 0u);

  ScopedModel two(2, 0);
  ASSERT_EQ(AddAxpy(two.get(), 0, 1, bufs[0].data(), bufs[1].data(), {1, 0, kN}), ACL_SUCCESS);
  ASSERT_EQ(AddAxpy(two.get(), 1, 1, bufs[2].data(), bufs[3].data(), {1, 0, kN}), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRILoadComplete(two.get()), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRISetProfiling(two.get(), 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("2 streams"), std::string::npos) << aclGetRecentErrMsg();
}

TEST(RuntimeModel, MultiStreamWithEvents) { RunDiamond(4, 300); }

TEST(RuntimeModel, MoreModelStreamsThanCores) {
  for (uint32_t cores : {1u, 2u}) {
    ScopedCoreNum scoped(cores);
    RunDiamond(8, 100);
  }
}

// A chain through every model stream and back: s waits e(s-1), adds, records e(s); stream 0
// waits the last one. Forces a handoff at every step.
void AddOneKernel(const aclrtKernelArgs* args) { ++*static_cast<int64_t*>(args->addrs[0]); }

TEST(RuntimeModel, ChainThroughAllStreamsWithTwoCores) {
  ScopedCoreNum scoped(2);
  constexpr uint32_t kStreams = 6;
  constexpr int kLaps = 20;
  int64_t cell = 0;
  void* addrs[] = {&cell};
  ScopedModel model(kStreams, kStreams);
  for (int lap = 0; lap < kLaps; ++lap) {
    for (uint32_t s = 0; s < kStreams; ++s) {
      if (s > 0 || lap > 0) {
        ASSERT_EQ(aclmdlRIAddEventWait(model.get(), s, (s + kStreams - 1) % kStreams), ACL_SUCCESS);
      }
      ASSERT_EQ(aclmdlRIAddKernelTask(model.get(), s, AddOneKernel, 1, addrs, 1, nullptr, 0), ACL_SUCCESS);
      ASSERT_EQ(aclmdlRIAddEventRecord(model.get(), s, s), ACL_SUCCESS);
    }
  }
  ASSERT_EQ(aclmdlRILoadComplete(model.get()), ACL_SUCCESS);
  for (int run = 1; run <= 50; ++run) {
    ASSERT_EQ(aclmdlRIExecute(model.get(), -1), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(cell, int64_t{run} * kLaps * kStreams);
  }
}

// Execution on a stream waits for prior work there, and later work waits for the model.
void SetKernel(const aclrtKernelArgs* args) { *static_cast<int64_t*>(args->addrs[0]) = TilingAs<int64_t>(args); }
void AppendValueCallback(void* user) {
  auto* p = static_cast<std::pair<int64_t*, std::vector<int64_t>*>*>(user);
  p->second->push_back(*p->first);
}

TEST(RuntimeModel, ExecuteAsyncIsStreamOrdered) {
  for (uint32_t streams : {1u, 3u}) {
    Diamond d(streams == 1 ? 2 : streams);
    ScopedModel model(streams, streams);
    int64_t x0 = 0;
    std::vector<int64_t> seen;
    std::pair<int64_t*, std::vector<int64_t>*> cb{&x0, &seen};
    // Model: x0 += 1 (via axpy on x[0]), callback records the value.
    ASSERT_EQ(AddAxpy(model.get(), 0, 1, &x0, &x0, {1, 1, 1}), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIAddCallbackTask(model.get(), 0, AppendValueCallback, &cb), ACL_SUCCESS);
    for (uint32_t s = 1; s < streams; ++s) {
      ASSERT_EQ(aclmdlRIAddKernelTask(model.get(), s, EmptyKernel, 2, nullptr, 0, nullptr, 0), ACL_SUCCESS);
    }
    ASSERT_EQ(aclmdlRILoadComplete(model.get()), ACL_SUCCESS);
    ScopedStream stream;
    void* addrs[] = {&x0};
    for (int64_t i = 0; i < 100; ++i) {
      int64_t v = i * 10;
      ASSERT_EQ(aclrtLaunchKernel(SetKernel, 1, addrs, 1, &v, sizeof(v), stream.get()), ACL_SUCCESS);
      ASSERT_EQ(aclmdlRIExecuteAsync(model.get(), stream.get()), ACL_SUCCESS);
      ASSERT_EQ(aclmdlRIExecuteAsync(model.get(), stream.get()), ACL_SUCCESS);
    }
    ASSERT_EQ(aclrtSynchronizeStream(stream.get()), ACL_SUCCESS);
    ASSERT_EQ(seen.size(), 200u);
    for (int64_t i = 0; i < 100; ++i) {
      EXPECT_EQ(seen[2 * i], i * 10 + 1);
      EXPECT_EQ(seen[2 * i + 1], i * 10 + 2);
    }
  }
}

TEST(RuntimeModel, DestroyWaitsForPendingAsyncExecutions) {
  ScopedStream stream;
  std::atomic<int64_t> counter{0};
  void* addrs[] = {&counter};
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICreate(2, 0, &model), ACL_SUCCESS);
  for (int i = 0; i < 50; ++i) {
    ASSERT_EQ(aclmdlRIAddKernelTask(model, i % 2, AtomicAddKernel, 1, addrs, 1, nullptr, 0), ACL_SUCCESS);
  }
  ASSERT_EQ(aclmdlRILoadComplete(model), ACL_SUCCESS);
  for (int i = 0; i < 40; ++i) ASSERT_EQ(aclmdlRIExecuteAsync(model, stream.get()), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  EXPECT_EQ(counter.load(), 40 * 50);
}

TEST(RuntimeModel, WaitOnEventNeverRecordedIsANoOp) {
  ScopedModel model(2, 2);
  int64_t cell = 0;
  void* addrs[] = {&cell};
  ASSERT_EQ(aclmdlRIAddEventWait(model.get(), 0, 1), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIAddKernelTask(model.get(), 0, AddOneKernel, 1, addrs, 1, nullptr, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIAddEventWait(model.get(), 1, 1), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRILoadComplete(model.get()), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIExecute(model.get(), -1), ACL_SUCCESS);
  EXPECT_EQ(cell, 1);
}

TEST(RuntimeModel, CyclicWaitsFailInsteadOfHanging) {
  {
    ScopedModel model(2, 2);
    ASSERT_EQ(aclmdlRIAddEventWait(model.get(), 0, 0), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIAddEventRecord(model.get(), 0, 1), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIAddEventWait(model.get(), 1, 1), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIAddEventRecord(model.get(), 1, 0), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRILoadComplete(model.get()), ACL_SUCCESS);
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(aclmdlRIExecute(model.get(), -1), ACL_ERROR_RT_INTERNAL_ERROR);
      EXPECT_NE(std::string(aclGetRecentErrMsg()).find("cannot progress"), std::string::npos);
    }
    ScopedStream stream;  // asynchronously, the error comes back from the synchronize
    ASSERT_EQ(aclmdlRIExecuteAsync(model.get(), stream.get()), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream.get()), ACL_ERROR_RT_INTERNAL_ERROR);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("cannot progress"), std::string::npos);
    EXPECT_EQ(aclrtSynchronizeStream(stream.get()), ACL_SUCCESS);  // reported once
  }
  ScopedModel single(1, 1);
  ASSERT_EQ(aclmdlRIAddEventWait(single.get(), 0, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIAddEventRecord(single.get(), 0, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRILoadComplete(single.get()), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIExecute(single.get(), -1), ACL_ERROR_RT_INTERNAL_ERROR);
}

TEST(RuntimeModel, MisuseReturnsErrors) {
  aclmdlRI model = nullptr;
  EXPECT_EQ(aclmdlRICreate(0, 0, &model), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRICreate(1, 0, nullptr), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclmdlRICreate(2, 1, &model), ACL_SUCCESS);
  int64_t cell = 0;
  void* addrs[] = {&cell};
  EXPECT_EQ(aclmdlRIAddKernelTask(model, 2, AddOneKernel, 1, addrs, 1, nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("model stream 2 out of range"), std::string::npos);
  EXPECT_EQ(aclmdlRIAddKernelTask(model, 0, nullptr, 1, addrs, 1, nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRIAddKernelTask(model, 0, AddOneKernel, 0, addrs, 1, nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRIAddKernelTask(model, 0, AddOneKernel, 1, nullptr, 1, nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRIAddMemcpyTask(model, 0, nullptr, &cell, 8), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRIAddCallbackTask(model, 0, nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRIAddEventRecord(model, 0, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRIAddEventWait(model, 1, 5), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRIExecute(model, -1), ACL_ERROR_RT_MODEL_CONTEXT);  // not loaded
  EXPECT_EQ(aclmdlRIExecuteAsync(model, nullptr), ACL_ERROR_RT_MODEL_CONTEXT);
  ASSERT_EQ(aclmdlRIAddKernelTask(model, 1, AddOneKernel, 1, addrs, 1, nullptr, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRILoadComplete(model), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRILoadComplete(model), ACL_ERROR_RT_MODEL_CONTEXT);
  EXPECT_EQ(aclmdlRIAddKernelTask(model, 0, AddOneKernel, 1, addrs, 1, nullptr, 0), ACL_ERROR_RT_MODEL_CONTEXT);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("already loaded"), std::string::npos);
  EXPECT_EQ(aclmdlRIAddEventRecord(model, 0, 0), ACL_ERROR_RT_MODEL_CONTEXT);
  EXPECT_EQ(aclmdlRIExecute(model, -2), ACL_ERROR_INVALID_PARAM);
  int bogus = 0;
  EXPECT_EQ(aclmdlRIExecuteAsync(model, &bogus), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclmdlRIExecute(model, 1000), ACL_SUCCESS);
  EXPECT_EQ(cell, 1);
  auto* fake = reinterpret_cast<aclmdlRI>(&bogus);
  EXPECT_EQ(aclmdlRIExecute(fake, -1), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclmdlRIGetTaskNum(fake, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRIDestroy(fake), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_ERROR_RT_PARAM_INVALID);
}

// Many model streams, each a long list of kernels with event edges to its neighbour, executed
// repeatedly, sync and async, while a plain stream hammers the same cores.
void StreamCounterKernel(const aclrtKernelArgs* args) {
  auto* counters = static_cast<int64_t*>(args->addrs[0]);
  counters[TilingAs<uint32_t>(args)] += 1;
}

TEST(RuntimeStress, ModelManyStreamsManyRuns) {
  constexpr uint32_t kStreams = 8;
  constexpr int kKernels = 250;
  std::vector<int64_t> counters(kStreams, 0);
  std::atomic<int64_t> shared{0};
  void* addrs[] = {counters.data()};
  void* shared_addrs[] = {&shared};
  ScopedModel model(kStreams, kStreams);
  for (uint32_t s = 0; s < kStreams; ++s) {
    for (int k = 0; k < kKernels; ++k) {
      if (k == kKernels / 2 && s > 0) {
        ASSERT_EQ(aclmdlRIAddEventWait(model.get(), s, s - 1), ACL_SUCCESS);
      }
      ASSERT_EQ(aclmdlRIAddKernelTask(model.get(), s, StreamCounterKernel, 1, addrs, 1, &s, sizeof(s)), ACL_SUCCESS);
      if (k % 50 == 0) {
        ASSERT_EQ(aclmdlRIAddKernelTask(model.get(), s, AtomicAddKernel, 3, shared_addrs, 1, nullptr, 0), ACL_SUCCESS);
      }
      if (k == kKernels / 2) {
        ASSERT_EQ(aclmdlRIAddEventRecord(model.get(), s, s), ACL_SUCCESS);
      }
    }
  }
  ASSERT_EQ(aclmdlRILoadComplete(model.get()), ACL_SUCCESS);
  ScopedStream stream, noise;
  std::atomic<int64_t> noise_count{0};
  void* noise_addrs[] = {&noise_count};
  constexpr int kRuns = 40;
  for (int run = 0; run < kRuns; ++run) {
    ASSERT_EQ(aclrtLaunchKernel(AtomicAddKernel, 4, noise_addrs, 1, nullptr, 0, noise.get()), ACL_SUCCESS);
    if (run % 2) {
      ASSERT_EQ(aclmdlRIExecute(model.get(), -1), ACL_SUCCESS) << aclGetRecentErrMsg();
    } else {
      ASSERT_EQ(aclmdlRIExecuteAsync(model.get(), stream.get()), ACL_SUCCESS);
    }
  }
  ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  for (uint32_t s = 0; s < kStreams; ++s) EXPECT_EQ(counters[s], int64_t{kRuns} * kKernels);
  EXPECT_EQ(shared.load(), int64_t{kRuns} * kStreams * (kKernels / 50) * 3);
  EXPECT_EQ(noise_count.load(), kRuns * 4);
}

// Zero-copy I/O: a loaded model's kernel address is rebound between executions, including while
// an asynchronous execution of the old binding is still queued on a stream.
TEST(RuntimeModel, UpdateTaskAddrRebindsBetweenExecutions) {
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICreate(2, 1, &model), ACL_SUCCESS);
  int64_t a = 0, b = 0, other = 0;
  void* to_a[] = {&a};
  void* to_other[] = {&other};
  ASSERT_EQ(aclmdlRIAddEventWait(model, 1, 0), ACL_SUCCESS);                                      // stream 1, task 0
  ASSERT_EQ(aclmdlRIAddKernelTask(model, 1, AddOneKernel, 1, to_a, 1, nullptr, 0), ACL_SUCCESS);  // task 1
  ASSERT_EQ(aclmdlRIAddKernelTask(model, 0, AddOneKernel, 1, to_other, 1, nullptr, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIAddEventRecord(model, 0, 0), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIUpdateTaskAddr(model, 1, 1, 0, &b), ACL_ERROR_RT_MODEL_CONTEXT);  // not loaded yet
  ASSERT_EQ(aclmdlRILoadComplete(model), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIExecute(model, -1), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  for (int i = 0; i < 50; ++i) ASSERT_EQ(aclmdlRIExecuteAsync(model, stream), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIUpdateTaskAddr(model, 1, 1, 0, &b), ACL_SUCCESS);  // waits for the 50 queued
  EXPECT_EQ(a, 51);
  ASSERT_EQ(aclmdlRIExecute(model, -1), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIExecuteAsync(model, stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_EQ(a, 51);
  EXPECT_EQ(b, 2);
  EXPECT_EQ(other, 53);
  EXPECT_EQ(aclmdlRIUpdateTaskAddr(model, 1, 0, 0, &b), ACL_ERROR_INVALID_PARAM);  // an event wait
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("task 0 of model stream 1 is not a kernel task"), std::string::npos)
      << aclGetRecentErrMsg();
  EXPECT_EQ(aclmdlRIUpdateTaskAddr(model, 1, 1, 1, &b), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("address 1 out of range (the kernel task has 1)"),
            std::string::npos);
  EXPECT_EQ(aclmdlRIUpdateTaskAddr(model, 2, 0, 0, &b), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRIUpdateTaskAddr(model, 0, 7, 0, &b), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

// Helpers stay attached to a multi-stream model between close executions and detach after the
// spin budget (GE_DEVICE_SPIN_US, 50 us by default): bursts of executions separated by idle gaps
// make them detach and re-attach; destroying the model right after a burst, with helpers still
// attached, must not wait long or touch freed state (the sanitizer builds run this).
TEST(RuntimeModel, HelpersReattachAfterIdleGapsAndLeaveOnDestroy) {
  ScopedCoreNum scoped(3);  // two core threads: both streams' helpers can attach
  for (int model_round = 0; model_round < 3; ++model_round) {
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICreate(3, 2, &model), ACL_SUCCESS);
    int64_t a = 0, b = 0, c = 0;
    void* to_a[] = {&a};
    void* to_b[] = {&b};
    void* to_c[] = {&c};
    for (int k = 0; k < 50; ++k) {
      ASSERT_EQ(aclmdlRIAddKernelTask(model, 0, AddOneKernel, 1, to_a, 1, nullptr, 0), ACL_SUCCESS);
      ASSERT_EQ(aclmdlRIAddKernelTask(model, 1, AddOneKernel, 1, to_b, 1, nullptr, 0), ACL_SUCCESS);
      ASSERT_EQ(aclmdlRIAddKernelTask(model, 2, AddOneKernel, 1, to_c, 1, nullptr, 0), ACL_SUCCESS);
    }
    ASSERT_EQ(aclmdlRIAddEventRecord(model, 1, 0), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIAddEventRecord(model, 2, 1), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIAddEventWait(model, 0, 0), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIAddEventWait(model, 0, 1), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRILoadComplete(model), ACL_SUCCESS);
    int64_t runs = 0;
    for (int burst = 0; burst < 4; ++burst) {
      for (int i = 0; i < 25; ++i, ++runs) {
        ASSERT_EQ(aclmdlRIExecute(model, -1), ACL_SUCCESS);
        // stream 0 waited for both others' records: all three counters are complete
        ASSERT_EQ(b, 50 * (runs + 1));
        ASSERT_EQ(c, 50 * (runs + 1));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));  // past the spin budget: detach
    }
    for (int i = 0; i < 10; ++i, ++runs) ASSERT_EQ(aclmdlRIExecute(model, -1), ACL_SUCCESS);
    EXPECT_EQ(a, 50 * runs);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);  // helpers may still be attached
  }
}

}  // namespace
}  // namespace ge::rt::testing
