#include "numpy_tensor.h"

#include <cstring>
#include <memory>
#include <utility>
#include <vector>

namespace py = pybind11;

namespace ge::python {

void ThrowIfError(const Status& st) {
  if (!st.ok()) throw GeError(st.message());
}

namespace {

struct DtypePair {
  DataType ge;
  const char* numpy;
};

// GE dtypes numpy can hold (bfloat16 and GE's fixed-slot strings have no numpy equivalent).
constexpr DtypePair kDtypes[] = {
    {DT_FLOAT, "float32"},       {DT_DOUBLE, "float64"},        {DT_FLOAT16, "float16"}, {DT_INT8, "int8"},
    {DT_INT16, "int16"},         {DT_INT32, "int32"},           {DT_INT64, "int64"},     {DT_UINT8, "uint8"},
    {DT_UINT16, "uint16"},       {DT_UINT32, "uint32"},         {DT_UINT64, "uint64"},   {DT_BOOL, "bool"},
    {DT_COMPLEX64, "complex64"}, {DT_COMPLEX128, "complex128"},
};

}  // namespace

py::dtype ToNumpyDtype(DataType dt) {
  for (const DtypePair& p : kDtypes)
    if (p.ge == dt) return py::dtype(p.numpy);
  throw GeError(std::string("GE dtype ") + DataTypeName(dt) + " has no numpy equivalent");
}

DataType FromNumpyDtype(const py::dtype& dt, const std::string& what) {
  for (const DtypePair& p : kDtypes)
    if (dt.is(py::dtype(p.numpy)) || dt.equal(py::dtype(p.numpy))) return p.ge;
  throw GeError(what + ": numpy dtype " + py::str(static_cast<const py::handle&>(dt)).cast<std::string>() +
                " is not supported (expected one of " +
                "float32, float64, float16, int8..int64, uint8..uint64, bool, complex64, complex128)");
}

HostTensor ToHostTensor(const py::handle& obj, const std::string& what) {
  // asarray keeps an array as it is; C-contiguity and native byte order are needed to alias it.
  py::array arr = py::module_::import("numpy").attr("asarray")(obj);
  const bool native = arr.dtype().attr("isnative").cast<bool>();
  if (!native || !(arr.flags() & py::array::c_style)) {
    arr = py::module_::import("numpy").attr("ascontiguousarray")(arr, arr.dtype().attr("newbyteorder")("="));
  }
  const DataType dt = FromNumpyDtype(arr.dtype(), what);
  std::vector<int64_t> dims(arr.shape(), arr.shape() + arr.ndim());
  TensorDesc desc;
  desc.dtype = dt;
  desc.shape = Shape(std::move(dims));
  const size_t bytes = static_cast<size_t>(arr.nbytes());
  if (bytes == 0) return HostTensor(dt, desc.shape);
  // The tensor's bytes keep the array alive; the last copy may be dropped on any thread (a
  // session's worker), so the release takes the GIL.
  auto* ref = new py::object(arr);
  std::shared_ptr<void> owner(ref, [](py::object* o) {
    py::gil_scoped_acquire gil;
    delete o;
  });
  return HostTensor::Aliasing(desc, std::move(owner), const_cast<void*>(arr.data()), bytes);
}

py::array ToNumpy(const HostTensor& t, bool copy) {
  const py::dtype dtype = ToNumpyDtype(t.dtype());
  std::vector<py::ssize_t> shape(t.shape().GetDims().begin(), t.shape().GetDims().end());
  if (copy || t.data() == nullptr) {
    py::array out(dtype, shape);
    if (t.data() != nullptr && t.NumBytes() > 0) std::memcpy(out.mutable_data(), t.data(), t.NumBytes());
    return out;
  }
  auto* keep = new HostTensor(t);  // shares the bytes
  py::capsule owner(keep, [](void* p) { delete static_cast<HostTensor*>(p); });
  return py::array(dtype, shape, {}, keep->data(), owner);
}

py::dict DescToDict(const std::string& name, const TensorDesc& desc) {
  py::dict d;
  d["name"] = name;
  d["dtype"] = DataTypeName(desc.dtype);
  if (desc.shape.IsUnknownRank()) {
    d["shape"] = py::none();
  } else {
    py::list dims;
    for (int64_t v : desc.shape.GetDims()) dims.append(v);
    d["shape"] = py::tuple(dims);
  }
  return d;
}

}  // namespace ge::python
