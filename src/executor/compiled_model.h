// CompiledModel: a loaded CompiledGraph (compiler/compile.h) — each segment in its executor (sink
// program -> SinkExecutor, host plan -> HostExecutor), run in order with tensors passed between
// them by value id. A fully static graph is one sink segment; a pure-host graph one host segment.
#ifndef GE_SRC_EXECUTOR_COMPILED_MODEL_H_
#define GE_SRC_EXECUTOR_COMPILED_MODEL_H_

#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "compiler/compiled_graph.h"
#include "executor/op_profile.h"
#include "graph/graph.h"

namespace ge {

class HostExecutor;
class SinkExecutor;

class CompiledModel {
 public:
  ~CompiledModel();
  // Allocates arenas, uploads weights, creates the device models and host executors.
  static Status Load(std::shared_ptr<const CompiledGraph> compiled, std::unique_ptr<CompiledModel>* out);
  Status Run(const std::vector<HostTensor>& inputs, std::vector<HostTensor>* outputs);
  // The same segments with their own per-run state (sink: shared program and weights, own
  // arena and device model; host: own executor): what a concurrent run needs.
  Status Clone(std::unique_ptr<CompiledModel>* out) const;

  // Per-node timing in every segment (sink segments need one model stream: compile with
  // max_streams = 1); TakeProfile appends the segments' entries in order and clears them.
  Status SetProfiling(bool on);
  Status TakeProfile(OpProfile* out);

  const CompiledGraph& compiled_graph() const { return *compiled_; }
  std::string mode() const { return compiled_->mode(); }
  std::string Describe() const { return compiled_->DescribeSegments(); }
  size_t num_segments() const { return compiled_->segments.size(); }
  const CompiledSegment& segment(size_t i) const { return compiled_->segments[i]; }
  // Null for a host segment.
  const SinkExecutor* sink_executor(size_t i) const { return sinks_[i].get(); }
  // The sink executor when the whole graph is one sink segment (zero-copy runs), else null.
  SinkExecutor* whole_graph_sink();
  // Sum over the sink segments.
  MemoryReport memory_report() const { return compiled_->memory_report(); }

 private:
  CompiledModel() = default;
  std::shared_ptr<const CompiledGraph> compiled_;
  std::vector<std::unique_ptr<SinkExecutor>> sinks_;
  std::vector<std::unique_ptr<HostExecutor>> hosts_;
  std::vector<HostTensor> env_;  // per ValueId of the compiled graph, during a run
};

// After the first load: the graph's copies of constants that sink segments hold in their weight
// blocks and no host segment or graph output reads are released (a model's weights are then held
// once, not twice; unreferenced constants go too). Clones share the loaded weights.
void ReleaseSunkConstants(CompiledGraph* compiled);
// Before the load of a model whose segments are all sink segments: the graph's references to
// constants only sink segments read (the segments' graphs hold their own, released as each
// weight reaches the device).
// floats_only: only floating-point constants (the weights; integer constants may still be read
// by a run's shape inference).
void ReleaseConstantsOnlySinksRead(CompiledGraph* compiled, bool floats_only);

}  // namespace ge

#endif  // GE_SRC_EXECUTOR_COMPILED_MODEL_H_
