#include "api/model.h"

#include "base/checked_math.h"

#include <cstdlib>
#include <cstring>

#include "base/checked_math.h"
#include "compiler/partitioner.h"
#include "compiler/passes/layout_nhwc.h"
#include "compiler/passes/pass_manager.h"
#include "compiler/placement.h"
#include "compiler/static_inference.h"
#include "executor/compiled_model.h"
#include "executor/host_executor.h"
#include "executor/input_check.h"
#include "executor/sink_executor.h"
#include "parser/onnx/onnx_parser.h"
#include "register/custom_op_loader.h"

namespace ge {
namespace {

std::map<std::string, int> CountOps(const Graph& g) {
  std::map<std::string, int> counts;
  for (size_t n = 0; n < g.num_nodes(); ++n) counts[g.node(static_cast<NodeId>(n)).type]++;
  return counts;
}

// Multiply-accumulates of one Conv/FusedConv/MatMul/Gemm/FusedMatMul node from static shapes;
// -1 when a shape is not static.
double NodeMacs(const Graph& g, const Node& node) {
  if (node.inputs.size() < 2 || node.outputs.empty() || node.inputs[0] == kNoValue || node.inputs[1] == kNoValue ||
      node.outputs[0] == kNoValue)
    return 0;
  const Shape& a = g.value(node.inputs[0]).desc.shape;
  const Shape& w = g.value(node.inputs[1]).desc.shape;
  const Shape& y = g.value(node.outputs[0]).desc.shape;
  if (!a.IsStatic() || !y.IsStatic() || a.GetDimNum() < 1) return -1;
  const double out = static_cast<double>(y.GetShapeSize());
  if (node.type == "Conv" || node.type == "FusedConv") {
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
  // MatMul-like: K is A's last dim (Gemm: the first with transA).
  const auto* trans_a = node.GetAttr<int64_t>("transA");
  const int64_t k =
      node.type == "Gemm" && trans_a && *trans_a != 0 && a.GetDimNum() == 2 ? a.GetDim(0) : a.GetDim(a.GetDimNum() - 1);
  return out * static_cast<double>(k);
}

}  // namespace

double Model::Flops() const {
  double macs = 0;
  for (size_t n = 0; n < graph_->num_nodes(); ++n) {
    const Node& node = graph_->node(static_cast<NodeId>(n));
    if (node.type != "Conv" && node.type != "FusedConv" && node.type != "MatMul" && node.type != "Gemm" &&
        node.type != "FusedMatMul")
      continue;
    const double m = NodeMacs(*graph_, node);
    if (m < 0) return 0;
    macs += m;
  }
  return 2 * macs;
}

Status Model::SetProfiling(bool on) {
  std::lock_guard<std::mutex> lk(primary_mu_);
  if (host_) {
    host_->SetProfiling(on);
    return Status::Ok();
  }
  return compiled_->SetProfiling(on);
}

Status Model::TakeProfile(OpProfile* out) {
  std::lock_guard<std::mutex> lk(primary_mu_);
  out->clear();
  if (host_) {
    host_->TakeProfile(out);
    return Status::Ok();
  }
  return compiled_->TakeProfile(out);
}

struct Model::Instance {
  std::unique_ptr<HostExecutor> host;
  std::unique_ptr<CompiledModel> compiled;
};

Model::~Model() = default;

template <typename F>
Status Model::WithInstance(F&& f) {
  {
    std::unique_lock<std::mutex> lk(primary_mu_, std::try_to_lock);
    if (lk.owns_lock()) return f(host_.get(), compiled_.get());
  }
  std::unique_ptr<Instance> inst;
  {
    std::lock_guard<std::mutex> lk(spare_mu_);
    if (!spare_.empty()) {
      inst = std::move(spare_.back());
      spare_.pop_back();
    }
  }
  if (!inst) {  // clones read only what compilation fixed, so the primary may be running
    inst = std::make_unique<Instance>();
    GE_RETURN_IF_ERROR(compiled_ ? compiled_->Clone(&inst->compiled) : host_->Clone(&inst->host));
  }
  Status st = f(inst->host.get(), inst->compiled.get());
  std::lock_guard<std::mutex> lk(spare_mu_);
  spare_.push_back(std::move(inst));
  return st;
}

Status Model::Load(const std::string& path, const ModelOptions& options, std::unique_ptr<Model>* out) {
  GE_RETURN_IF_ERROR(LoadCustomOpLibsFromEnv());  // custom operators before parsing (fallback issue)
  std::shared_ptr<Graph> graph;
  GE_RETURN_IF_ERROR(LoadOnnxModel(path, &graph));
  std::unique_ptr<Model> m(new Model());
  m->graph_ = std::move(graph);
  m->options_ = options;
  m->source_ = path;
  Status st = m->Compile();
  if (!st.ok()) return st.Prepend(path + ": ");
  *out = std::move(m);
  return Status::Ok();
}

Status Model::FromGraph(std::shared_ptr<Graph> graph, const ModelOptions& options, std::unique_ptr<Model>* out) {
  std::unique_ptr<Model> m(new Model());
  m->graph_ = std::move(graph);
  m->options_ = options;
  GE_RETURN_IF_ERROR(m->Compile());
  *out = std::move(m);
  return Status::Ok();
}

Status Model::Compile() {
  if (options_.mode != "auto" && options_.mode != "host" && options_.mode != "sink")
    return InvalidArgument("unknown mode '{}' (expected auto, sink or host)", options_.mode);
  GE_RETURN_IF_ERROR(SpecializeInputShapes());
  GE_RETURN_IF_ERROR(graph_->Verify());
  GE_RETURN_IF_ERROR(CheckSupported(*graph_));
  op_counts_before_ = CountOps(*graph_);
  OptimizeStats opt_stats;
  GE_RETURN_IF_ERROR(OptimizeGraph(graph_.get(), options_.opt_level, &opt_stats));
  optimizer_report_ = opt_stats.ToString(options_.opt_level);
  // The NHWC layout is an -O2 optimization (GE_LAYOUT_NHWC=0 turns it off for comparisons).
  const char* layout_env = std::getenv("GE_LAYOUT_NHWC");
  if (options_.opt_level >= 2 && (!layout_env || std::string(layout_env) != "0")) {
    LayoutNhwcStats layout;
    GE_RETURN_IF_ERROR(RunLayoutNhwc(graph_.get(), &layout));
    if (layout.convs > 0) GE_RETURN_IF_ERROR(RunStaticInference(graph_.get()));
  }
  ReleaseUnreadConstants();
  CompileOptions copt;
  copt.mode = options_.mode;
  copt.prefer_fallback = options_.prefer_fallback;
  std::vector<Placement> placement;
  GE_RETURN_IF_ERROR(DecidePlacement(*graph_, copt, &placement));
  copt.max_streams = options_.max_streams;
  bool any_sink = false;
  for (Placement p : placement) any_sink |= p == Placement::kSink;
  if (!any_sink) {
    mode_ = "host";
    return HostExecutor::Create(graph_, &placement, &host_);
  }
  GE_RETURN_IF_ERROR(CompiledModel::Create(graph_, placement, copt, &compiled_));
  mode_ = compiled_->mode();
  ReleaseSunkConstants();
  return Status::Ok();
}

// Constants no node reads (e.g. weights replaced by packed or transposed copies) free their
// bytes before the executors copy what they need.
void Model::ReleaseUnreadConstants() {
  std::vector<bool> read(graph_->num_values(), false);
  for (ValueId v : graph_->outputs()) read[v] = true;
  for (size_t n = 0; n < graph_->num_nodes(); ++n)
    for (ValueId v : graph_->node(static_cast<NodeId>(n)).inputs)
      if (v != kNoValue) read[v] = true;
  for (size_t v = 0; v < graph_->num_values(); ++v) {
    Value& val = graph_->value(static_cast<ValueId>(v));
    if (val.constant && !read[v]) val.constant->ReleaseBytes();
  }
}

// Sink segments copied their constants into their weight blocks at load: the graph's copies of
// constants no host segment reads and no graph output is are released (a model's weights are
// then held once, not twice; unreferenced constants, e.g. weights replaced by packed ones, go too).
void Model::ReleaseSunkConstants() {
  std::vector<bool> hold(graph_->num_values(), false);
  for (ValueId v : graph_->outputs()) hold[v] = true;
  for (size_t s = 0; s < compiled_->num_segments(); ++s) {
    const GraphSegment& seg = compiled_->segment(s);
    if (seg.sink) {
      std::vector<bool> seg_out(seg.graph->num_values(), false);
      for (ValueId v : seg.graph->outputs()) seg_out[v] = true;
      for (size_t v = 0; v < seg.graph->num_values(); ++v) {
        Value& val = seg.graph->value(static_cast<ValueId>(v));
        if (val.constant && !seg_out[v]) val.constant->ReleaseBytes();
      }
      continue;
    }
    for (NodeId n : seg.nodes)
      for (ValueId v : graph_->node(n).inputs)
        if (v != kNoValue) hold[v] = true;
  }
  for (size_t v = 0; v < graph_->num_values(); ++v) {
    Value& val = graph_->value(static_cast<ValueId>(v));
    if (val.constant && !hold[v]) val.constant->ReleaseBytes();
  }
}

Status Model::SpecializeInputShapes() {
  for (const auto& [name, dims] : options_.input_shapes) {
    ValueId id = kNoValue;
    std::string names;
    for (ValueId v : graph_->inputs()) {
      if (graph_->value(v).name == name) id = v;
      names += (names.empty() ? "" : ", ") + graph_->value(v).name;
    }
    if (id == kNoValue)
      return InvalidArgument("input shape given for '{}': the model has no such input (inputs: {})", name, names);
    TensorDesc& d = graph_->value(id).desc;
    Shape given(dims);
    for (int64_t x : dims)
      if (x < 0) return InvalidArgument("input shape for '{}': {} has a negative dim", name, given.ToString());
    if (!CheckedTensorBytes(dims, GetSizeByDataType(graph_->value(id).desc.dtype)))
      return InvalidArgument("input '{}': shape {} is too large (its byte size overflows 64 bits)", name,
                             given.ToString());
    if (!d.shape.IsUnknownRank()) {
      bool ok = d.shape.GetDimNum() == dims.size();
      for (size_t i = 0; ok && i < dims.size(); ++i) ok = d.shape.GetDim(i) < 0 || d.shape.GetDim(i) == dims[i];
      if (!ok)
        return InvalidArgument("input shape for '{}': {} does not fit the declared {}", name, given.ToString(),
                               d.shape.ToString());
    }
    d.shape = given;
  }
  return Status::Ok();
}

std::map<std::string, int> Model::op_counts_after() const { return CountOps(*graph_); }

std::string Model::DescribeSegments() const {
  if (compiled_) return compiled_->Describe();
  return fmt::format("host[{} nodes]", graph_->num_nodes());
}

MemoryReport Model::memory_report() const { return compiled_ ? compiled_->memory_report() : MemoryReport(); }

Status Model::Run(const std::vector<HostTensor>& inputs, std::vector<HostTensor>* outputs) {
  Status st = WithInstance([&](HostExecutor* host, CompiledModel* compiled) {
    return compiled ? compiled->Run(inputs, outputs) : host->Run(inputs, outputs);
  });
  if (!st.ok() && !source_.empty()) st.Prepend(source_ + ": ");
  return st;
}

Status Model::RunWithDeviceBuffers(const std::vector<DeviceBuffer>& inputs, const std::vector<DeviceBuffer>& outputs) {
  Status st = WithInstance([&](HostExecutor* host, CompiledModel* compiled) {
    if (SinkExecutor* sink = compiled ? compiled->whole_graph_sink() : nullptr)
      return sink->RunWithDeviceBuffers(inputs, outputs);
    return RunCopyingDeviceBuffers(host, compiled, inputs, outputs);
  });
  if (!st.ok() && !source_.empty()) st.Prepend(source_ + ": ");
  return st;
}

// Host or mixed scheduling: the buffers' bytes go through HostTensors (device memory is host
// memory on this device).
Status Model::RunCopyingDeviceBuffers(HostExecutor* host, CompiledModel* compiled,
                                      const std::vector<DeviceBuffer>& inputs,
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
  GE_RETURN_IF_ERROR(compiled ? compiled->Run(in, &out) : host->Run(in, &out));
  for (size_t o = 0; o < gout.size(); ++o) {
    GE_RETURN_IF_ERROR(
        CheckDeviceBuffer("output", graph_->value(gout[o]).name, out[o].desc(), out[o].NumBytes(), outputs[o]));
    if (out[o].NumBytes() > 0) std::memcpy(outputs[o].data, out[o].data(), out[o].NumBytes());
  }
  return Status::Ok();
}

}  // namespace ge
