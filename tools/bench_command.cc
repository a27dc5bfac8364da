// `ge bench MODEL [--mode M] [--runs N] [--warmup N] [--threads T] [--streams S] [--zero-copy]
//  [--input-shape NAME=D0,D1,...] [--input NAME=FILE.npy] [--per-op]`: compiles once, runs --warmup
// untimed runs, then times --runs runs of Model::Run (inputs in, execute, outputs out) — or, with
// --zero-copy, of Model::RunWithDeviceBuffers on device buffers allocated once — and prints min,
// median and p90 per run and per op (divided by the graph's node count), GFLOP/s at the median
// where the model's FLOPs are known, plus the memory report of the sink segments. --per-op then
// profiles --runs more runs (one model stream) and prints time per op type and the slowest nodes.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>

#include <fmt/format.h>

#include "acl/acl_rt.h"
#include "commands.h"

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

int BenchCommand(const BenchArgs& args) {
  using Clock = std::chrono::steady_clock;
  if (args.threads > 0 && aclrtSetDeviceCoreNum(static_cast<uint32_t>(args.threads)) != ACL_SUCCESS) {
    fmt::print(stderr, "error: --threads {}: {}\n", args.threads, aclGetRecentErrMsg());
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
  auto t0 = Clock::now();
  std::unique_ptr<Model> model;
  Status st = Model::Load(args.model, options, &model);
  auto t1 = Clock::now();
  std::vector<HostTensor> inputs, outputs;
  if (st.ok()) st = PrepareInputs(model->inputs(), args.inputs, options.input_shapes, &inputs);
  DeviceBuffers buffers;
  if (st.ok() && args.zero_copy) {  // buffers sized by one host-tensor run
    st = model->Run(inputs, &outputs);
    if (st.ok()) st = buffers.Allocate(inputs, outputs);
  }
  auto run_once = [&] {
    return args.zero_copy ? model->RunWithDeviceBuffers(buffers.inputs, buffers.outputs) : model->Run(inputs, &outputs);
  };
  for (int i = 0; st.ok() && i < args.warmup; ++i) st = run_once();
  std::vector<double> us;
  for (int i = 0; st.ok() && i < args.runs; ++i) {
    auto a = Clock::now();
    st = run_once();
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - a).count());
  }
  if (!st.ok()) {
    fmt::print(stderr, "error: {}\n", st.message());
    return 1;
  }
  uint32_t cores = 0;
  aclrtGetDeviceCoreNum(&cores);
  const double nodes = std::max<double>(1.0, static_cast<double>(model->num_nodes()));
  const double mn = *std::min_element(us.begin(), us.end()), med = Percentile(us, 0.5), p90 = Percentile(us, 0.9);
  fmt::print("model: {}  mode: {}{}  nodes: {}  device cores: {}\n", args.model, model->mode(),
             args.zero_copy ? " (zero copy)" : "", model->num_nodes(), cores);
  fmt::print("compile: {:.3f} ms  runs: {}  warmup: {}\n", std::chrono::duration<double, std::milli>(t1 - t0).count(),
             args.runs, args.warmup);
  const double flops = model->Flops();
  fmt::print("per run (us): min {:.3f}  median {:.3f}  p90 {:.3f}{}\n", mn, med, p90,
             flops > 0 ? fmt::format("  ({:.3f} GFLOP, {:.2f} GFLOP/s at the median)", flops / 1e9, flops / (med * 1e3))
                       : std::string());
  fmt::print("per op  (us): min {:.4f}  median {:.4f}  p90 {:.4f}\n", mn / nodes, med / nodes, p90 / nodes);
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
