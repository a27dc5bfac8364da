#include "compiler/passes/conv_depthwise_fusion.h"

#include <fmt/format.h>

#include <string>
#include <vector>

namespace ge {
namespace {

constexpr int64_t kChannelMultiple = 16;

bool IsNhwcPackedConv(const Node& n) {
  if (n.type != "FusedConv" || !n.domain.empty() || n.inputs.size() < 2 || n.outputs.size() != 1) return false;
  const std::string* layout = n.GetAttr<std::string>("layout");
  const int64_t* packed = n.GetAttr<int64_t>("packed_weights");
  for (size_t i = 3; i < n.inputs.size(); ++i)  // no residual Z, no input scale S
    if (n.inputs[i] != kNoValue) return false;
  return layout && *layout == "NHWC" && packed && *packed == 1;
}

int64_t IntAttr(const Node& n, const char* key, int64_t dflt) {
  const int64_t* v = n.GetAttr<int64_t>(key);
  return v ? *v : dflt;
}

// The list attribute, or `dflt` when absent.
std::vector<int64_t> IntsAttr(const Node& n, const char* key, std::vector<int64_t> dflt) {
  const auto* v = n.GetAttr<std::vector<int64_t>>(key);
  return v ? *v : dflt;
}

bool ExplicitPads(const Node& n) {
  const std::string* ap = n.GetAttr<std::string>("auto_pad");
  return ap == nullptr || *ap == "NOTSET" ||
         (*ap == "VALID" && IntsAttr(n, "pads", {0, 0, 0, 0}) == std::vector<int64_t>{0, 0, 0, 0});
}

bool FusableActivation(const Node& n) {
  const std::string* a = n.GetAttr<std::string>("activation");
  if (a == nullptr) return true;
  for (const char* ok : {"", "Relu", "Clip", "HardSwish", "Swish"})  // as ops/conv_dw_fused.cc's VectorAct
    if (*a == ok) return true;
  return false;
}

// The OIHW float constant a ConvWeightPack node packs into `packed`, or null.
const HostTensor* PackedFrom(const Graph& g, ValueId packed, NodeId* pack_node) {
  const Value& v = g.value(packed);
  if (v.producer < 0) return nullptr;
  const Node& p = g.node(v.producer);
  if (p.type != "ConvWeightPack" || !p.domain.empty() || p.inputs.size() != 1) return nullptr;
  const HostTensor* w = ConstantOf(g, p.inputs[0], DT_FLOAT);
  if (w == nullptr || w->shape().GetDimNum() != 4) return nullptr;
  *pack_node = v.producer;
  return w;
}

// [M, C, 1, 1] -> [M / 16, C, 16]: panels of 16 filters, each read front to back by the kernel.
HostTensor ExpandWeights(const HostTensor& w) {
  const int64_t m = w.shape().GetDim(0), c = w.shape().GetDim(1);
  HostTensor out(DT_FLOAT, Shape({m / kChannelMultiple, c, kChannelMultiple}));
  const float* src = w.data_as<float>();
  float* dst = static_cast<float*>(out.mutable_data());
  for (int64_t o = 0; o < m; ++o)
    for (int64_t i = 0; i < c; ++i)
      dst[((o / kChannelMultiple) * c + i) * kChannelMultiple + o % kChannelMultiple] = src[o * c + i];
  return out;
}

// [M, 1, KH, KW] -> [KH * KW, M].
HostTensor DepthwiseWeights(const HostTensor& w) {
  const int64_t m = w.shape().GetDim(0), taps = w.shape().GetDim(2) * w.shape().GetDim(3);
  HostTensor out(DT_FLOAT, Shape({taps, m}));
  const float* src = w.data_as<float>();
  float* dst = static_cast<float*>(out.mutable_data());
  for (int64_t o = 0; o < m; ++o)
    for (int64_t k = 0; k < taps; ++k) dst[k * m + o] = src[o * taps + k];
  return out;
}

}  // namespace

Status ConvDepthwiseFusion::Run(Graph* g, bool* changed) {
  *changed = false;
  const std::vector<bool> is_output = GraphOutputMask(*g);
  const auto readers = g->Consumers();
  std::vector<bool> keep(g->num_nodes(), true);
  const NodeId count = static_cast<NodeId>(g->num_nodes());  // nodes added below are not visited
  for (NodeId dw_id = 0; dw_id < count; ++dw_id) {
    const Node& dw = g->node(dw_id);
    if (!keep[dw_id] || !IsNhwcPackedConv(dw) || !FusableActivation(dw) || !ExplicitPads(dw)) continue;
    const ValueId e = dw.inputs[0];
    if (e == kNoValue || is_output[e] || readers[e].size() != 1 || g->value(e).producer < 0) continue;
    const NodeId ex_id = g->value(e).producer;
    const Node& ex = g->node(ex_id);
    if (!keep[ex_id] || !IsNhwcPackedConv(ex) || !FusableActivation(ex) || !ExplicitPads(ex)) continue;
    NodeId dw_pack = -1, ex_pack = -1;
    const HostTensor* w2 = PackedFrom(*g, dw.inputs[1], &dw_pack);
    const HostTensor* w1 = PackedFrom(*g, ex.inputs[1], &ex_pack);
    if (w1 == nullptr || w2 == nullptr) continue;
    const int64_t m = w1->shape().GetDim(0), c = w1->shape().GetDim(1);
    const Shape& w2s = w2->shape();
    if (m <= 0 || c <= 0 || m % kChannelMultiple != 0 || w1->shape().GetDim(2) != 1 || w1->shape().GetDim(3) != 1 ||
        w2s.GetDim(0) != m || w2s.GetDim(1) != 1 || IntAttr(dw, "group", 1) != m || IntAttr(ex, "group", 1) != 1)
      continue;
    if (IntsAttr(ex, "strides", {1, 1}) != std::vector<int64_t>{1, 1} ||
        IntsAttr(ex, "pads", {0, 0, 0, 0}) != std::vector<int64_t>{0, 0, 0, 0} ||
        IntsAttr(ex, "dilations", {1, 1}) != std::vector<int64_t>{1, 1})
      continue;
    if (readers[dw.inputs[1]].size() != 1 || readers[ex.inputs[1]].size() != 1) continue;
    const std::vector<int64_t> kernel{w2s.GetDim(2), w2s.GetDim(3)};
    if (IntsAttr(dw, "kernel_shape", kernel) != kernel) continue;
    // The windows the fused kernel is unrolled for: 3x3 or 5x5, strides 1 or 2, no dilation.
    const std::vector<int64_t> strides = IntsAttr(dw, "strides", {1, 1});
    if (kernel[0] != kernel[1] || (kernel[0] != 3 && kernel[0] != 5) || strides.size() != 2 ||
        (strides[0] != 1 && strides[0] != 2) || (strides[1] != 1 && strides[1] != 2) ||
        IntsAttr(dw, "dilations", {1, 1}) != std::vector<int64_t>{1, 1})
      continue;
    // The rewrite (AddConstant may reallocate the value list: names and attributes copied first).
    const std::string dw_name = dw.name, ex_name = ex.name;
    AttrMap attrs;
    attrs["kernel_shape"] = kernel;
    for (const char* key : {"strides", "pads", "dilations"})
      if (const auto* v = dw.GetAttr<std::vector<int64_t>>(key)) attrs[key] = *v;
    for (const auto& [from, to] : {std::pair<const char*, const char*>{"activation", "activation"},
                                   {"activation_params", "activation_params"},
                                   {"activation", "expand_activation"},
                                   {"activation_params", "expand_activation_params"}}) {
      const Node& src = std::string(to).rfind("expand_", 0) == 0 ? ex : dw;
      auto it = src.attrs.find(from);
      if (it != src.attrs.end()) attrs[to] = it->second;
    }
    const ValueId x = ex.inputs[0];
    const ValueId b1 = ex.inputs.size() > 2 ? ex.inputs[2] : kNoValue;
    const ValueId b2 = dw.inputs.size() > 2 ? dw.inputs[2] : kNoValue;
    HostTensor w1t = ExpandWeights(*w1);
    HostTensor w2t = DepthwiseWeights(*w2);
    const ValueId w1v = g->AddConstant(UniqueValueName(*g, ex_name + "/expand_weights"), std::move(w1t));
    const ValueId w2v = g->AddConstant(UniqueValueName(*g, dw_name + "/depthwise_weights"), std::move(w2t));
    Node& fused = g->node(dw_id);
    fused.type = "FusedConvDw";
    fused.inputs = {x, w1v, b1, w2v, b2};
    fused.attrs = std::move(attrs);
    keep[ex_id] = keep[dw_pack] = keep[ex_pack] = false;
    *changed = true;
    LogRewrite(name(), fmt::format("nodes '{}' (1x1 FusedConv) and '{}' (depthwise FusedConv) -> FusedConvDw", ex_name,
                                   dw_name));
  }
  if (*changed) {
    keep.resize(g->num_nodes(), true);
    g->RemoveNodes(keep);
  }
  return Status::Ok();
}

}  // namespace ge
