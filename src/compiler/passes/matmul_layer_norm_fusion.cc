#include "compiler/passes/matmul_layer_norm_fusion.h"

#include <fmt/format.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace ge {
namespace {

template <typename T>
T AttrOr(const Node& n, const char* key, T dflt) {
  const T* v = n.GetAttr<T>(key);
  return v ? *v : dflt;
}

// N, the output's columns: B's second dim, or weights_shape's once B is packed; -1 if unknown.
int64_t Columns(const Graph& g, const Node& mm) {
  if (AttrOr<int64_t>(mm, "packed_weights", 0) != 0) {
    const auto* kn = mm.GetAttr<std::vector<int64_t>>("weights_shape");
    return kn && kn->size() == 2 ? (*kn)[1] : -1;
  }
  const Shape& b = g.value(mm.inputs[1]).desc.shape;
  return !b.IsUnknownRank() && b.GetDimNum() == 2 ? b.GetDim(1) : -1;
}

// A float vector value of exactly n elements.
bool VectorOf(const Graph& g, ValueId v, int64_t n) {
  const TensorDesc& d = g.value(v).desc;
  return d.dtype == DT_FLOAT && d.shape.IsStatic() && d.shape.GetShapeSize() == n;
}

}  // namespace

Status MatMulLayerNormFusion::Run(Graph* g, bool* changed) {
  *changed = false;
  if (const char* e = std::getenv("GE_MATMUL_LN_FUSION"); e && std::strcmp(e, "0") == 0) return Status::Ok();
  const auto readers = g->Consumers();
  const std::vector<bool> is_output = GraphOutputMask(*g);
  std::vector<bool> keep(g->num_nodes(), true);
  for (NodeId id = 0; id < static_cast<NodeId>(g->num_nodes()); ++id) {
    const Node& mm = g->node(id);
    if (mm.type != "FusedMatMul" || !mm.domain.empty() || mm.inputs.size() < 2 || mm.inputs.size() > 4 ||
        mm.outputs.size() != 1 || AttrOr<int64_t>(mm, "layer_norm", 0) != 0)
      continue;
    const ValueId y = mm.outputs[0];
    if (y == kNoValue || is_output[y] || readers[y].size() != 1 || readers[y][0].second != 0) continue;
    const TensorDesc& yd = g->value(y).desc;
    const int64_t n = Columns(*g, mm);
    if (yd.dtype != DT_FLOAT || yd.shape.IsUnknownRank() || yd.shape.GetDimNum() < 1 || n <= 0 ||
        yd.shape.GetDim(yd.shape.GetDimNum() - 1) != n)
      continue;
    // Through Reshapes that keep the last dim N (views: normalizing the rows commutes with them).
    ValueId v = y;
    NodeId last_reshape = -1;
    while (true) {
      const Node& r = g->node(readers[v][0].first);
      const ValueId rv = r.outputs.empty() ? kNoValue : r.outputs[0];
      if (r.type != "Reshape" || !r.domain.empty() || readers[v][0].second != 0 || rv == kNoValue || is_output[rv] ||
          readers[rv].size() != 1 || g->value(rv).desc.shape.IsUnknownRank() ||
          g->value(rv).desc.shape.GetDimNum() < 1 ||
          g->value(rv).desc.shape.GetDim(g->value(rv).desc.shape.GetDimNum() - 1) != n)
        break;
      last_reshape = readers[v][0].first;
      v = rv;
    }
    if (readers[v][0].second != 0) continue;
    const NodeId ln_id = readers[v][0].first;
    const Node& ln = g->node(ln_id);
    if (ln.type != "LayerNormalization" || !ln.domain.empty() || ln.inputs.size() < 2 || ln.outputs.empty() ||
        ln.outputs[0] == kNoValue || !keep[ln_id])
      continue;
    bool stats = false;
    for (size_t i = 1; i < ln.outputs.size(); ++i) stats |= ln.outputs[i] != kNoValue;
    const int64_t rank = static_cast<int64_t>(g->value(v).desc.shape.GetDimNum());
    const int64_t axis = AttrOr<int64_t>(ln, "axis", -1);
    const ValueId scale = ln.inputs[1], bias = ln.inputs.size() > 2 ? ln.inputs[2] : kNoValue;
    if (stats || (axis != -1 && axis != rank - 1) || AttrOr<int64_t>(ln, "stash_type", 1) != 1 || scale == kNoValue ||
        !VectorOf(*g, scale, n) || (bias != kNoValue && !VectorOf(*g, bias, n)))
      continue;
    const float eps = AttrOr<float>(ln, "epsilon", 1e-5f);
    const ValueId out = ln.outputs[0];
    const std::string ln_name = ln.name;
    // The norm's output is written by the FusedMatMul, or by the last Reshape of its output.
    const NodeId writer = last_reshape >= 0 ? last_reshape : id;
    g->node(writer).outputs[0] = out;
    g->value(out).producer = writer;
    g->value(out).producer_output = 0;
    Node& fused = g->node(id);
    fused.inputs.resize(4, kNoValue);
    fused.inputs.push_back(scale);
    fused.inputs.push_back(bias);
    fused.attrs["layer_norm"] = int64_t{1};
    fused.attrs["layer_norm_epsilon"] = eps;
    keep[ln_id] = false;
    *changed = true;
    LogRewrite(name(), fmt::format("node '{}' (FusedMatMul) + node '{}' (LayerNormalization{}) -> FusedMatMul "
                                   "(layer_norm, epsilon {})",
                                   fused.name, ln_name, last_reshape >= 0 ? ", through views" : "", eps));
  }
  if (*changed) g->RemoveNodes(keep);
  return Status::Ok();
}

}  // namespace ge
