#include "compiler/passes/softmax_fusion.h"

#include <fmt/format.h>

#include "compiler/node_binding.h"

namespace ge {
namespace {

bool IsOp(const Node& n, const char* type) {
  return n.type == type && n.domain.empty() && !n.outputs.empty() && n.outputs[0] != kNoValue;
}

// The single axis (in [0, rank)) a keepdims=1 reduction runs over, as GE's reductions read it
// (src/ops/reduce.cc): ReduceSum from its constant axes input (opset 13), ReduceMax from its
// axes attribute; false otherwise (no axes = all axes).
bool ReduceAxis(const Graph& g, const Node& n, int64_t rank, int64_t* axis) {
  const int64_t* keep = n.GetAttr<int64_t>("keepdims");
  if (keep && *keep != 1) return false;
  std::vector<int64_t> axes;
  if (n.type != "ReduceSum") {
    if (const auto* a = n.GetAttr<std::vector<int64_t>>("axes")) axes = *a;
  } else if (n.inputs.size() > 1 && n.inputs[1] != kNoValue) {
    const HostTensor* t = ConstantOf(g, n.inputs[1], DT_INT64);
    if (t == nullptr) return false;
    axes = t->ToInt64Vector();
  }
  if (axes.size() != 1) return false;
  *axis = axes[0] < 0 ? axes[0] + rank : axes[0];
  return *axis >= 0 && *axis < rank;
}

}  // namespace

Status SoftmaxFusion::Run(Graph* g, bool* changed) {
  *changed = false;
  std::vector<bool> is_output = GraphOutputMask(*g);
  auto readers = g->Consumers();
  std::vector<bool> keep(g->num_nodes(), true);
  // The single reader of v, if v is no graph output.
  auto only_reader = [&](ValueId v) -> NodeId {
    return v != kNoValue && !is_output[v] && readers[v].size() == 1 ? readers[v][0].first : -1;
  };
  for (NodeId exp_id = 0; exp_id < static_cast<NodeId>(g->num_nodes()); ++exp_id) {
    const Node& exp = g->node(exp_id);
    if (!IsOp(exp, "Exp") || exp.inputs.size() != 1 || !keep[exp_id]) continue;
    const ValueId e = exp.outputs[0];
    if (is_output[e] || readers[e].size() != 2) continue;
    NodeId sum_id = -1, div_id = -1;
    for (const auto& [r, pos] : readers[e]) {
      if (IsOp(g->node(r), "ReduceSum") && pos == 0) sum_id = r;
      if (IsOp(g->node(r), "Div") && pos == 0) div_id = r;
    }
    if (sum_id < 0 || div_id < 0) continue;
    const Node& sum = g->node(sum_id);
    const Node& div = g->node(div_id);
    if (div.inputs.size() != 2 || div.inputs[1] != sum.outputs[0] || only_reader(sum.outputs[0]) != div_id) continue;
    // x: Exp's input, or the x of Sub(x, ReduceMax(x)).
    std::vector<NodeId> nodes = {exp_id, sum_id, div_id};
    ValueId x = exp.inputs[0];
    int64_t max_axis = -1;
    const NodeId sub_id = g->value(x).producer;
    if (sub_id >= 0 && only_reader(x) == exp_id && IsOp(g->node(sub_id), "Sub") && keep[sub_id]) {
      const Node& sub = g->node(sub_id);
      const NodeId max_id = sub.inputs.size() == 2 ? g->value(sub.inputs[1]).producer : -1;
      if (max_id >= 0 && IsOp(g->node(max_id), "ReduceMax") && g->node(max_id).inputs[0] == sub.inputs[0] &&
          only_reader(sub.inputs[1]) == sub_id && keep[max_id]) {
        const Shape& s = g->value(sub.inputs[0]).desc.shape;
        if (s.IsUnknownRank() || !ReduceAxis(*g, g->node(max_id), s.GetDimNum(), &max_axis)) continue;
        nodes.push_back(sub_id);
        nodes.push_back(max_id);
        x = sub.inputs[0];
      }
    }
    const TensorDesc& xd = g->value(x).desc;
    if ((xd.dtype != DT_FLOAT && xd.dtype != DT_DOUBLE && xd.dtype != DT_FLOAT16) || xd.shape.IsUnknownRank()) continue;
    int64_t axis;
    if (!ReduceAxis(*g, sum, xd.shape.GetDimNum(), &axis) || (max_axis >= 0 && max_axis != axis)) continue;
    bool free = true;
    for (NodeId n : nodes) free &= keep[n];
    if (!free) continue;
    // The Div becomes the Softmax, writing its own output.
    Node& sm = g->node(div_id);
    const std::string label = NodeLabel(sm);
    sm.type = "Softmax";
    sm.inputs = {x};
    sm.attrs = {{"axis", axis}};
    for (NodeId n : nodes)
      if (n != div_id) keep[n] = false;
    *changed = true;
    LogRewrite(name(), fmt::format("{} and {} more nodes -> Softmax (axis {})", label, nodes.size() - 1, axis));
  }
  if (*changed) g->RemoveNodes(keep);
  return Status::Ok();
}

}  // namespace ge
