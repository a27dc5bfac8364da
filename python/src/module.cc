// The `ge._ge` extension module: GE's C++ API for Python (the `ge` package wraps it).
#include <pybind11/pybind11.h>

#include "bindings.h"
#include "numpy_tensor.h"

PYBIND11_MODULE(_ge, m) {
  m.doc() = "GE's C++ API (ge::Model, ge::Session) for numpy arrays; use the `ge` package";
  pybind11::register_exception<ge::python::GeError>(m, "GeError", PyExc_RuntimeError);
  ge::python::BindModel(m);
  ge::python::BindSession(m);
}
