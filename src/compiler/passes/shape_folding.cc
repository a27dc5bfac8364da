#include "compiler/passes/shape_folding.h"

#include <algorithm>
#include <cstring>

namespace ge {
namespace {

HostTensor Int64Tensor(const std::vector<int64_t>& v, Shape shape) {
  return HostTensor::FromBytes(DT_INT64, std::move(shape), v.data(), v.size() * sizeof(int64_t));
}

// The dims a Shape node reads from its input: [start, end) of a known rank; false otherwise.
bool ShapeDims(const Graph& g, const Node& node, std::vector<int64_t>* out) {
  if (node.type != "Shape" || !node.domain.empty() || node.inputs.empty() || node.inputs[0] == kNoValue) return false;
  const Value& x = g.value(node.inputs[0]);
  if (x.desc.kind != ValueKind::kTensor || x.desc.shape.IsUnknownRank()) return false;
  const auto& dims = x.desc.shape.GetDims();
  const auto rank = static_cast<int64_t>(dims.size());
  const int64_t* start = node.GetAttr<int64_t>("start");
  const int64_t* end = node.GetAttr<int64_t>("end");
  int64_t b = start ? *start : 0, e = end ? *end : rank;
  if (b < 0) b += rank;
  if (e < 0) e += rank;
  b = std::clamp<int64_t>(b, 0, rank);
  e = std::clamp<int64_t>(e, b, rank);
  out->assign(dims.begin() + b, dims.begin() + e);
  return true;
}

// Gather(Shape(x), constant indices) on axis 0 where the gathered dims are known, though other
// dims of x are not (x.size(1) of a dynamic-batch tensor).
std::optional<HostTensor> FoldGatherOfShape(const Graph& g, const Node& node) {
  if (node.inputs.size() != 2 || node.inputs[0] == kNoValue || node.inputs[1] == kNoValue) return std::nullopt;
  const int64_t* axis = node.GetAttr<int64_t>("axis");
  if (axis && *axis != 0 && *axis != -1) return std::nullopt;
  const Value& data = g.value(node.inputs[0]);
  const Value& idx = g.value(node.inputs[1]);
  if (data.producer < 0 || !idx.constant || idx.producer >= 0) return std::nullopt;
  std::vector<int64_t> dims;
  if (!ShapeDims(g, g.node(data.producer), &dims)) return std::nullopt;
  std::vector<int64_t> indices = idx.constant->ToInt64Vector();
  if (static_cast<int64_t>(indices.size()) != idx.constant->NumElements()) return std::nullopt;
  const auto n = static_cast<int64_t>(dims.size());
  std::vector<int64_t> v;
  for (int64_t i : indices) {
    if (i < 0) i += n;
    if (i < 0 || i >= n || dims[i] < 0) return std::nullopt;
    v.push_back(dims[i]);
  }
  return Int64Tensor(v, idx.constant->shape());
}

}  // namespace

std::optional<HostTensor> FoldShapeOf(const Graph& g, const Node& node) {
  if (!node.domain.empty() || node.inputs.empty() || node.inputs[0] == kNoValue || node.outputs.empty() ||
      node.outputs[0] == kNoValue)
    return std::nullopt;
  if (node.type == "Gather") return FoldGatherOfShape(g, node);
  const Value& x = g.value(node.inputs[0]);
  if (x.desc.kind != ValueKind::kTensor || x.desc.shape.IsUnknownRank()) return std::nullopt;
  if (node.type == "Size") {
    if (!x.desc.shape.IsStatic()) return std::nullopt;
    return Int64Tensor({x.desc.shape.GetShapeSize()}, Shape());
  }
  std::vector<int64_t> v;
  if (!ShapeDims(g, node, &v)) return std::nullopt;
  for (int64_t d : v)
    if (d < 0) return std::nullopt;
  return Int64Tensor(v, Shape({static_cast<int64_t>(v.size())}));
}

}  // namespace ge
