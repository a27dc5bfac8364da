#include "compiler/passes/conv_bn_folding.h"

#include <fmt/format.h>

#include <cmath>

#include "compiler/node_binding.h"

namespace ge {

Status ConvBnFolding::Run(Graph* g, bool* changed) {
  *changed = false;
  std::vector<bool> is_output = GraphOutputMask(*g);
  auto readers = g->Consumers();
  std::vector<bool> keep(g->num_nodes(), true);
  for (NodeId bn_id = 0; bn_id < static_cast<NodeId>(g->num_nodes()); ++bn_id) {
    const Node& bn = g->node(bn_id);
    if (bn.type != "BatchNormalization" || !bn.domain.empty() || bn.inputs.size() < 5 || bn.outputs.empty() ||
        bn.outputs[0] == kNoValue)
      continue;
    const int64_t* training = bn.GetAttr<int64_t>("training_mode");
    if (training && *training != 0) continue;
    bool extra_read = false;
    for (size_t o = 1; o < bn.outputs.size(); ++o)
      extra_read |= bn.outputs[o] != kNoValue && (!readers[bn.outputs[o]].empty() || is_output[bn.outputs[o]]);
    if (extra_read) continue;
    ValueId c = bn.inputs[0];
    if (c == kNoValue || g->value(c).producer < 0 || is_output[c] || readers[c].size() != 1) continue;
    NodeId conv_id = g->value(c).producer;
    Node& conv = g->node(conv_id);
    if (conv.type != "Conv" || !conv.domain.empty() || !keep[conv_id] || conv.inputs.size() < 2) continue;
    const HostTensor* w = ConstantOf(*g, conv.inputs[1], DT_FLOAT);
    ValueId b_id = conv.inputs.size() > 2 ? conv.inputs[2] : kNoValue;
    const HostTensor* b = ConstantOf(*g, b_id, DT_FLOAT);
    if (w == nullptr || w->shape().GetDimNum() < 1 || (b_id != kNoValue && b == nullptr)) continue;
    const int64_t m = w->shape().GetDim(0);
    const HostTensor* p[4];
    bool params_ok = true;
    for (int i = 0; i < 4; ++i) {
      p[i] = ConstantOf(*g, bn.inputs[1 + i], DT_FLOAT);
      params_ok = params_ok && p[i] && p[i]->NumElements() == m && p[i]->shape().GetDimNum() == 1;
    }
    if (!params_ok || (b && b->NumElements() != m)) continue;
    const float* eps_attr = bn.GetAttr<float>("epsilon");
    const double eps = eps_attr ? *eps_attr : 1e-5;
    const float *scale = p[0]->data_as<float>(), *bias = p[1]->data_as<float>(), *mean = p[2]->data_as<float>(),
                *var = p[3]->data_as<float>();
    HostTensor w2(DT_FLOAT, w->shape()), b2(DT_FLOAT, Shape({m}));
    const int64_t per_channel = m ? w->NumElements() / m : 0;
    for (int64_t k = 0; k < m; ++k) {
      const double s = scale[k] / std::sqrt(static_cast<double>(var[k]) + eps);
      for (int64_t i = 0; i < per_channel; ++i)
        w2.mutable_data_as<float>()[k * per_channel + i] =
            static_cast<float>(w->data_as<float>()[k * per_channel + i] * s);
      b2.mutable_data_as<float>()[k] = static_cast<float>(((b ? b->data_as<float>()[k] : 0.0) - mean[k]) * s + bias[k]);
    }
    const std::string w_name = g->value(conv.inputs[1]).name;
    ValueId w2_id = g->AddConstant(UniqueValueName(*g, w_name + "_bn"), std::move(w2));
    ValueId b2_id = g->AddConstant(UniqueValueName(*g, conv.name + "_bias_bn"), std::move(b2));
    conv.inputs.resize(std::max<size_t>(conv.inputs.size(), 3), kNoValue);
    conv.inputs[1] = w2_id;
    conv.inputs[2] = b2_id;
    ValueId y = bn.outputs[0];
    conv.outputs[0] = y;
    g->value(y).producer = conv_id;
    g->value(y).producer_output = 0;
    g->value(c).producer = -1;
    keep[bn_id] = false;
    *changed = true;
    LogRewrite(name(), fmt::format("{} folded into {}", NodeLabel(bn), NodeLabel(conv)));
  }
  if (*changed) g->RemoveNodes(keep);
  return Status::Ok();
}

}  // namespace ge
