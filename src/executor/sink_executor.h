// SinkExecutor: sink scheduling of a static graph. Create() compiles it once (task generation:
// tiling, streams, memory plan), places the weights in one device block, allocates one arena and
// loads the bound task list as one device model. Run() copies the inputs into the arena,
// executes the model with one call, and copies the outputs out: the host does no per-op work.
#ifndef GE_SRC_EXECUTOR_SINK_EXECUTOR_H_
#define GE_SRC_EXECUTOR_SINK_EXECUTOR_H_

#include <memory>
#include <vector>

#include "acl/acl_rt.h"
#include "base/status.h"
#include "compiler/task_generator.h"
#include "graph/graph.h"

namespace ge {

class SinkExecutor {
 public:
  ~SinkExecutor();
  // `graph` must be static (every node sinkable); fails naming the first node that is not.
  static Status Create(std::shared_ptr<const Graph> graph, const SinkCompileOptions& options,
                       std::unique_ptr<SinkExecutor>* out);
  // Inputs must match the graph's input shapes exactly.
  Status Run(const std::vector<HostTensor>& inputs, std::vector<HostTensor>* outputs);
  const SinkProgram& program() const { return program_; }
  const MemoryReport& memory_report() const { return program_.memory.report; }
  const Graph& graph() const { return *graph_; }

 private:
  SinkExecutor() = default;
  Status Load();
  Status PlaceWeights();
  Status AddTasks();

  std::shared_ptr<const Graph> graph_;
  SinkProgram program_;
  uint8_t* arena_ = nullptr;
  std::vector<void*> constant_addr_;  // per ValueId (constants only), into weights_
  uint8_t* weights_ = nullptr;        // every constant a task reads, in one block
  aclmdlRI model_ = nullptr;
};

}  // namespace ge

#endif  // GE_SRC_EXECUTOR_SINK_EXECUTOR_H_
