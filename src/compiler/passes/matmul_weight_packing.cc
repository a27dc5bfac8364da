#include "compiler/passes/matmul_weight_packing.h"

#include <fmt/format.h>

#include <unordered_map>

namespace ge {

Status MatMulWeightPacking::Run(Graph* g, bool* changed) {
  *changed = false;
  std::unordered_map<ValueId, ValueId> packed_of;  // B -> its packing
  const NodeId original = static_cast<NodeId>(g->num_nodes());
  for (NodeId id = 0; id < original; ++id) {
    const Node& node = g->node(id);
    if (node.type != "FusedMatMul" || !node.domain.empty() || node.inputs.size() < 2) continue;
    const int64_t* already = node.GetAttr<int64_t>("packed_weights");
    if (already != nullptr && *already != 0) continue;
    const ValueId b = node.inputs[1];
    const HostTensor* w = ConstantOf(*g, b, DT_FLOAT);
    if (w == nullptr || w->shape().GetDimNum() != 2 || w->NumElements() == 0) continue;
    const int64_t k = w->shape().GetDim(0), n = w->shape().GetDim(1);
    auto it = packed_of.find(b);
    if (it == packed_of.end()) {
      const std::string base = g->value(b).name;
      const ValueId p =
          g->AddValue(UniqueValueName(*g, base + "/packed"), TensorDesc{DT_FLOAT, FORMAT_ND, Shape::UnknownRank()});
      g->AddNode(UniqueValueName(*g, base + "/pack"), "MatMulWeightPack", {b}, {p});
      it = packed_of.emplace(b, p).first;
    }
    Node& mm = g->node(id);  // AddNode may have moved the node list
    mm.inputs[1] = it->second;
    mm.attrs["packed_weights"] = int64_t{1};
    mm.attrs["weights_shape"] = std::vector<int64_t>{k, n};
    *changed = true;
    LogRewrite(name(), fmt::format("node '{}' reads B '{}' [{}, {}] packed", mm.name, g->value(b).name, k, n));
  }
  return Status::Ok();
}

}  // namespace ge
