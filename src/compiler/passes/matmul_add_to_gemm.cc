#include "compiler/passes/matmul_add_to_gemm.h"

#include <fmt/format.h>

#include "compiler/node_binding.h"

namespace ge {

Status MatMulAddToGemm::Run(Graph* g, bool* changed) {
  *changed = false;
  std::vector<bool> is_output = GraphOutputMask(*g);
  auto readers = g->Consumers();
  std::vector<bool> keep(g->num_nodes(), true);
  for (NodeId mm_id = 0; mm_id < static_cast<NodeId>(g->num_nodes()); ++mm_id) {
    Node& mm = g->node(mm_id);
    if (mm.type != "MatMul" || !mm.domain.empty() || mm.inputs.size() != 2 || mm.outputs.size() != 1) continue;
    ValueId y = mm.outputs[0];
    const TensorDesc& a = g->value(mm.inputs[0]).desc;
    const TensorDesc& b = g->value(mm.inputs[1]).desc;
    if (y == kNoValue || is_output[y] || readers[y].size() != 1 || a.shape.IsUnknownRank() || b.shape.IsUnknownRank() ||
        a.shape.GetDimNum() != 2 || b.shape.GetDimNum() != 2 || a.dtype != DT_FLOAT || b.dtype != DT_FLOAT)
      continue;
    const int64_t n = b.shape.GetDim(1);
    NodeId add_id = readers[y][0].first;
    const Node& add = g->node(add_id);
    if (add.type != "Add" || !add.domain.empty() || add.inputs.size() != 2 || !keep[add_id]) continue;
    ValueId bias = add.inputs[1 - readers[y][0].second];
    const HostTensor* t = ConstantOf(*g, bias, DT_FLOAT);
    if (t == nullptr || n < 0) continue;
    const auto& bd = t->shape().GetDims();
    if (!(bd == std::vector<int64_t>{n} || bd == std::vector<int64_t>{1, n})) continue;
    mm.type = "Gemm";
    mm.inputs.push_back(bias);
    mm.outputs[0] = add.outputs[0];
    g->value(add.outputs[0]).producer = mm_id;
    g->value(add.outputs[0]).producer_output = 0;
    keep[add_id] = false;
    *changed = true;
    LogRewrite(name(), fmt::format("node '{}' (MatMul) + {} -> Gemm", mm.name, NodeLabel(add)));
  }
  if (*changed) g->RemoveNodes(keep);
  return Status::Ok();
}

}  // namespace ge
