// Segments in order; a single segment that spans the graph runs without the value table.
#include "executor/compiled_model.h"

#include "executor/input_check.h"

#include "executor/host_executor.h"
#include "executor/sink_executor.h"

namespace ge {

CompiledModel::~CompiledModel() = default;

Status CompiledModel::Create(std::shared_ptr<const Graph> graph, const std::vector<Placement>& placement,
                             const CompileOptions& options, std::unique_ptr<CompiledModel>* out) {
  std::unique_ptr<CompiledModel> m(new CompiledModel());
  m->graph_ = graph;
  GE_RETURN_IF_ERROR(PartitionGraph(*graph, placement, &m->segments_));
  SinkCompileOptions sopt;
  sopt.max_streams = options.max_streams;  // 0: the default bound and gain rule
  for (GraphSegment& s : m->segments_) {
    std::unique_ptr<SinkExecutor> sink;
    std::unique_ptr<HostExecutor> host;
    if (s.sink) {
      GE_RETURN_IF_ERROR(SinkExecutor::Create(s.graph, sopt, &sink));
    } else {
      std::vector<Placement> sub;
      for (NodeId n : s.nodes) sub.push_back(placement[n]);
      GE_RETURN_IF_ERROR(HostExecutor::Create(s.graph, &sub, &host));
    }
    m->sinks_.push_back(std::move(sink));
    m->hosts_.push_back(std::move(host));
  }
  // One segment with the graph's own I/O (the partitioner keeps it for a single segment): runs
  // skip the value-id environment.
  m->whole_graph_ = m->segments_.size() == 1 && m->segments_[0].inputs == graph->inputs() &&
                    m->segments_[0].outputs == graph->outputs();
  *out = std::move(m);
  return Status::Ok();
}

Status CompiledModel::Clone(std::unique_ptr<CompiledModel>* out) const {
  std::unique_ptr<CompiledModel> m(new CompiledModel());
  m->graph_ = graph_;
  m->segments_ = segments_;
  m->whole_graph_ = whole_graph_;
  for (size_t k = 0; k < segments_.size(); ++k) {
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

std::string CompiledModel::mode() const {
  bool any_sink = false, any_host = false;
  for (const auto& s : segments_) (s.sink ? any_sink : any_host) = true;
  if (any_sink && any_host) return "mixed";
  return any_host ? "host" : "sink";
}

MemoryReport CompiledModel::memory_report() const {
  MemoryReport r;
  for (const auto& s : sinks_) {
    if (!s) continue;
    const MemoryReport& x = s->memory_report();
    r.naive_bytes += x.naive_bytes;
    r.lower_bound_bytes += x.lower_bound_bytes;
    r.arena_bytes += x.arena_bytes;
    r.num_tensors += x.num_tensors;
    r.num_buffers += x.num_buffers;
  }
  return r;
}

SinkExecutor* CompiledModel::whole_graph_sink() { return whole_graph_ ? sinks_[0].get() : nullptr; }

Status CompiledModel::Run(const std::vector<HostTensor>& inputs, std::vector<HostTensor>* outputs) {
  const auto& gin = graph_->inputs();
  GE_RETURN_IF_ERROR(CheckGraphInputs(*graph_, inputs));
  if (whole_graph_) return sinks_[0] ? sinks_[0]->Run(inputs, outputs) : hosts_[0]->Run(inputs, outputs);
  env_.assign(graph_->num_values(), HostTensor());
  for (size_t i = 0; i < gin.size(); ++i) env_[gin[i]] = inputs[i];
  std::vector<HostTensor> seg_in, seg_out;
  for (size_t k = 0; k < segments_.size(); ++k) {
    const GraphSegment& s = segments_[k];
    seg_in.clear();
    for (ValueId v : s.inputs) seg_in.push_back(env_[v]);
    Status st = sinks_[k] ? sinks_[k]->Run(seg_in, &seg_out) : hosts_[k]->Run(seg_in, &seg_out);
    if (!st.ok()) return st;
    for (size_t o = 0; o < s.outputs.size(); ++o) env_[s.outputs[o]] = std::move(seg_out[o]);
  }
  outputs->clear();
  for (ValueId v : graph_->outputs())
    outputs->push_back(graph_->value(v).constant ? *graph_->value(v).constant : env_[v]);
  env_.clear();
  return Status::Ok();
}

Status CompiledModel::SetProfiling(bool on) {
  for (size_t k = 0; k < segments_.size(); ++k) {
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
  for (size_t k = 0; k < segments_.size(); ++k) {
    if (sinks_[k]) {
      GE_RETURN_IF_ERROR(sinks_[k]->TakeProfile(out));
    } else {
      hosts_[k]->TakeProfile(out);
    }
  }
  return Status::Ok();
}

}  // namespace ge
