// The Session API (include/ge/ge_api.h): options, GE initialization, sessions holding graphs that
// compile lazily into ge::Models, synchronous and asynchronous runs, and aclgrphParseONNX.
#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include "acl/acl_rt.h"
#include "api/model.h"
#include "base/log.h"
#include "ge/ge_api.h"
#include "ge/onnx_parser.h"
#include "ge/tensorflow_parser.h"
#include "parser/onnx/onnx_parser.h"
#include "parser/tf/tf_parser.h"
#include "register/custom_op_loader.h"
#include "runtime/device_init.h"

namespace ge {

namespace {

thread_local std::string t_error_msg;

Status Remember(Status st) {
  if (!st.ok()) t_error_msg = st.message();
  return st;
}

template <typename F>
Status Guarded(F&& f) noexcept {
  try {
    return Remember(f());
  } catch (const std::bad_alloc&) {
    return Remember(Error(Status::kOutOfMemory, "out of host memory"));
  } catch (const std::exception& e) {
    return Remember(Internal("internal error: {}", e.what()));
  } catch (...) {
    return Remember(Internal("internal error"));
  }
}

// The graph options of one level (GEInitialize, Session, AddGraph); unset = inherit.
struct GraphOptions {
  std::optional<std::string> mode;
  std::optional<int> opt_level;
  std::optional<int> streams;
  std::optional<bool> prefer_fallback;

  void Override(const GraphOptions& o) {
    if (o.mode) mode = o.mode;
    if (o.opt_level) opt_level = o.opt_level;
    if (o.streams) streams = o.streams;
    if (o.prefer_fallback) prefer_fallback = o.prefer_fallback;
  }
  ModelOptions ToModelOptions() const {
    ModelOptions m;
    if (mode) m.mode = *mode;
    if (opt_level) m.opt_level = *opt_level;
    if (streams) m.max_streams = *streams;
    if (prefer_fallback) m.prefer_fallback = *prefer_fallback;
    return m;
  }
};

enum class Level { kGlobal, kSession, kGraph };

const char* LevelName(Level l) {
  return l == Level::kGlobal ? "GEInitialize" : l == Level::kSession ? "Session" : "AddGraph";
}

Status ParseInt(const std::string& key, const std::string& v, int64_t lo, int64_t hi, int64_t* out) {
  size_t pos = 0;
  long long x = 0;
  try {
    x = std::stoll(v, &pos);
  } catch (...) {
    pos = 0;
  }
  if (v.empty() || pos != v.size() || x < lo || x > hi)
    return InvalidArgument("option {}: '{}' is not an integer in [{}, {}]", key, v, lo, hi);
  *out = x;
  return Status::Ok();
}

// Checks every key and value; applies the process-wide options (log level, custom-op libraries,
// and at GEInitialize threads and memory limit); returns the graph options.
Status ParseOptions(const std::map<std::string, std::string>& options, Level level, GraphOptions* out) {
  GraphOptions g;
  for (const auto& [key, v] : options) {
    int64_t n = 0;
    if (key == kOptionMode) {
      if (v != "auto" && v != "sink" && v != "host")
        return InvalidArgument("option {}: '{}' is not one of auto, sink, host", key, v);
      g.mode = v;
    } else if (key == kOptionOptimizationLevel) {
      GE_RETURN_IF_ERROR(ParseInt(key, v, 0, 2, &n));
      g.opt_level = static_cast<int>(n);
    } else if (key == kOptionStreamNum) {
      GE_RETURN_IF_ERROR(ParseInt(key, v, 0, 1024, &n));
      g.streams = static_cast<int>(n);
    } else if (key == kOptionPreferFallback) {
      GE_RETURN_IF_ERROR(ParseInt(key, v, 0, 1, &n));
      g.prefer_fallback = n != 0;
    } else if (key == kOptionThreadNum || key == kOptionMemoryLimit) {
      if (level != Level::kGlobal)
        return InvalidArgument("option {} is process-wide: give it to GEInitialize, not {}", key, LevelName(level));
    } else if (key == kOptionLogLevel) {
      if (v != "debug" && v != "info" && v != "warn" && v != "warning" && v != "error" && v != "off")
        return InvalidArgument("option {}: '{}' is not one of debug, info, warn, error, off", key, v);
    } else if (key == kOptionCustomOpLib) {
      if (v.empty()) return InvalidArgument("option {}: empty library list", key);
    } else {
      return InvalidArgument("unknown option '{}' given to {} (known: {}, {}, {}, {}, {}, {}, {}, {})", key,
                             LevelName(level), kOptionMode, kOptionOptimizationLevel, kOptionStreamNum,
                             kOptionThreadNum, kOptionMemoryLimit, kOptionCustomOpLib, kOptionLogLevel,
                             kOptionPreferFallback);
    }
  }
  // Everything is valid: apply the process-wide ones.
  for (const auto& [key, v] : options) {
    int64_t n = 0;
    if (key == kOptionThreadNum) {
      GE_RETURN_IF_ERROR(ParseInt(key, v, 0, 1024, &n));
      if (aclrtSetDeviceCoreNum(static_cast<uint32_t>(n)) != ACL_SUCCESS)
        return Internal("option {}: {}", key, aclGetRecentErrMsg());
    } else if (key == kOptionMemoryLimit) {
      GE_RETURN_IF_ERROR(ParseInt(key, v, 0, INT64_MAX, &n));
      if (aclrtSetDeviceMemLimit(static_cast<size_t>(n)) != ACL_SUCCESS)
        return Internal("option {}: {}", key, aclGetRecentErrMsg());
    } else if (key == kOptionLogLevel) {
      const auto lvl = v == "debug"   ? spdlog::level::debug
                       : v == "info"  ? spdlog::level::info
                       : v == "error" ? spdlog::level::err
                       : v == "off"   ? spdlog::level::off
                                      : spdlog::level::warn;
      Logger().set_level(lvl);
    } else if (key == kOptionCustomOpLib) {
      Status st = LoadCustomOpLibs(v);
      if (!st.ok()) return st.Prepend("option " + key + ": ");
    }
  }
  *out = std::move(g);
  return Status::Ok();
}

std::map<std::string, std::string> ToStd(const std::map<AscendString, AscendString>& m) {
  std::map<std::string, std::string> r;
  for (const auto& [k, v] : m) r.emplace(k.str(), v.str());
  return r;
}

struct Global {
  std::mutex mu;
  bool initialized = false;
  GraphOptions defaults;
  std::atomic<uint64_t> next_session_id{1};
};

Global& G() {
  static Global* g = new Global();  // outlives sessions destroyed at exit
  return *g;
}

Status CheckInitialized() {
  std::lock_guard<std::mutex> lk(G().mu);
  if (!G().initialized) return Error(Status::kFailedPrecondition, "GE is not initialized: call ge::GEInitialize first");
  return Status::Ok();
}

}  // namespace

Status GEInitialize(const std::map<AscendString, AscendString>& ascend_options) {
  const std::map<std::string, std::string> options = ToStd(ascend_options);
  return Guarded([&] {
    std::lock_guard<std::mutex> lk(G().mu);
    if (G().initialized) return Error(Status::kFailedPrecondition, "GEInitialize: GE is already initialized");
    GraphOptions g;
    Status st = ParseOptions(options, Level::kGlobal, &g);
    if (!st.ok()) return st.Prepend("GEInitialize: ");
    GE_RETURN_IF_ERROR(EnsureDevice(nullptr));
    G().defaults = g;
    G().initialized = true;
    return Status::Ok();
  });
}

Status GEFinalize() {
  return Guarded([&] {
    std::lock_guard<std::mutex> lk(G().mu);
    if (!G().initialized) return Error(Status::kFailedPrecondition, "GEFinalize: GE is not initialized");
    G().initialized = false;
    G().defaults = GraphOptions();
    return Status::Ok();
  });
}

std::string GEGetErrorMsg() { return t_error_msg; }

// ---- Session --------------------------------------------------------------------------------

namespace {

struct GraphEntry {
  std::shared_ptr<const Graph> graph;  // the graph as added
  GraphOptions options;                // global < session < graph, resolved at AddGraph
  std::mutex build_mu;                 // serializes the compile
  std::shared_ptr<Model> model;        // set once compiled (under build_mu)
};

Status BuildEntry(uint32_t id, GraphEntry& e, const std::vector<Tensor>* inputs, std::shared_ptr<Model>* out) {
  const auto& gin = e.graph->inputs();
  if (inputs != nullptr && !inputs->empty() && inputs->size() != gin.size())
    return InvalidArgument("graph {}: {} input tensors given to BuildGraph, the graph has {} inputs", id,
                           inputs->size(), gin.size());
  std::lock_guard<std::mutex> lk(e.build_mu);
  if (!e.model) {
    ModelOptions mo = e.options.ToModelOptions();
    if (inputs != nullptr && !inputs->empty()) {
      for (size_t i = 0; i < gin.size(); ++i) {
        const Value& v = e.graph->value(gin[i]);
        if (v.desc.shape.IsStatic()) continue;
        mo.input_shapes[v.name] = (*inputs)[i].shape().GetDims();
      }
    }
    std::unique_ptr<Model> m;
    Status st = Model::FromGraph(std::make_shared<Graph>(*e.graph), mo, &m);
    if (!st.ok()) return st.Prepend(fmt::format("graph {}: ", id));
    e.model = std::move(m);
  }
  *out = e.model;
  return Status::Ok();
}

Status RunEntry(uint32_t id, GraphEntry& e, const std::vector<Tensor>& inputs, std::vector<Tensor>* outputs) {
  std::shared_ptr<Model> model;
  GE_RETURN_IF_ERROR(BuildEntry(id, e, nullptr, &model));
  std::vector<HostTensor> in(inputs.begin(), inputs.end());
  std::vector<HostTensor> out;
  Status st = model->Run(in, &out);
  if (!st.ok()) return st.Prepend(fmt::format("graph {}: ", id));
  outputs->assign(out.begin(), out.end());
  return Status::Ok();
}

}  // namespace

struct Session::Impl {
  uint64_t id = 0;
  Status init_status;
  GraphOptions options;  // global defaults overridden by the session's
  std::mutex mu;         // guards graphs
  std::map<uint32_t, std::shared_ptr<GraphEntry>> graphs;

  // The asynchronous runs: one worker thread, started on the first RunGraphAsync.
  std::mutex q_mu;
  std::condition_variable q_cv;
  std::deque<std::function<void()>> queue;
  bool stopping = false;
  std::thread worker;

  Status Find(uint32_t graph_id, std::shared_ptr<GraphEntry>* out) {
    GE_RETURN_IF_ERROR(init_status);
    GE_RETURN_IF_ERROR(CheckInitialized());
    std::lock_guard<std::mutex> lk(mu);
    auto it = graphs.find(graph_id);
    if (it == graphs.end())
      return Error(Status::kNotFound, "graph {} is not in the session (AddGraph it first)", graph_id);
    *out = it->second;
    return Status::Ok();
  }

  void Loop() {
    for (;;) {
      std::function<void()> job;
      {
        std::unique_lock<std::mutex> lk(q_mu);
        q_cv.wait(lk, [&] { return stopping || !queue.empty(); });
        if (queue.empty()) return;  // stopping, drained
        job = std::move(queue.front());
        queue.pop_front();
      }
      job();
    }
  }
};

Session::Session(const std::map<AscendString, AscendString>& ascend_options) : impl_(std::make_unique<Impl>()) {
  const std::map<std::string, std::string> options = ToStd(ascend_options);
  impl_->id = G().next_session_id++;
  impl_->init_status = Guarded([&] {
    GraphOptions own;
    Status st = ParseOptions(options, Level::kSession, &own);
    if (!st.ok()) return st.Prepend("Session: ");
    std::lock_guard<std::mutex> lk(G().mu);
    impl_->options = G().defaults;
    impl_->options.Override(own);
    return Status::Ok();
  });
  if (!impl_->init_status.ok()) GELOGE("{}", impl_->init_status.message());
}

Session::~Session() {
  {
    std::lock_guard<std::mutex> lk(impl_->q_mu);
    impl_->stopping = true;
  }
  impl_->q_cv.notify_all();
  if (impl_->worker.joinable()) impl_->worker.join();
}

uint64_t Session::GetSessionId() const { return impl_->id; }

Status Session::AddGraph(uint32_t graph_id, const Graph& graph) {
  return AddGraph(graph_id, graph, std::map<AscendString, AscendString>());
}

Status Session::AddGraph(uint32_t graph_id, const Graph& graph,
                         const std::map<AscendString, AscendString>& ascend_options) {
  const std::map<std::string, std::string> options = ToStd(ascend_options);
  return Guarded([&] {
    GE_RETURN_IF_ERROR(impl_->init_status);
    GE_RETURN_IF_ERROR(CheckInitialized());
    GraphOptions own;
    Status st = ParseOptions(options, Level::kGraph, &own);
    if (!st.ok()) return st.Prepend(fmt::format("AddGraph {}: ", graph_id));
    auto e = std::make_shared<GraphEntry>();
    e->graph = std::make_shared<const Graph>(graph);
    e->options = impl_->options;
    e->options.Override(own);
    std::lock_guard<std::mutex> lk(impl_->mu);
    if (!impl_->graphs.emplace(graph_id, std::move(e)).second)
      return InvalidArgument("AddGraph: graph id {} is already in the session", graph_id);
    return Status::Ok();
  });
}

Status Session::RemoveGraph(uint32_t graph_id) {
  return Guarded([&] {
    GE_RETURN_IF_ERROR(impl_->init_status);
    std::lock_guard<std::mutex> lk(impl_->mu);
    if (impl_->graphs.erase(graph_id) == 0)
      return Error(Status::kNotFound, "RemoveGraph: graph {} is not in the session", graph_id);
    return Status::Ok();
  });
}

Status Session::BuildGraph(uint32_t graph_id, const std::vector<Tensor>& inputs) {
  return Guarded([&] {
    std::shared_ptr<GraphEntry> e;
    GE_RETURN_IF_ERROR(impl_->Find(graph_id, &e));
    std::shared_ptr<Model> model;
    return BuildEntry(graph_id, *e, &inputs, &model);
  });
}

bool Session::IsGraphNeedRebuild(uint32_t graph_id) {
  std::shared_ptr<GraphEntry> e;
  if (!impl_->Find(graph_id, &e).ok()) return true;
  std::lock_guard<std::mutex> lk(e->build_mu);
  return e->model == nullptr;
}

Status Session::RunGraph(uint32_t graph_id, const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs) {
  return Guarded([&] {
    std::shared_ptr<GraphEntry> e;
    GE_RETURN_IF_ERROR(impl_->Find(graph_id, &e));
    return RunEntry(graph_id, *e, inputs, &outputs);
  });
}

Status Session::RunGraphAsync(uint32_t graph_id, const std::vector<Tensor>& inputs, RunAsyncCallback callback) {
  return Guarded([&] {
    if (!callback) return InvalidArgument("RunGraphAsync: the callback is empty");
    std::shared_ptr<GraphEntry> e;
    GE_RETURN_IF_ERROR(impl_->Find(graph_id, &e));
    auto job = [graph_id, e = std::move(e), inputs, callback = std::move(callback)] {
      std::vector<Tensor> outputs;
      Status st = Guarded([&] { return RunEntry(graph_id, *e, inputs, &outputs); });
      if (!st.ok()) outputs.clear();
      try {
        callback(st, outputs);
      } catch (const std::exception& ex) {
        GELOGE("RunGraphAsync: the callback of graph {} threw: {}", graph_id, ex.what());
      } catch (...) {
        GELOGE("RunGraphAsync: the callback of graph {} threw", graph_id);
      }
    };
    {
      std::lock_guard<std::mutex> lk(impl_->q_mu);
      if (!impl_->worker.joinable()) impl_->worker = std::thread([this] { impl_->Loop(); });
      impl_->queue.push_back(std::move(job));
    }
    impl_->q_cv.notify_one();
    return Status::Ok();
  });
}

// ---- parser ---------------------------------------------------------------------------------

namespace {

graphStatus ParseInto(const std::map<AscendString, AscendString>& params, Graph& graph,
                      const std::function<Status(std::shared_ptr<Graph>*)>& load) {
  Status st = Guarded([&] {
    if (!params.empty()) return InvalidArgument("parser parameter '{}' is not supported", params.begin()->first.str());
    GE_RETURN_IF_ERROR(LoadCustomOpLibsFromEnv());
    std::shared_ptr<Graph> g;
    GE_RETURN_IF_ERROR(load(&g));
    graph = *g;
    return Status::Ok();
  });
  if (!st.ok()) {
    GELOGE("{}", st.message());
    return GRAPH_FAILED;
  }
  return GRAPH_SUCCESS;
}

}  // namespace

graphStatus aclgrphParseONNX(const char* model_file, const std::map<AscendString, AscendString>& parser_params,
                             Graph& graph) {
  if (model_file == nullptr) {
    Remember(InvalidArgument("aclgrphParseONNX: model_file is null"));
    return GRAPH_PARAM_INVALID;
  }
  return ParseInto(parser_params, graph, [&](std::shared_ptr<Graph>* g) { return LoadOnnxModel(model_file, g); });
}

graphStatus aclgrphParseTensorFlow(const char* model_file, const std::map<AscendString, AscendString>& parser_params,
                                   Graph& graph) {
  if (model_file == nullptr) {
    Remember(InvalidArgument("aclgrphParseTensorFlow: model_file is null"));
    return GRAPH_PARAM_INVALID;
  }
  std::map<AscendString, AscendString> rest = parser_params;
  std::vector<std::string> outputs;
  for (auto it = rest.begin(); it != rest.end();) {
    if (std::string(it->first.str()) == "out_nodes") {
      std::string list = it->second.str();
      size_t start = 0;
      while (start <= list.size()) {
        size_t end = list.find(';', start);
        if (end == std::string::npos) end = list.size();
        if (end > start) outputs.push_back(list.substr(start, end - start));
        start = end + 1;
      }
      it = rest.erase(it);
    } else {
      ++it;
    }
  }
  return ParseInto(rest, graph, [&](std::shared_ptr<Graph>* g) { return LoadTensorFlowModel(model_file, g, outputs); });
}

graphStatus aclgrphParseTensorFlow(const char* model_file, Graph& graph) {
  return aclgrphParseTensorFlow(model_file, {}, graph);
}

graphStatus aclgrphParseONNXFromMem(const char* buffer, size_t size,
                                    const std::map<AscendString, AscendString>& parser_params, Graph& graph) {
  if (buffer == nullptr || size == 0) {
    Remember(InvalidArgument("aclgrphParseONNXFromMem: empty buffer"));
    return GRAPH_PARAM_INVALID;
  }
  return ParseInto(parser_params, graph,
                   [&](std::shared_ptr<Graph>* g) { return LoadOnnxModelFromBytes(std::string(buffer, size), "", g); });
}

}  // namespace ge
