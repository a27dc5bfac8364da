// ge::Model: the C++ entry point most users and the `ge` tool take — load a model file, compile
// it for a scheduling mode (compiler/compile.h), load it, run it on host tensors or device
// buffers. Implemented in src/api/; the compiled segments and executors stay behind forward
// declarations.
#ifndef GE_INCLUDE_GE_MODEL_H_
#define GE_INCLUDE_GE_MODEL_H_

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ge/model_report.h"
#include "ge/op_profile.h"
#include "ge/status.h"
#include "ge/tensor.h"

namespace ge {

class Graph;
class CompiledModel;
struct CompiledGraph;
struct MemoryReport;
struct CompileOptions;
struct GemInfo;

// A graph input or output: its name and declared (compiled) dtype and shape, -1 for a dynamic dim.
struct TensorInfo {
  std::string name;
  TensorDesc desc;
};

struct ModelOptions {
  std::string mode = "auto";     // auto | sink | host
  bool prefer_fallback = false;  // take each node's fallback (op-execute) path where it has one
  int max_streams = 0;           // sink segments: model streams bound (0 = default, 1 = one stream)
  int opt_level = 2;             // graph optimizer: 0 none, 1 basic, 2 (default) + fusions (pass_manager.h)
  // Shape specialization: these inputs' dims are fixed at compile time (a model with symbolic
  // batch or sequence dims becomes static and runs sunk); runs must then give exactly them.
  std::map<std::string, std::vector<int64_t>> input_shapes;
  // The graph outputs, in this order, instead of the model's own (`ge run --output-node`): a
  // TensorFlow graph's `node` or `node:k`, an ONNX graph's value names. Empty: the model's.
  std::vector<std::string> output_nodes;
};

// Limits on one run (Model::Run's third argument). Once either applies, a run stops before the
// next node of a host-scheduled segment or control-flow body, or the next iteration of a Loop or
// Scan, and returns kDeadlineExceeded or kCancelled; a sink segment (a fixed task list, which
// always ends) is checked before it starts. Nothing is checked when both are unset.
struct RunOptions {
  double timeout_s = 0;                       // seconds the run may take; 0: no limit
  const std::atomic<bool>* cancel = nullptr;  // set to true from any thread to stop the run
};

// Run and RunWithDeviceBuffers are safe from any number of threads: one run at a time uses the
// executors built by Load (the fast path, no allocation); a run that finds them busy takes an idle
// copy of the per-run state from a small pool, made on first need (sink segments share their
// compiled program and weights, with their own arena and device model; host segments get their
// own executor).
class Model {
 public:
  ~Model();
  static Status Load(const std::string& path, const ModelOptions& options, std::unique_ptr<Model>* out);
  // Load from a model held in memory (an ONNX ModelProto's or a .gem's bytes; not kept after the call).
  // `name` stands for the file in error messages.
  static Status LoadFromMemory(const void* data, size_t size, const ModelOptions& options, std::unique_ptr<Model>* out,
                               const std::string& name = "<memory>");
  static Status FromGraph(std::shared_ptr<Graph> graph, const ModelOptions& options, std::unique_ptr<Model>* out);
  // Offline compilation (`ge compile`): compiles the model at `model_path` (ONNX) for offline use
  // (the fallback path is never taken; an aclnn_only operator is an error naming the node) and
  // writes the compiled graph to `out_path` as a .gem file (src/compiler/gem_file.h). Load
  // recognises a .gem by its first bytes and loads it without compiling; the options that shape
  // compilation (mode, optimizer level, input shapes, streams) are the file's.
  static Status CompileToFile(const std::string& model_path, const ModelOptions& options, const std::string& out_path);
  // Bool inputs may hold any byte (nonzero is true): they are copied in as 0 / 1.
  Status Run(const std::vector<HostTensor>& inputs, std::vector<HostTensor>* outputs);
  Status Run(const std::vector<HostTensor>& inputs, std::vector<HostTensor>* outputs, const RunOptions& run_options);
  // Runs on the caller's device buffers (aclrtMalloc), one per graph input and output, each at
  // least the tensor's bytes; inputs and outputs must have static shapes. A model that is one
  // sink segment reads and writes them in place (zero copy: bool inputs must hold 0 or 1);
  // otherwise the tensors are copied.
  Status RunWithDeviceBuffers(const std::vector<DeviceBuffer>& inputs, const std::vector<DeviceBuffer>& outputs);
  // Per-node timing of the runs that follow (on the model's primary executors, so profile from
  // one thread): each node's device time. A sink segment must have one model stream (load with
  // max_streams = 1; fails otherwise). TakeProfile returns one entry per node run since the last
  // call (in execution order) and clears the totals.
  Status SetProfiling(bool on);
  Status TakeProfile(OpProfile* out);
  // The model's FLOPs, 2 * multiply-accumulates of the nodes whose OpDef declares a MacsRule
  // (Conv, FusedConv, FusedConvRowMeans, MatMul, Gemm, FusedMatMul), from the compiled graph's
  // static shapes; 0 when none or a shape is dynamic.
  double Flops() const;
  const Graph& graph() const;  // after every pass
  std::vector<TensorInfo> inputs() const;
  std::vector<TensorInfo> outputs() const;
  size_t num_nodes() const;  // in the compiled graph
  // The compiled graph in the textual IR (graph_text.h): `ge run --dump-graph`.
  std::string GraphText() const;
  // "host", "sink" or "mixed" (sink and host segments): what the mode resolved to.
  const std::string& mode() const { return mode_; }
  // "sink[12 nodes] -> host[1 node]"; "host[N nodes]" for pure host scheduling.
  std::string DescribeSegments() const;
  // Memory of the sink segments (all zero when none): naive, lower bound, planned arena.
  MemoryReport memory_report() const;
  // What the graph optimizer did: "-O2: 264 -> 180 nodes (...); <passes that rewrote>".
  const std::string& optimizer_report() const;
  // Nodes by op type as parsed (before the optimizer) and as compiled (after every pass).
  const std::map<std::string, int>& op_counts_before() const;
  std::map<std::string, int> op_counts_after() const;
  // Everything above and the per-segment task counts, as plain values (what `ge` prints).
  ModelReport report() const;
  // The loaded segments (a pure-host graph is one host segment).
  const CompiledModel* compiled() const { return compiled_.get(); }
  // True when loaded from a .gem (compiled offline).
  bool offline() const { return offline_; }

 private:
  Model() = default;
  // parse -> Compile (compiler/compile.h) -> load.
  Status CompileAndLoad();
  // compiled_graph_ -> executors.
  Status LoadCompiled();
  static Status LoadOffline(const std::string& path, const ModelOptions& options, std::unique_ptr<Model>* out);
  static Status LoadOfflineCompiled(std::unique_ptr<CompiledGraph> compiled, const GemInfo& info,
                                    const std::string& path, const ModelOptions& options, std::unique_ptr<Model>* out);
  static CompileOptions ToCompileOptions(const ModelOptions& options);
  // Runs f(compiled) on the primary loaded model if free, else on a pooled clone.
  template <typename F>
  Status WithInstance(F&& f);
  Status RunCopyingDeviceBuffers(CompiledModel* compiled, const std::vector<DeviceBuffer>& inputs,
                                 const std::vector<DeviceBuffer>& outputs);
  std::shared_ptr<Graph> graph_;
  ModelOptions options_;
  std::string mode_;
  std::string source_;  // file name for error messages
  bool offline_ = false;
  std::shared_ptr<CompiledGraph> compiled_graph_;
  std::unique_ptr<CompiledModel> compiled_;
  std::mutex primary_mu_;                              // held by the run using compiled_
  std::mutex spare_mu_;                                // guards spare_
  std::vector<std::unique_ptr<CompiledModel>> spare_;  // idle per-run state for concurrent runs
};

// `--input-shape` arguments, NAME=D0,D1,... (decimal dims >= 0), into ModelOptions::input_shapes.
Status ParseInputShapes(const std::vector<std::string>& args, std::map<std::string, std::vector<int64_t>>* out);

}  // namespace ge

#endif  // GE_INCLUDE_GE_MODEL_H_
