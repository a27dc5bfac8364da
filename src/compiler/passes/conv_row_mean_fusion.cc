#include "compiler/passes/conv_row_mean_fusion.h"

#include <fmt/format.h>

#include <string>
#include <vector>

namespace ge {
namespace {

bool IsNhwcPackedConv(const Node& n) {
  if (n.type != "FusedConv" || !n.domain.empty() || n.outputs.size() != 1) return false;
  const std::string* layout = n.GetAttr<std::string>("layout");
  const int64_t* packed = n.GetAttr<int64_t>("packed_weights");
  return layout && *layout == "NHWC" && packed && *packed == 1;
}

bool IsGlobalAveragePool(const Node& n) {
  if (n.type != "PoolNhwc" || !n.domain.empty() || n.inputs.size() != 1 || n.outputs.size() != 1) return false;
  const std::string* mode = n.GetAttr<std::string>("mode");
  return mode && *mode == "global_avg";
}

}  // namespace

Status ConvRowMeanFusion::Run(Graph* g, bool* changed) {
  *changed = false;
  for (NodeId pool_id = 0; pool_id < static_cast<NodeId>(g->num_nodes()); ++pool_id) {
    if (!IsGlobalAveragePool(g->node(pool_id))) continue;
    const ValueId y = g->node(pool_id).inputs[0];
    if (y == kNoValue || g->value(y).producer < 0) continue;
    const NodeId conv_id = g->value(y).producer;
    if (!IsNhwcPackedConv(g->node(conv_id)) || g->node(conv_id).outputs[0] != y) continue;
    const TensorDesc yd = g->value(y).desc;
    if (yd.dtype != DT_FLOAT || yd.shape.IsUnknownRank() || yd.shape.GetDimNum() != 4) continue;
    TensorDesc rd = yd;
    rd.shape = Shape(std::vector<int64_t>{yd.shape.GetDim(0), yd.shape.GetDim(1), 1, yd.shape.GetDim(3)});
    const std::string y_name = g->value(y).name;
    const ValueId r = g->AddValue(y_name + "/row_means", rd);
    g->value(r).producer = conv_id;
    g->value(r).producer_output = 1;
    Node& conv = g->node(conv_id);
    conv.type = "FusedConvRowMeans";
    conv.outputs.push_back(r);
    g->node(pool_id).inputs[0] = r;
    *changed = true;
    LogRewrite(name(), fmt::format("node '{}' (PoolNhwc global_avg) reads the row means of node '{}' (FusedConv)",
                                   g->node(pool_id).name, g->node(conv_id).name));
  }
  return Status::Ok();
}

}  // namespace ge
