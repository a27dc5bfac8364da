// Device runtime costs: kernel launch, stream and event round trips, model execution (fixed
// cost and per task). Per-item counters are seconds per item (e.g. "per_task=52n" = 52 ns).
#include <benchmark/benchmark.h>

#include <vector>

#include "acl/acl_rt.h"

namespace {

void EmptyKernel(const aclrtKernelArgs*) {}

benchmark::Counter PerItem(double items_per_iteration) {
  return benchmark::Counter(items_per_iteration,
                            benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// Launch + sync amortized over a batch of empty blockDim=1 kernels.
void BM_KernelLaunch(benchmark::State& state) {
  const int batch = static_cast<int>(state.range(0));
  aclrtStream stream;
  aclrtCreateStream(&stream);
  for (auto _ : state) {
    for (int i = 0; i < batch; ++i) {
      aclrtLaunchKernel(EmptyKernel, 1, nullptr, 0, nullptr, 0, stream);
    }
    aclrtSynchronizeStream(stream);
  }
  state.counters["per_launch"] = PerItem(batch);
  aclrtDestroyStream(stream);
}
BENCHMARK(BM_KernelLaunch)->Arg(1000)->UseRealTime()->Repetitions(5)->ReportAggregatesOnly(true);

// One multi-block kernel (blockDim = cores) + sync.
void BM_MultiBlockLaunchSync(benchmark::State& state) {
  uint32_t cores = 1;
  aclrtGetDeviceCoreNum(&cores);
  aclrtStream stream;
  aclrtCreateStream(&stream);
  for (auto _ : state) {
    aclrtLaunchKernel(EmptyKernel, cores, nullptr, 0, nullptr, 0, stream);
    aclrtSynchronizeStream(stream);
  }
  aclrtDestroyStream(stream);
}
BENCHMARK(BM_MultiBlockLaunchSync)->UseRealTime()->Repetitions(5)->ReportAggregatesOnly(true);

// Launch one kernel and wait for it: the stream round trip.
void BM_StreamSyncRoundTrip(benchmark::State& state) {
  aclrtStream stream;
  aclrtCreateStream(&stream);
  for (auto _ : state) {
    aclrtLaunchKernel(EmptyKernel, 1, nullptr, 0, nullptr, 0, stream);
    aclrtSynchronizeStream(stream);
  }
  aclrtDestroyStream(stream);
}
BENCHMARK(BM_StreamSyncRoundTrip)->UseRealTime()->Repetitions(5)->ReportAggregatesOnly(true);

// Record on A, wait on B, synchronize B.
void BM_EventRoundTrip(benchmark::State& state) {
  aclrtStream a, b;
  aclrtEvent event;
  aclrtCreateStream(&a);
  aclrtCreateStream(&b);
  aclrtCreateEvent(&event);
  for (auto _ : state) {
    aclrtRecordEvent(event, a);
    aclrtStreamWaitEvent(b, event);
    aclrtSynchronizeStream(b);
  }
  aclrtDestroyEvent(event);
  aclrtDestroyStream(a);
  aclrtDestroyStream(b);
}
BENCHMARK(BM_EventRoundTrip)->UseRealTime()->Repetitions(5)->ReportAggregatesOnly(true);

aclmdlRI BuildModel(int tasks, uint32_t streams) {
  aclmdlRI model;
  aclmdlRICreate(streams, streams, &model);
  for (int i = 0; i < tasks; ++i) {
    aclmdlRIAddKernelTask(model, i % streams, EmptyKernel, 1, nullptr, 0, nullptr, 0);
  }
  for (uint32_t s = 1; s < streams; ++s) {  // stream 0 ends after all others
    aclmdlRIAddEventRecord(model, s, s);
    aclmdlRIAddEventWait(model, 0, s);
  }
  aclmdlRILoadComplete(model);
  return model;
}

// Synchronous execution of a model of N empty single-block kernels on one model stream.
void BM_ModelExecute(benchmark::State& state) {
  const int tasks = static_cast<int>(state.range(0));
  aclmdlRI model = BuildModel(tasks, 1);
  for (auto _ : state) aclmdlRIExecute(model, -1);
  state.counters["per_task"] = PerItem(tasks);
  aclmdlRIDestroy(model);
}
BENCHMARK(BM_ModelExecute)->Arg(1)->Arg(1000)->UseRealTime()->Repetitions(5)->ReportAggregatesOnly(true);

// Asynchronous execution on a stream, then synchronize.
void BM_ModelExecuteAsync(benchmark::State& state) {
  const int tasks = static_cast<int>(state.range(0));
  aclmdlRI model = BuildModel(tasks, 1);
  aclrtStream stream;
  aclrtCreateStream(&stream);
  for (auto _ : state) {
    aclmdlRIExecuteAsync(model, stream);
    aclrtSynchronizeStream(stream);
  }
  state.counters["per_task"] = PerItem(tasks);
  aclrtDestroyStream(stream);
  aclmdlRIDestroy(model);
}
BENCHMARK(BM_ModelExecuteAsync)->Arg(1)->Arg(1000)->UseRealTime()->Repetitions(5)->ReportAggregatesOnly(true);

// A model spread over 4 model streams joined by events (cooperative scheduling overhead).
void BM_ModelExecuteMultiStream(benchmark::State& state) {
  const int tasks = static_cast<int>(state.range(0));
  aclmdlRI model = BuildModel(tasks, 4);
  for (auto _ : state) aclmdlRIExecute(model, -1);
  state.counters["per_task"] = PerItem(tasks);
  aclmdlRIDestroy(model);
}
BENCHMARK(BM_ModelExecuteMultiStream)->Arg(4)->Arg(1000)->UseRealTime()->Repetitions(5)->ReportAggregatesOnly(true);

}  // namespace

BENCHMARK_MAIN();
