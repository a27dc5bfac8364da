// Task generation for a sink segment: everything about running a static graph that can be
// known before the first run — per node (in schedule order) inferred shapes, tiling data, block
// dim and workspace sizes; stream assignment; the memory plan; and each kernel task's argument
// list bound to arena offsets or constants. The sink executor turns it into a device model.
#ifndef GE_SRC_COMPILER_TASK_GENERATOR_H_
#define GE_SRC_COMPILER_TASK_GENERATOR_H_

#include <cstdint>
#include <vector>

#include "acl/acl_rt.h"
#include "base/status.h"
#include "compiler/memory_planner.h"
#include "compiler/stream_assigner.h"
#include "exe_graph/runtime/tensor.h"
#include "graph/graph.h"

namespace ge {

struct KernelArg {
  enum Kind : uint8_t { kNull, kArena, kConstant };
  Kind kind = kNull;
  int64_t offset = 0;        // kArena
  ValueId value = kNoValue;  // kConstant: the constant; kArena: the value whose bytes these are
                             // (a view's root), kNoValue for scratch and workspaces
};

struct SinkTask {
  int position = 0;  // in SinkProgram::order
  NodeId node = -1;
  aclrtKernelFunc kernel = nullptr;
  uint32_t block_dim = 1;
  std::vector<uint8_t> tiling;
  std::vector<KernelArg> args;  // inputs, outputs, workspaces (the kernel ABI)
};

struct SinkProgram {
  std::vector<NodeId> order;    // schedule: positions -> nodes
  std::vector<SinkTask> tasks;  // in position order (views have none)
  StreamAssignment streams;
  PlannerInput planner_input;
  MemoryPlan memory;
  std::vector<gert::Tensor> values;     // per ValueId: shape and dtype (addr unused)
  std::vector<ValueId> constants;       // constants some task reads: uploaded once
  std::vector<int64_t> input_offsets;   // per graph input
  std::vector<int64_t> output_offsets;  // per graph output; -1: a constant output
  std::vector<ValueId> value_root;      // per ValueId: the value whose bytes it is (views -> input)
};

struct SinkCompileOptions {
  int max_streams = 0;  // bound on model streams; 0: the default (see kDefaultMaxStreams)
  uint32_t core_num = 1;
  bool check_memory = false;  // run the memory checker (always on in debug builds and with GE_CHECK_MEMORY=1)
};

// True when `node` can be sunk: registered with a kernel and no value-depend input that is
// computed at run time (its tiling needs the data before the run).
bool IsSinkableNode(const Graph& graph, const Node& node);

// Fails naming the node when a node has no kernel, a shape is not static, or tiling fails.
Status GenerateSinkProgram(const Graph& graph, const SinkCompileOptions& options, SinkProgram* out);

// Loading an offline program (gem_file.h): runs each node's shape inference and tiling again, for
// `core_num` cores as compiled — a tiling may hold objects prepared in this process (oneDNN
// primitives), and kernel addresses are never stored — and fails naming the node where the
// shapes, block dim, tiling size or workspaces differ from the program's (a file from another
// build, or modified). Takes the fresh tiling data and kernels.
Status RetileSinkProgram(const Graph& graph, uint32_t core_num, SinkProgram* prog);

}  // namespace ge

#endif  // GE_SRC_COMPILER_TASK_GENERATOR_H_
