#include "api/model.h"

#include "base/host_memory.h"
#include "base/trace.h"

#include <chrono>
#include <cstring>

#include "compiler/compile.h"
#include "compiler/gem_file.h"
#include "executor/compiled_model.h"
#include "executor/input_check.h"
#include "executor/run_control.h"
#include "executor/sink_executor.h"
#include "ge/graph_text.h"
#include "parser/onnx/onnx_parser.h"
#include "parser/tf/tf_parser.h"
#include "register/custom_op_loader.h"
#include "register/op_def.h"
#include "runtime/device_init.h"

namespace ge {

Model::~Model() = default;

namespace {

// An ONNX graph's outputs replaced by the named values (ModelOptions::output_nodes).
Status SelectOutputs(const std::vector<std::string>& names, Graph* graph) {
  if (names.empty()) return Status::Ok();
  std::vector<ValueId> outs;
  for (const std::string& n : names) {
    ValueId v = graph->FindValue(n);
    if (v == kNoValue) return InvalidArgument("output '{}': the graph has no value of that name", n);
    outs.push_back(v);
  }
  graph->mutable_outputs() = outs;
  return Status::Ok();
}

// A model file by its content: a TensorFlow GraphDef (binary or text) or an ONNX model.
Status LoadModelFile(const std::string& path, const ModelOptions& options, std::shared_ptr<Graph>* graph) {
  if (IsTensorFlowFile(path)) return LoadTensorFlowModel(path, graph, options.output_nodes);
  GE_RETURN_IF_ERROR(LoadOnnxModel(path, graph));
  Status st = SelectOutputs(options.output_nodes, graph->get());
  return st.ok() ? st : st.Prepend(path + ": ");
}

// No exception leaves the API: allocation failures (a huge tensor) and internal errors become a
// Status.
template <typename F>
Status NoThrow(F&& f) noexcept {
  try {
    return f();
  } catch (const HostMemoryLimitError& e) {
    return Error(Status::kOutOfMemory, "out of host memory: {}", e.what());
  } catch (const std::bad_alloc&) {
    return Error(Status::kOutOfMemory, "out of host memory");
  } catch (const std::exception& e) {
    return Internal("internal error: {}", e.what());
  } catch (...) {
    return Internal("internal error");
  }
}

// Multiply-accumulates of one node whose OpDef declares a MacsRule, from static shapes; -1 when
// a shape is not static.
double NodeMacs(const Graph& g, const Node& node, ops::OpDef::MacsRule rule) {
  if (node.inputs.size() < 2 || node.outputs.empty() || node.inputs[0] == kNoValue || node.inputs[1] == kNoValue ||
      node.outputs[0] == kNoValue)
    return 0;
  const Shape& a = g.value(node.inputs[0]).desc.shape;
  const Shape& w = g.value(node.inputs[1]).desc.shape;
  const Shape& y = g.value(node.outputs[0]).desc.shape;
  if (!a.IsStatic() || !y.IsStatic() || a.GetDimNum() < 1) return -1;
  const double out = static_cast<double>(y.GetShapeSize());
  if (rule == ops::OpDef::MacsRule::kConvolution) {
    const auto* layout = node.GetAttr<std::string>("layout");
    const bool nhwc = layout && *layout == "NHWC";
    if (a.GetDimNum() < 3) return -1;
    const int64_t c = nhwc ? a.GetDim(a.GetDimNum() - 1) : a.GetDim(1);
    const auto* group = node.GetAttr<int64_t>("group");
    const int64_t groups = group && *group > 0 ? *group : 1;
    double kernel = 1;
    if (const auto* k = node.GetAttr<std::vector<int64_t>>("kernel_shape"); k && !k->empty()) {
      for (int64_t d : *k) kernel *= static_cast<double>(d);
    } else {  // unpacked weights [M, C/group, k...]
      if (!w.IsStatic() || w.GetDimNum() < 3) return -1;
      for (size_t i = 2; i < w.GetDimNum(); ++i) kernel *= static_cast<double>(w.GetDim(i));
    }
    return out * static_cast<double>(c / groups) * kernel;
  }
  // kMatMul: K is A's last dim (the first with transA and a rank-2 A).
  const auto* trans_a = node.GetAttr<int64_t>("transA");
  const int64_t k = trans_a && *trans_a != 0 && a.GetDimNum() == 2 ? a.GetDim(0) : a.GetDim(a.GetDimNum() - 1);
  return out * static_cast<double>(k);
}

// The one call of the compile pipeline (compiler/compile.h), for online loads and offline builds.
Status RunCompiler(std::shared_ptr<Graph> graph, const CompileOptions& options, std::unique_ptr<CompiledGraph>* out) {
  trace::Step step("compile");
  return Compile(std::move(graph), options, out);
}

}  // namespace

double Model::Flops() const {
  const Graph& g = graph();
  double macs = 0;
  for (size_t n = 0; n < g.num_nodes(); ++n) {
    const Node& node = g.node(static_cast<NodeId>(n));
    std::shared_ptr<const ops::OpDef> def = ops::GetOpDef(node.type);
    if (def == nullptr || def->GetMacs() == ops::OpDef::MacsRule::kNone) continue;
    const double m = NodeMacs(g, node, def->GetMacs());
    if (m < 0) return 0;
    macs += m;
  }
  return 2 * macs;
}

Status Model::SetProfiling(bool on) {
  std::lock_guard<std::mutex> lk(primary_mu_);
  return compiled_->SetProfiling(on);
}

Status Model::TakeProfile(OpProfile* out) {
  std::lock_guard<std::mutex> lk(primary_mu_);
  out->clear();
  return compiled_->TakeProfile(out);
}

template <typename F>
Status Model::WithInstance(F&& f) {
  {
    std::unique_lock<std::mutex> lk(primary_mu_, std::try_to_lock);
    if (lk.owns_lock()) return f(compiled_.get());
  }
  std::unique_ptr<CompiledModel> inst;
  {
    std::lock_guard<std::mutex> lk(spare_mu_);
    if (!spare_.empty()) {
      inst = std::move(spare_.back());
      spare_.pop_back();
    }
  }
  // Clones read only what compilation fixed, so the primary may be running.
  if (!inst) GE_RETURN_IF_ERROR(compiled_->Clone(&inst));
  Status st = f(inst.get());
  std::lock_guard<std::mutex> lk(spare_mu_);
  spare_.push_back(std::move(inst));
  return st;
}

Status Model::Load(const std::string& path, const ModelOptions& options, std::unique_ptr<Model>* out) {
  return NoThrow([&] {
    GE_RETURN_IF_ERROR(LoadCustomOpLibsFromEnv());  // custom operators before parsing (fallback issue)
    if (IsGemFile(path)) return LoadOffline(path, options, out);
    std::shared_ptr<Graph> graph;
    {
      trace::Step step("parse");
      GE_RETURN_IF_ERROR(LoadModelFile(path, options, &graph));
    }
    std::unique_ptr<Model> m(new Model());
    m->graph_ = std::move(graph);
    m->options_ = options;
    m->source_ = path;
    Status st = m->CompileAndLoad();
    if (!st.ok()) return st.Prepend(path + ": ");
    *out = std::move(m);
    return Status::Ok();
  });
}

// A .gem: the compiled graph is read, checked and loaded; nothing is compiled. The options that
// shape compilation were fixed by `ge compile` and may only repeat what the file records.
Status Model::LoadOffline(const std::string& path, const ModelOptions& options, std::unique_ptr<Model>* out) {
  std::unique_ptr<CompiledGraph> compiled;
  GemInfo info;
  {
    trace::Step step("read .gem");
    GE_RETURN_IF_ERROR(LoadCompiledGraph(path, &compiled, &info));
  }
  return LoadOfflineCompiled(std::move(compiled), info, path, options, out);
}

Status Model::LoadOfflineCompiled(std::unique_ptr<CompiledGraph> compiled, const GemInfo& info, const std::string& path,
                                  const ModelOptions& options, std::unique_ptr<Model>* out) {
  if (options.mode != "auto" && options.mode != info.options.mode)
    return InvalidArgument("{}: compiled offline with mode {}; the mode is chosen by `ge compile`, not at load ({})",
                           path, info.options.mode, options.mode);
  if (!options.input_shapes.empty() && options.input_shapes != info.options.input_shapes)
    return InvalidArgument("{}: input shapes are fixed by `ge compile --input-shape`, not at load", path);
  if (options.prefer_fallback) return InvalidArgument("{}: an offline model never takes the fallback path", path);
  if (!options.output_nodes.empty())
    return InvalidArgument("{}: the outputs of a compiled model are fixed by `ge compile --output-node`, not at load",
                           path);
  std::unique_ptr<Model> m(new Model());
  m->compiled_graph_ = std::move(compiled);
  m->graph_ = m->compiled_graph_->graph;
  m->options_ = options;
  m->options_.mode = info.options.mode;
  m->options_.opt_level = info.options.opt_level;
  m->options_.max_streams = info.options.max_streams;
  m->options_.input_shapes = info.options.input_shapes;
  m->source_ = path;
  m->offline_ = true;
  DetachFromFile(m->compiled_graph_.get(), info);
  Status st = m->LoadCompiled();
  if (!st.ok()) return st.Prepend(path + ": ");
  *out = std::move(m);
  return Status::Ok();
}

Status Model::CompileToFile(const std::string& model_path, const ModelOptions& options, const std::string& out_path) {
  return NoThrow([&] {
    GE_RETURN_IF_ERROR(LoadCustomOpLibsFromEnv());
    if (IsGemFile(model_path)) return InvalidArgument("{}: already a compiled (.gem) model", model_path);
    if (options.prefer_fallback)
      return InvalidArgument("{}: an offline model never takes the fallback path (prefer_fallback)", model_path);
    std::shared_ptr<Graph> graph;
    GE_RETURN_IF_ERROR(LoadModelFile(model_path, options, &graph));
    CompileOptions copt = ToCompileOptions(options);
    copt.offline = true;
    std::unique_ptr<CompiledGraph> compiled;
    Status st = RunCompiler(graph, copt, &compiled);
    if (!st.ok()) return st.Prepend(model_path + ": ");
    GemInfo info;
    info.producer = "GE";
    const size_t slash = model_path.find_last_of('/');
    info.source = slash == std::string::npos ? model_path : model_path.substr(slash + 1);
    info.options = copt;
    GE_RETURN_IF_ERROR(EnsureDevice(&info.core_num));
    return SaveCompiledGraph(*compiled, info, out_path);
  });
}

Status Model::LoadFromMemory(const void* data, size_t size, const ModelOptions& options, std::unique_ptr<Model>* out,
                             const std::string& name) {
  return NoThrow([&] {
    if (data == nullptr || size == 0) return InvalidArgument("{}: empty model (no bytes)", name);
    GE_RETURN_IF_ERROR(LoadCustomOpLibsFromEnv());
    if (HasGemMagic(data, size)) {  // a .gem's bytes
      std::unique_ptr<CompiledGraph> compiled;
      GemInfo info;
      GE_RETURN_IF_ERROR(DeserializeCompiledGraph(static_cast<const uint8_t*>(data), size, name, &compiled, &info));
      return LoadOfflineCompiled(std::move(compiled), info, name, options, out);
    }
    std::shared_ptr<Graph> graph;
    std::string bytes(static_cast<const char*>(data), size);
    Status st =
        LooksLikeTensorFlowGraph(bytes.substr(0, 256))
            ? LoadTensorFlowModelFromBytes(bytes, static_cast<uint8_t>(bytes[0]) != 0x0a, &graph, options.output_nodes)
            : LoadOnnxModelFromBytes(bytes, "", &graph);
    if (st.ok() && !LooksLikeTensorFlowGraph(bytes.substr(0, 256)))
      st = SelectOutputs(options.output_nodes, graph.get());
    if (!st.ok()) return st.Prepend(name + ": ");
    std::unique_ptr<Model> m(new Model());
    m->graph_ = std::move(graph);
    m->options_ = options;
    m->source_ = name;
    st = m->CompileAndLoad();
    if (!st.ok()) return st.Prepend(name + ": ");
    *out = std::move(m);
    return Status::Ok();
  });
}

Status Model::FromGraph(std::shared_ptr<Graph> graph, const ModelOptions& options, std::unique_ptr<Model>* out) {
  return NoThrow([&] {
    std::unique_ptr<Model> m(new Model());
    m->graph_ = std::move(graph);
    m->options_ = options;
    GE_RETURN_IF_ERROR(m->CompileAndLoad());
    *out = std::move(m);
    return Status::Ok();
  });
}

CompileOptions Model::ToCompileOptions(const ModelOptions& options) {
  CompileOptions copt;
  copt.mode = options.mode;
  copt.prefer_fallback = options.prefer_fallback;
  copt.max_streams = options.max_streams;
  copt.opt_level = options.opt_level;
  copt.input_shapes = options.input_shapes;
  return copt;
}

Status Model::CompileAndLoad() {
  std::unique_ptr<CompiledGraph> compiled;
  GE_RETURN_IF_ERROR(RunCompiler(graph_, ToCompileOptions(options_), &compiled));
  compiled_graph_ = std::move(compiled);
  return LoadCompiled();
}

Status Model::LoadCompiled() {
  // A model run only by sink segments: the graph's references to the weights go before the
  // load, so each weight's host bytes are freed once on the device (the peak holds them once).
  bool all_sunk = !compiled_graph_->segments.empty();
  for (const auto& seg : compiled_graph_->segments) all_sunk &= seg.sink;
  if (all_sunk) ReleaseConstantsOnlySinksRead(compiled_graph_.get(), true);
  {
    trace::Step step("load");
    GE_RETURN_IF_ERROR(CompiledModel::Load(compiled_graph_, &compiled_));
  }
  mode_ = compiled_graph_->mode();
  ReleaseSunkConstants(compiled_graph_.get());
  return Status::Ok();
}

const std::string& Model::optimizer_report() const { return compiled_graph_->optimizer_report; }

const std::map<std::string, int>& Model::op_counts_before() const { return compiled_graph_->op_counts_before; }

std::map<std::string, int> Model::op_counts_after() const { return CountOps(*compiled_graph_->graph); }

const Graph& Model::graph() const { return *graph_; }

namespace {

std::vector<TensorInfo> Infos(const Graph& g, const std::vector<ValueId>& values) {
  std::vector<TensorInfo> infos;
  for (ValueId v : values) infos.push_back({g.value(v).name, g.value(v).desc});
  return infos;
}

}  // namespace

std::vector<TensorInfo> Model::inputs() const { return Infos(*graph_, graph_->inputs()); }

std::vector<TensorInfo> Model::outputs() const { return Infos(*graph_, graph_->outputs()); }

size_t Model::num_nodes() const { return graph_->num_nodes(); }

std::string Model::GraphText() const { return GraphToText(*graph_); }

std::string Model::DescribeSegments() const { return compiled_graph_->DescribeSegments(); }

MemoryReport Model::memory_report() const { return compiled_graph_->memory_report(); }

ModelReport Model::report() const {
  const CompiledGraph& c = *compiled_graph_;
  ModelReport r;
  r.mode = mode_;
  r.nodes = static_cast<int>(c.graph->num_nodes());
  r.segments = c.DescribeSegments();
  for (const CompiledSegment& s : c.segments) {
    SegmentReport sr;
    sr.sink = s.sink;
    sr.nodes = static_cast<int>(s.nodes.size());
    if (s.program) {
      sr.kernel_tasks = static_cast<int>(s.program->tasks.size());
      for (const SinkTask& t : s.program->tasks) sr.multi_block_tasks += t.block_dim > 1;
      sr.streams = s.program->streams.num_streams;
      sr.events = s.program->streams.num_events;
    }
    r.segment_details.push_back(sr);
  }
  r.optimizer = c.optimizer_report;
  r.ops_before = c.op_counts_before;
  r.ops_after = CountOps(*c.graph);
  const MemoryReport m = c.memory_report();
  r.naive_bytes = m.naive_bytes;
  r.lower_bound_bytes = m.lower_bound_bytes;
  r.arena_bytes = m.arena_bytes;
  r.planned_tensors = m.num_tensors;
  r.planned_buffers = m.num_buffers;
  if (m.num_tensors > 0) r.memory = m.ToString();
  const Graph& g = *c.graph;
  auto value = [&](ValueId v) {
    return ValueReport{g.value(v).name, g.value(v).desc.ToString(), g.value(v).constant.has_value()};
  };
  for (ValueId v : g.inputs()) r.inputs.push_back(value(v));
  for (ValueId v : g.outputs()) r.outputs.push_back(value(v));
  for (size_t si = 0; si < c.segments.size(); ++si) {
    const CompiledSegment& s = c.segments[si];
    std::map<std::string, int> stream_of;  // sink segments: node name -> model stream
    if (s.program && s.graph)
      for (size_t p = 0; p < s.program->order.size() && p < s.program->streams.stream.size(); ++p)
        stream_of[s.graph->node(s.program->order[p]).name] = s.program->streams.stream[p];
    for (NodeId n : s.nodes) {
      if (n < 0 || static_cast<size_t>(n) >= g.num_nodes()) continue;
      const Node& node = g.node(n);
      NodeReport nr;
      nr.name = node.name;
      nr.op = node.type;
      nr.segment = static_cast<int>(si);
      const size_t idx = static_cast<size_t>(n);
      nr.placement = s.sink ? "sink" : idx < c.placement.size() ? c.placement[idx] : "host kernel";
      if (!s.sink) {
        nr.reason = idx < c.placement_reason.size() ? c.placement_reason[idx] : std::string();
        if (nr.reason.empty()) {
          nr.reason = "not sinkable (needs an input's value at run time, or has no kernel)";
          if (nr.placement == "sink") nr.placement = "host kernel";
        }
      }
      if (auto it = stream_of.find(node.name); it != stream_of.end()) nr.stream = it->second;
      for (ValueId v : node.inputs)
        if (v != kNoValue) nr.inputs.push_back(value(v));
      for (ValueId v : node.outputs)
        if (v != kNoValue) nr.outputs.push_back(value(v));
      r.node_details.push_back(std::move(nr));
    }
  }
  return r;
}

Status Model::Run(const std::vector<HostTensor>& inputs, std::vector<HostTensor>* outputs) {
  Status st =
      NoThrow([&] { return WithInstance([&](CompiledModel* compiled) { return compiled->Run(inputs, outputs); }); });
  if (!st.ok() && !source_.empty()) st.Prepend(source_ + ": ");
  return st;
}

Status Model::Run(const std::vector<HostTensor>& inputs, std::vector<HostTensor>* outputs,
                  const RunOptions& run_options) {
  if (!(run_options.timeout_s >= 0) || run_options.timeout_s > 1e9)  // also NaN
    return InvalidArgument("{}RunOptions::timeout_s {:g}: expected seconds in [0, 1e9] (0: no limit)",
                           source_.empty() ? "" : source_ + ": ", run_options.timeout_s);
  RunControl control;
  control.cancel = run_options.cancel;
  control.timeout_s = run_options.timeout_s;
  if (run_options.timeout_s > 0)
    control.deadline =
        std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                               std::chrono::duration<double>(run_options.timeout_s));
  ScopedRunControl scoped(run_options.timeout_s > 0 || run_options.cancel != nullptr ? &control : nullptr);
  return Run(inputs, outputs);
}

Status Model::RunWithDeviceBuffers(const std::vector<DeviceBuffer>& inputs, const std::vector<DeviceBuffer>& outputs) {
  Status st = NoThrow([&] {
    return WithInstance([&](CompiledModel* compiled) {
      if (SinkExecutor* sink = compiled->whole_graph_sink()) return sink->RunWithDeviceBuffers(inputs, outputs);
      return RunCopyingDeviceBuffers(compiled, inputs, outputs);
    });
  });
  if (!st.ok() && !source_.empty()) st.Prepend(source_ + ": ");
  return st;
}

// Host or mixed scheduling: the buffers' bytes go through HostTensors (device memory is host
// memory on this device).
Status Model::RunCopyingDeviceBuffers(CompiledModel* compiled, const std::vector<DeviceBuffer>& inputs,
                                      const std::vector<DeviceBuffer>& outputs) {
  const auto& gin = graph_->inputs();
  const auto& gout = graph_->outputs();
  GE_RETURN_IF_ERROR(CheckBufferCounts(*graph_, inputs, outputs));
  std::vector<HostTensor> in;
  for (size_t i = 0; i < gin.size(); ++i) {
    const TensorDesc& d = graph_->value(gin[i]).desc;
    if (!d.shape.IsStatic())
      return InvalidArgument("input '{}' has a dynamic shape ({}): device-buffer runs need static input shapes",
                             graph_->value(gin[i]).name, d.ToString());
    HostTensor t(d.dtype, d.shape);
    GE_RETURN_IF_ERROR(CheckDeviceBuffer("input", graph_->value(gin[i]).name, d, t.NumBytes(), inputs[i]));
    if (t.NumBytes() > 0) std::memcpy(t.mutable_data(), inputs[i].data, t.NumBytes());
    in.push_back(std::move(t));
  }
  std::vector<HostTensor> out;
  GE_RETURN_IF_ERROR(compiled->Run(in, &out));
  for (size_t o = 0; o < gout.size(); ++o) {
    GE_RETURN_IF_ERROR(
        CheckDeviceBuffer("output", graph_->value(gout[o]).name, out[o].desc(), out[o].NumBytes(), outputs[o]));
    if (out[o].NumBytes() > 0) std::memcpy(outputs[o].data, out[o].data(), out[o].NumBytes());
  }
  return Status::Ok();
}

}  // namespace ge
