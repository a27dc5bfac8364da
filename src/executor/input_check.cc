#include "executor/input_check.h"

#include "base/checked_math.h"

namespace ge {

Status CheckGraphInputs(const Graph& graph, const std::vector<HostTensor>& inputs) {
  const auto& gin = graph.inputs();
  if (inputs.size() != gin.size()) return InvalidArgument("expected {} input(s), got {}", gin.size(), inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Value& decl = graph.value(gin[i]);
    const HostTensor& t = inputs[i];
    if (t.shape().GetDimNum() > gert::Shape::kMaxDimNum)
      return InvalidArgument("input '{}': rank {} is above the most GE supports ({})", decl.name, t.shape().GetDimNum(),
                             gert::Shape::kMaxDimNum);
    bool ok = decl.desc.dtype == DT_UNDEFINED || t.dtype() == decl.desc.dtype;
    const Shape& ds = decl.desc.shape;
    if (ok && !ds.IsUnknownRank()) {
      ok = ds.GetDimNum() == t.shape().GetDimNum();
      for (size_t d = 0; ok && d < ds.GetDimNum(); ++d) ok = ds.GetDim(d) < 0 || ds.GetDim(d) == t.shape().GetDim(d);
    }
    if (!ok)
      return InvalidArgument("input '{}': expected {}, got {}{}", decl.name, decl.desc.ToString(),
                             DataTypeName(t.dtype()), t.shape().ToString());
    auto bytes = CheckedTensorBytes(t.shape().GetDims(), GetSizeByDataType(t.dtype()));
    if (decl.desc.kind == ValueKind::kTensor && (t.shape().IsUnknownRank() || !bytes || *bytes != t.NumBytes()))
      return InvalidArgument("input '{}': shape {} does not describe its {} bytes of {}", decl.name,
                             t.shape().ToString(), t.NumBytes(), DataTypeName(t.dtype()));
  }
  return Status::Ok();
}

Status CheckBufferCounts(const Graph& graph, const std::vector<DeviceBuffer>& inputs,
                         const std::vector<DeviceBuffer>& outputs) {
  if (inputs.size() == graph.inputs().size() && outputs.size() == graph.outputs().size()) return Status::Ok();
  return InvalidArgument("expected {} input and {} output buffers, got {} and {}", graph.inputs().size(),
                         graph.outputs().size(), inputs.size(), outputs.size());
}

Status CheckDeviceBuffer(const char* role, const std::string& name, const TensorDesc& desc, size_t bytes,
                         const DeviceBuffer& buffer) {
  if (buffer.size >= bytes && (bytes == 0 || buffer.data != nullptr)) return Status::Ok();
  return InvalidArgument("{} '{}': expected a device buffer of {} bytes ({}), got {} bytes at {}", role, name, bytes,
                         desc.ToString(), buffer.size, buffer.data);
}

void NormalizeBoolBytes(void* data, size_t n) {
  auto* b = static_cast<uint8_t*>(data);
  for (size_t i = 0; i < n; ++i) b[i] = b[i] != 0;
}

}  // namespace ge
