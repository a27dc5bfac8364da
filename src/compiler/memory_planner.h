// Static memory planning for a sink segment: every non-constant tensor (graph inputs, node
// outputs, workspaces) gets an offset in one arena. Lifetimes come from the schedule and, with
// several streams, from the happens-before relation of the stream assignment: a buffer is free
// for reuse only once every task that touches it is known to be complete. Views (Reshape,
// Flatten, Squeeze, Unsqueeze, Identity) alias their input; simple elementwise ops write in
// place over an input that dies at them. Offsets: greedy by size (Pisarchyk & Lee 2020).
#ifndef GE_SRC_COMPILER_MEMORY_PLANNER_H_
#define GE_SRC_COMPILER_MEMORY_PLANNER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "compiler/stream_assigner.h"
#include "graph/graph.h"

namespace ge {

constexpr int64_t kArenaAlign = 64;

// One schedule position, as the planner sees it.
struct PlannerNode {
  std::vector<ValueId> inputs;               // non-constant inputs (kNoValue / constants dropped)
  std::vector<ValueId> outputs;              // kNoValue for an absent output
  bool is_view = false;                      // output 0 aliases input 0 (no task runs)
  std::vector<ValueId> in_place;             // inputs whose buffer output 0 may take over if they die here
  std::vector<int64_t> workspaces;           // bytes
  std::vector<int64_t> absent_output_bytes;  // per output: what the kernel writes for a kNoValue output
};

struct PlannerInput {
  std::vector<int64_t> value_bytes;  // per ValueId; -1: not planned (constant, not in segment)
  std::vector<PlannerNode> nodes;    // schedule order
  std::vector<ValueId> graph_inputs, graph_outputs;
};

struct PlannedBuffer {
  int64_t size = 0;       // bytes, a multiple of kArenaAlign
  int def = 0;            // position of the first write (kBeforeAll for a graph input)
  std::vector<int> uses;  // positions that read or write it afterwards (kAfterAll: graph output)
  int64_t offset = -1;
  bool is_workspace = false;
  int64_t used = 0;  // bytes kernels may write (the largest tensor or workspace in it)
};

struct MemoryReport {
  int64_t naive_bytes = 0;        // every intermediate (and workspace) in its own buffer
  int64_t lower_bound_bytes = 0;  // max over schedule positions of the bytes live there
  int64_t arena_bytes = 0;        // the planned arena
  int num_tensors = 0;            // planned values
  int num_buffers = 0;            // after views and in-place reuse
  std::string ToString() const;   // "naive 1.2 MiB, lower bound ..., arena ... (+0.0%)"
};

struct MemoryPlan {
  std::vector<PlannedBuffer> buffers;
  std::vector<int> value_buffer;                   // per ValueId, -1 if not planned
  std::vector<std::vector<int>> workspace_buffer;  // per position, one per workspace
  std::vector<std::vector<int>> scratch_buffer;    // per position, per output: buffer of an absent output, else -1
  int64_t arena_bytes = 0;
  // GE_GUARD_BYTES (base/guard_bytes.h): > 0 gives every buffer its own range (no reuse) with
  // [offset + used, offset + size) guard bytes the sink executor checks after each run.
  int64_t guard_bytes = 0;
  MemoryReport report;
  // "v<id> buf<b> @<offset>" per planned value, one line each — for tests and debugging.
  std::string ToString(const Graph* graph = nullptr) const;
};

// The planner's view of `graph` in schedule `order` (all shapes must be static). View and
// in-place decisions come from the registered OpDefs (OutputView, OutputInplace).
Status BuildPlannerInput(const Graph& graph, const std::vector<NodeId>& order, PlannerInput* in);

// True when the planner treats `node` as a view of its first input (same bytes, no task): its op
// declares OutputView(0, 0), it has one output, and dtype and byte size match.
bool IsViewNode(const Graph& graph, const Node& node);

// Lifetimes -> buffers (aliasing views and in-place outputs) -> offsets.
Status PlanMemory(const PlannerInput& in, const StreamAssignment& streams, MemoryPlan* plan);

// True when a and b may be live at the same time under `streams`.
bool BuffersConflict(const PlannedBuffer& a, const PlannedBuffer& b, const StreamAssignment& streams);

}  // namespace ge

#endif  // GE_SRC_COMPILER_MEMORY_PLANNER_H_
