#include "compiler/passes/concat_scale_shift_fusion.h"

#include <fmt/format.h>

namespace ge {
namespace {

constexpr size_t kMaxParts = 64;  // ConcatScaleShift's kernel (ops/scale_shift.cc)

// Whether `node` concatenates float inputs of one known rank over their last dim.
bool IsLastDimConcat(const Graph& g, const Node& node) {
  if (node.type != "Concat" || !node.domain.empty() || node.inputs.empty() || node.inputs.size() > kMaxParts ||
      node.outputs.size() != 1 || node.outputs[0] == kNoValue)
    return false;
  const TensorDesc& y = g.value(node.outputs[0]).desc;
  if (y.dtype != DT_FLOAT || y.shape.IsUnknownRank() || y.shape.GetDimNum() < 1) return false;
  const int64_t rank = static_cast<int64_t>(y.shape.GetDimNum());
  const int64_t* axis = node.GetAttr<int64_t>("axis");
  if (axis == nullptr || (*axis != rank - 1 && *axis != -1)) return false;
  for (ValueId v : node.inputs) {
    if (v == kNoValue) return false;
    const TensorDesc& d = g.value(v).desc;
    if (d.dtype != DT_FLOAT || d.shape.IsUnknownRank() || static_cast<int64_t>(d.shape.GetDimNum()) != rank)
      return false;
  }
  return true;
}

}  // namespace

Status ConcatScaleShiftFusion::Run(Graph* g, bool* changed) {
  *changed = false;
  const std::vector<bool> is_output = GraphOutputMask(*g);
  const auto readers = g->Consumers();
  std::vector<bool> keep(g->num_nodes(), true);
  for (NodeId ss_id = 0; ss_id < static_cast<NodeId>(g->num_nodes()); ++ss_id) {
    const Node& ss = g->node(ss_id);
    if (ss.type != "ScaleShift" || !ss.domain.empty() || ss.inputs.size() != 3 || ss.outputs.size() != 1) continue;
    const ValueId x = ss.inputs[0];
    if (x == kNoValue || is_output[x] || readers[x].size() != 1 || readers[x][0].second != 0) continue;
    const NodeId concat_id = g->value(x).producer;
    if (concat_id < 0 || !keep[concat_id] || !IsLastDimConcat(*g, g->node(concat_id))) continue;
    const Node& concat = g->node(concat_id);
    std::vector<ValueId> inputs = {ss.inputs[1], ss.inputs[2]};
    inputs.insert(inputs.end(), concat.inputs.begin(), concat.inputs.end());
    LogRewrite(name(), fmt::format("node '{}' (Concat of {}) + node '{}' (ScaleShift) -> ConcatScaleShift", concat.name,
                                   concat.inputs.size(), ss.name));
    Node& fused = g->node(ss_id);
    fused.type = "ConcatScaleShift";
    fused.inputs = std::move(inputs);
    keep[concat_id] = false;
    *changed = true;
  }
  if (*changed) g->RemoveNodes(keep);
  return Status::Ok();
}

}  // namespace ge
