// The machine's ceiling for the two-stream bench case, without GE: the work of branches_2x200
// (2 chains of 200 (Add weight, Relu) pairs on 1024 floats, each chain's weights contiguous) run
// by hand-written loops, once on one thread while the other CPU idles (what GE's one-stream run
// sees), once split over two threads that spin while they wait (no runtime, no events). The
// ratio is the most any scheduler can get from two streams on this machine; GE's 2-vs-1 ratio
// is read against it (run_sink_bench.sh prints both).
//   parallel_ceiling [ROUNDS] [RUNS] [one]   -> medians per run and the ratio; `one` skips the
//   two-thread runs (for timing one thread pinned with taskset).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr int kWidth = 1024;
constexpr int kDepth = 200;

struct Chain {
  float* act;
  const float* weights;  // kDepth x kWidth, contiguous
};

__attribute__((noinline)) void RunChain(const Chain& c) {
  for (int k = 0; k < kDepth; ++k) {
    const float* w = c.weights + static_cast<size_t>(k) * kWidth;
    for (int i = 0; i < kWidth; ++i) c.act[i] = c.act[i] + w[i];
    for (int i = 0; i < kWidth; ++i) c.act[i] = c.act[i] > 0.f ? c.act[i] : 0.f;
  }
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 5;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 2000;
  const bool one_only = argc > 3 && std::string(argv[3]) == "one";
  auto* arena = static_cast<float*>(std::aligned_alloc(64, 3 * kWidth * sizeof(float)));
  auto* weights = static_cast<float*>(std::aligned_alloc(64, 2 * kDepth * kWidth * sizeof(float)));
  for (size_t i = 0; i < 2u * kDepth * kWidth; ++i) weights[i] = 0.001f * static_cast<float>(i % 7) - 0.003f;
  Chain c0{arena + kWidth, weights}, c1{arena + 2 * kWidth, weights + kDepth * kWidth};
  auto reset = [&] {
    for (int i = 0; i < kWidth; ++i) c0.act[i] = c1.act[i] = -1.f + 2.f * static_cast<float>(i) / kWidth;
  };

  // The helper sleeps (blocked) unless `hot`; while hot it spins on `go`.
  std::mutex mu;
  std::condition_variable cv;
  bool hot = false, quit = false;
  std::atomic<int> go{0}, done{0};
  std::thread helper([&] {
    int seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> lk(mu);
        cv.wait(lk, [&] { return hot || quit; });
        if (quit) return;
      }
      int g;
      while ((g = go.load(std::memory_order_acquire)) == seen) {
        if (g < 0) break;
      }
      if (g < 0) {  // the hot phase is over
        go.store(seen, std::memory_order_relaxed);
        continue;
      }
      seen = g;
      RunChain(c1);
      done.fetch_add(1, std::memory_order_release);
    }
  });

  std::vector<double> one, two;
  using Clock = std::chrono::steady_clock;
  for (int r = 0; r < rounds; ++r) {
    for (int i = 0; i < runs; ++i) {  // one thread, the other CPU idle
      reset();
      auto t0 = Clock::now();
      RunChain(c0);
      RunChain(c1);
      one.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
    }
    if (one_only) continue;
    {
      std::lock_guard<std::mutex> lk(mu);
      hot = true;
    }
    cv.notify_one();
    int seen = go.load();
    for (int i = 0; i < runs; ++i) {  // two threads
      reset();
      const int d = done.load(std::memory_order_acquire);
      auto t0 = Clock::now();
      go.store(++seen, std::memory_order_release);
      RunChain(c0);
      while (done.load(std::memory_order_acquire) == d) {
      }
      two.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
    }
    {
      std::lock_guard<std::mutex> lk(mu);
      hot = false;
    }
    go.store(-1, std::memory_order_release);  // the helper leaves its spin and blocks again
    while (go.load(std::memory_order_acquire) < 0) {
    }
  }
  {
    std::lock_guard<std::mutex> lk(mu);
    quit = true;
  }
  cv.notify_one();
  helper.join();
  if (one_only) {
    std::printf("one thread %.2f us (median of %d runs)\n", Median(one), rounds * runs);
    std::free(arena);
    std::free(weights);
    return 0;
  }
  const double a = Median(one), b = Median(two);
  std::printf("one thread %.2f us, two threads %.2f us, ceiling %.2fx (medians of %d runs each)\n", a, b, a / b,
              rounds * runs);
  std::free(arena);
  std::free(weights);
  return 0;
}
