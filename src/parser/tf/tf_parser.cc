// TensorFlow GraphDef -> ge::Graph (see tf_parser.h).
#include "parser/tf/tf_parser.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "parser/tf/tf_converter.h"

namespace ge {
namespace tf_frontend {

// ---- dtypes and tensors -------------------------------------------------------------------------

DataType FromTfDataType(int t) {
  if (t > 100) t -= 100;  // reference types
  switch (t) {
    case tf::DT_FLOAT: return DT_FLOAT;
    case tf::DT_DOUBLE: return DT_DOUBLE;
    case tf::DT_INT32: return DT_INT32;
    case tf::DT_UINT8: return DT_UINT8;
    case tf::DT_INT16: return DT_INT16;
    case tf::DT_INT8: return DT_INT8;
    case tf::DT_INT64: return DT_INT64;
    case tf::DT_BOOL: return DT_BOOL;
    case tf::DT_UINT16: return DT_UINT16;
    case tf::DT_HALF: return DT_FLOAT16;
    case tf::DT_BFLOAT16: return DT_BF16;
    case tf::DT_UINT32: return DT_UINT32;
    case tf::DT_UINT64: return DT_UINT64;
    default: return DT_UNDEFINED;
  }
}

size_t ElemSize(DataType dt) {
  switch (dt) {
    case DT_DOUBLE:
    case DT_INT64:
    case DT_UINT64: return 8;
    case DT_FLOAT:
    case DT_INT32:
    case DT_UINT32: return 4;
    case DT_FLOAT16:
    case DT_BF16:
    case DT_INT16:
    case DT_UINT16: return 2;
    default: return 1;
  }
}

Status ShapeFromTf(const tf::TensorShapeProto& s, Shape* out) {
  if (s.unknown_rank()) {
    *out = Shape::UnknownRank();
    return Status::Ok();
  }
  std::vector<int64_t> dims;
  for (const auto& d : s.dim()) {
    if (d.size() < -1) return InvalidArgument("shape has a negative dimension {}", d.size());
    dims.push_back(d.size());
  }
  *out = Shape(dims);
  return Status::Ok();
}

// Element i of a typed value list of k elements: a shorter list repeats its last element (a
// single value fills the tensor), an empty one means zeros.
template <typename T, typename Src>
void FillFrom(const Src& vals, int64_t n, T* dst) {
  const int64_t k = vals.size();
  for (int64_t i = 0; i < n; ++i) dst[i] = k == 0 ? T{} : static_cast<T>(vals[std::min(i, k - 1)]);
}

Status TensorFromTf(const tf::TensorProto& p, HostTensor* out) {
  DataType dt = FromTfDataType(p.dtype());
  if (dt == DT_UNDEFINED) return Unsupported("tensor of unsupported TF dtype {}", p.dtype());
  Shape shape;
  GE_RETURN_IF_ERROR(ShapeFromTf(p.tensor_shape(), &shape));
  if (shape.IsUnknownRank()) return InvalidArgument("constant tensor of unknown rank");
  int64_t n = 1;
  for (int64_t d : shape.GetDims()) {
    if (d < 0) return InvalidArgument("constant tensor with an unknown dimension");
    if (d > 0 && n > (int64_t{1} << 40) / d) return InvalidArgument("constant tensor too large");
    n *= d;
  }
  const size_t bytes = static_cast<size_t>(n) * ElemSize(dt);
  if (!p.tensor_content().empty()) {
    if (p.tensor_content().size() != bytes)
      return InvalidArgument("tensor_content holds {} bytes, the shape needs {}", p.tensor_content().size(), bytes);
    *out = HostTensor::FromBytes(dt, shape, p.tensor_content().data(), bytes);
    return Status::Ok();
  }
  HostTensor t(dt, shape);
  switch (dt) {
    case DT_FLOAT: FillFrom(p.float_val(), n, t.mutable_data_as<float>()); break;
    case DT_DOUBLE: FillFrom(p.double_val(), n, t.mutable_data_as<double>()); break;
    case DT_INT32: FillFrom(p.int_val(), n, t.mutable_data_as<int32_t>()); break;
    case DT_INT16: FillFrom(p.int_val(), n, t.mutable_data_as<int16_t>()); break;
    case DT_UINT16: FillFrom(p.int_val(), n, t.mutable_data_as<uint16_t>()); break;
    case DT_INT8: FillFrom(p.int_val(), n, t.mutable_data_as<int8_t>()); break;
    case DT_UINT8: FillFrom(p.int_val(), n, t.mutable_data_as<uint8_t>()); break;
    case DT_INT64: FillFrom(p.int64_val(), n, t.mutable_data_as<int64_t>()); break;
    case DT_BOOL: FillFrom(p.bool_val(), n, t.mutable_data_as<uint8_t>()); break;
    case DT_FLOAT16:
    case DT_BF16: FillFrom(p.half_val(), n, t.mutable_data_as<uint16_t>()); break;
    case DT_UINT32: FillFrom(p.uint32_val(), n, t.mutable_data_as<uint32_t>()); break;
    case DT_UINT64: FillFrom(p.uint64_val(), n, t.mutable_data_as<uint64_t>()); break;
    default: return Unsupported("constant of dtype {}", static_cast<int>(dt));
  }
  *out = std::move(t);
  return Status::Ok();
}

HostTensor IntTensor(DataType dt, std::vector<int64_t> dims, const std::vector<int64_t>& vals) {
  HostTensor t(dt, Shape(std::move(dims)));
  for (size_t i = 0; i < vals.size(); ++i) {
    if (dt == DT_INT32)
      t.mutable_data_as<int32_t>()[i] = static_cast<int32_t>(vals[i]);
    else
      t.mutable_data_as<int64_t>()[i] = vals[i];
  }
  return t;
}
HostTensor I64Vec(const std::vector<int64_t>& v) { return IntTensor(DT_INT64, {static_cast<int64_t>(v.size())}, v); }

HostTensor ScalarOf(DataType dt, double v) {
  HostTensor t(dt, Shape());
  switch (dt) {
    case DT_FLOAT: *t.mutable_data_as<float>() = static_cast<float>(v); break;
    case DT_DOUBLE: *t.mutable_data_as<double>() = v; break;
    case DT_INT32: *t.mutable_data_as<int32_t>() = static_cast<int32_t>(v); break;
    case DT_INT64: *t.mutable_data_as<int64_t>() = static_cast<int64_t>(v); break;
    case DT_UINT8: *t.mutable_data_as<uint8_t>() = static_cast<uint8_t>(v); break;
    case DT_INT8: *t.mutable_data_as<int8_t>() = static_cast<int8_t>(v); break;
    case DT_INT16: *t.mutable_data_as<int16_t>() = static_cast<int16_t>(v); break;
    case DT_UINT16: *t.mutable_data_as<uint16_t>() = static_cast<uint16_t>(v); break;
    case DT_UINT32: *t.mutable_data_as<uint32_t>() = static_cast<uint32_t>(v); break;
    case DT_UINT64: *t.mutable_data_as<uint64_t>() = static_cast<uint64_t>(v); break;
    case DT_BOOL: *t.mutable_data_as<uint8_t>() = v != 0 ? 1 : 0; break;
    case DT_FLOAT16: {  // exact for the small integers used here (0, 1, 6)
      float f = static_cast<float>(v);
      uint32_t b;
      std::memcpy(&b, &f, 4);
      uint16_t h =
          f == 0
              ? 0
              : static_cast<uint16_t>(((b >> 16) & 0x8000) | ((((b >> 23) & 0xff) - 112) << 10) | ((b >> 13) & 0x3ff));
      *t.mutable_data_as<uint16_t>() = h;
      break;
    }
    default:  // no other type holds a float: write one only where there are 4 bytes
      if (t.NumBytes() == sizeof(float)) *t.mutable_data_as<float>() = static_cast<float>(v);
      break;
  }
  return t;
}

}  // namespace tf_frontend

namespace {

using tf_frontend::Converter;
using tf_frontend::GraphIndex;

// ---- files --------------------------------------------------------------------------------------

Status ParseGraphDef(const std::string& bytes, bool text, tf::GraphDef* gd) {
  if (bytes.empty()) return InvalidArgument("the file is empty");
  if (text) {
    google::protobuf::TextFormat::Parser parser;
    parser.AllowUnknownField(true);
    parser.AllowUnknownExtension(true);
    struct Collector : google::protobuf::io::ErrorCollector {
      std::string first;
      void AddError(int line, int column, const std::string& message) override {
        if (first.empty()) first = fmt::format("line {}, column {}: {}", line + 1, column + 1, message);
      }
    } errors;
    parser.RecordErrorsTo(&errors);
    if (!parser.ParseFromString(bytes, gd))
      return InvalidArgument("not a valid TensorFlow GraphDef in text format ({})", errors.first);
    return Status::Ok();
  }
  if (!gd->ParseFromString(bytes))
    return InvalidArgument("not a valid TensorFlow GraphDef (protobuf parse failed; truncated or corrupted file?)");
  return Status::Ok();
}

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

bool LooksLikeTensorFlowGraph(const std::string& head) {
  if (head.size() >= 3 && static_cast<uint8_t>(head[0]) == 0x0a) {
    size_t i = 1;  // skip the NodeDef's length varint
    while (i < head.size() && i < 11 && (static_cast<uint8_t>(head[i]) & 0x80)) ++i;
    ++i;
    return i < head.size() && static_cast<uint8_t>(head[i]) == 0x0a;
  }
  // Text format: comments and space, then "node {" / "node:" or "library".
  size_t i = 0;
  while (i < head.size()) {
    if (head[i] == '#') {
      while (i < head.size() && head[i] != '\n') ++i;
    } else if (std::isspace(static_cast<unsigned char>(head[i]))) {
      ++i;
    } else {
      break;
    }
  }
  std::string rest = head.substr(i);
  for (const char* kw : {"node", "library", "versions"}) {
    size_t l = std::strlen(kw);
    if (rest.compare(0, l, kw) == 0) {
      size_t j = l;
      while (j < rest.size() && std::isspace(static_cast<unsigned char>(rest[j]))) ++j;
      if (j < rest.size() && (rest[j] == '{' || rest[j] == ':')) return true;
    }
  }
  return false;
}

bool IsTensorFlowFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::string head(256, '\0');
  f.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(f.gcount()));
  return LooksLikeTensorFlowGraph(head) || EndsWith(path, ".pbtxt");
}

Status LoadTensorFlowModelFromBytes(const std::string& bytes, bool text, std::shared_ptr<Graph>* graph,
                                    const std::vector<std::string>& outputs) {
  try {
    tf::GraphDef gd;
    GE_RETURN_IF_ERROR(ParseGraphDef(bytes, text, &gd));
    auto g = std::make_shared<Graph>("main");
    GraphIndex gi;
    GE_RETURN_IF_ERROR(gi.Build(gd));
    Converter conv(g.get(), &gi, outputs);
    GE_RETURN_IF_ERROR(conv.Run());
    *graph = std::move(g);
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return Error(Status::kOutOfMemory, "out of host memory while loading the model");
  } catch (const std::exception& e) {
    return InvalidArgument("cannot load the TensorFlow model: {}", e.what());
  }
}

Status LoadTensorFlowModel(const std::string& path, std::shared_ptr<Graph>* graph,
                           const std::vector<std::string>& outputs) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return InvalidArgument("{}: is a directory, not a model file", path);
  std::ifstream f(path, std::ios::binary);
  if (!f) return InvalidArgument("{}: cannot open file", path);
  std::stringstream ss;
  ss << f.rdbuf();
  std::string bytes = ss.str();
  bool text = EndsWith(path, ".pbtxt") || (!bytes.empty() && static_cast<uint8_t>(bytes[0]) != 0x0a &&
                                           LooksLikeTensorFlowGraph(bytes.substr(0, 256)));
  Status st = LoadTensorFlowModelFromBytes(bytes, text, graph, outputs);
  if (!st.ok()) st.Prepend(path + ": ");
  return st;
}

}  // namespace ge
