// Segments in order; a single segment that spans the graph runs without the value table.
#include "executor/compiled_model.h"
#include "executor/run_control.h"

#include "executor/host_executor.h"
#include "executor/input_check.h"
#include "executor/sink_executor.h"

namespace ge {

CompiledModel::~CompiledModel() = default;

Status CompiledModel::Load(std::shared_ptr<const CompiledGraph> compiled, std::unique_ptr<CompiledModel>* out) {
  std::unique_ptr<CompiledModel> m(new CompiledModel());
  m->compiled_ = std::move(compiled);
  for (const CompiledSegment& s : m->compiled_->segments) {
    std::unique_ptr<SinkExecutor> sink;
    std::unique_ptr<HostExecutor> host;
    if (s.sink)
      GE_RETURN_IF_ERROR(SinkExecutor::Load(s.graph, s.program, &sink));
    else
      GE_RETURN_IF_ERROR(HostExecutor::Load(s.graph, s.host_plan, &host));
    m->sinks_.push_back(std::move(sink));
    m->hosts_.push_back(std::move(host));
  }
  *out = std::move(m);
  return Status::Ok();
}

Status CompiledModel::Clone(std::unique_ptr<CompiledModel>* out) const {
  std::unique_ptr<CompiledModel> m(new CompiledModel());
  m->compiled_ = compiled_;
  for (size_t k = 0; k < sinks_.size(); ++k) {
    std::unique_ptr<SinkExecutor> sink;
    std::unique_ptr<HostExecutor> host;
    if (sinks_[k]) GE_RETURN_IF_ERROR(sinks_[k]->Clone(&sink));
    if (hosts_[k]) GE_RETURN_IF_ERROR(hosts_[k]->Clone(&host));
    m->sinks_.push_back(std::move(sink));
    m->hosts_.push_back(std::move(host));
  }
  *out = std::move(m);
  return Status::Ok();
}

SinkExecutor* CompiledModel::whole_graph_sink() { return compiled_->whole_graph ? sinks_[0].get() : nullptr; }

Status CompiledModel::Run(const std::vector<HostTensor>& inputs, std::vector<HostTensor>* outputs) {
  const Graph& graph = *compiled_->graph;
  const auto& gin = graph.inputs();
  GE_RETURN_IF_ERROR(CheckGraphInputs(graph, inputs));
  if (compiled_->whole_graph) {
    if (sinks_[0]) GE_RETURN_IF_ERROR(CheckRunControl([] { return "the sink segment"; }));
    return sinks_[0] ? sinks_[0]->Run(inputs, outputs) : hosts_[0]->Run(inputs, outputs);
  }
  env_.assign(graph.num_values(), HostTensor());
  for (size_t i = 0; i < gin.size(); ++i) env_[gin[i]] = inputs[i];
  std::vector<HostTensor> seg_in, seg_out;
  for (size_t k = 0; k < sinks_.size(); ++k) {
    const CompiledSegment& s = compiled_->segments[k];
    seg_in.clear();
    for (ValueId v : s.inputs) seg_in.push_back(env_[v]);
    if (sinks_[k]) GE_RETURN_IF_ERROR(CheckRunControl([k] { return fmt::format("sink segment {}", k); }));
    Status st = sinks_[k] ? sinks_[k]->Run(seg_in, &seg_out) : hosts_[k]->Run(seg_in, &seg_out);
    if (!st.ok()) return st;
    for (size_t o = 0; o < s.outputs.size(); ++o) env_[s.outputs[o]] = std::move(seg_out[o]);
  }
  outputs->clear();
  for (ValueId v : graph.outputs()) outputs->push_back(graph.value(v).constant ? *graph.value(v).constant : env_[v]);
  env_.clear();
  return Status::Ok();
}

void ReleaseConstantsOnlySinksRead(CompiledGraph* compiled, bool floats_only) {
  Graph& graph = *compiled->graph;
  std::vector<bool> hold(graph.num_values(), false);
  for (ValueId v : graph.outputs()) hold[v] = true;
  // Every node no sink segment runs (host segments; a pure-host graph has no segment list)
  // holds its inputs.
  std::vector<bool> sunk(graph.num_nodes(), false);
  for (const CompiledSegment& seg : compiled->segments)
    if (seg.sink)
      for (NodeId n : seg.nodes) sunk[n] = true;
  for (size_t n = 0; n < graph.num_nodes(); ++n)
    if (!sunk[n])
      for (ValueId v : graph.node(static_cast<NodeId>(n)).inputs)
        if (v != kNoValue) hold[v] = true;
  for (size_t v = 0; v < graph.num_values(); ++v) {
    Value& val = graph.value(static_cast<ValueId>(v));
    if (!val.constant || hold[v]) continue;
    const DataType dt = val.constant->dtype();
    if (!floats_only || dt == DT_FLOAT || dt == DT_FLOAT16 || dt == DT_BF16 || dt == DT_DOUBLE)
      val.constant->ReleaseBytes();
  }
}

void ReleaseSunkConstants(CompiledGraph* compiled) {
  for (const CompiledSegment& seg : compiled->segments) {
    if (!seg.sink) continue;
    std::vector<bool> seg_out(seg.graph->num_values(), false);
    for (ValueId v : seg.graph->outputs()) seg_out[v] = true;
    for (size_t v = 0; v < seg.graph->num_values(); ++v) {
      Value& val = seg.graph->value(static_cast<ValueId>(v));
      if (val.constant && !seg_out[v]) val.constant->ReleaseBytes();
    }
  }
  ReleaseConstantsOnlySinksRead(compiled, false);
}

Status CompiledModel::SetProfiling(bool on) {
  for (size_t k = 0; k < compiled_->segments.size(); ++k) {
    if (sinks_[k]) {
      if (Status st = sinks_[k]->SetProfiling(on); !st.ok()) {
        if (on) (void)SetProfiling(false);  // all or nothing
        return Error(st.code(), "segment {}: {}", k, st.message());
      }
    } else {
      hosts_[k]->SetProfiling(on);
    }
  }
  return Status::Ok();
}

Status CompiledModel::TakeProfile(OpProfile* out) {
  for (size_t k = 0; k < compiled_->segments.size(); ++k) {
    if (sinks_[k]) {
      GE_RETURN_IF_ERROR(sinks_[k]->TakeProfile(out));
    } else {
      hosts_[k]->TakeProfile(out);
    }
  }
  return Status::Ok();
}

}  // namespace ge
