// ge.Model (the Python face of ge::Model): load from a file or bytes, run on numpy arrays with
// the GIL released, describe itself. ge/__init__.py wraps it with compile/load/run_async/save.
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include "ge/model.h"
#include "graph/graph.h"
#include "numpy_tensor.h"

namespace py = pybind11;

namespace ge::python {
namespace {

std::string JoinNames(const std::vector<TensorInfo>& infos) {
  std::string s;
  for (const TensorInfo& t : infos) s += (s.empty() ? "'" : ", '") + t.name + "'";
  return s.empty() ? "none" : s;
}

class PyModel {
 public:
  explicit PyModel(std::unique_ptr<Model> model) : model_(std::move(model)) {
    inputs_ = model_->inputs();
    outputs_ = model_->outputs();
    // Outputs that are graph constants alias the model's weights: they are copied out.
    const Graph& g = model_->graph();
    for (ValueId v : g.outputs()) constant_outputs_.push_back(g.value(v).constant.has_value());
  }

  // `feeds`: a dict name -> array, or a sequence in the model's input order.
  // `timeout`: seconds the run may take (RunOptions::timeout_s; None: no limit).
  py::dict Run(const py::object& feeds, const py::object& timeout = py::none()) {
    std::vector<HostTensor> in = Inputs(feeds);
    std::vector<HostTensor> out;
    RunOptions options;
    if (!timeout.is_none()) options.timeout_s = timeout.cast<double>();
    Status st;
    {
      py::gil_scoped_release nogil;
      st = model_->Run(in, &out, options);
    }
    ThrowIfError(st);
    py::dict result;
    for (size_t i = 0; i < out.size(); ++i) {
      bool copy = i < constant_outputs_.size() && constant_outputs_[i];
      for (const HostTensor& t : in) copy |= t.data() != nullptr && t.data() == out[i].data();
      result[py::str(outputs_[i].name)] = ToNumpy(out[i], copy);
    }
    return result;
  }

  py::list Descs(const std::vector<TensorInfo>& infos) const {
    py::list l;
    for (const TensorInfo& t : infos) l.append(DescToDict(t.name, t.desc));
    return l;
  }

  py::dict Info() const {
    const ModelReport r = model_->report();
    py::dict d;
    d["mode"] = r.mode;
    d["nodes"] = r.nodes;
    d["segments"] = r.segments;
    d["optimizer"] = r.optimizer;
    d["ops_before"] = r.ops_before;
    d["ops_after"] = r.ops_after;
    d["memory"] = r.memory;
    d["arena_bytes"] = r.arena_bytes;
    d["flops"] = model_->Flops();
    d["offline"] = model_->offline();
    d["inputs"] = Descs(inputs_);
    d["outputs"] = Descs(outputs_);
    py::list nodes;
    for (const NodeReport& n : r.node_details) {
      py::dict nd;
      nd["name"] = n.name;
      nd["op"] = n.op;
      nd["placement"] = n.placement;
      nd["reason"] = n.reason;
      nodes.append(nd);
    }
    d["node_details"] = nodes;
    return d;
  }

  const std::vector<TensorInfo>& inputs() const { return inputs_; }
  const std::vector<TensorInfo>& outputs() const { return outputs_; }
  Model& model() { return *model_; }

 private:
  std::vector<HostTensor> Inputs(const py::object& feeds) const {
    std::vector<HostTensor> in;
    if (py::isinstance<py::dict>(feeds)) {
      py::dict d = feeds.cast<py::dict>();
      for (auto item : d) {
        const std::string key = py::str(item.first);
        bool known = false;
        for (const TensorInfo& t : inputs_) known |= t.name == key;
        if (!known) throw GeError("unknown input '" + key + "' (the model's inputs: " + JoinNames(inputs_) + ")");
      }
      for (const TensorInfo& t : inputs_) {
        if (!d.contains(t.name))
          throw GeError("missing input '" + t.name + "' (the model's inputs: " + JoinNames(inputs_) + ")");
        in.push_back(ToHostTensor(d[py::str(t.name)], "input '" + t.name + "'"));
      }
      return in;
    }
    if (py::isinstance<py::str>(feeds) || !py::isinstance<py::sequence>(feeds))
      throw GeError("run: expected a dict of input name -> array or a list of arrays, got " +
                    py::str(py::type::of(feeds).attr("__name__")).cast<std::string>());
    py::sequence seq = feeds.cast<py::sequence>();
    if (seq.size() != inputs_.size())
      throw GeError("run: expected " + std::to_string(inputs_.size()) + " input(s) (" + JoinNames(inputs_) + "), got " +
                    std::to_string(seq.size()));
    for (size_t i = 0; i < seq.size(); ++i) in.push_back(ToHostTensor(seq[i], "input '" + inputs_[i].name + "'"));
    return in;
  }

  std::unique_ptr<Model> model_;
  std::vector<TensorInfo> inputs_, outputs_;
  std::vector<bool> constant_outputs_;
};

std::unique_ptr<PyModel> LoadFile(const std::string& path, const ModelOptions& options) {
  std::unique_ptr<Model> m;
  Status st;
  {
    py::gil_scoped_release nogil;
    st = Model::Load(path, options, &m);
  }
  ThrowIfError(st);
  return std::make_unique<PyModel>(std::move(m));
}

std::unique_ptr<PyModel> LoadBytes(const py::bytes& data, const ModelOptions& options, const std::string& name) {
  char* buf = nullptr;
  py::ssize_t size = 0;
  PyBytes_AsStringAndSize(data.ptr(), &buf, &size);  // `data` holds the bytes for the call
  std::unique_ptr<Model> m;
  Status st;
  {
    py::gil_scoped_release nogil;
    st = Model::LoadFromMemory(buf, static_cast<size_t>(size), options, &m, name);
  }
  ThrowIfError(st);
  return std::make_unique<PyModel>(std::move(m));
}

void CompileToFile(const std::string& model_path, const ModelOptions& options, const std::string& out_path) {
  Status st;
  {
    py::gil_scoped_release nogil;
    st = Model::CompileToFile(model_path, options, out_path);
  }
  ThrowIfError(st);
}

}  // namespace

void BindModel(py::module_& m) {
  py::class_<ModelOptions>(m, "ModelOptions", "ge::ModelOptions: how a model is compiled and scheduled")
      .def(py::init<>())
      .def_readwrite("mode", &ModelOptions::mode, "auto | sink | host")
      .def_readwrite("prefer_fallback", &ModelOptions::prefer_fallback)
      .def_readwrite("max_streams", &ModelOptions::max_streams)
      .def_readwrite("opt_level", &ModelOptions::opt_level, "0 none, 1 basic, 2 (default) with fusions")
      .def_readwrite("input_shapes", &ModelOptions::input_shapes, "input name -> dims fixed at compile time")
      .def_readwrite("output_nodes", &ModelOptions::output_nodes);

  py::class_<PyModel>(m, "Model", "A compiled, loaded model (ge::Model)")
      .def("run", &PyModel::Run, py::arg("feeds"), py::arg("timeout") = py::none(),
           "Runs the model (the GIL is released meanwhile): a dict of name -> numpy array, or a list in "
           "input order; returns a dict of output name -> numpy array. timeout: seconds the run may take "
           "(it stops before the next host-scheduled node or Loop/Scan iteration past it: ge.GeError).")
      .def("info", &PyModel::Info, "What the model compiled to: mode, segments, optimizer, memory, nodes")
      .def(
          "graph_text", [](PyModel& p) { return p.model().GraphText(); }, "The compiled graph in GE's textual IR")
      .def_property_readonly("inputs", [](const PyModel& p) { return p.Descs(p.inputs()); })
      .def_property_readonly("outputs", [](const PyModel& p) { return p.Descs(p.outputs()); })
      .def_property_readonly("mode", [](PyModel& p) { return p.model().mode(); })
      .def_property_readonly(
          "offline", [](PyModel& p) { return p.model().offline(); }, "True when loaded from a .gem (compiled offline)");

  m.def("load_file", &LoadFile, py::arg("path"), py::arg("options"),
        "Loads an ONNX or TensorFlow model (compiling it) or a .gem (compiled offline)");
  m.def("load_bytes", &LoadBytes, py::arg("data"), py::arg("options"), py::arg("name") = "<memory>",
        "Loads a model from its bytes (an ONNX ModelProto or a .gem)");
  m.def("compile_to_file", &CompileToFile, py::arg("model_path"), py::arg("options"), py::arg("out_path"),
        "Compiles the model at model_path for offline use and writes the .gem to out_path");
}

}  // namespace ge::python
