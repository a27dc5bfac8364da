// ge.Session, ge.Graph, ge.parse_onnx, ge.initialize/finalize: the Session API (ge/ge_api.h)
// with numpy tensors. Runs release the GIL; asynchronous runs complete a
// concurrent.futures.Future from the session's worker thread.
#include <pybind11/stl.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bindings.h"
#include "ge/ge_api.h"
#include "ge/graph_text.h"
#include "ge/onnx_parser.h"
#include "graph/graph.h"
#include "numpy_tensor.h"

namespace py = pybind11;

namespace ge::python {
namespace {

// The C++ API reports Session-call failures as Status; GEGetErrorMsg has the parser's.
void ThrowIfFailed(graphStatus st) {
  if (st != GRAPH_SUCCESS) throw GeError(GEGetErrorMsg());
}

std::shared_ptr<Graph> ParseOnnx(const py::object& source) {
  auto graph = std::make_shared<Graph>();
  graphStatus st;
  if (py::isinstance<py::bytes>(source)) {
    char* buf = nullptr;
    py::ssize_t size = 0;
    PyBytes_AsStringAndSize(source.ptr(), &buf, &size);
    py::gil_scoped_release nogil;
    st = aclgrphParseONNXFromMem(buf, static_cast<size_t>(size), {}, *graph);
  } else {
    const std::string path = py::str(py::module_::import("os").attr("fspath")(source));
    py::gil_scoped_release nogil;
    st = aclgrphParseONNX(path.c_str(), {}, *graph);
  }
  ThrowIfFailed(st);
  return graph;
}

std::vector<Tensor> ToTensors(const py::iterable& arrays) {
  std::vector<Tensor> out;
  for (py::handle a : arrays) out.emplace_back(ToHostTensor(a, "input " + std::to_string(out.size())));
  return out;
}

py::list ToArrays(const std::vector<Tensor>& tensors, const std::vector<Tensor>& inputs) {
  py::list l;
  for (const Tensor& t : tensors) {
    bool copy = false;  // an output that is an input's bytes is copied out
    for (const Tensor& i : inputs) copy |= t.data() != nullptr && i.data() == t.data();
    l.append(ToNumpy(t, copy));
  }
  return l;
}

// Owns the session; destroying it waits for queued asynchronous runs, whose callbacks take the
// GIL, so the GIL is released meanwhile.
class PySession {
 public:
  explicit PySession(const std::map<std::string, std::string>& options)
      : session_(std::make_unique<Session>(options)) {}
  ~PySession() {
    py::gil_scoped_release nogil;
    session_.reset();
  }

  void AddGraph(uint32_t id, const Graph& graph, const std::map<std::string, std::string>& options) {
    ThrowIfError(session_->AddGraph(id, graph, options));
  }
  void RemoveGraph(uint32_t id) {
    Status st;
    {
      py::gil_scoped_release nogil;
      st = session_->RemoveGraph(id);
    }
    ThrowIfError(st);
  }
  void BuildGraph(uint32_t id, const py::iterable& inputs) {
    std::vector<Tensor> in = ToTensors(inputs);
    Status st;
    {
      py::gil_scoped_release nogil;
      st = session_->BuildGraph(id, in);
    }
    ThrowIfError(st);
  }
  py::list RunGraph(uint32_t id, const py::iterable& inputs) {
    std::vector<Tensor> in = ToTensors(inputs);
    std::vector<Tensor> out;
    Status st;
    {
      py::gil_scoped_release nogil;
      st = session_->RunGraph(id, in, out);
    }
    ThrowIfError(st);
    return ToArrays(out, in);
  }
  // Returns a concurrent.futures.Future with the list of outputs, or ge.GeError.
  py::object RunGraphAsync(uint32_t id, const py::iterable& inputs) {
    py::object future = py::module_::import("concurrent.futures").attr("Future")();
    // The callback's copies are made and dropped on the worker thread: the future's reference is
    // released under the GIL.
    std::shared_ptr<py::object> fut(new py::object(future), [](py::object* o) {
      py::gil_scoped_acquire gil;
      delete o;
    });
    auto in = std::make_shared<std::vector<Tensor>>(ToTensors(inputs));
    auto callback = [fut, in](Status st, std::vector<Tensor>& out) {
      py::gil_scoped_acquire gil;
      try {
        if (st.ok()) {
          fut->attr("set_result")(ToArrays(out, *in));
        } else {
          py::object error = py::module_::import("ge._ge").attr("GeError")(st.message());
          fut->attr("set_exception")(error);
        }
      } catch (py::error_already_set& e) {  // a cancelled future, or a conversion error
        e.discard_as_unraisable("ge.Session.run_graph_async callback");
      } catch (const std::exception& e) {
        fut->attr("set_exception")(py::module_::import("ge._ge").attr("GeError")(e.what()));
      }
    };
    Status st;
    {
      py::gil_scoped_release nogil;
      st = session_->RunGraphAsync(id, *in, callback);
    }
    ThrowIfError(st);
    return future;
  }
  bool IsGraphNeedRebuild(uint32_t id) { return session_->IsGraphNeedRebuild(id); }
  uint64_t session_id() const { return session_->GetSessionId(); }

 private:
  std::unique_ptr<Session> session_;
};

}  // namespace

void BindSession(py::module_& m) {
  py::class_<Graph, std::shared_ptr<Graph>>(m, "Graph", "A GE graph (the engine's IR), e.g. from parse_onnx")
      .def_property_readonly("name", &Graph::name)
      .def_property_readonly("num_nodes", &Graph::num_nodes)
      .def(
          "text", [](const Graph& g) { return GraphToText(g); }, "The graph in GE's textual IR");
  m.def("parse_onnx", &ParseOnnx, py::arg("source"),
        "Parses an ONNX model (a path or the ModelProto's bytes) into a Graph (aclgrphParseONNX)");

  m.def(
      "initialize", [](const std::map<std::string, std::string>& options) { ThrowIfError(GEInitialize(options)); },
      py::arg("options") = std::map<std::string, std::string>{},
      "GEInitialize: global options (keys as in ge_api_types.h, e.g. 'ge.exec.mode')");
  m.def(
      "finalize", [] { ThrowIfError(GEFinalize()); }, "GEFinalize");

  py::class_<PySession>(m, "Session", "ge::Session: graphs added by id, built once, run from any thread")
      .def(py::init<const std::map<std::string, std::string>&>(),
           py::arg("options") = std::map<std::string, std::string>{})
      .def("add_graph", &PySession::AddGraph, py::arg("graph_id"), py::arg("graph"),
           py::arg("options") = std::map<std::string, std::string>{})
      .def("remove_graph", &PySession::RemoveGraph, py::arg("graph_id"))
      .def("build_graph", &PySession::BuildGraph, py::arg("graph_id"), py::arg("inputs") = py::list())
      .def("run_graph", &PySession::RunGraph, py::arg("graph_id"), py::arg("inputs"),
           "Runs the graph (GIL released); returns the outputs as a list of numpy arrays")
      .def("run_graph_async", &PySession::RunGraphAsync, py::arg("graph_id"), py::arg("inputs"),
           "Queues a run; returns a concurrent.futures.Future of the outputs")
      .def("is_graph_need_rebuild", &PySession::IsGraphNeedRebuild, py::arg("graph_id"))
      .def_property_readonly("session_id", &PySession::session_id);
}

}  // namespace ge::python
