#include "compiler/passes/shape_folding.h"

#include <algorithm>
#include <cstring>

namespace ge {
namespace {

HostTensor Int64Tensor(const std::vector<int64_t>& v, Shape shape) {
  return HostTensor::FromBytes(DT_INT64, std::move(shape), v.data(), v.size() * sizeof(int64_t));
}

}  // namespace

std::optional<HostTensor> FoldShapeOf(const Graph& g, const Node& node) {
  if (!node.domain.empty() || node.inputs.empty() || node.inputs[0] == kNoValue || node.outputs.empty() ||
      node.outputs[0] == kNoValue)
    return std::nullopt;
  const Value& x = g.value(node.inputs[0]);
  if (x.desc.kind != ValueKind::kTensor || x.desc.shape.IsUnknownRank()) return std::nullopt;
  const auto& dims = x.desc.shape.GetDims();
  const auto rank = static_cast<int64_t>(dims.size());
  if (node.type == "Size") {
    if (!x.desc.shape.IsStatic()) return std::nullopt;
    return Int64Tensor({x.desc.shape.GetShapeSize()}, Shape());
  }
  if (node.type != "Shape") return std::nullopt;
  const int64_t* start = node.GetAttr<int64_t>("start");
  const int64_t* end = node.GetAttr<int64_t>("end");
  int64_t b = start ? *start : 0, e = end ? *end : rank;
  if (b < 0) b += rank;
  if (e < 0) e += rank;
  b = std::clamp<int64_t>(b, 0, rank);
  e = std::clamp<int64_t>(e, b, rank);
  std::vector<int64_t> v(dims.begin() + b, dims.begin() + e);
  for (int64_t d : v)
    if (d < 0) return std::nullopt;
  return Int64Tensor(v, Shape({static_cast<int64_t>(v.size())}));
}

}  // namespace ge
