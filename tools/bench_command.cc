// `ge bench MODEL [--mode M] [--runs N] [--warmup N] [--threads T] [--streams S] [--zero-copy]
//  [--input-shape NAME=D0,D1,...] [--input NAME=FILE.npy] [--per-op]`: compiles once, runs --warmup
// untimed runs, then times --runs runs of Model::Run (inputs in, execute, outputs out) — or, with
// --zero-copy, of Model::RunWithDeviceBuffers on device buffers allocated once — and prints min,
// median and p90 per run and per op (divided by the graph's node count), GFLOP/s at the median
// where the model's FLOPs are known, plus the memory report of the sink segments. --per-op then
// profiles --runs more runs (one model stream) and prints time per op type and the slowest nodes.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <thread>

#include <fmt/format.h>

#include "acl/acl_rt.h"
#include "commands.h"
#include "ge/profiler.h"

namespace ge::tool {
namespace {

double Percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  size_t i = static_cast<size_t>(q * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(i, v.size() - 1)];
}

// Device buffers holding the inputs' bytes and room for the outputs.
struct DeviceBuffers {
  std::vector<DeviceBuffer> inputs, outputs;
  ~DeviceBuffers() {
    for (auto& b : inputs) aclrtFree(b.data);
    for (auto& b : outputs) aclrtFree(b.data);
  }
  Status Allocate(const std::vector<HostTensor>& in, const std::vector<HostTensor>& out) {
    for (const auto& t : in) {
      GE_RETURN_IF_ERROR(Add(t.NumBytes(), &inputs));
      if (t.NumBytes() > 0) std::memcpy(inputs.back().data, t.data(), t.NumBytes());
    }
    for (const auto& t : out) GE_RETURN_IF_ERROR(Add(t.NumBytes(), &outputs));
    return Status::Ok();
  }
  static Status Add(size_t bytes, std::vector<DeviceBuffer>* to) {
    void* p = nullptr;
    if (aclrtMalloc(&p, std::max<size_t>(bytes, 1), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
      return Error(Status::kOutOfMemory, "--zero-copy: cannot allocate a {}-byte device buffer: {}", bytes,
                   aclGetRecentErrMsg());
    to->push_back({p, bytes});
    return Status::Ok();
  }
};

// Per-node device times over `runs` profiled runs: a table by op type and the 10 slowest nodes.
Status PrintPerOp(Model* model, const BenchArgs& args, const std::vector<HostTensor>& inputs) {
  Model* profiled = model;
  std::unique_ptr<Model> one_stream;
  if (!model->SetProfiling(true).ok()) {  // a multi-stream sink segment: profile a one-stream copy
    ModelOptions options;
    options.mode = args.mode;
    GE_RETURN_IF_ERROR(ParseInputShapes(args.input_shapes, &options.input_shapes));
    options.max_streams = 1;
    options.opt_level = args.opt_level;
    options.output_nodes = args.output_nodes;
    GE_RETURN_IF_ERROR(Model::Load(args.model, options, &one_stream));
    GE_RETURN_IF_ERROR(one_stream->SetProfiling(true));
    profiled = one_stream.get();
  }
  std::vector<HostTensor> outputs;
  for (int i = 0; i < std::min(args.warmup, 3); ++i) GE_RETURN_IF_ERROR(profiled->Run(inputs, &outputs));
  OpProfile profile;
  GE_RETURN_IF_ERROR(profiled->TakeProfile(&profile));  // drops the warm-up runs
  for (int i = 0; i < args.runs; ++i) GE_RETURN_IF_ERROR(profiled->Run(inputs, &outputs));
  GE_RETURN_IF_ERROR(profiled->TakeProfile(&profile));
  GE_RETURN_IF_ERROR(profiled->SetProfiling(false));
  struct TypeRow {
    double us = 0;
    int nodes = 0;
  };
  std::map<std::string, TypeRow> by_type;
  double total = 0;
  auto per_run_us = [](const OpTiming& t) { return t.runs ? static_cast<double>(t.total_ns) / 1e3 / t.runs : 0.0; };
  for (const OpTiming& t : profile) {
    by_type[t.type].us += per_run_us(t);
    by_type[t.type].nodes += 1;
    total += per_run_us(t);
  }
  std::vector<std::pair<std::string, TypeRow>> types(by_type.begin(), by_type.end());
  std::sort(types.begin(), types.end(), [](const auto& a, const auto& b) { return a.second.us > b.second.us; });
  fmt::print("per op type (device time per run, {} profiled runs{}):\n", args.runs,
             profiled == model ? "" : ", one model stream");
  fmt::print("  {:<24} {:>6} {:>12} {:>7}\n", "op type", "nodes", "us", "%");
  for (const auto& [type, row] : types)
    fmt::print("  {:<24} {:>6} {:>12.3f} {:>6.1f}%\n", type, row.nodes, row.us, total > 0 ? 100 * row.us / total : 0);
  fmt::print("  {:<24} {:>6} {:>12.3f}\n", "total", profile.size(), total);
  std::vector<const OpTiming*> slow;
  for (const OpTiming& t : profile) slow.push_back(&t);
  std::sort(slow.begin(), slow.end(),
            [&](const OpTiming* a, const OpTiming* b) { return per_run_us(*a) > per_run_us(*b); });
  slow.resize(std::min<size_t>(slow.size(), 10));
  fmt::print("slowest nodes:\n");
  fmt::print("  {:>12}  {:<16} {}\n", "us", "op type", "node (input shapes)");
  for (const OpTiming* t : slow)
    fmt::print("  {:>12.3f}  {:<16} {} ({})\n", per_run_us(*t), t->type, t->node, t->input_shapes);
  return Status::Ok();
}

}  // namespace

void PrintReport(const Model& model) {
  const ModelReport r = model.report();
  fmt::print("optimizer: {}\n", r.optimizer);
  auto ops = [](const std::map<std::string, int>& counts) {
    std::string s;
    for (const auto& [op, n] : counts) s += fmt::format("{}{} {}", s.empty() ? "" : ", ", op, n);
    return s;
  };
  fmt::print("ops before: {}\n", ops(r.ops_before));
  fmt::print("ops after:  {}\n", ops(r.ops_after));
  fmt::print("segments: {}\n", r.segments);
  for (size_t i = 0; i < r.segment_details.size(); ++i) {
    const SegmentReport& s = r.segment_details[i];
    if (!s.sink) continue;
    fmt::print("sink segment {}: {} kernel tasks ({} multi-block), {} stream(s), {} event(s)\n", i, s.kernel_tasks,
               s.multi_block_tasks, s.streams, s.events);
  }
  if (!r.memory.empty())
    fmt::print("memory: {}\n", r.memory);
  else
    fmt::print("memory: no sink segment (host scheduling allocates per run)\n");
}

namespace {

// The progress bar on stderr: "[#######.............]  35%  350/1000 runs  2.1 s".
class Progress {
 public:
  Progress(bool on, const BenchArgs& args) : on_(on), args_(args) {}
  void Show(int64_t done, double elapsed_s) {
    if (!on_) return;
    const double frac = args_.duration_s > 0 ? std::min(1.0, elapsed_s / args_.duration_s)
                                             : std::min(1.0, static_cast<double>(done) / std::max(1, args_.runs));
    const int width = 30, fill = static_cast<int>(frac * width);
    std::string bar(static_cast<size_t>(fill), '#');
    bar.append(static_cast<size_t>(width - fill), '.');
    const std::string of = args_.duration_s > 0 ? std::string() : fmt::format("/{}", args_.runs);
    fmt::print(stderr, "\r[{}] {:3.0f}%  {}{} runs  {:.1f} s", bar, frac * 100, done, of, elapsed_s);
    std::fflush(stderr);
    shown_ = true;
  }
  void Done() {
    if (shown_) fmt::print(stderr, "\n");
  }

 private:
  bool on_;
  const BenchArgs& args_;
  bool shown_ = false;
};

}  // namespace

int BenchCommand(const BenchArgs& args) {
  using Clock = std::chrono::steady_clock;
  if (args.threads > 0 && aclrtSetDeviceCoreNum(static_cast<uint32_t>(args.threads)) != ACL_SUCCESS) {
    fmt::print(stderr, "error: --threads {}: {}\n", args.threads, aclGetRecentErrMsg());
    return 1;
  }
  if (args.concurrency < 1) {
    fmt::print(stderr, "error: --concurrency {}: must be at least 1\n", args.concurrency);
    return 1;
  }
  ModelOptions options;
  options.mode = args.mode;
  if (Status shapes = ParseInputShapes(args.input_shapes, &options.input_shapes); !shapes.ok()) {
    fmt::print(stderr, "error: {}\n", shapes.message());
    return 1;
  }
  options.max_streams = args.streams;
  options.opt_level = args.opt_level;
  options.output_nodes = args.output_nodes;
  if (!args.profile.empty()) StartProfiling();
  auto t0 = Clock::now();
  std::unique_ptr<Model> model;
  Status st = Model::Load(args.model, options, &model);
  auto t1 = Clock::now();
  std::vector<HostTensor> inputs, first_outputs;
  if (st.ok()) st = PrepareInputs(model->inputs(), args.inputs, options.input_shapes, &inputs, args.inputs_npz);
  // Per thread: its outputs and, with --zero-copy, its device buffers (sized by one run).
  const int k = args.concurrency;
  std::vector<std::vector<HostTensor>> outputs(static_cast<size_t>(k));
  std::vector<DeviceBuffers> buffers(static_cast<size_t>(k));
  if (st.ok() && args.zero_copy) {
    st = model->Run(inputs, &first_outputs);
    for (int t = 0; st.ok() && t < k; ++t) st = buffers[static_cast<size_t>(t)].Allocate(inputs, first_outputs);
  }
  auto run_once = [&](int t) {
    auto& b = buffers[static_cast<size_t>(t)];
    return args.zero_copy ? model->RunWithDeviceBuffers(b.inputs, b.outputs)
                          : model->Run(inputs, &outputs[static_cast<size_t>(t)]);
  };
  // Timed runs on K threads: --runs in all (taken from a shared counter) or until --duration.
  std::vector<std::vector<double>> thread_us(static_cast<size_t>(k));
  std::vector<Status> thread_st(static_cast<size_t>(k));
  std::vector<Clock::time_point> thread_end(static_cast<size_t>(k));
  std::atomic<int64_t> next{0}, done{0};
  std::atomic<bool> failed{false};
  Clock::time_point start, end;
  if (st.ok()) {
    const bool by_duration = args.duration_s > 0;
    Clock::time_point deadline;
    std::atomic<int> warmed{0};
    std::atomic<bool> go{false};
    auto worker = [&](int t) {
      Status s;
      for (int i = 0; s.ok() && i < args.warmup; ++i) s = run_once(t);
      warmed.fetch_add(1);
      while (!go.load()) std::this_thread::yield();
      auto& us = thread_us[static_cast<size_t>(t)];
      while (s.ok() && !failed.load(std::memory_order_relaxed)) {
        if (by_duration) {
          if (Clock::now() >= deadline && next.load() > 0) break;
          next.fetch_add(1);
        } else if (next.fetch_add(1) >= args.runs) {
          break;
        }
        auto a = Clock::now();
        s = run_once(t);
        us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - a).count());
        done.fetch_add(1, std::memory_order_relaxed);
      }
      thread_end[static_cast<size_t>(t)] = Clock::now();
      if (!s.ok()) failed.store(true);
      thread_st[static_cast<size_t>(t)] = s;
    };
    std::vector<std::thread> threads;
    for (int t = 1; t < k; ++t) threads.emplace_back(worker, t);
    // The calling thread shows the progress while worker 0 runs on its own thread too.
    const bool tty = isatty(fileno(stderr)) != 0;
    Progress progress(args.progress || tty, args);
    std::thread w([&] { worker(0); });
    while (warmed.load() < k) std::this_thread::sleep_for(std::chrono::microseconds(200));  // leave the cores free
    start = Clock::now();
    deadline = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(args.duration_s));
    go.store(true);
    // A bar only past 2 s (or always with --progress), redrawn every 100 ms.
    int ticks = 0;
    for (;;) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      const double el = std::chrono::duration<double>(Clock::now() - start).count();
      const bool finished = by_duration ? el >= args.duration_s : done.load() >= args.runs;
      if ((args.progress || el > 2) && ++ticks % 5 == 0) progress.Show(done.load(), el);
      if (finished || failed.load()) {
        if (args.progress || el > 2) progress.Show(done.load(), el);  // the final state (100%)
        break;
      }
    }
    w.join();
    progress.Done();
    for (auto& th : threads) th.join();
    end = start;
    for (const auto& e : thread_end) end = std::max(end, e);
    for (const Status& s : thread_st)
      if (!s.ok()) {
        st = s;
        break;
      }
  }
  if (st.ok() && !args.profile.empty()) st = StopProfiling(args.profile);
  if (!st.ok()) {
    fmt::print(stderr, "error: {}\n", st.message());
    return 1;
  }
  std::vector<double> us;
  for (const auto& v : thread_us) us.insert(us.end(), v.begin(), v.end());
  if (us.empty()) {
    fmt::print(stderr, "error: no timed run finished\n");
    return 1;
  }
  const double wall_s = std::chrono::duration<double>(end - start).count();
  uint32_t cores = 0;
  aclrtGetDeviceCoreNum(&cores);
  const double nodes = std::max<double>(1.0, static_cast<double>(model->num_nodes()));
  const double mn = *std::min_element(us.begin(), us.end()), med = Percentile(us, 0.5), p90 = Percentile(us, 0.9),
               p99 = Percentile(us, 0.99);
  fmt::print("model: {}  mode: {}{}  nodes: {}  device cores: {}\n", args.model, model->mode(),
             args.zero_copy ? " (zero copy)" : "", model->num_nodes(), cores);
  fmt::print("compile: {:.3f} ms  runs: {}  warmup: {}  concurrency: {}\n",
             std::chrono::duration<double, std::milli>(t1 - t0).count(), us.size(), args.warmup, k);
  const double flops = model->Flops();
  fmt::print("per run (us): min {:.3f}  median {:.3f}  p90 {:.3f}  p99 {:.3f}{}\n", mn, med, p90, p99,
             flops > 0 ? fmt::format("  ({:.3f} GFLOP, {:.2f} GFLOP/s at the median)", flops / 1e9, flops / (med * 1e3))
                       : std::string());
  fmt::print("per op  (us): min {:.4f}  median {:.4f}  p90 {:.4f}\n", mn / nodes, med / nodes, p90 / nodes);
  fmt::print("throughput: {:.2f} runs/s ({} runs in {:.3f} s on {} thread{})\n",
             wall_s > 0 ? static_cast<double>(us.size()) / wall_s : 0.0, us.size(), wall_s, k, k == 1 ? "" : "s");
  if (!args.profile.empty())
    fmt::print("profile: {} (open in https://ui.perfetto.dev or chrome://tracing)\n", args.profile);
  PrintReport(*model);
  if (args.per_op) {
    if (Status p = PrintPerOp(model.get(), args, inputs); !p.ok()) {
      fmt::print(stderr, "error: --per-op: {}\n", p.message());
      return 1;
    }
  }
  return 0;
}

}  // namespace ge::tool
