#include "compiler/passes/layer_norm_fusion.h"

#include <fmt/format.h>

#include <algorithm>

#include "compiler/node_binding.h"

namespace ge {
namespace {

using Readers = std::vector<std::vector<std::pair<NodeId, int>>>;

class Matcher {
 public:
  Matcher(const Graph& g, const Readers& readers, const std::vector<bool>& is_output)
      : g_(g), readers_(readers), is_output_(is_output) {}

  // The single reader of v if it is a node of `type` (ai.onnx) and v is no graph output.
  const Node* OnlyReader(ValueId v, const char* type, NodeId* id = nullptr) const {
    if (v == kNoValue || is_output_[v] || readers_[v].size() != 1) return nullptr;
    const Node& n = g_.node(readers_[v][0].first);
    if (n.type != type || !n.domain.empty() || n.outputs.empty() || n.outputs[0] == kNoValue) return nullptr;
    if (id) *id = readers_[v][0].first;
    return &n;
  }
  // The other input of a binary node, given that one of them is v.
  static ValueId Other(const Node& n, ValueId v) {
    if (n.inputs.size() != 2) return kNoValue;
    return n.inputs[0] == v ? n.inputs[1] : n.inputs[1] == v ? n.inputs[0] : kNoValue;
  }
  // ReduceMean's axes attribute (how GE's ReduceMean reads them, src/ops/reduce.cc), normalized
  // to [0, rank); keepdims must be 1.
  bool MeanAxes(const Node& n, int64_t rank, std::vector<int64_t>* axes) const {
    const int64_t* keep = n.GetAttr<int64_t>("keepdims");
    if (keep && *keep != 1) return false;
    const auto* a = n.GetAttr<std::vector<int64_t>>("axes");
    if (a == nullptr) return false;
    *axes = *a;
    for (auto& a : *axes) {
      if (a < 0) a += rank;
      if (a < 0 || a >= rank) return false;
    }
    std::sort(axes->begin(), axes->end());
    return !axes->empty();
  }
  bool ScalarConstant(ValueId v, float* out) const {
    const HostTensor* t = ConstantOf(g_, v, DT_FLOAT);
    if (t == nullptr || t->NumElements() != 1) return false;
    *out = t->data_as<float>()[0];
    return true;
  }

 private:
  const Graph& g_;
  const Readers& readers_;
  const std::vector<bool>& is_output_;
};

}  // namespace

Status LayerNormFusion::Run(Graph* g, bool* changed) {
  *changed = false;
  std::vector<bool> is_output = GraphOutputMask(*g);
  Readers readers = g->Consumers();
  Matcher mt(*g, readers, is_output);
  std::vector<bool> keep(g->num_nodes(), true);
  const size_t num_nodes = g->num_nodes();
  for (NodeId mean_id = 0; mean_id < static_cast<NodeId>(num_nodes); ++mean_id) {
    const Node& mean = g->node(mean_id);
    if (mean.type != "ReduceMean" || !mean.domain.empty() || !keep[mean_id] || mean.inputs.empty() ||
        mean.outputs.empty() || mean.outputs[0] == kNoValue)
      continue;
    const ValueId x = mean.inputs[0];
    const TensorDesc& xd = g->value(x).desc;
    if (xd.dtype != DT_FLOAT || xd.shape.IsUnknownRank() || xd.shape.GetDimNum() == 0) continue;
    const auto rank = static_cast<int64_t>(xd.shape.GetDimNum());
    std::vector<int64_t> axes;
    if (!mt.MeanAxes(mean, rank, &axes)) continue;
    bool trailing = axes.back() == rank - 1;
    for (size_t i = 1; i < axes.size(); ++i) trailing &= axes[i] == axes[i - 1] + 1;
    if (!trailing) continue;
    std::vector<NodeId> nodes = {mean_id};
    // d = Sub(x, m)
    NodeId id;
    const Node* sub = mt.OnlyReader(mean.outputs[0], "Sub", &id);
    if (!sub || sub->inputs.size() != 2 || sub->inputs[0] != x || sub->inputs[1] != mean.outputs[0]) continue;
    nodes.push_back(id);
    const ValueId d = sub->outputs[0];
    // d's readers: the square (Pow(d, 2), or Mul(d, d), which reads d twice) and the Div.
    if (is_output[d] || (readers[d].size() != 2 && readers[d].size() != 3)) continue;
    NodeId sq_id = -1, div_id = -1;
    for (const auto& [r, pos] : readers[d]) {
      const Node& n = g->node(r);
      if (n.type == "Div" && n.domain.empty() && pos == 0) {
        div_id = r;
      } else if (n.type == "Pow" && n.domain.empty() && pos == 0 && readers[d].size() == 2) {
        float e;
        if (mt.ScalarConstant(n.inputs[1], &e) && e == 2.0f) sq_id = r;
      } else if (n.type == "Mul" && n.domain.empty() && n.inputs.size() == 2 && n.inputs[0] == d && n.inputs[1] == d &&
                 readers[d].size() == 3) {
        sq_id = r;
      }
    }
    if (sq_id < 0 || div_id < 0) continue;
    nodes.push_back(sq_id);
    // v = ReduceMean(square) over the same axes
    const Node* mean2 = mt.OnlyReader(g->node(sq_id).outputs[0], "ReduceMean", &id);
    std::vector<int64_t> axes2;
    if (!mean2 || mean2->inputs[0] != g->node(sq_id).outputs[0] || !mt.MeanAxes(*mean2, rank, &axes2) || axes2 != axes)
      continue;
    nodes.push_back(id);
    // Add(v, eps) -> Sqrt -> Div(d, .)
    const Node* add_eps = mt.OnlyReader(mean2->outputs[0], "Add", &id);
    float eps;
    if (!add_eps || !mt.ScalarConstant(Matcher::Other(*add_eps, mean2->outputs[0]), &eps)) continue;
    nodes.push_back(id);
    const Node* sqrt = mt.OnlyReader(add_eps->outputs[0], "Sqrt", &id);
    if (!sqrt) continue;
    nodes.push_back(id);
    const Node& div = g->node(div_id);
    if (div.inputs.size() != 2 || div.inputs[1] != sqrt->outputs[0] || readers[sqrt->outputs[0]].size() != 1 ||
        is_output[sqrt->outputs[0]] || div.outputs.empty() || div.outputs[0] == kNoValue)
      continue;
    nodes.push_back(div_id);
    // Optional Mul(scale) and Add(bias) of the normalized shape.
    const std::vector<int64_t> norm_dims(xd.shape.GetDims().begin() + axes.front(), xd.shape.GetDims().end());
    auto normalized_constant = [&](ValueId v) {
      const HostTensor* t = ConstantOf(*g, v, DT_FLOAT);
      return t && t->shape().GetDims() == norm_dims;
    };
    ValueId y = div.outputs[0], scale = kNoValue, bias = kNoValue;
    if (const Node* mul = mt.OnlyReader(y, "Mul", &id); mul && normalized_constant(Matcher::Other(*mul, y))) {
      scale = Matcher::Other(*mul, y);
      nodes.push_back(id);
      y = mul->outputs[0];
    }
    if (const Node* add = mt.OnlyReader(y, "Add", &id); add && normalized_constant(Matcher::Other(*add, y))) {
      bias = Matcher::Other(*add, y);
      nodes.push_back(id);
      y = add->outputs[0];
    }
    bool free = true;
    for (NodeId n : nodes) free &= keep[n];
    if (!free) continue;
    bool static_norm = true;
    for (int64_t dim : norm_dims) static_norm &= dim >= 0;
    if (scale == kNoValue) {
      if (!static_norm) continue;
      HostTensor ones(DT_FLOAT, Shape(norm_dims));
      for (int64_t i = 0; i < ones.NumElements(); ++i) ones.mutable_data_as<float>()[i] = 1.0f;
      scale = g->AddConstant(UniqueValueName(*g, mean.name + "_ln_scale"), std::move(ones));
    }
    // The ReduceMean node becomes the LayerNormalization; the others go.
    Node& ln = g->node(mean_id);
    const std::string label = NodeLabel(ln);
    ln.type = "LayerNormalization";
    ln.inputs = {x, scale, bias};
    ln.outputs = {y};
    ln.attrs = {{"axis", axes.front()}, {"epsilon", eps}};
    g->value(y).producer = mean_id;
    g->value(y).producer_output = 0;
    for (size_t i = 1; i < nodes.size(); ++i) keep[nodes[i]] = false;
    *changed = true;
    LogRewrite(name(), fmt::format("{} and {} more nodes -> LayerNormalization (axis {}, epsilon {})", label,
                                   nodes.size() - 1, axes.front(), eps));
  }
  if (*changed) g->RemoveNodes(keep);
  return Status::Ok();
}

}  // namespace ge
