// numpy arrays <-> ge::HostTensor for the Python package: inputs alias the array's bytes when it
// is C-contiguous in native byte order (else one contiguous copy), outputs become arrays over the
// tensor's bytes (kept alive by a capsule) without a copy.
#ifndef GE_PYTHON_SRC_NUMPY_TENSOR_H_
#define GE_PYTHON_SRC_NUMPY_TENSOR_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>

#include "ge/status.h"
#include "ge/tensor.h"

namespace ge::python {

// A GE error crossing into Python: raised there as ge.GeError (a RuntimeError) with the message.
class GeError : public std::runtime_error {
 public:
  explicit GeError(const std::string& message) : std::runtime_error(message) {}
};

// Throws GeError with the status's message when it is not ok.
void ThrowIfError(const Status& st);

// The numpy dtype of a GE dtype; GeError naming the dtype when numpy has none (bfloat16, string).
pybind11::dtype ToNumpyDtype(DataType dt);
// The GE dtype of a numpy dtype; GeError naming `what` and the dtype when GE has none.
DataType FromNumpyDtype(const pybind11::dtype& dt, const std::string& what);

// Any array-like (numpy array, scalar, nested list) as a HostTensor; `what` names it in errors
// ("input 'x'"). A C-contiguous native-order array is aliased (its bytes stay alive while any
// copy of the tensor does); anything else is copied once.
HostTensor ToHostTensor(const pybind11::handle& obj, const std::string& what);

// A numpy array over the tensor's bytes, no copy; `copy` forces one (for outputs that alias an
// input or a model constant, which the caller must not write through).
pybind11::array ToNumpy(const HostTensor& t, bool copy);

// "float32" and the dims, for info(): the declared dtype name and shape (-1 for a dynamic dim).
pybind11::dict DescToDict(const std::string& name, const TensorDesc& desc);

}  // namespace ge::python

#endif  // GE_PYTHON_SRC_NUMPY_TENSOR_H_
