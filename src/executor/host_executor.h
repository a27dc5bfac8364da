// HostExecutor: host scheduling. Walks the graph node by node: infer the node's output shapes
// from the actual inputs, run its tiling, allocate outputs and workspace from the caching
// allocator, launch its kernel (or call its op-execute function), free each tensor after its
// last use. Handles any shapes; the sink executor is the fast path for static ones.
#ifndef GE_SRC_EXECUTOR_HOST_EXECUTOR_H_
#define GE_SRC_EXECUTOR_HOST_EXECUTOR_H_

#include <memory>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "base/status.h"
#include "compiler/check_supported.h"
#include "compiler/host_plan.h"
#include "compiler/op_call.h"
#include "compiler/placement.h"
#include "executor/op_profile.h"
#include "graph/graph.h"

namespace ge {
namespace rt {
class CachingAllocator;
}

struct HostNodeStats {
  uint64_t launches = 0;   // kernels launched by the host kernel path
  uint64_t fallbacks = 0;  // op-execute (fallback) calls
};

class HostExecutor {
 public:
  ~HostExecutor();
  // Loads a compiled host plan (compiler/host_plan.h): stream, allocator, constants uploaded.
  // Its placement (by NodeId, optional): kHostFallback nodes run their op-execute function,
  // others their kernel (the host executor runs sink-placed nodes with their kernel too).
  static Status Load(std::shared_ptr<const Graph> graph, std::shared_ptr<const HostPlan> plan,
                     std::unique_ptr<HostExecutor>* out);
  // BuildHostPlan + Load, for graphs that are not compiled as a whole (control-flow bodies,
  // single-op tests). Fails listing all unsupported nodes.
  static Status Create(std::shared_ptr<const Graph> graph, const std::vector<Placement>* placement,
                       std::unique_ptr<HostExecutor>* out);
  // A fresh executor of the same graph and placement (its own stream, allocator and per-run
  // state): what a concurrent run needs.
  Status Clone(std::unique_ptr<HostExecutor>* out) const;
  // Checks inputs against the graph's declared inputs, runs, and copies outputs to host.
  Status Run(const std::vector<HostTensor>& inputs, std::vector<HostTensor>* outputs);
  const HostNodeStats& stats() const { return stats_; }
  // Per-node timing: while on, each node's launch (or op-execute call) is followed by a stream
  // synchronize and timed from the launch to the end of its device work (steady clock). Off
  // (the default) it costs one branch per node. TakeProfile appends one entry per node run
  // and clears the totals.
  void SetProfiling(bool on);
  void TakeProfile(OpProfile* out);
  // Nodes in execution order (for tests and reports).
  const std::vector<NodeId>& order() const { return plan_->order; }

 private:
  struct ValueSlot {
    gert::Tensor tensor;  // shape/dtype/addr of the current run
    bool is_constant = false;
    bool device_owned = false;  // allocated from the caching allocator this run
    int uses = 0;               // consumers in the graph (+1 if a graph output)
    int remaining = 0;
    // This run's view of another value's bytes (a view step's output): releasing it releases
    // that value, which holds this value's uses too. kNoValue: owns its bytes (or a constant).
    ValueId view_of = kNoValue;
  };
  struct Step {
    NodeId node;
    std::string label;  // NodeLabel: names the node's kernel launches in device errors
    NodeBinding binding;
    OpCall call;
    bool needs_sync = false;  // a value-depend input is computed on the device
    bool use_fallback = false;
    // Output 0 may be input 0's bytes (OpDef::OutputView(0, 0): Reshape, Flatten, Squeeze,
    // Unsqueeze, Identity): when inference gives it input 0's dtype and byte size, the step
    // launches nothing and the output is a view.
    bool view = false;
    // The inputs' dtypes and shapes (and the core count) of the last run whose inference and
    // tiling succeeded: a run with the same ones reuses them (the outputs' shapes and the tiling
    // stay in `call`). Not for nodes whose inference reads computed values or that run bodies.
    std::vector<int64_t> shape_key;
    bool shape_key_valid = false;
    // profiling
    uint64_t total_ns = 0;
    uint32_t runs = 0;
    std::string input_shapes;
  };

  HostExecutor() = default;
  Status Init();
  Status RunStep(Step& step);
  // The step's shape key of this run into key_; true when it equals the last one.
  bool SameShapesAsLastRun(Step& step);
  Status CheckGuards(Step& step, const std::vector<void*>& workspaces);
  Status LaunchOrExecute(Step& step, std::vector<void*>& workspaces, bool reuse_tiling);
  void Release(ValueId v);
  // A view step (Step::view) after inference: output 0 becomes input 0's bytes; false when
  // the output's dtype or byte size differs (the kernel runs).
  bool TryView(Step& step);

  std::shared_ptr<const Graph> graph_;
  std::shared_ptr<const HostPlan> plan_;  // shared by clones
  std::vector<std::unique_ptr<Step>> steps_;
  std::vector<ValueSlot> slots_;
  std::vector<void*> constant_buffers_;
  std::unique_ptr<rt::CachingAllocator> allocator_;
  aclrtStream stream_ = nullptr;
  uint32_t core_num_ = 1;
  HostNodeStats stats_;
  bool profiling_ = false;
  std::vector<void*> addrs_;  // scratch for kernel arguments
  std::vector<int64_t> key_;  // scratch for shape keys
};

}  // namespace ge

#endif  // GE_SRC_EXECUTOR_HOST_EXECUTOR_H_
