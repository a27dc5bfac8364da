// The Session API (Ascend's ge_api.h): initialize GE with options, add graphs to a session,
// build them, run them synchronously or asynchronously.
//
//   ge::GEInitialize({{ge::kOptionMode, "auto"}});
//   ge::Graph graph;
//   ge::aclgrphParseONNX("model.onnx", {}, graph);          // ge/onnx_parser.h
//   std::map<ge::AscendString, ge::AscendString> options = {{ge::kOptionMode, "host"}};
//   ge::Session session(options);   // a named map: a braced list would also match the copy constructor
//   session.AddGraph(1, graph);
//   std::vector<ge::Tensor> outputs;
//   ge::Status st = session.RunGraph(1, inputs, outputs);    // compiles on first use
//   ge::GEFinalize();
//
// Functions return ge::Status (ge/status.h: ok() and a message), not Ascend's integer codes.
// A graph is compiled once (at BuildGraph or its first run) through ge::Model; RunGraph is safe
// from any number of threads at once, on one graph or several, each with its own inputs.
// The options and their keys: ge/ge_api_types.h.
#ifndef GE_INCLUDE_GE_GE_API_H_
#define GE_INCLUDE_GE_GE_API_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ge/ge_api_types.h"
#include "ge/graph.h"
#include "ge/status.h"

namespace ge {

// Initializes GE (starts the device) with global options: the process-wide ones are applied,
// the graph ones (mode, optimization level, streams, prefer-fallback) become every session's
// defaults. An unknown key or a bad value is an error naming it. Calling it again (without
// GEFinalize) is an error.
Status GEInitialize(const std::map<AscendString, AscendString>& options);
// The std::string overloads (Ascend's older ones) convert and forward. They are templates only so
// that a braced list, GEInitialize({{kOptionMode, "host"}}), picks the AscendString overload
// instead of being ambiguous.
template <typename = void>
Status GEInitialize(const std::map<std::string, std::string>& options) {
  return GEInitialize(ToAscendStringMap(options));
}
// Sessions fail their calls after it; waits for nothing (destroy sessions first to drain their
// asynchronous runs). Error when GE is not initialized.
Status GEFinalize();
// The message of the last failed GEInitialize/Session call on this thread.
std::string GEGetErrorMsg();

// Called once per RunGraphAsync, on the session's worker thread, with the run's status and
// outputs (empty on failure).
using RunAsyncCallback = std::function<void(Status, std::vector<Tensor>&)>;

class Session {
 public:
  // Options override GEInitialize's for this session's graphs. An unknown key or bad value makes
  // every later call return that error (a constructor cannot return it).
  explicit Session(const std::map<AscendString, AscendString>& options);
  template <typename = void>
  explicit Session(const std::map<std::string, std::string>& options) : Session(ToAscendStringMap(options)) {}
  // Runs the queued asynchronous runs (their callbacks are called), then returns.
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Copies the graph; error if the id is taken. Options override the session's for this graph.
  Status AddGraph(uint32_t graph_id, const Graph& graph);
  Status AddGraph(uint32_t graph_id, const Graph& graph, const std::map<AscendString, AscendString>& options);
  template <typename = void>
  Status AddGraph(uint32_t graph_id, const Graph& graph, const std::map<std::string, std::string>& options) {
    return AddGraph(graph_id, graph, ToAscendStringMap(options));
  }
  // Runs in progress finish first (they hold the compiled graph).
  Status RemoveGraph(uint32_t graph_id);
  // Compiles the graph now. `inputs` may be empty; otherwise one per graph input, and inputs with
  // dynamic dims in the graph are compiled for these tensors' shapes (later runs must match).
  // Building a built graph again is a no-op.
  Status BuildGraph(uint32_t graph_id, const std::vector<Tensor>& inputs);
  // Runs the graph (compiling it first if needed); outputs are replaced.
  Status RunGraph(uint32_t graph_id, const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs);
  // Queues a run (inputs are copied, sharing their bytes) and returns; the session's worker
  // thread runs it and calls `callback`. Errors found before queueing (unknown graph) are returned
  // here, and the callback is not called.
  Status RunGraphAsync(uint32_t graph_id, const std::vector<Tensor>& inputs, RunAsyncCallback callback);
  // True if the graph is not compiled yet.
  bool IsGraphNeedRebuild(uint32_t graph_id);
  uint64_t GetSessionId() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace ge

#endif  // GE_INCLUDE_GE_GE_API_H_
