// Shape specialization: the given inputs' dims replace the declared ones before compilation.
#include "compiler/specialize_shapes.h"

#include "base/checked_math.h"

namespace ge {

Status SpecializeInputShapes(const std::map<std::string, std::vector<int64_t>>& input_shapes, Graph* graph) {
  for (const auto& [name, dims] : input_shapes) {
    ValueId id = kNoValue;
    std::string names;
    for (ValueId v : graph->inputs()) {
      if (graph->value(v).name == name) id = v;
      names += (names.empty() ? "" : ", ") + graph->value(v).name;
    }
    if (id == kNoValue)
      return InvalidArgument("input shape given for '{}': the model has no such input (inputs: {})", name, names);
    TensorDesc& d = graph->value(id).desc;
    Shape given(dims);
    for (int64_t x : dims)
      if (x < 0) return InvalidArgument("input shape for '{}': {} has a negative dim", name, given.ToString());
    if (!CheckedTensorBytes(dims, GetSizeByDataType(graph->value(id).desc.dtype)))
      return InvalidArgument("input '{}': shape {} is too large (its byte size overflows 64 bits)", name,
                             given.ToString());
    if (!d.shape.IsUnknownRank()) {
      bool ok = d.shape.GetDimNum() == dims.size();
      for (size_t i = 0; ok && i < dims.size(); ++i) ok = d.shape.GetDim(i) < 0 || d.shape.GetDim(i) == dims[i];
      if (!ok)
        return InvalidArgument("input shape for '{}': {} does not fit the declared {}", name, given.ToString(),
                               d.shape.ToString());
    }
    d.shape = given;
  }
  return Status::Ok();
}

}  // namespace ge
