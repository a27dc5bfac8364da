#include "compiler/passes/conv_input_scale_fusion.h"

#include <fmt/format.h>

#include <string>

namespace ge {
namespace {

bool IsNhwcPackedConv(const Node& n) {
  if (n.type != "FusedConv" || !n.domain.empty()) return false;
  const std::string* layout = n.GetAttr<std::string>("layout");
  const int64_t* packed = n.GetAttr<int64_t>("packed_weights");
  return layout && *layout == "NHWC" && packed && *packed == 1 && n.inputs.size() >= 2 &&
         (n.inputs.size() < 5 || n.inputs[4] == kNoValue) && n.inputs.size() <= 5;
}

// s scales x's channels only: x [N, H, W, C] (float), s [N or 1, 1, 1, C] (a -1 batch is checked
// when the convolution is tiled).
bool PerChannelScale(const Graph& g, ValueId x, ValueId s, ValueId product) {
  if (x == s) return false;
  const TensorDesc& xd = g.value(x).desc;
  const TensorDesc& sd = g.value(s).desc;
  const TensorDesc& pd = g.value(product).desc;
  if (xd.dtype != DT_FLOAT || sd.dtype != DT_FLOAT || xd.shape.IsUnknownRank() || sd.shape.IsUnknownRank() ||
      xd.shape.GetDimNum() != 4 || sd.shape.GetDimNum() != 4 || !(xd.shape == pd.shape))
    return false;
  const int64_t c = xd.shape.GetDim(3), sn = sd.shape.GetDim(0), xn = xd.shape.GetDim(0);
  return c > 0 && sd.shape.GetDim(1) == 1 && sd.shape.GetDim(2) == 1 && sd.shape.GetDim(3) == c &&
         (sn == 1 || sn == xn || sn < 0);
}

}  // namespace

Status ConvInputScaleFusion::Run(Graph* g, bool* changed) {
  *changed = false;
  const std::vector<bool> is_output = GraphOutputMask(*g);
  const auto readers = g->Consumers();
  std::vector<bool> keep(g->num_nodes(), true);
  for (NodeId mul_id = 0; mul_id < static_cast<NodeId>(g->num_nodes()); ++mul_id) {
    const Node& mul = g->node(mul_id);
    if (mul.type != "Mul" || !mul.domain.empty() || mul.inputs.size() != 2 || mul.outputs.size() != 1) continue;
    const ValueId product = mul.outputs[0];
    if (product == kNoValue || is_output[product] || readers[product].size() != 1 || readers[product][0].second != 0)
      continue;
    const NodeId conv_id = readers[product][0].first;
    if (!keep[conv_id] || !IsNhwcPackedConv(g->node(conv_id))) continue;
    int side = -1;  // which Mul operand is x
    for (int k = 0; k < 2 && side < 0; ++k)
      if (PerChannelScale(*g, mul.inputs[k], mul.inputs[1 - k], product)) side = k;
    if (side < 0) continue;
    const ValueId x = mul.inputs[side], s = mul.inputs[1 - side];
    Node& conv = g->node(conv_id);
    conv.inputs[0] = x;
    conv.inputs.resize(5, kNoValue);
    conv.inputs[4] = s;
    keep[mul_id] = false;
    *changed = true;
    LogRewrite(name(),
               fmt::format("node '{}' (Mul) -> the input scale S of node '{}' (FusedConv)", mul.name, conv.name));
  }
  if (*changed) g->RemoveNodes(keep);
  return Status::Ok();
}

}  // namespace ge
