// SinkExecutor: sink scheduling of a static graph. Load() takes its compiled sink program (task
// generation, compile.h: tiling, streams, memory plan, bound tasks), places the weights in one
// device block, allocates one arena and loads the task list as one device model. Run() copies the inputs into the
// arena, executes the model with one call, and copies the outputs out: the host does no per-op work.
#ifndef GE_SRC_EXECUTOR_SINK_EXECUTOR_H_
#define GE_SRC_EXECUTOR_SINK_EXECUTOR_H_

#include <memory>
#include <vector>

#include "acl/acl_rt.h"
#include "base/status.h"
#include "compiler/task_generator.h"
#include "executor/op_profile.h"
#include "graph/graph.h"

namespace ge {

class SinkExecutor {
 public:
  ~SinkExecutor();
  // `program` is GenerateSinkProgram's for `graph` (a sink segment of a CompiledGraph).
  static Status Load(std::shared_ptr<const Graph> graph, std::shared_ptr<const SinkProgram> program,
                     std::unique_ptr<SinkExecutor>* out);
  // Another executor of the same compiled program (shared, as are the weights) with its own
  // arena and device model: what a concurrent run needs.
  Status Clone(std::unique_ptr<SinkExecutor>* out) const;
  // Inputs must match the graph's input shapes exactly.
  Status Run(const std::vector<HostTensor>& inputs, std::vector<HostTensor>* outputs);
  // Zero-copy run: the kernels read the inputs from, and write the outputs to, the caller's
  // device buffers (each at least the tensor's bytes). The task arguments that refer to a graph
  // input or output are rebound when a buffer's address changes. An output that is a graph
  // input, a constant, or the same bytes as an earlier output is copied into its buffer.
  Status RunWithDeviceBuffers(const std::vector<DeviceBuffer>& inputs, const std::vector<DeviceBuffer>& outputs);
  // Per-task timing of the device model (a one-stream program; fails naming the stream count
  // otherwise). TakeProfile appends one entry per kernel task's node and clears the totals.
  Status SetProfiling(bool on);
  Status TakeProfile(OpProfile* out);
  // Outputs written directly into the caller's buffers by RunWithDeviceBuffers.
  size_t num_zero_copy_outputs() const;
  const SinkProgram& program() const { return *program_; }
  const MemoryReport& memory_report() const { return program_->memory.report; }
  const Graph& graph() const { return *graph_; }

 private:
  // "float32[1, 3], <none>": the values' compiled dtypes and shapes.
  std::string DescribeValues(const std::vector<ValueId>& values) const;
  // Names the model's kernel tasks for a trace (base/trace.h): called at load while tracing.
  void SetTraceInfo();
  SinkExecutor() = default;
  Status LoadModel();
  Status PlaceWeights();  // the weight block and each constant's place in it
  void CopyWeights();     // the constants into their places (their host bytes then freed)
  Status AddTasks();
  // A kernel-task address argument that holds a graph input's or output's bytes.
  struct AddrSlot {
    uint32_t stream = 0, task = 0, addr = 0;
    void* home = nullptr;  // its arena address
  };
  // Points the slots at `addr` (nullptr: back to their arena addresses) unless already there.
  Status Rebind(const std::vector<AddrSlot>& slots, void* addr, void** bound);
  Status BindArena();
  // GE_GUARD_BYTES (MemoryPlan::guard_bytes): fill / check the guard bytes after every buffer.
  void FillGuards();
  Status CheckGuards();

  std::shared_ptr<const Graph> graph_;
  std::shared_ptr<const SinkProgram> program_;
  uint8_t* arena_ = nullptr;
  std::vector<void*> constant_addr_;  // per ValueId (constants only), into weights_
  std::shared_ptr<uint8_t> weights_;  // every constant a task reads, in one block (shared by clones)
  aclmdlRI model_ = nullptr;
  // Zero-copy I/O, per graph input / output. An output with no slots list is copied.
  std::vector<std::vector<AddrSlot>> input_slots_, output_slots_;
  std::vector<bool> output_zero_copy_;
  std::vector<int> output_source_;                   // not zero-copy: graph input index, or ~earlier output, or
                                                     // kFromArena / kFromConstant
  std::vector<void*> bound_inputs_, bound_outputs_;  // nullptr: the arena
};

}  // namespace ge

#endif  // GE_SRC_EXECUTOR_SINK_EXECUTOR_H_
