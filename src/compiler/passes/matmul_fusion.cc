#include "compiler/passes/matmul_fusion.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>

#include "compiler/dim_symbols.h"
#include "compiler/node_binding.h"
#include "compiler/passes/activation_match.h"

namespace ge {
namespace {

using Readers = std::vector<std::vector<std::pair<NodeId, int>>>;

// The float scalar value of constant v (one element), if it is one.
bool ScalarConst(const Graph& g, ValueId v, float* out) {
  const HostTensor* t = ConstantOf(g, v, DT_FLOAT);
  if (t == nullptr || t->NumElements() != 1) return false;
  *out = t->data_as<float>()[0];
  return true;
}

bool Near(float a, float b) { return std::fabs(a - b) <= 1e-4f * std::fabs(b); }

class Matcher {
 public:
  Matcher(const Graph& g) : g_(g), readers_(g.Consumers()), is_output_(GraphOutputMask(g)) {}

  // The single reader of v (a plain ai.onnx node of `type`), or -1.
  NodeId SoleReader(ValueId v, const char* type) const {
    if (is_output_[v] || readers_[v].size() != 1) return -1;
    const Node& n = g_.node(readers_[v][0].first);
    return n.type == type && n.domain.empty() && !n.outputs.empty() && n.outputs[0] != kNoValue ? readers_[v][0].first
                                                                                                : -1;
  }

  // The other input of a two-input node reading v.
  ValueId Other(const Node& n, ValueId v) const {
    return n.inputs.size() == 2 ? n.inputs[n.inputs[0] == v ? 1 : 0] : kNoValue;
  }

  // GELU (erf form) reading v: Div(v, sqrt 2) or Mul(v, 1/sqrt 2) -> Erf -> Add 1 -> Mul v -> Mul 0.5.
  bool Gelu(ValueId v, std::vector<NodeId>* nodes, ValueId* out) const {
    if (is_output_[v] || readers_[v].size() != 2) return false;
    for (int s = 0; s < 2; ++s) {
      NodeId scale_id = readers_[v][s].first, mul_id = readers_[v][1 - s].first;
      const Node& scale = g_.node(scale_id);
      float c;
      if (scale.inputs.size() != 2 || scale.inputs[0] != v || !ScalarConst(g_, scale.inputs[1], &c)) continue;
      if (!((scale.type == "Div" && Near(c, 1.41421356f)) || (scale.type == "Mul" && Near(c, 0.70710678f)))) continue;
      NodeId erf = SoleReader(scale.outputs[0], "Erf");
      if (erf < 0) continue;
      NodeId add = SoleReader(g_.node(erf).outputs[0], "Add");
      if (add < 0 || !ScalarConst(g_, Other(g_.node(add), g_.node(erf).outputs[0]), &c) || !Near(c, 1.f)) continue;
      const Node& mul = g_.node(mul_id);
      if (mul.type != "Mul" || !mul.domain.empty() || SoleReader(g_.node(add).outputs[0], "Mul") != mul_id ||
          Other(mul, v) != g_.node(add).outputs[0])
        continue;
      NodeId half = SoleReader(mul.outputs[0], "Mul");
      if (half < 0 || !ScalarConst(g_, Other(g_.node(half), mul.outputs[0]), &c) || !Near(c, 0.5f)) continue;
      *nodes = {scale_id, erf, add, mul_id, half};
      *out = g_.node(half).outputs[0];
      return true;
    }
    return false;
  }

  // The activation reading v: a Gelu node (erf form), or one that conv-activation-fusion takes too
  // (activation_match.h: Relu, LeakyRelu, HardSigmoid, Clip and relu6, Sigmoid, Tanh, HardSwish,
  // SiLU).
  bool Act(ValueId v, Activation* act) const {
    NodeId n = SoleReader(v, "Gelu");
    if (n >= 0) {
      const auto* approx = g_.node(n).GetAttr<std::string>("approximate");
      if (approx && *approx != "none") return false;
      *act = {"Gelu", {}, {n}, g_.node(n).outputs[0]};
      return act->output != kNoValue;
    }
    return MatchActivation(g_, v, readers_, is_output_, act);
  }

 private:
  const Graph& g_;
  Readers readers_;
  std::vector<bool> is_output_;
};

int64_t IntAttr(const Node& n, const char* key, int64_t dflt) {
  const int64_t* v = n.GetAttr<int64_t>(key);
  return v ? *v : dflt;
}
float FloatAttr(const Node& n, const char* key, float dflt) {
  const float* v = n.GetAttr<float>(key);
  return v ? *v : dflt;
}

// B's [K, N] value for the fused node: B itself, or (Gemm transB = 1, constant B) a transposed copy.
ValueId PlainB(Graph* g, const Node& node, bool trans_b) {
  ValueId b = node.inputs[1];
  if (!trans_b) return b;
  const HostTensor* t = ConstantOf(*g, b, DT_FLOAT);
  int64_t n = t->shape().GetDim(0), k = t->shape().GetDim(1);
  HostTensor tt(DT_FLOAT, Shape({k, n}));
  const float* src = t->data_as<float>();
  float* dst = tt.mutable_data_as<float>();
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < k; ++j) dst[j * n + i] = src[i * k + j];
  return g->AddConstant(UniqueValueName(*g, g->value(b).name + "/transposed"), std::move(tt));
}

}  // namespace

Status MatMulFusion::Run(Graph* g, bool* changed) {
  *changed = false;
  std::vector<bool> keep(g->num_nodes(), true);
  Matcher m(*g);
  const DimSymbols dims(*g);  // a dynamic sequence's residual has the product's shape too
  const size_t original = g->num_nodes();
  for (NodeId id = 0; id < static_cast<NodeId>(original); ++id) {
    Node node = g->node(id);  // a copy: AddConstant below may grow the graph
    if ((node.type != "MatMul" && node.type != "Gemm") || !node.domain.empty() || !keep[id] || node.inputs.size() < 2 ||
        node.outputs.empty() || node.outputs[0] == kNoValue)
      continue;
    const TensorDesc& ad = g->value(node.inputs[0]).desc;
    const TensorDesc& bd = g->value(node.inputs[1]).desc;
    if (ad.dtype != DT_FLOAT || bd.dtype != DT_FLOAT || ad.shape.IsUnknownRank() || bd.shape.IsUnknownRank() ||
        bd.shape.GetDimNum() != 2 || !bd.shape.IsStatic() || ad.shape.GetDimNum() < 1 ||
        ad.shape.GetDim(ad.shape.GetDimNum() - 1) < 0)
      continue;
    bool gemm = node.type == "Gemm", trans_b = gemm && IntAttr(node, "transB", 0) != 0;
    int64_t n = bd.shape.GetDim(trans_b ? 0 : 1);
    ValueId bias = kNoValue;
    if (gemm) {
      if (IntAttr(node, "transA", 0) != 0 || FloatAttr(node, "alpha", 1.f) != 1.f || ad.shape.GetDimNum() != 2)
        continue;
      if (trans_b && ConstantOf(*g, node.inputs[1], DT_FLOAT) == nullptr) continue;
      if (node.inputs.size() > 2 && node.inputs[2] != kNoValue) {
        const HostTensor* c = ConstantOf(*g, node.inputs[2], DT_FLOAT);
        if (c == nullptr || c->NumElements() != n || FloatAttr(node, "beta", 1.f) != 1.f) continue;
        bias = node.inputs[2];
      }
    } else if (ad.shape.GetDimNum() < 2) {
      continue;
    }
    std::vector<NodeId> fused;
    ValueId cur = node.outputs[0];
    if (bias == kNoValue) {  // Add(y, constant of N elements over the last dim)
      NodeId add = m.SoleReader(cur, "Add");
      if (add >= 0) {
        ValueId c = m.Other(g->node(add), cur);
        const HostTensor* t = c == kNoValue ? nullptr : ConstantOf(*g, c, DT_FLOAT);
        bool last_dim = t && t->NumElements() == n && t->shape().GetDimNum() >= 1 &&
                        t->shape().GetDim(t->shape().GetDimNum() - 1) == n;
        if (last_dim) {
          bias = c;
          fused.push_back(add);
          cur = g->node(add).outputs[0];
        }
      }
    }
    ValueId z = kNoValue;
    if (NodeId add = m.SoleReader(cur, "Add"); add >= 0) {  // residual: Add(y, x) of y's exact shape
      ValueId other = m.Other(g->node(add), cur);
      const TensorDesc& cd = g->value(cur).desc;
      if (other != kNoValue && other != cur && !g->value(other).constant && dims.SameShape(other, cur) &&
          cd.dtype == DT_FLOAT && g->value(other).desc.dtype == DT_FLOAT) {
        z = other;
        fused.push_back(add);
        cur = g->node(add).outputs[0];
      }
    }
    // residual behind views: y -> Reshape ... -> Add(r, x), x of r's exact shape (the attention
    // output projection's [S, D] reshaped to [S, 1, D] and [1, S, D] before the skip connection).
    // x reshaped to y's shape becomes Z; the last Reshape then writes the Add's output.
    NodeId last_reshape = -1, view_add = -1;
    ValueId view_x = kNoValue;
    if (z == kNoValue && g->value(cur).desc.shape.IsStatic() && g->value(cur).desc.dtype == DT_FLOAT) {
      ValueId r = cur;
      for (NodeId rs; (rs = m.SoleReader(r, "Reshape")) >= 0 && g->node(rs).inputs[0] == r;) {
        last_reshape = rs;
        r = g->node(rs).outputs[0];
      }
      NodeId add = last_reshape >= 0 ? m.SoleReader(r, "Add") : -1;
      ValueId other = add >= 0 ? m.Other(g->node(add), r) : kNoValue;
      const TensorDesc& rd = g->value(r).desc;
      if (other != kNoValue && other != r && !g->value(other).constant && rd.shape.IsStatic() &&
          g->value(other).desc.shape == rd.shape && g->value(other).desc.dtype == DT_FLOAT &&
          g->value(g->node(add).outputs[0]).desc.shape == rd.shape &&
          rd.shape.GetShapeSize() == g->value(cur).desc.shape.GetShapeSize()) {
        view_add = add;
        view_x = other;
      }
    }
    std::string act;
    std::vector<float> act_params;
    std::vector<NodeId> act_nodes;
    ValueId act_out = kNoValue;
    Activation one;
    if (view_add >= 0) {
      // no activation after a residual reached through views (it would read the Add's output)
    } else if (m.Gelu(cur, &act_nodes, &act_out)) {
      act = "Gelu";
    } else if (m.Act(cur, &one)) {
      act = one.name;
      act_params = one.params;
      act_nodes = one.nodes;
      act_out = one.output;
    }
    if (!act.empty()) {
      fused.insert(fused.end(), act_nodes.begin(), act_nodes.end());
      cur = act_out;
    }
    bool free = true;
    for (NodeId f : fused) free &= f < static_cast<NodeId>(keep.size()) && keep[f];
    if (view_add >= 0) free &= keep[view_add] && keep[last_reshape];
    if (!free) continue;
    if (view_add >= 0) {
      const std::vector<int64_t> dims = g->value(cur).desc.shape.GetDims();
      HostTensor shape(DT_INT64, Shape({static_cast<int64_t>(dims.size())}));
      std::copy(dims.begin(), dims.end(), shape.mutable_data_as<int64_t>());
      const std::string base = g->node(view_add).name + "/residual";
      ValueId sv = g->AddConstant(UniqueValueName(*g, base + "_shape"), std::move(shape));
      z = g->AddValue(UniqueValueName(*g, base), g->value(cur).desc);
      g->AddNode(base, "Reshape", {view_x, sv}, {z});
      // The last Reshape writes the Add's output; its own output had the Add as sole reader.
      const ValueId add_out = g->node(view_add).outputs[0];
      g->node(last_reshape).outputs[0] = add_out;
      g->value(add_out).producer = last_reshape;
      g->value(add_out).producer_output = 0;
      keep.resize(g->num_nodes(), true);
      keep[view_add] = false;
      fused.push_back(view_add);
    }
    std::vector<std::string> names;
    for (NodeId f : fused) {
      names.push_back(NodeLabel(g->node(f)));
      keep[f] = false;
    }
    if (view_add >= 0) names.back() += " (through views)";
    ValueId b = PlainB(g, node, trans_b);
    Node& out = g->node(id);
    out.type = "FusedMatMul";
    out.inputs = {node.inputs[0], b, bias, z};
    out.outputs = {cur};
    out.attrs = {{"activation", act}, {"activation_params", act_params}};
    g->value(cur).producer = id;
    g->value(cur).producer_output = 0;
    *changed = true;
    LogRewrite(name(), fmt::format("node '{}' ({}){}{} -> FusedMatMul (activation \"{}\"{}{})", node.name, node.type,
                                   names.empty() ? "" : " + ", fmt::join(names, " + "), act,
                                   bias != kNoValue ? ", bias" : "", z != kNoValue ? ", residual" : ""));
  }
  if (*changed) {
    keep.resize(g->num_nodes(), true);
    g->RemoveNodes(keep);
  }
  return Status::Ok();
}

}  // namespace ge
