#include "parser/onnx/tensor_proto.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/checked_math.h"

namespace ge {

DataType FromOnnxDataType(int32_t t) {
  using P = onnx::TensorProto;
  switch (t) {
    case P::FLOAT: return DT_FLOAT;
    case P::UINT8: return DT_UINT8;
    case P::INT8: return DT_INT8;
    case P::UINT16: return DT_UINT16;
    case P::INT16: return DT_INT16;
    case P::INT32: return DT_INT32;
    case P::INT64: return DT_INT64;
    case P::STRING: return DT_STRING;
    case P::BOOL: return DT_BOOL;
    case P::FLOAT16: return DT_FLOAT16;
    case P::DOUBLE: return DT_DOUBLE;
    case P::UINT32: return DT_UINT32;
    case P::UINT64: return DT_UINT64;
    case P::COMPLEX64: return DT_COMPLEX64;
    case P::COMPLEX128: return DT_COMPLEX128;
    case P::BFLOAT16: return DT_BF16;
    default: return DT_UNDEFINED;
  }
}

int32_t ToOnnxDataType(DataType dt) {
  for (int32_t t = 1; t <= 16; ++t)
    if (FromOnnxDataType(t) == dt) return t;
  return 0;
}

namespace {

template <typename Dst, typename Src>
void CopyField(const Src& field, HostTensor* out) {
  Dst* dst = out->mutable_data_as<Dst>();
  int64_t n = std::min<int64_t>(out->NumElements(), field.size());
  for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<Dst>(field.Get(i));
}

Status ReadExternal(const onnx::TensorProto& p, const std::string& base_dir, std::string* bytes) {
  namespace fs = std::filesystem;
  std::string location;
  int64_t offset = 0, length = -1;
  for (const auto& kv : p.external_data()) {
    if (kv.key() == "location") {
      location = kv.value();
    } else if (kv.key() == "offset" || kv.key() == "length") {
      auto v = ParseInt64(kv.value());
      if (!v || *v < 0)
        return InvalidArgument("tensor '{}': external data {} '{}' is not an integer >= 0", p.name(), kv.key(),
                               kv.value().substr(0, 32));
      (kv.key() == "offset" ? offset : length) = *v;
    }
  }
  if (location.empty() || location.find("..") != std::string::npos || location[0] == '/')
    return InvalidArgument("tensor '{}': bad external data location '{}'", p.name(), location);
  const std::string path = base_dir.empty() ? location : base_dir + "/" + location;
  // The real path (symlinks resolved) must stay inside the model's directory.
  std::error_code ec;
  const fs::path dir = fs::canonical(base_dir.empty() ? "." : base_dir, ec);
  const fs::path real = ec ? fs::path() : fs::canonical(path, ec);
  if (ec) return InvalidArgument("tensor '{}': cannot open external data file '{}'", p.name(), path);
  const auto [d, r] = std::mismatch(dir.begin(), dir.end(), real.begin(), real.end());
  if (d != dir.end())
    return InvalidArgument("tensor '{}': external data file '{}' resolves outside the model directory", p.name(), path);
  if (!fs::is_regular_file(real, ec))
    return InvalidArgument("tensor '{}': external data file '{}' is not a regular file", p.name(), path);
  std::ifstream f(real, std::ios::binary);
  if (!f) return InvalidArgument("tensor '{}': cannot open external data file '{}'", p.name(), path);
  f.seekg(0, std::ios::end);
  const int64_t size = f.tellg();
  int64_t end = 0;
  if (length < 0) length = size - offset;
  if (size < 0 || length < 0 || !CheckedAdd(offset, length, &end) || end > size)
    return InvalidArgument("tensor '{}': external data [{}, +{}) is past the end of '{}' ({} bytes)", p.name(), offset,
                           length, path, size);
  bytes->resize(length);
  f.seekg(offset);
  if (!f.read(bytes->data(), length))
    return InvalidArgument("tensor '{}': cannot read external data file '{}'", p.name(), path);
  return Status::Ok();
}

// Values the typed field of `p` holds for dtype `dt` (complex: two per element).
int64_t FieldValues(const onnx::TensorProto& p, DataType dt) {
  switch (dt) {
    case DT_FLOAT: return p.float_data_size();
    case DT_COMPLEX64: return p.float_data_size() / 2;
    case DT_DOUBLE: return p.double_data_size();
    case DT_INT64: return p.int64_data_size();
    case DT_UINT64:
    case DT_UINT32: return p.uint64_data_size();
    case DT_STRING: return p.string_data_size();
    default: return p.int32_data_size();
  }
}

Status FillTyped(const onnx::TensorProto& p, DataType dt, HostTensor* out) {
  switch (dt) {
    case DT_FLOAT: CopyField<float>(p.float_data(), out); break;
    case DT_DOUBLE: CopyField<double>(p.double_data(), out); break;
    case DT_INT64: CopyField<int64_t>(p.int64_data(), out); break;
    case DT_UINT64: CopyField<uint64_t>(p.uint64_data(), out); break;
    case DT_UINT32: CopyField<uint32_t>(p.uint64_data(), out); break;
    case DT_INT32: CopyField<int32_t>(p.int32_data(), out); break;
    case DT_INT16: CopyField<int16_t>(p.int32_data(), out); break;
    case DT_INT8: CopyField<int8_t>(p.int32_data(), out); break;
    case DT_UINT16:
    case DT_FLOAT16:
    case DT_BF16: CopyField<uint16_t>(p.int32_data(), out); break;
    case DT_UINT8: CopyField<uint8_t>(p.int32_data(), out); break;
    case DT_BOOL: CopyField<uint8_t>(p.int32_data(), out); break;
    case DT_COMPLEX64: {
      float* dst = out->mutable_data_as<float>();
      for (int i = 0; i < p.float_data_size() && i < out->NumElements() * 2; ++i) dst[i] = p.float_data(i);
      break;
    }
    case DT_STRING:
      for (int i = 0; i < p.string_data_size() && i < out->NumElements(); ++i)
        if (!out->SetString(i, p.string_data(i)))
          return Unsupported("tensor '{}': string element {} is longer than {} bytes", p.name(), i,
                             kStringSlotBytes - 1);
      break;
    default: return Unsupported("tensor '{}': unsupported data type {}", p.name(), p.data_type());
  }
  return Status::Ok();
}

}  // namespace

Status TensorFromProto(const onnx::TensorProto& p, const std::string& base_dir, HostTensor* out,
                       const OutsideRawData* raw) {
  DataType dt = FromOnnxDataType(p.data_type());
  if (dt == DT_UNDEFINED) return Unsupported("tensor '{}': unsupported ONNX data type {}", p.name(), p.data_type());
  std::vector<int64_t> dims(p.dims().begin(), p.dims().end());
  for (int64_t d : dims)
    if (d < 0) return InvalidArgument("tensor '{}': negative dimension {}", p.name(), d);
  Shape shape(dims);
  if (shape.GetShapeSize() < 0 || shape.GetShapeSize() > (int64_t(1) << 34))
    return InvalidArgument("tensor '{}': element count of {} is out of range", p.name(), shape.ToString());
  const size_t expect = CheckedTensorBytes(dims, GetSizeByDataType(dt)).value_or(0);
  // The data is checked against the shape before the tensor is allocated: a small file must not
  // declare a huge zero-filled tensor.
  if (p.data_location() == onnx::TensorProto::EXTERNAL) {
    std::string bytes;
    GE_RETURN_IF_ERROR(ReadExternal(p, base_dir, &bytes));
    if (bytes.size() != expect)
      return InvalidArgument("tensor '{}': external data has {} bytes, shape {} needs {}", p.name(), bytes.size(),
                             shape.ToString(), expect);
    *out = HostTensor::FromBytes(dt, shape, bytes.data(), bytes.size());  // copied, not zero-filled first
    return Status::Ok();
  }
  if ((raw != nullptr || p.has_raw_data()) && dt != DT_STRING) {
    const std::string_view bytes = raw != nullptr ? raw->bytes : std::string_view(p.raw_data());
    if (bytes.size() != expect)
      return InvalidArgument("tensor '{}': raw_data has {} bytes, shape {} of {} needs {}", p.name(), bytes.size(),
                             shape.ToString(), DataTypeName(dt), expect);
    if (raw != nullptr && raw->dest != nullptr && expect > 0) {  // into the graph's initializer block
      std::memcpy(raw->dest, bytes.data(), expect);
      TensorDesc desc;
      desc.dtype = dt;
      desc.shape = shape;
      *out = HostTensor::Aliasing(std::move(desc), raw->owner, raw->dest, expect);
      return Status::Ok();
    }
    *out = HostTensor::FromBytes(dt, shape, bytes.data(), bytes.size());
    return Status::Ok();
  }
  if (FieldValues(p, dt) != shape.GetShapeSize())
    return InvalidArgument("tensor '{}': has {} values, shape {} needs {}", p.name(), FieldValues(p, dt),
                           shape.ToString(), shape.GetShapeSize());
  *out = HostTensor(dt, shape);
  return FillTyped(p, dt, out);
}

}  // namespace ge
