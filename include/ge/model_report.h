// ModelReport: what a compiled model is, for tools and users — the optimizer's work, the
// segments, each sink segment's task list size and streams, and the memory plan. Plain values
// taken from the CompiledGraph (Model::report()), so printing it needs no executor or compiler type.
#ifndef GE_INCLUDE_GE_MODEL_REPORT_H_
#define GE_INCLUDE_GE_MODEL_REPORT_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ge {

struct SegmentReport {
  bool sink = false;
  int nodes = 0;
  // Sink segments only.
  int kernel_tasks = 0;
  int multi_block_tasks = 0;  // block_dim > 1
  int streams = 0;
  int events = 0;
};

// A value a node reads or writes: its name and "float32[1, 3]".
struct ValueReport {
  std::string name, desc;
  bool constant = false;  // a weight / initializer
};

// A node of the compiled graph: where it runs and why.
struct NodeReport {
  std::string name, op;
  int segment = -1;       // index into ModelReport::segment_details
  std::string placement;  // "sink", "host kernel" or "host fallback"
  std::string reason;     // why it is not sunk ("" for a sink node): "dynamic shape", "fallback: no kernel", ...
  int stream = -1;        // sink segments: its model stream (-1: no task, e.g. a view)
  std::vector<ValueReport> inputs, outputs;  // absent optional inputs are left out
};

struct ModelReport {
  std::string mode;      // "sink", "host" or "mixed"
  int nodes = 0;         // in the compiled graph
  std::string segments;  // "sink[12 nodes] -> host[1 node]"
  std::vector<SegmentReport> segment_details;
  std::string optimizer;                             // "-O2: 264 -> 180 nodes (...); ..."
  std::map<std::string, int> ops_before, ops_after;  // nodes by op type, parsed / compiled
  // Memory of the sink segments (all zero when none).
  int64_t naive_bytes = 0, lower_bound_bytes = 0, arena_bytes = 0;
  int planned_tensors = 0, planned_buffers = 0;
  std::string memory;  // "naive 1.2 MiB, lower bound ..., arena ... (+0.0%)"; empty without sink segments
  std::vector<ValueReport> inputs, outputs;  // the graph's
  std::vector<NodeReport> node_details;      // the compiled graph's nodes, in segment execution order
};

}  // namespace ge

#endif  // GE_INCLUDE_GE_MODEL_REPORT_H_
