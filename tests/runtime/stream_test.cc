// Streams, events, host callbacks and kernel launch: ordering, SPMD blocks, misuse, stress.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl_rt.h"
#include "runtime_test_util.h"

namespace ge::rt::testing {
namespace {

// Per-stream state touched only by that stream's tasks.
struct OrderState {
  int64_t next = 0;
  int64_t out_of_order = 0;
};

// addrs: OrderState*, std::atomic<int64_t>* total; tiling: int64_t sequence number.
void OrderedIncrementKernel(const aclrtKernelArgs* args) {
  auto* state = static_cast<OrderState*>(args->addrs[0]);
  int64_t seq = TilingAs<int64_t>(args);
  if (seq != state->next) ++state->out_of_order;
  state->next = seq + 1;
  static_cast<std::atomic<int64_t>*>(args->addrs[1])->fetch_add(1);
}

TEST(RuntimeStream, DefaultStreamRunsKernels) {
  std::atomic<int64_t> counter{0};
  void* addrs[] = {&counter};
  int64_t amount = 3;
  for (int i = 0; i < 100; ++i) {
    ASSERT_EQ(aclrtLaunchKernel(AtomicAddKernel, 1, addrs, 1, &amount, sizeof(amount), nullptr), ACL_SUCCESS);
  }
  amount = 1000;  // launch copied the tiling: changing it now affects nothing queued
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  EXPECT_EQ(counter.load(), 300);
}

struct BlockRecord {
  std::atomic<int> runs[64];
  std::atomic<int> bad_dim{0};
  std::atomic<int> bad_tiling{0};
};

struct BlockTiling {
  uint32_t magic;
  uint32_t dim;
  uint8_t pad[200];  // larger than the inline argument buffer
};

void BlockKernel(const aclrtKernelArgs* args) {
  auto* rec = static_cast<BlockRecord*>(args->addrs[0]);
  auto* out = static_cast<int32_t*>(args->addrs[1]);
  auto tiling = TilingAs<BlockTiling>(args);
  if (args->blockDim != tiling.dim || args->numAddrs != 2) rec->bad_dim.fetch_add(1);
  if (tiling.magic != 0xC0FFEE || tiling.pad[199] != 7 || args->tilingSize != sizeof(BlockTiling) ||
      reinterpret_cast<uintptr_t>(args->tiling) % 16 != 0) {
    rec->bad_tiling.fetch_add(1);
  }
  rec->runs[args->blockIdx].fetch_add(1);
  for (int i = 0; i < 16; ++i) out[args->blockIdx * 16 + i] = args->blockIdx * 1000 + i;
}

TEST(RuntimeStream, MultiBlockKernelRunsEveryBlockOnce) {
  ScopedStream stream;
  for (uint32_t dim : {1u, 2u, 7u, 37u, 64u}) {
    BlockRecord rec;
    for (auto& r : rec.runs) r = 0;
    std::vector<int32_t> out(64 * 16, -1);
    void* addrs[] = {&rec, out.data()};
    BlockTiling tiling{0xC0FFEE, dim, {}};
    tiling.pad[199] = 7;
    ASSERT_EQ(aclrtLaunchKernel(BlockKernel, dim, addrs, 2, &tiling, sizeof(tiling), stream.get()), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream.get()), ACL_SUCCESS);
    EXPECT_EQ(rec.bad_dim.load(), 0);
    EXPECT_EQ(rec.bad_tiling.load(), 0);
    for (uint32_t b = 0; b < 64; ++b) {
      EXPECT_EQ(rec.runs[b].load(), b < dim ? 1 : 0) << "dim " << dim << " block " << b;
      for (int i = 0; i < 16; ++i) {
        EXPECT_EQ(out[b * 16 + i], b < dim ? static_cast<int32_t>(b * 1000 + i) : -1);
      }
    }
  }
}

struct CallbackLog {
  std::vector<int> entries;  // appended only by tasks of one stream
  int next_callback = 0;
};

void AppendKernel(const aclrtKernelArgs* args) {
  static_cast<CallbackLog*>(args->addrs[0])->entries.push_back(TilingAs<int>(args));
}

void AppendCallback(void* user) {
  auto* log = static_cast<CallbackLog*>(user);
  log->entries.push_back(-1 - log->next_callback++);
}

TEST(RuntimeStream, HostCallbacksRunInStreamOrder) {
  ScopedStream stream;
  CallbackLog log;
  void* addrs[] = {&log};
  for (int i = 0; i < 500; ++i) {
    ASSERT_EQ(aclrtLaunchKernel(AppendKernel, 1, addrs, 1, &i, sizeof(i), stream.get()), ACL_SUCCESS);
    ASSERT_EQ(
        aclrtLaunchCallback(AppendCallback, &log, i % 2 ? ACL_CALLBACK_BLOCK : ACL_CALLBACK_NO_BLOCK, stream.get()),
        ACL_SUCCESS);
  }
  ASSERT_EQ(aclrtSynchronizeStream(stream.get()), ACL_SUCCESS);
  ASSERT_EQ(log.entries.size(), 1000u);
  for (int i = 0; i < 500; ++i) {
    EXPECT_EQ(log.entries[2 * i], i);
    EXPECT_EQ(log.entries[2 * i + 1], -1 - i);
  }
}

// aclrtLaunchHostFunc: runs in stream order; a failure is the stream's error at its next
// synchronize, with the message the function set; the stream then works again.
aclError AppendHostFunc(void* user) {
  auto* log = static_cast<CallbackLog*>(user);
  log->entries.push_back(-1 - log->next_callback++);
  return ACL_SUCCESS;
}

// Fails the way a host function calling the runtime wrongly would: the failed call's message is
// the stream's.
aclError FailingHostFunc(void* not_a_stream) { return aclrtDestroyStream(static_cast<aclrtStream>(not_a_stream)); }

TEST(RuntimeStream, HostFuncsRunInStreamOrderAndReportErrors) {
  ScopedStream stream;
  CallbackLog log;
  void* addrs[] = {&log};
  for (int i = 0; i < 100; ++i) {
    ASSERT_EQ(aclrtLaunchKernel(AppendKernel, 1, addrs, 1, &i, sizeof(i), stream.get()), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(AppendHostFunc, &log, stream.get()), ACL_SUCCESS);
  }
  ASSERT_EQ(aclrtSynchronizeStream(stream.get()), ACL_SUCCESS);
  ASSERT_EQ(log.entries.size(), 200u);
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(log.entries[2 * i], i);
    EXPECT_EQ(log.entries[2 * i + 1], -1 - i);
  }
  ASSERT_EQ(aclrtLaunchHostFunc(FailingHostFunc, &log, stream.get()), ACL_SUCCESS);
  EXPECT_NE(aclrtSynchronizeStream(stream.get()), ACL_SUCCESS);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("not a live stream"), std::string::npos) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtLaunchHostFunc(AppendHostFunc, &log, stream.get()), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream.get()), ACL_SUCCESS);
  EXPECT_EQ(aclrtLaunchHostFunc(nullptr, nullptr, stream.get()), ACL_ERROR_INVALID_PARAM);
  int not_a_stream = 0;
  EXPECT_EQ(aclrtLaunchHostFunc(AppendHostFunc, &log, &not_a_stream), ACL_ERROR_RT_PARAM_INVALID);
}

TEST(RuntimeStream, DestroyWithPendingWorkWaitsForIt) {
  for (int round = 0; round < 20; ++round) {
    std::atomic<int64_t> counter{0};
    void* addrs[] = {&counter};
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    for (int i = 0; i < 500; ++i) {
      ASSERT_EQ(aclrtLaunchKernel(AtomicAddKernel, 1 + i % 3, addrs, 1, nullptr, 0, stream), ACL_SUCCESS);
    }
    ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT_EQ(counter.load(), 500 + 500 / 3 * (1 + 2) + 1);  // blocks: 1,2,3,1,2,3,...,1,2
  }
}

// Stream A writes slot i, records; stream B waits, reads slot i. Without the event ordering B
// would read zeros (and ThreadSanitizer would flag the race).
void WriteSlotKernel(const aclrtKernelArgs* args) {
  int i = TilingAs<int>(args);
  static_cast<int*>(args->addrs[0])[i] = 3 * i + 1;
}
void ReadSlotKernel(const aclrtKernelArgs* args) {
  int i = TilingAs<int>(args);
  static_cast<int*>(args->addrs[1])[i] = static_cast<int*>(args->addrs[0])[i] + 1;
}

TEST(RuntimeEvent, CrossStreamOrdering) {
  ScopedStream a, b;
  ScopedEvent event;
  constexpr int kIters = 1000;
  std::vector<int> slots(kIters, 0), out(kIters, 0);
  void* addrs[] = {slots.data(), out.data()};
  for (int i = 0; i < kIters; ++i) {
    ASSERT_EQ(aclrtLaunchKernel(WriteSlotKernel, 1, addrs, 2, &i, sizeof(i), a.get()), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(event.get(), a.get()), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(b.get(), event.get()), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchKernel(ReadSlotKernel, 1, addrs, 2, &i, sizeof(i), b.get()), ACL_SUCCESS);
  }
  ASSERT_EQ(aclrtSynchronizeStream(b.get()), ACL_SUCCESS);
  for (int i = 0; i < kIters; ++i) ASSERT_EQ(out[i], 3 * i + 2) << i;
}

// Ping-pong over one shared cell: A writes i after B consumed i-1, B copies the cell to out[i].
void WriteCellKernel(const aclrtKernelArgs* args) { *static_cast<int*>(args->addrs[0]) = TilingAs<int>(args); }
void CopyCellKernel(const aclrtKernelArgs* args) {
  static_cast<int*>(args->addrs[1])[TilingAs<int>(args)] = *static_cast<int*>(args->addrs[0]);
}

TEST(RuntimeEvent, PingPongBetweenStreams) {
  ScopedStream a, b;
  ScopedEvent written, consumed;
  constexpr int kIters = 1000;
  int cell = -1;
  std::vector<int> out(kIters, -1);
  void* addrs[] = {&cell, out.data()};
  for (int i = 0; i < kIters; ++i) {
    ASSERT_EQ(aclrtStreamWaitEvent(a.get(), consumed.get()), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchKernel(WriteCellKernel, 1, addrs, 2, &i, sizeof(i), a.get()), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(written.get(), a.get()), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(b.get(), written.get()), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchKernel(CopyCellKernel, 1, addrs, 2, &i, sizeof(i), b.get()), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(consumed.get(), b.get()), ACL_SUCCESS);
  }
  ASSERT_EQ(aclrtSynchronizeEvent(consumed.get()), ACL_SUCCESS);
  for (int i = 0; i < kIters; ++i) ASSERT_EQ(out[i], i) << i;
}

TEST(RuntimeEvent, NeverRecordedEventIsANoOp) {
  ScopedStream stream;
  ScopedEvent event;
  EXPECT_EQ(aclrtStreamWaitEvent(stream.get(), event.get()), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeEvent(event.get()), ACL_SUCCESS);
  std::atomic<int64_t> counter{0};
  void* addrs[] = {&counter};
  ASSERT_EQ(aclrtLaunchKernel(AtomicAddKernel, 1, addrs, 1, nullptr, 0, stream.get()), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event.get(), stream.get()), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeEvent(event.get()), ACL_SUCCESS);
  EXPECT_EQ(counter.load(), 1);  // the kernel before the record has run
}

TEST(RuntimeStream, MisuseReturnsErrors) {
  int bogus = 0;
  EXPECT_EQ(aclrtCreateStream(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyStream(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyStream(&bogus), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtSynchronizeStream(&bogus), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("not a live stream"), std::string::npos);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_ERROR_RT_PARAM_INVALID);  // twice
  void* addrs[] = {&bogus};
  EXPECT_EQ(aclrtLaunchKernel(nullptr, 1, addrs, 1, nullptr, 0, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtLaunchKernel(EmptyKernel, 0, addrs, 1, nullptr, 0, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtLaunchKernel(EmptyKernel, 1, nullptr, 1, nullptr, 0, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtLaunchKernel(EmptyKernel, 1, addrs, 1, nullptr, 4, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtLaunchKernel(EmptyKernel, 1, addrs, 1, nullptr, 0, &bogus), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtLaunchCallback(nullptr, nullptr, ACL_CALLBACK_BLOCK, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtLaunchCallback(AppendCallback, nullptr, BogusEnum<aclrtCallbackBlockType>(5), nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtCreateEvent(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyEvent(&bogus), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtRecordEvent(&bogus, nullptr), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtRecordEvent(nullptr, nullptr), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtStreamWaitEvent(nullptr, &bogus), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtSynchronizeEvent(&bogus), ACL_ERROR_RT_PARAM_INVALID);
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  EXPECT_EQ(aclrtRecordEvent(event, &bogus), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyEvent(event), ACL_ERROR_RT_PARAM_INVALID);
}

TEST(RuntimeDevice, InitCoresAndSynchronize) {
  EXPECT_EQ(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_EQ(aclInit("/nonexistent/ge.json"), ACL_ERROR_INVALID_FILE);
  uint32_t cores = 0;
  EXPECT_EQ(aclrtGetDeviceCoreNum(nullptr), ACL_ERROR_INVALID_PARAM);
  {
    ScopedCoreNum three(3);
    ASSERT_EQ(aclrtGetDeviceCoreNum(&cores), ACL_SUCCESS);
    EXPECT_EQ(cores, 3u);
    ScopedStream s1, s2;
    std::atomic<int64_t> counter{0};
    void* addrs[] = {&counter};
    for (int i = 0; i < 200; ++i) {
      ASSERT_EQ(aclrtLaunchKernel(AtomicAddKernel, 5, addrs, 1, nullptr, 0, s1.get()), ACL_SUCCESS);
      ASSERT_EQ(aclrtLaunchKernel(AtomicAddKernel, 1, addrs, 1, nullptr, 0, s2.get()), ACL_SUCCESS);
    }
    ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
    EXPECT_EQ(counter.load(), 200 * 6);
  }
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_ERROR_UNINITIALIZE);
}

TEST(RuntimeStress, ManyStreamsKeepOrderAndTotals) {
  constexpr int kStreams = 8;
  constexpr int kKernels = 2000;
  std::vector<std::unique_ptr<ScopedStream>> streams;
  std::vector<OrderState> states(kStreams);
  std::atomic<int64_t> total{0};
  for (int s = 0; s < kStreams; ++s) streams.push_back(std::make_unique<ScopedStream>());
  for (int64_t k = 0; k < kKernels; ++k) {
    for (int s = 0; s < kStreams; ++s) {
      void* addrs[] = {&states[s], &total};
      uint32_t dim = (k % 50 == 49) ? 3 : 1;  // a few multi-block kernels in the mix
      if (dim == 1) {
        ASSERT_EQ(aclrtLaunchKernel(OrderedIncrementKernel, 1, addrs, 2, &k, sizeof(k), streams[s]->get()),
                  ACL_SUCCESS);
      } else {
        ASSERT_EQ(aclrtLaunchKernel(AtomicAddKernel, dim, addrs + 1, 1, nullptr, 0, streams[s]->get()), ACL_SUCCESS);
      }
    }
  }
  ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  const int64_t multi = kKernels / 50;  // kernels with k % 50 == 49
  EXPECT_EQ(total.load(), kStreams * ((kKernels - multi) + multi * 3));
  for (int s = 0; s < kStreams; ++s) {
    EXPECT_EQ(states[s].next, kKernels - 1) << s;  // kernel 1999 is a multi-block one
    // Each skipped sequence number is noticed by the next ordered kernel (none after 1999).
    EXPECT_EQ(states[s].out_of_order, multi - 1) << s;
  }
}

TEST(RuntimeStress, ManyHostThreadsLaunchingConcurrently) {
  constexpr int kThreads = 4;
  constexpr int kKernels = 2000;
  std::atomic<int64_t> total{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      ScopedStream own;
      OrderState state;
      void* addrs[] = {&state, &total};
      for (int64_t k = 0; k < kKernels; ++k) {
        aclrtStream target = (k % 4 == 0) ? nullptr : own.get();
        if (target == nullptr) {
          ASSERT_EQ(aclrtLaunchKernel(AtomicAddKernel, 2, addrs + 1, 1, nullptr, 0, nullptr), ACL_SUCCESS);
        } else {
          ASSERT_EQ(aclrtLaunchKernel(OrderedIncrementKernel, 1, addrs, 2, &k, sizeof(k), target), ACL_SUCCESS);
        }
      }
      ASSERT_EQ(aclrtSynchronizeStream(own.get()), ACL_SUCCESS);
      EXPECT_EQ(state.out_of_order, kKernels / 4);  // every 4th sequence number skipped
    });
  }
  for (auto& th : threads) th.join();
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  EXPECT_EQ(total.load(), kThreads * (kKernels / 4 * 2 + kKernels * 3 / 4));
}

// A ring of streams: stream s waits for stream s-1's event each round, adds its index.
void RingKernel(const aclrtKernelArgs* args) {
  auto* cell = static_cast<int64_t*>(args->addrs[0]);
  *cell = *cell * 3 + TilingAs<int64_t>(args);
}

TEST(RuntimeStress, EventRingAcrossStreams) {
  constexpr int kStreams = 6;
  constexpr int kRounds = 300;
  std::vector<std::unique_ptr<ScopedStream>> streams;
  std::vector<std::unique_ptr<ScopedEvent>> events;
  for (int s = 0; s < kStreams; ++s) {
    streams.push_back(std::make_unique<ScopedStream>());
    events.push_back(std::make_unique<ScopedEvent>());
  }
  int64_t cell = 0, expected = 0;
  void* addrs[] = {&cell};
  for (int r = 0; r < kRounds; ++r) {
    for (int64_t s = 0; s < kStreams; ++s) {
      int prev = static_cast<int>((s + kStreams - 1) % kStreams);
      ASSERT_EQ(aclrtStreamWaitEvent(streams[s]->get(), events[prev]->get()), ACL_SUCCESS);
      ASSERT_EQ(aclrtLaunchKernel(RingKernel, 1, addrs, 1, &s, sizeof(s), streams[s]->get()), ACL_SUCCESS);
      if (s == kStreams - 1) {  // keep the cell small; ordered before the record like a kernel
        ASSERT_EQ(aclrtLaunchCallback([](void* c) { *static_cast<int64_t*>(c) %= 1000003; }, &cell, ACL_CALLBACK_BLOCK,
                                      streams[s]->get()),
                  ACL_SUCCESS);
      }
      ASSERT_EQ(aclrtRecordEvent(events[s]->get(), streams[s]->get()), ACL_SUCCESS);
      expected = (expected * 3 + s) % 1000003;
    }
  }
  ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  EXPECT_EQ(cell, expected);
}

}  // namespace
}  // namespace ge::rt::testing
