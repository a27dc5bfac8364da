// `ge run MODEL.onnx [--input NAME=FILE.npy]... [--inputs FILE.npz] [--output FILE.npy]...
//  [--outputs FILE.npz] [--profile TRACE.json] [--mode M] [--input-shape NAME=D0,D1,...]
//  [-O0|-O1|-O2] [--dump-graph FILE] [--timeout SECONDS]`: loads, compiles, runs once, prints
// each output's name, shape, dtype and checksum, and the compile and run times.
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "commands.h"
#include "ge/npy.h"
#include "ge/profiler.h"

namespace ge::tool {

namespace {

// --timeout: the run gets what is left of the limit as RunOptions::timeout_s (it stops before
// the next host-scheduled node or Loop/Scan iteration past it: exit 124, as timeout(1)); a
// watchdog over the whole command (loading and compiling too, and a kernel that does not end)
// exits 124 a little later.
class Watchdog {
 public:
  explicit Watchdog(double seconds) {
    if (seconds <= 0) return;
    thread_ = std::thread([this, seconds] {
      std::unique_lock<std::mutex> lk(mu_);
      // A second past the run's own limit: the run normally stops first, with its error.
      if (!cv_.wait_for(lk, std::chrono::duration<double>(seconds + 1.0), [this] { return done_; })) {
        fmt::print(stderr, "error: timed out after {:g} s (--timeout); the run was abandoned\n", seconds);
        std::fflush(stderr);
        std::_Exit(124);
      }
    });
  }
  ~Watchdog() {
    if (!thread_.joinable()) return;
    {
      std::lock_guard<std::mutex> lk(mu_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace

int RunCommand(const RunArgs& args) {
  Watchdog watchdog(args.timeout_s);
  using Clock = std::chrono::steady_clock;
  ModelOptions options;
  options.mode = args.mode;
  options.opt_level = args.opt_level;
  options.output_nodes = args.output_nodes;
  if (Status shapes = ParseInputShapes(args.input_shapes, &options.input_shapes); !shapes.ok()) {
    fmt::print(stderr, "error: {}\n", shapes.message());
    return 1;
  }
  if (!args.profile.empty()) StartProfiling();
  auto t0 = Clock::now();
  std::unique_ptr<Model> model;
  Status st = Model::Load(args.model, options, &model);
  if (!st.ok()) {
    fmt::print(stderr, "error: {}\n", st.message());
    return 1;
  }
  auto t1 = Clock::now();
  if (!args.dump_graph.empty()) {
    std::ofstream f(args.dump_graph);
    f << model->GraphText();
    if (!f) {
      fmt::print(stderr, "error: --dump-graph: cannot write '{}'\n", args.dump_graph);
      return 1;
    }
  }
  std::vector<HostTensor> inputs, outputs;
  st = PrepareInputs(model->inputs(), args.inputs, options.input_shapes, &inputs, args.inputs_npz);
  if (st.ok() && !args.outputs.empty() && args.outputs.size() != model->outputs().size())
    st = InvalidArgument("--output given {} time(s), the model has {} output(s)", args.outputs.size(),
                         model->outputs().size());
  if (st.ok()) {
    RunOptions run_options;
    if (args.timeout_s > 0)
      run_options.timeout_s = std::max(1e-3, args.timeout_s - std::chrono::duration<double>(Clock::now() - t0).count());
    for (int i = 0; i < args.repeat && st.ok(); ++i) st = model->Run(inputs, &outputs, run_options);
  }
  auto t2 = Clock::now();
  if (st.ok() && !args.profile.empty()) st = StopProfiling(args.profile);
  if (st.code() == Status::kDeadlineExceeded) {
    fmt::print(stderr, "error: timed out after {:g} s (--timeout): {}\n", args.timeout_s, st.message());
    return 124;
  }
  if (!st.ok()) {
    fmt::print(stderr, "error: {}\n", st.message());
    return 1;
  }
  fmt::print("model: {}  mode: {}\n", args.model, model->mode());
  if (args.report) PrintReport(*model);
  for (size_t i = 0; i < outputs.size(); ++i) {
    const std::string name = model->outputs()[i].name;
    std::string values;  // strings have no checksum: the first few values instead
    if (outputs[i].dtype() == DT_STRING) {
      const std::vector<std::string> strs = outputs[i].strings();
      for (size_t k = 0; k < strs.size() && k < 4; ++k)
        values += fmt::format("{}\"{}\"", k ? ", " : "", strs[k].size() > 24 ? strs[k].substr(0, 24) + "..." : strs[k]);
      values = fmt::format(" values=[{}{}]", values, strs.size() > 4 ? ", ..." : "");
    }
    fmt::print("output {}: {} shape={} dtype={} checksum={:.6g}{}\n", i, name, outputs[i].shape().ToString(),
               DataTypeName(outputs[i].dtype()), Checksum(outputs[i]), values);
    if (i < args.outputs.size()) {
      st = WriteNpy(args.outputs[i], outputs[i]);
      if (!st.ok()) {
        fmt::print(stderr, "error: {}\n", st.message());
        return 1;
      }
    }
  }
  if (!args.outputs_npz.empty()) {
    std::vector<std::pair<std::string, HostTensor>> named;
    for (size_t i = 0; i < outputs.size(); ++i) named.emplace_back(model->outputs()[i].name, outputs[i]);
    if (st = WriteNpz(args.outputs_npz, named); !st.ok()) {
      fmt::print(stderr, "error: --outputs: {}\n", st.message());
      return 1;
    }
  }
  if (!args.profile.empty())
    fmt::print("profile: {} (open in https://ui.perfetto.dev or chrome://tracing)\n", args.profile);
  auto ms = [](auto d) { return std::chrono::duration<double, std::milli>(d).count(); };
  fmt::print("time: compile {:.3f} ms, run {:.3f} ms\n", ms(t1 - t0), ms(t2 - t1));
  return 0;
}

}  // namespace ge::tool
