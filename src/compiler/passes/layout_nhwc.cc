#include "compiler/passes/layout_nhwc.h"

#include <cmath>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include "base/log.h"
#include "register/op_impl_registry.h"

namespace ge {
namespace {

const std::unordered_set<std::string>& Elementwise() {
  static const std::unordered_set<std::string> kOps = {
      "Relu", "LeakyRelu", "Clip", "Sigmoid", "HardSigmoid", "HardSwish", "Tanh",     "Identity", "Elu",
      "Selu", "Neg",       "Abs",  "Exp",     "Erf",         "Sqrt",      "Softplus", "Mish",     "Add",
      "Sub",  "Mul",       "Div",  "Max",     "Min",         "Sum",       "Pow",      "PRelu"};
  return kOps;
}

// 4-D with static channels and spatial dims (the batch dim may be dynamic).
bool Is4dStatic(const Shape& s) {
  return !s.IsUnknownRank() && s.GetDimNum() == 4 && s.GetDim(1) >= 0 && s.GetDim(2) >= 0 && s.GetDim(3) >= 0;
}
bool Is4dFloat(const Value& v) { return v.desc.dtype == DT_FLOAT && Is4dStatic(v.desc.shape); }

Shape ToNhwcShape(const Shape& s) { return Shape({s.GetDim(0), s.GetDim(2), s.GetDim(3), s.GetDim(1)}); }

// A constant of rank <= 4, broadcast-expanded to 4-D and permuted NCHW -> NHWC.
HostTensor PermuteConstant(const HostTensor& t) {
  std::vector<int64_t> d(4 - t.shape().GetDimNum(), 1);
  for (int64_t x : t.shape().GetDims()) d.push_back(x);
  HostTensor out(t.dtype(), Shape({d[0], d[2], d[3], d[1]}));
  size_t es = GetSizeByDataType(t.dtype());
  const auto* src = static_cast<const uint8_t*>(t.data());
  auto* dst = static_cast<uint8_t*>(out.mutable_data());
  for (int64_t n = 0; n < d[0]; ++n)
    for (int64_t h = 0; h < d[2]; ++h)
      for (int64_t w = 0; w < d[3]; ++w)
        for (int64_t c = 0; c < d[1]; ++c) {
          int64_t si = ((n * d[1] + c) * d[2] + h) * d[3] + w, di = ((n * d[2] + h) * d[3] + w) * d[1] + c;
          std::memcpy(dst + di * es, src + si * es, es);
        }
  return out;
}

class LayoutPass {
 public:
  LayoutPass(Graph* g, LayoutNhwcStats* stats) : g_(g), stats_(stats) {}

  Status Run() {
    std::vector<NodeId> order;
    GE_RETURN_IF_ERROR(g_->TopologicalOrder(&order));
    const auto readers = g_->Consumers();
    const std::vector<bool> is_output = OutputMask();
    std::vector<bool> fused_away(g_->num_nodes(), false);  // Relus folded into a ScaleShift
    shuffled_.assign(g_->num_nodes(), false);
    for (NodeId n : order) {
      if (fused_away[n] || (n < static_cast<NodeId>(shuffled_.size()) && shuffled_[n])) continue;
      if (ConvEligible(n)) {
        ConvertConv(n);
      } else if (ConvertShuffle(n, readers, is_output) || ConvertBackToNhwc(n, is_output)) {
        continue;
      } else if (g_->node(n).type == "Slice" && FollowerEligible(n)) {
        ConvertSlice(n);
      } else if (g_->node(n).type == "BatchNormalization" && FollowerEligible(n)) {
        ConvertBatchNorm(n, readers, is_output, &fused_away);
      } else if (FollowerEligible(n)) {
        ConvertFollower(n);
      } else {
        std::vector<ValueId> ins = g_->node(n).inputs;
        for (ValueId v : ins) NeedNchw(v);
      }
    }
    for (ValueId v : std::vector<ValueId>(g_->outputs())) NeedNchw(v);
    std::vector<bool> keep(g_->num_nodes(), true);
    bool any = false;
    for (size_t n = 0; n < fused_away.size(); ++n) {
      keep[n] = !fused_away[n];
      any |= fused_away[n];
    }
    // Transposes that nothing reads any more (their NHWC input or output is read directly).
    const auto now_read = g_->Consumers();
    const std::vector<bool> out_now = OutputMask();
    for (NodeId n = 0; n < static_cast<NodeId>(g_->num_nodes()); ++n) {
      ValueId y = g_->node(n).outputs.empty() ? kNoValue : g_->node(n).outputs[0];
      if (g_->node(n).type == "Transpose" && y != kNoValue && now_read[y].empty() && !out_now[y]) {
        keep[n] = false;
        any = true;
      }
    }
    if (any) g_->RemoveNodes(keep);
    return Status::Ok();
  }

  std::vector<bool> OutputMask() const {
    std::vector<bool> m(g_->num_values(), false);
    for (ValueId v : g_->outputs()) m[v] = true;
    return m;
  }

 private:
  bool ConvEligible(NodeId n) const {
    const Node& node = g_->node(n);
    if (node.type != "Conv" && node.type != "FusedConv") return false;
    if (node.type == "FusedConv") {
      const auto* layout = node.GetAttr<std::string>("layout");
      if (layout && *layout != "NCHW") return false;
    }
    if (node.inputs.size() < 2 || node.outputs.size() != 1 || node.inputs[0] == kNoValue) return false;
    const Value& x = g_->value(node.inputs[0]);
    const Value& w = g_->value(node.inputs[1]);
    if (!Is4dFloat(x) || !w.constant || w.constant->dtype() != DT_FLOAT || w.constant->shape().GetDimNum() != 4)
      return false;
    if (!Is4dFloat(g_->value(node.outputs[0]))) return false;
    if (node.inputs.size() > 3 && node.inputs[3] != kNoValue && !Is4dFloat(g_->value(node.inputs[3]))) return false;
    return true;
  }

  // An elementwise op or channel Concat or GlobalAveragePool reading at least one NHWC value,
  // whose other non-constant inputs are 4-D.
  bool FollowerEligible(NodeId n) const {
    const Node& node = g_->node(n);
    bool elementwise = Elementwise().count(node.type) > 0;
    if (node.type == "BatchNormalization") return BatchNormEligible(node);
    if (node.type == "Slice") return SliceEligible(node);
    bool concat = node.type == "Concat", gap = node.type == "GlobalAveragePool";
    bool pool = node.type == "MaxPool" || node.type == "AveragePool";
    if (!elementwise && !concat && !gap && !pool) return false;
    size_t outs = node.outputs.size();
    if (pool && outs == 2 && node.outputs[1] == kNoValue) outs = 1;  // MaxPool without Indices
    if (outs != 1 || !Is4dFloat(g_->value(node.outputs[0]))) return false;
    if (pool) {
      const auto* k = node.GetAttr<std::vector<int64_t>>("kernel_shape");
      if (!k || k->size() != 2 || !moved_.count(node.inputs[0])) return false;
    }
    if (concat) {
      const int64_t* axis = node.GetAttr<int64_t>("axis");
      if (!axis || (*axis != 1 && *axis != -3)) return false;
    }
    bool any_nhwc = false;
    for (ValueId v : node.inputs) {
      if (v == kNoValue) continue;
      const Value& val = g_->value(v);
      if (val.constant) {
        if (concat || val.constant->shape().GetDimNum() > 4 || val.constant->dtype() == DT_STRING) return false;
        continue;
      }
      if (!Is4dStatic(val.desc.shape)) return false;
      any_nhwc |= nhwc_.count(v) > 0 && moved_.count(v) > 0;
    }
    return any_nhwc;
  }

  // A Slice of an NHWC value with constant axes (any starts/ends/steps: per axis, unchanged).
  bool SliceEligible(const Node& node) const {
    if (node.inputs.size() < 4 || node.inputs[3] == kNoValue || node.outputs.size() != 1) return false;
    if (!moved_.count(node.inputs[0]) || !Is4dFloat(g_->value(node.outputs[0]))) return false;
    const Value& axes = g_->value(node.inputs[3]);
    return axes.constant && axes.constant->dtype() == DT_INT64;
  }

  // Slice: the axes constant remapped to NHWC (N 0 -> 0, C 1 -> 3, H 2 -> 1, W 3 -> 2).
  void ConvertSlice(NodeId n) {
    Node node = g_->node(n);
    const HostTensor& src = *g_->value(node.inputs[3]).constant;  // copies share bytes: copy them
    HostTensor axes = HostTensor::FromBytes(src.dtype(), src.shape(), src.data(), src.NumBytes());
    static constexpr int64_t kToNhwc[4] = {0, 3, 1, 2};
    for (int64_t i = 0; i < axes.NumElements(); ++i) {
      int64_t& a = axes.mutable_data_as<int64_t>()[i];
      a = kToNhwc[a < 0 ? a + 4 : a];
    }
    ValueId av = g_->AddConstant(node.name + "/axes_nhwc", std::move(axes));
    ValueId x = ToNhwc(node.inputs[0]);
    ValueId yn = AddNhwcTwin(node.outputs[0]);
    Node& out = g_->node(n);
    out.inputs[0] = x;
    out.inputs[3] = av;
    out.outputs = {yn};
    g_->value(yn).producer = n;
    g_->value(yn).producer_output = 0;
    ++stats_->followers;
  }

  // Channel shuffle on an NHWC value: Reshape [N, C, H, W] -> [N, g, C/g, H, W], Transpose
  // [0, 2, 1, 3, 4], Reshape back to [N, C, H, W] (each the sole reader of the last) becomes
  // Reshape [N, H, W, g, C/g], Transpose [0, 1, 2, 4, 3], Reshape [N, H, W, C] on the NHWC form.
  // N may be dynamic (then the new targets copy it: a 0 with allowzero=0): the other dims' match
  // makes both reshapes keep it, as they keep the element count.
  bool ConvertShuffle(NodeId r1, const std::vector<std::vector<std::pair<NodeId, int>>>& readers,
                      const std::vector<bool>& is_output) {
    const Node& a = g_->node(r1);
    if (a.type != "Reshape" || a.inputs.size() < 2 || a.outputs.size() != 1 || !moved_.count(a.inputs[0])) return false;
    const Shape& xs = g_->value(a.inputs[0]).desc.shape;
    const Shape& s5 = g_->value(a.outputs[0]).desc.shape;
    auto static_but_batch = [](const Shape& s, size_t rank) {
      if (s.IsUnknownRank() || s.GetDimNum() != rank) return false;
      for (size_t i = 1; i < rank; ++i)
        if (s.GetDim(i) <= 0) return false;
      return true;
    };
    if (!static_but_batch(xs, 4) || !static_but_batch(s5, 5)) return false;
    if (s5.GetDim(0) != xs.GetDim(0) || s5.GetDim(1) * s5.GetDim(2) != xs.GetDim(1) || s5.GetDim(3) != xs.GetDim(2) ||
        s5.GetDim(4) != xs.GetDim(3))
      return false;
    auto sole = [&](ValueId v, const char* type) -> NodeId {
      if (is_output[v] || readers[v].size() != 1) return -1;
      const Node& r = g_->node(readers[v][0].first);
      return r.type == type && r.domain.empty() && r.outputs.size() == 1 ? readers[v][0].first : -1;
    };
    NodeId t = sole(a.outputs[0], "Transpose");
    if (t < 0) return false;
    const auto* perm = g_->node(t).GetAttr<std::vector<int64_t>>("perm");
    if (!perm || *perm != std::vector<int64_t>{0, 2, 1, 3, 4}) return false;
    NodeId r2 = sole(g_->node(t).outputs[0], "Reshape");
    if (r2 < 0 || g_->value(g_->node(r2).outputs[0]).desc.shape != xs) return false;
    const int64_t n = xs.GetDim(0), c = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3), grp = s5.GetDim(1);
    auto shape_const = [&](const std::string& name, std::vector<int64_t> dims) {
      HostTensor st(DT_INT64, Shape({static_cast<int64_t>(dims.size())}));
      std::copy(dims.begin(), dims.end(), st.mutable_data_as<int64_t>());
      return g_->AddConstant(name, std::move(st));
    };
    const std::string base = g_->node(r1).name;
    ValueId x = ToNhwc(g_->node(r1).inputs[0]);
    const int64_t copy_n = n >= 0 ? n : 0;  // 0: the input's dim (allowzero=0, made below)
    ValueId s1 = shape_const(base + "/shape_nhwc", {copy_n, h, w, grp, c / grp});
    ValueId s2 = shape_const(base + "/shape_nhwc_back", {copy_n, h, w, c});
    TensorDesc d = g_->value(x).desc;
    d.shape = Shape({n, h, w, grp, c / grp});
    ValueId v1 = g_->AddValue(base + "/nhwc5", d);
    d.shape = Shape({n, h, w, c / grp, grp});
    ValueId v2 = g_->AddValue(base + "/nhwc5_t", d);
    ValueId yn = AddNhwcTwin(g_->node(r2).outputs[0]);
    auto rewrite = [&](NodeId id, std::vector<ValueId> ins, ValueId out) {
      Node& node = g_->node(id);
      node.inputs = std::move(ins);
      node.outputs = {out};
      g_->value(out).producer = id;
      g_->value(out).producer_output = 0;
    };
    rewrite(r1, {x, s1}, v1);
    rewrite(t, {v1}, v2);
    g_->node(t).attrs["perm"] = std::vector<int64_t>{0, 1, 2, 4, 3};
    rewrite(r2, {v2, s2}, yn);
    g_->node(r1).attrs.erase("allowzero");  // 0 (the default): a 0 in the targets copies N
    g_->node(r2).attrs.erase("allowzero");
    shuffled_[t] = shuffled_[r2] = true;
    stats_->followers += 3;
    return true;
  }

  // An inference BatchNormalization of an NHWC value with constant parameters.
  bool BatchNormEligible(const Node& node) const {
    if (node.inputs.size() != 5 || node.outputs.empty() || node.outputs[0] == kNoValue) return false;
    for (size_t o = 1; o < node.outputs.size(); ++o)
      if (node.outputs[o] != kNoValue) return false;  // running mean/var outputs: training
    const int64_t* training = node.GetAttr<int64_t>("training_mode");
    if ((training && *training != 0) || !moved_.count(node.inputs[0])) return false;
    if (!Is4dFloat(g_->value(node.outputs[0]))) return false;
    int64_t c = g_->value(node.inputs[0]).desc.shape.GetDim(1);
    for (int i = 1; i < 5; ++i) {
      const Value& p = g_->value(node.inputs[i]);
      if (!p.constant || p.constant->dtype() != DT_FLOAT || p.constant->NumElements() != c) return false;
    }
    return true;
  }

  // BatchNormalization -> ScaleShift (y = x * s + t, s = scale / sqrt(var + eps), t = B - mean * s)
  // on the NHWC value, with a sole Relu reader fused.
  void ConvertBatchNorm(NodeId n, const std::vector<std::vector<std::pair<NodeId, int>>>& readers,
                        const std::vector<bool>& is_output, std::vector<bool>* fused_away) {
    Node node = g_->node(n);
    const float* eps_attr = node.GetAttr<float>("epsilon");
    const float eps = eps_attr ? *eps_attr : 1e-5f;
    auto data = [&](int i) { return g_->value(node.inputs[i]).constant->data_as<float>(); };
    int64_t c = g_->value(node.inputs[1]).constant->NumElements();
    HostTensor scale(DT_FLOAT, Shape({c})), shift(DT_FLOAT, Shape({c}));
    for (int64_t j = 0; j < c; ++j) {
      float s = data(1)[j] / std::sqrt(data(4)[j] + eps);
      scale.mutable_data_as<float>()[j] = s;
      shift.mutable_data_as<float>()[j] = data(2)[j] - data(3)[j] * s;
    }
    ValueId sv = g_->AddConstant(node.name + "/scale", std::move(scale));
    ValueId tv = g_->AddConstant(node.name + "/shift", std::move(shift));
    ValueId y = node.outputs[0];
    std::string act;
    if (!is_output[y] && readers[y].size() == 1) {
      const Node& r = g_->node(readers[y][0].first);
      if (r.type == "Relu" && r.domain.empty() && r.outputs.size() == 1 && r.outputs[0] != kNoValue) {
        act = "Relu";
        (*fused_away)[readers[y][0].first] = true;
        y = r.outputs[0];
      }
    }
    ValueId x = ToNhwc(node.inputs[0]);
    ValueId yn = AddNhwcTwin(y);
    Node& out = g_->node(n);
    out.type = "ScaleShift";
    out.inputs = {x, sv, tv};
    out.outputs = {yn};
    out.attrs = {{"activation", act}};
    g_->value(yn).producer = n;
    g_->value(yn).producer_output = 0;
    ++stats_->followers;
  }

  void ConvertConv(NodeId n) {
    Node node = g_->node(n);                                // a copy: AddNode below reallocates the node list
    const Shape xs = g_->value(node.inputs[0]).desc.shape;  // copies: AddValue reallocates
    const Shape ws = g_->value(node.inputs[1]).desc.shape;
    ValueId b = node.inputs.size() > 2 ? node.inputs[2] : kNoValue;
    ValueId z = node.inputs.size() > 3 ? node.inputs[3] : kNoValue;
    AttrMap attrs = node.attrs;
    attrs["kernel_shape"] = std::vector<int64_t>{ws.GetDim(2), ws.GetDim(3)};
    attrs["layout"] = std::string("NHWC");
    AttrMap pack_attrs = attrs;
    Shape xn = ToNhwcShape(xs);
    pack_attrs["x_shape"] = std::vector<int64_t>{1, xn.GetDim(1), xn.GetDim(2), xn.GetDim(3)};  // per image
    pack_attrs["has_bias"] = int64_t{b != kNoValue};
    pack_attrs["has_z"] = int64_t{z != kNoValue};
    ValueId packed = g_->AddValue(node.name + "/packed_weights", TensorDesc{DT_FLOAT, FORMAT_ND, Shape::UnknownRank()});
    g_->AddNode(node.name + "/pack", "ConvWeightPack", {node.inputs[1]}, {packed}, std::move(pack_attrs));
    attrs["out_channels"] = ws.GetDim(0);
    attrs["packed_weights"] = int64_t{1};
    ValueId x = ToNhwc(node.inputs[0]);
    ValueId zn = z == kNoValue ? kNoValue : ToNhwc(z);
    ValueId y = node.outputs[0];
    ValueId yn = AddNhwcTwin(y);
    Node& out = g_->node(n);
    out.type = "FusedConv";
    out.inputs = {x, packed, b, zn};
    out.outputs = {yn};
    out.attrs = std::move(attrs);
    g_->value(yn).producer = n;
    g_->value(yn).producer_output = 0;
    ++stats_->convs;
    GELOGD("{}: Conv runs in NHWC with packed weights", node.name);
  }

  void ConvertFollower(NodeId n) {
    Node node = g_->node(n);
    std::vector<ValueId> ins;
    for (ValueId v : node.inputs) {
      if (v == kNoValue) {
        ins.push_back(v);
        continue;
      }
      const Value& val = g_->value(v);
      if (val.constant && val.constant->NumElements() <= 1) {
        ins.push_back(v);  // a scalar broadcasts the same in any layout
        continue;
      }
      ins.push_back(ToNhwc(v));
    }
    ValueId y = node.outputs[0];
    ValueId yn = AddNhwcTwin(y);
    Node& out = g_->node(n);
    out.inputs = std::move(ins);
    out.outputs = {yn};
    if (node.type == "Concat") out.attrs["axis"] = int64_t{3};
    if (node.type == "MaxPool" || node.type == "AveragePool") {
      AttrMap a;
      for (const char* k :
           {"auto_pad", "ceil_mode", "dilations", "kernel_shape", "pads", "strides", "count_include_pad"})
        if (node.attrs.count(k)) a[k] = node.attrs.at(k);
      a["mode"] = std::string(node.type == "MaxPool" ? "max" : "avg");
      out.type = "PoolNhwc";
      out.attrs = std::move(a);
    }
    if (node.type == "GlobalAveragePool") {
      out.type = "PoolNhwc";
      out.attrs = {{"mode", std::string("global_avg")}};
    }
    g_->value(yn).producer = n;
    g_->value(yn).producer_output = 0;
    ++stats_->followers;
  }

  // A new value for y's NHWC form; y itself keeps its NCHW desc and is produced again (by a
  // Transpose) only if something reads it.
  ValueId AddNhwcTwin(ValueId y) {
    TensorDesc d = g_->value(y).desc;
    d.shape = ToNhwcShape(d.shape);
    ValueId yn = g_->AddValue(g_->value(y).name + "/nhwc", d);
    g_->value(y).producer = -1;
    nhwc_[y] = yn;
    moved_.insert(y);
    return yn;
  }

  // The NHWC form of v (4-D): its twin, a permuted constant, the input of the NHWC -> NCHW
  // Transpose that made v (an NHWC graph's layout conversion), or a new Transpose.
  ValueId ToNhwc(ValueId v) {
    auto it = nhwc_.find(v);
    if (it != nhwc_.end()) return it->second;
    const Value& val = g_->value(v);
    ValueId t;
    if (IsToNchw(val.producer)) {
      t = g_->node(val.producer).inputs[0];
    } else if (val.constant) {
      t = g_->AddConstant(val.name + "/nhwc", PermuteConstant(*val.constant));
    } else {
      TensorDesc d = val.desc;
      d.shape = ToNhwcShape(d.shape);
      std::string name = val.name + "/to_nhwc";  // val dangles after AddValue
      t = g_->AddValue(name, d);
      g_->AddNode(name, "Transpose", {v}, {t}, {{"perm", std::vector<int64_t>{0, 2, 3, 1}}});
      ++stats_->transposes;
    }
    nhwc_[v] = t;
    return t;
  }

  // A Transpose NCHW -> NHWC of a value whose producer moved to NHWC gives that value's NHWC twin:
  // its readers read the twin instead (a graph output keeps its name through an Identity).
  bool ConvertBackToNhwc(NodeId n, const std::vector<bool>& is_output) {
    Node& node = g_->node(n);
    auto* perm = node.GetAttr<std::vector<int64_t>>("perm");
    if (node.type != "Transpose" || !perm || *perm != std::vector<int64_t>{0, 2, 3, 1} || node.inputs.empty() ||
        !moved_.count(node.inputs[0]) || node.outputs.size() != 1)
      return false;
    const ValueId twin = nhwc_.at(node.inputs[0]), y = node.outputs[0];
    if (is_output[y]) {
      node.type = "Identity";
      node.attrs.clear();
      node.inputs = {twin};
      return true;
    }
    for (NodeId m = 0; m < static_cast<NodeId>(g_->num_nodes()); ++m)
      for (ValueId& in : g_->node(m).inputs)
        if (in == y) in = twin;
    return true;
  }

  bool IsToNchw(NodeId n) const {
    if (n < 0) return false;
    const Node& node = g_->node(n);
    auto* perm = node.GetAttr<std::vector<int64_t>>("perm");
    return node.type == "Transpose" && perm && *perm == std::vector<int64_t>{0, 3, 1, 2} && !node.inputs.empty() &&
           node.inputs[0] != kNoValue;
  }

  // Makes v (whose producer moved to NHWC) exist in NCHW again.
  void NeedNchw(ValueId v) {
    if (v == kNoValue || !moved_.count(v) || nchw_again_.count(v)) return;
    nchw_again_.insert(v);
    g_->AddNode(g_->value(v).name + "/to_nchw", "Transpose", {nhwc_[v]}, {v},
                {{"perm", std::vector<int64_t>{0, 3, 1, 2}}});
    ++stats_->transposes;
  }

  Graph* g_;
  LayoutNhwcStats* stats_;
  std::unordered_map<ValueId, ValueId> nhwc_;  // value -> its NHWC form
  std::unordered_set<ValueId> moved_;          // values whose producer now writes the NHWC form
  std::unordered_set<ValueId> nchw_again_;     // moved values given a Transpose back
  std::vector<bool> shuffled_;                 // Transpose/Reshape nodes rewritten by ConvertShuffle
};

}  // namespace

Status RunLayoutNhwc(Graph* graph, LayoutNhwcStats* stats) {
  LayoutNhwcStats local;
  if (stats == nullptr) stats = &local;
  auto registry = gert::DefaultOpImplSpaceRegistryV2::GetInstance().GetSpaceRegistry();
  if (registry->GetOpImpl("ConvWeightPack") == nullptr) return Status::Ok();
  GE_RETURN_IF_ERROR(LayoutPass(graph, stats).Run());
  GELOGI("layout: {} convolution(s) and {} other node(s) in NHWC, {} transpose(s) inserted", stats->convs,
         stats->followers, stats->transposes);
  return Status::Ok();
}

}  // namespace ge
