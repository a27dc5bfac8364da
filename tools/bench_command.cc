// `ge bench MODEL [--mode M] [--runs N] [--warmup N] [--threads T] [--streams S] [--zero-copy]
//  [--input-shape NAME=D0,D1,...]`: compiles once, runs --warmup untimed runs, then times --runs
// runs of Model::Run (inputs in, execute, outputs out) — or, with --zero-copy, of
// Model::RunWithDeviceBuffers on device buffers allocated once — and prints min, median and p90
// per run and per op (divided by the graph's node count), plus the memory report of the sink
// segments.
#include <algorithm>
#include <chrono>
#include <cstring>

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
  if (st.ok()) st = PrepareInputs(model->inputs(), {}, options.input_shapes, &inputs);
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
  fmt::print("per run (us): min {:.3f}  median {:.3f}  p90 {:.3f}\n", mn, med, p90);
  fmt::print("per op  (us): min {:.4f}  median {:.4f}  p90 {:.4f}\n", mn / nodes, med / nodes, p90 / nodes);
  PrintReport(*model);
  return 0;
}

}  // namespace ge::tool
