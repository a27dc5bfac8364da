#include "api/model.h"

#include "compiler/placement.h"
#include "compiler/static_inference.h"
#include "executor/compiled_model.h"
#include "executor/host_executor.h"
#include "parser/onnx/onnx_parser.h"
#include "register/custom_op_loader.h"

namespace ge {

Model::~Model() = default;

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
  Status st = compiled_ ? compiled_->Run(inputs, outputs) : host_->Run(inputs, outputs);
  if (!st.ok() && !source_.empty()) st.Prepend(source_ + ": ");
  return st;
}

}  // namespace ge
