// CompiledModel: a graph partitioned into sink and host segments (compiler/partitioner.h),
// each loaded into its executor, run in order with tensors passed between them by value id.
// A fully static graph is one sink segment; `--mode host` is one host segment.
#ifndef GE_SRC_EXECUTOR_COMPILED_MODEL_H_
#define GE_SRC_EXECUTOR_COMPILED_MODEL_H_

#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "compiler/memory_planner.h"
#include "compiler/partitioner.h"
#include "compiler/placement.h"
#include "executor/op_profile.h"
#include "graph/graph.h"

namespace ge {

class HostExecutor;
class SinkExecutor;

class CompiledModel {
 public:
  ~CompiledModel();
  // `placement` by NodeId (DecidePlacement). options.max_streams bounds sink model streams
  // (0 = kDefaultMaxStreams).
  static Status Create(std::shared_ptr<const Graph> graph, const std::vector<Placement>& placement,
                       const CompileOptions& options, std::unique_ptr<CompiledModel>* out);
  Status Run(const std::vector<HostTensor>& inputs, std::vector<HostTensor>* outputs);
  // The same segments with their own per-run state (sink: shared program and weights, own
  // arena and device model; host: own executor): what a concurrent run needs.
  Status Clone(std::unique_ptr<CompiledModel>* out) const;

  // Per-node timing in every segment (sink segments need one model stream: compile with
  // max_streams = 1); TakeProfile appends the segments' entries in order and clears them.
  Status SetProfiling(bool on);
  Status TakeProfile(OpProfile* out);

  // "sink", "host" or "mixed".
  std::string mode() const;
  std::string Describe() const { return DescribeSegments(segments_); }
  size_t num_segments() const { return segments_.size(); }
  const GraphSegment& segment(size_t i) const { return segments_[i]; }
  // Null for a host segment.
  const SinkExecutor* sink_executor(size_t i) const { return sinks_[i].get(); }
  // The sink executor when the whole graph is one sink segment (zero-copy runs), else null.
  SinkExecutor* whole_graph_sink();
  // Sum over the sink segments.
  MemoryReport memory_report() const;

 private:
  CompiledModel() = default;
  std::shared_ptr<const Graph> graph_;
  std::vector<GraphSegment> segments_;
  std::vector<std::unique_ptr<SinkExecutor>> sinks_;
  std::vector<std::unique_ptr<HostExecutor>> hosts_;
  bool whole_graph_ = false;     // one segment whose I/O is the graph's
  std::vector<HostTensor> env_;  // per original ValueId, during a run
};

}  // namespace ge

#endif  // GE_SRC_EXECUTOR_COMPILED_MODEL_H_
