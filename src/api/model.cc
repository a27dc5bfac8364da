#include "api/model.h"

#include <cstring>

#include "compiler/placement.h"
#include "compiler/static_inference.h"
#include "executor/compiled_model.h"
#include "executor/host_executor.h"
#include "executor/input_check.h"
#include "executor/sink_executor.h"
#include "parser/onnx/onnx_parser.h"
#include "register/custom_op_loader.h"

namespace ge {

struct Model::Instance {
  std::unique_ptr<HostExecutor> host;
  std::unique_ptr<CompiledModel> compiled;
};

Model::~Model() = default;

namespace {

// No exception leaves the API: allocation failures (a huge tensor) and internal errors become a
// Status.
template <typename F>
Status NoThrow(F&& f) noexcept {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return Error(Status::kOutOfMemory, "out of host memory");
  } catch (const std::exception& e) {
    return Internal("internal error: {}", e.what());
  } catch (...) {
    return Internal("internal error");
  }
}

}  // namespace

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
  return NoThrow([&] { return LoadImpl(path, options, out); });
}

Status Model::LoadImpl(const std::string& path, const ModelOptions& options, std::unique_ptr<Model>* out) {
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
  return NoThrow([&] {
    std::unique_ptr<Model> m(new Model());
    m->graph_ = std::move(graph);
    m->options_ = options;
    GE_RETURN_IF_ERROR(m->Compile());
    *out = std::move(m);
    return Status::Ok();
  });
}

Status Model::Compile() {
  if (options_.mode != "auto" && options_.mode != "host" && options_.mode != "sink")
    return InvalidArgument("unknown mode '{}' (expected auto, sink or host)", options_.mode);
  GE_RETURN_IF_ERROR(graph_->Verify());
  GE_RETURN_IF_ERROR(CheckSupported(*graph_));
  GE_RETURN_IF_ERROR(RunStaticInference(graph_.get()));
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
  return Status::Ok();
}

std::string Model::DescribeSegments() const {
  if (compiled_) return compiled_->Describe();
  return fmt::format("host[{} nodes]", graph_->num_nodes());
}

MemoryReport Model::memory_report() const { return compiled_ ? compiled_->memory_report() : MemoryReport(); }

Status Model::Run(const std::vector<HostTensor>& inputs, std::vector<HostTensor>* outputs) {
  Status st = NoThrow([&] {
    return WithInstance([&](HostExecutor* host, CompiledModel* compiled) {
      return compiled ? compiled->Run(inputs, outputs) : host->Run(inputs, outputs);
    });
  });
  if (!st.ok() && !source_.empty()) st.Prepend(source_ + ": ");
  return st;
}

Status Model::RunWithDeviceBuffers(const std::vector<DeviceBuffer>& inputs, const std::vector<DeviceBuffer>& outputs) {
  Status st = NoThrow([&] {
    return WithInstance([&](HostExecutor* host, CompiledModel* compiled) {
      if (SinkExecutor* sink = compiled ? compiled->whole_graph_sink() : nullptr)
        return sink->RunWithDeviceBuffers(inputs, outputs);
      return RunCopyingDeviceBuffers(host, compiled, inputs, outputs);
    });
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
