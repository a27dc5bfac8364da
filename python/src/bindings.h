// The parts of the `ge._ge` extension module, each defined in its own file.
#ifndef GE_PYTHON_SRC_BINDINGS_H_
#define GE_PYTHON_SRC_BINDINGS_H_

#include <pybind11/pybind11.h>

namespace ge::python {

void BindModel(pybind11::module_& m);    // model_binding.cc: Model, ModelOptions, load_*
void BindSession(pybind11::module_& m);  // session_binding.cc: Graph, parse_onnx, Session, initialize

}  // namespace ge::python

#endif  // GE_PYTHON_SRC_BINDINGS_H_
