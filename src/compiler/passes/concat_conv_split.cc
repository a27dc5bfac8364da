#include "compiler/passes/concat_conv_split.h"

#include <fmt/format.h>

#include <algorithm>

#include "compiler/node_binding.h"

namespace ge {
namespace {

using Readers = std::vector<std::vector<std::pair<NodeId, int>>>;

// The input channel counts of a 4-D float Concat over axis 1 whose output is not a graph output;
// empty if `node` is not one.
std::vector<int64_t> ChannelConcatParts(const Graph& g, const Node& node, const std::vector<bool>& is_output) {
  if (node.type != "Concat" || !node.domain.empty() || node.inputs.size() < 2 || node.outputs.size() != 1 ||
      node.outputs[0] == kNoValue || is_output[node.outputs[0]])
    return {};
  const int64_t* axis = node.GetAttr<int64_t>("axis");
  if (axis == nullptr || (*axis != 1 && *axis != -3)) return {};
  std::vector<int64_t> parts;
  for (ValueId v : node.inputs) {
    if (v == kNoValue) return {};
    const TensorDesc& d = g.value(v).desc;
    if (d.dtype != DT_FLOAT || d.shape.IsUnknownRank() || d.shape.GetDimNum() != 4 || d.shape.GetDim(1) <= 0) return {};
    parts.push_back(d.shape.GetDim(1));
  }
  return parts;
}

bool IntsAre(const Node& n, const char* key, int64_t want) {
  const auto* v = n.GetAttr<std::vector<int64_t>>(key);
  return v == nullptr || std::all_of(v->begin(), v->end(), [&](int64_t x) { return x == want; });
}

bool Absent(const Node& n, size_t i) { return i >= n.inputs.size() || n.inputs[i] == kNoValue; }

// An NCHW FusedConv reading the concat as X whose convolution is a plain 1x1 over all of C, with
// partial sums cheaper than the concat.
bool SplittableConv(const Graph& g, const Node& conv, int input, int64_t channels, size_t parts) {
  if (conv.type != "FusedConv" || !conv.domain.empty() || input != 0 || conv.outputs.empty() ||
      conv.outputs[0] == kNoValue || !Absent(conv, 3) || !Absent(conv, 4))
    return false;
  const auto* layout = conv.GetAttr<std::string>("layout");
  const auto* auto_pad = conv.GetAttr<std::string>("auto_pad");
  const auto* packed = conv.GetAttr<int64_t>("packed_weights");
  const auto* group = conv.GetAttr<int64_t>("group");
  if ((layout && *layout != "NCHW") || (auto_pad && *auto_pad != "NOTSET" && *auto_pad != "VALID") ||
      (packed && *packed != 0) || (group && *group != 1) || !IntsAre(conv, "strides", 1) ||
      !IntsAre(conv, "dilations", 1) || !IntsAre(conv, "pads", 0) || !IntsAre(conv, "kernel_shape", 1))
    return false;
  const HostTensor* w = ConstantOf(g, conv.inputs[1], DT_FLOAT);
  if (w == nullptr || w->shape().GetDimNum() != 4 || w->shape().GetDim(1) != channels || w->shape().GetDim(2) != 1 ||
      w->shape().GetDim(3) != 1)
    return false;
  const int64_t m = w->shape().GetDim(0);
  return static_cast<int64_t>(parts - 1) * m < channels;
}

// MaxPool(Concat(x...)) -> Concat(MaxPool(x)...). Returns true if it rewrote.
bool PushPool(Graph* g, NodeId concat_id, const std::vector<int64_t>& parts, const Readers& readers,
              std::vector<bool>* keep) {
  const ValueId out = g->node(concat_id).outputs[0];
  if (readers[out].size() != 1 || readers[out][0].second != 0) return false;
  const NodeId pool_id = readers[out][0].first;
  const Node& pool = g->node(pool_id);
  if (pool.type != "MaxPool" || !pool.domain.empty() || !(*keep)[pool_id] || pool.outputs.empty() ||
      pool.outputs[0] == kNoValue || (pool.outputs.size() > 1 && pool.outputs[1] != kNoValue))
    return false;
  const ValueId pooled = pool.outputs[0];
  const std::string pool_name = pool.name;
  const AttrMap attrs = pool.attrs;
  const TensorDesc pooled_desc = g->value(pooled).desc;
  std::vector<ValueId> inputs = g->node(concat_id).inputs;
  for (size_t i = 0; i < inputs.size(); ++i) {
    TensorDesc d = pooled_desc;
    if (!d.shape.IsUnknownRank() && d.shape.GetDimNum() == 4) d.shape.MutableDims()[1] = parts[i];
    const ValueId p = g->AddValue(UniqueValueName(*g, fmt::format("{}/part{}", g->value(pooled).name, i)), d);
    g->AddNode(fmt::format("{}/part{}", pool_name, i), "MaxPool", {inputs[i]}, {p}, attrs);
    inputs[i] = p;
  }
  Node& concat = g->node(concat_id);
  concat.inputs = inputs;
  concat.outputs[0] = pooled;
  g->value(pooled).producer = concat_id;
  g->value(pooled).producer_output = 0;
  g->value(out).producer = -1;
  (*keep)[pool_id] = false;
  return true;
}

// Each reading FusedConv becomes a chain of partial 1x1 convolutions over the parts.
void SplitConv(Graph* g, NodeId conv_id, const std::vector<ValueId>& xs, const std::vector<int64_t>& parts) {
  const HostTensor w = *ConstantOf(*g, g->node(conv_id).inputs[1], DT_FLOAT);
  const int64_t m = w.shape().GetDim(0), channels = w.shape().GetDim(1);
  const std::string w_name = g->value(g->node(conv_id).inputs[1]).name;
  const ValueId y = g->node(conv_id).outputs[0];
  const std::string conv_name = g->node(conv_id).name;
  const ValueId bias = Absent(g->node(conv_id), 2) ? kNoValue : g->node(conv_id).inputs[2];
  AttrMap partial_attrs = g->node(conv_id).attrs;
  partial_attrs["activation"] = std::string();
  partial_attrs["activation_params"] = std::vector<float>();
  ValueId prev = kNoValue;
  int64_t c0 = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    HostTensor wi(DT_FLOAT, Shape({m, parts[i], 1, 1}));
    for (int64_t o = 0; o < m; ++o)
      std::copy_n(w.data_as<float>() + o * channels + c0, parts[i], wi.mutable_data_as<float>() + o * parts[i]);
    c0 += parts[i];
    const ValueId wv = g->AddConstant(UniqueValueName(*g, fmt::format("{}/part{}", w_name, i)), std::move(wi));
    std::vector<ValueId> inputs = {xs[i], wv, i == 0 ? bias : kNoValue, prev};
    if (i + 1 < xs.size()) {
      const ValueId t =
          g->AddValue(UniqueValueName(*g, fmt::format("{}/partial{}", g->value(y).name, i)), g->value(y).desc);
      g->AddNode(fmt::format("{}/part{}", conv_name, i), "FusedConv", std::move(inputs), {t}, partial_attrs);
      prev = t;
    } else {
      g->node(conv_id).inputs = std::move(inputs);
    }
  }
}

}  // namespace

Status ConcatConvSplit::Run(Graph* g, bool* changed) {
  *changed = false;
  const std::vector<bool> is_output = GraphOutputMask(*g);
  const Readers readers = g->Consumers();
  std::vector<bool> keep(g->num_nodes(), true);
  const NodeId num_nodes = static_cast<NodeId>(g->num_nodes());
  for (NodeId id = 0; id < num_nodes; ++id) {
    if (!keep[id]) continue;
    const std::vector<int64_t> parts = ChannelConcatParts(*g, g->node(id), is_output);
    if (parts.empty()) continue;
    const std::string label = NodeLabel(g->node(id));
    if (PushPool(g, id, parts, readers, &keep)) {
      *changed = true;
      LogRewrite(name(), fmt::format("{}: MaxPool moved before it, onto its {} inputs", label, parts.size()));
      continue;  // the next round sees the concat's new readers
    }
    const ValueId out = g->node(id).outputs[0];
    int64_t channels = 0;
    for (int64_t c : parts) channels += c;
    bool all = !readers[out].empty();
    for (const auto& [reader, input] : readers[out])
      all = all && keep[reader] && SplittableConv(*g, g->node(reader), input, channels, parts.size());
    if (!all) continue;
    const std::vector<ValueId> xs = g->node(id).inputs;
    for (const auto& [reader, input] : readers[out]) {
      SplitConv(g, reader, xs, parts);
      LogRewrite(name(), fmt::format("{} read by {}: {} partial 1x1 convolutions", label, NodeLabel(g->node(reader)),
                                     parts.size()));
    }
    g->value(out).producer = -1;
    keep[id] = false;
    *changed = true;
  }
  if (*changed) {
    keep.resize(g->num_nodes(), true);
    g->RemoveNodes(keep);
  }
  return Status::Ok();
}

}  // namespace ge
