#include "compiler/passes/attention_fusion.h"

#include <fmt/format.h>

#include <cmath>

namespace ge {
namespace {

enum class Role { kQ, kK, kV };

// Where one of Q, K, V comes from: columns [offset, offset + heads * head_dim) of src's last axis.
struct HeadSource {
  ValueId src = kNoValue;
  int64_t offset = 0;
  bool seq_first = true;
  int64_t batch = -1, heads = -1, head_dim = -1, seq = -1;
};

bool IsOp(const Node& n, const char* type) {
  return n.type == type && n.domain.empty() && !n.outputs.empty() && n.outputs[0] != kNoValue;
}

bool Known(const Shape& s) {
  if (s.IsUnknownRank()) return false;
  for (size_t i = 0; i < s.GetDimNum(); ++i)
    if (s.GetDim(i) < 0) return false;
  return true;
}

// Equal where both are known.
bool Compatible(int64_t a, int64_t b) { return a < 0 || b < 0 || a == b; }

class Matcher {
 public:
  explicit Matcher(const Graph& g) : g_(g), readers_(g.Consumers()), is_output_(GraphOutputMask(g)) {}

  NodeId Producer(ValueId v, const char* type) const {
    const NodeId p = v == kNoValue ? -1 : g_.value(v).producer;
    return p >= 0 && IsOp(g_.node(p), type) ? p : -1;
  }

  // v is read only by node n (and is no graph output).
  bool OnlyReadBy(ValueId v, NodeId n) const {
    return !is_output_[v] && readers_[v].size() == 1 && readers_[v][0].first == n;
  }

  // The single reader of v of `type`, or -1.
  NodeId SoleReader(ValueId v, const char* type) const {
    if (is_output_[v] || readers_[v].size() != 1) return -1;
    const NodeId r = readers_[v][0].first;
    return IsOp(g_.node(r), type) ? r : -1;
  }

  // A scalar float constant.
  bool Scalar(ValueId v, float* out) const {
    const HostTensor* t = ConstantOf(g_, v, DT_FLOAT);
    if (t == nullptr || t->NumElements() != 1) return false;
    *out = t->data_as<float>()[0];
    return std::isfinite(*out) && *out != 0.f;
  }

  // If node p is Mul/Div of `*v` by a scalar constant, read once: steps *v to its other input
  // and multiplies *scale by the factor. Returns whether it stepped.
  bool PeelScale(NodeId p, ValueId* v, float* scale, std::vector<NodeId>* nodes) const {
    if (p < 0) return false;
    const Node& n = g_.node(p);
    if (n.inputs.size() != 2 || !n.domain.empty()) return false;
    float c;
    if (n.type == "Div" && Scalar(n.inputs[1], &c)) {
      *scale /= c;
      *v = n.inputs[0];
    } else if (n.type == "Mul" && Scalar(n.inputs[1], &c)) {
      *scale *= c;
      *v = n.inputs[0];
    } else if (n.type == "Mul" && Scalar(n.inputs[0], &c)) {
      *scale *= c;
      *v = n.inputs[1];
    } else {
      return false;
    }
    nodes->push_back(p);
    return true;
  }

  // Q/V: [B*H, S, D] (seq-first) or [B, H, S, D]; K: [B*H, D, S] or [B, H, D, S]; made by a
  // Transpose of a Reshape of a [S, B, W] / [B, S, W] tensor (possibly a last-axis Slice).
  bool Head(ValueId v, Role role, HeadSource* out) const {
    const NodeId t_id = Producer(v, "Transpose");
    if (t_id < 0) return false;
    const Node& t = g_.node(t_id);
    const auto* perm = t.GetAttr<std::vector<int64_t>>("perm");
    const NodeId r_id = Producer(t.inputs[0], "Reshape");
    if (perm == nullptr || r_id < 0) return false;
    const Node& r = g_.node(r_id);
    const Shape& rs = g_.value(r.outputs[0]).desc.shape;
    const ValueId x = r.inputs[0];
    const Shape& xs = g_.value(x).desc.shape;
    if (g_.value(x).desc.dtype != DT_FLOAT || xs.IsUnknownRank() || xs.GetDimNum() != 3 || rs.IsUnknownRank())
      return false;
    HeadSource h;
    const int64_t w = xs.GetDim(2);
    if (rs.GetDimNum() == 3) {  // [S, B, W] -> [S, B*H, D] -> [B*H, S, D]
      const std::vector<int64_t> want =
          role == Role::kK ? std::vector<int64_t>{1, 2, 0} : std::vector<int64_t>{1, 0, 2};
      if (*perm != want) return false;
      h.seq_first = true;
      h.batch = xs.GetDim(1);
      h.seq = xs.GetDim(0);
      h.head_dim = rs.GetDim(2);
      if (h.batch > 0) {
        if (rs.GetDim(1) <= 0 || rs.GetDim(1) % h.batch != 0 || !Compatible(rs.GetDim(0), h.seq)) return false;
        h.heads = rs.GetDim(1) / h.batch;
      } else {
        // A dynamic batch: [S, B, W] -> [S, ?, D] with S and D known is the head split, the
        // element count forcing ? = B * W / D.
        if (h.seq <= 0 || rs.GetDim(0) != h.seq || rs.GetDim(1) >= 0 || h.head_dim <= 0 || w <= 0 ||
            w % h.head_dim != 0)
          return false;
        h.batch = -1;
        h.heads = w / h.head_dim;
      }
    } else if (rs.GetDimNum() == 4) {  // [B, S, W] -> [B, S, H, D] -> [B, H, S, D]
      const std::vector<int64_t> want =
          role == Role::kK ? std::vector<int64_t>{0, 2, 3, 1} : std::vector<int64_t>{0, 2, 1, 3};
      if (*perm != want) return false;
      h.seq_first = false;
      h.batch = xs.GetDim(0);
      h.seq = xs.GetDim(1);
      h.heads = rs.GetDim(2);
      h.head_dim = rs.GetDim(3);
      if (h.batch > 0) {
        if (!Compatible(rs.GetDim(0), h.batch) || !Compatible(rs.GetDim(1), h.seq)) return false;
      } else {
        // A dynamic batch: [B, S, W] -> [?, S, H, D] with S, H and D known forces ? = B.
        if (h.seq <= 0 || rs.GetDim(1) != h.seq || rs.GetDim(0) >= 0) return false;
        h.batch = -1;
      }
    } else {
      return false;
    }
    if (h.heads <= 0 || h.head_dim <= 0 || w != h.heads * h.head_dim) return false;
    h.src = x;
    // A last-axis Slice of a wider tensor (a packed QKV projection): read the wide tensor.
    const NodeId s_id = Producer(x, "Slice");
    if (s_id >= 0) {
      const Node& s = g_.node(s_id);
      const Shape& ps = g_.value(s.inputs[0]).desc.shape;
      if (s.inputs.size() >= 4 && !ps.IsUnknownRank() && ps.GetDimNum() == 3 && ps.GetDim(2) > 0) {
        const HostTensor* starts = ConstantOf(g_, s.inputs[1], DT_INT64);
        const HostTensor* ends = ConstantOf(g_, s.inputs[2], DT_INT64);
        const HostTensor* axes = ConstantOf(g_, s.inputs[3], DT_INT64);
        const HostTensor* steps =
            s.inputs.size() > 4 && s.inputs[4] != kNoValue ? ConstantOf(g_, s.inputs[4], DT_INT64) : nullptr;
        const bool unit_step = s.inputs.size() <= 4 || s.inputs[4] == kNoValue ||
                               (steps && steps->ToInt64Vector() == std::vector<int64_t>{1});
        if (starts && ends && axes && unit_step && starts->NumElements() == 1 && ends->NumElements() == 1 &&
            axes->NumElements() == 1) {
          const int64_t width = ps.GetDim(2);
          int64_t axis = axes->ToInt64Vector()[0], b = starts->ToInt64Vector()[0], e = ends->ToInt64Vector()[0];
          if (axis < 0) axis += 3;
          if (b < 0) b += width;
          if (e < 0) e += width;
          e = std::min(e, width);
          if (axis == 2 && b >= 0 && e - b == w) {
            h.src = s.inputs[0];
            h.offset = b;
          }
        }
      }
    }
    *out = h;
    return true;
  }

  // The value whose leading dims v's are: through MatMul / FusedMatMul by a 2-D right operand
  // (a projection keeps every dim but the last).
  ValueId LeadingDimsRoot(ValueId v) const {
    for (;;) {
      const NodeId p = g_.value(v).producer;
      if (p < 0) return v;
      const Node& n = g_.node(p);
      if ((n.type != "MatMul" && n.type != "FusedMatMul") || n.inputs.size() < 2 || n.outputs[0] != v) return v;
      const Shape& b = g_.value(n.inputs[1]).desc.shape;
      if (b.IsUnknownRank() || b.GetDimNum() != 2) return v;
      v = n.inputs[0];
    }
  }

  // The mask's shape is one [Sq, Sk] / [1, Sk] / [Sk] for every batch and head.
  bool Mask(ValueId m, int64_t sq, int64_t sk) const {
    const TensorDesc& d = g_.value(m).desc;
    if (d.dtype != DT_FLOAT || !Known(d.shape)) return false;
    const int64_t rank = d.shape.GetDimNum();
    for (int64_t i = 0; i + 2 < rank; ++i)
      if (d.shape.GetDim(i) != 1) return false;
    const int64_t mk = rank >= 1 ? d.shape.GetDim(rank - 1) : 1, mq = rank >= 2 ? d.shape.GetDim(rank - 2) : 1;
    return (mk == 1 || mk == sk) && (mq == 1 || mq == sq);
  }

  const Graph& g_;
  std::vector<std::vector<std::pair<NodeId, int>>> readers_;
  std::vector<bool> is_output_;
};

}  // namespace

Status AttentionFusion::Run(Graph* g, bool* changed) {
  *changed = false;
  std::vector<bool> keep(g->num_nodes(), true);
  struct Rewrite {
    NodeId merge;  // the head-merge Transpose, which becomes the FusedAttention
    ValueId q, k, v, mask;
    HeadSource head;
    float scale;
    int64_t q_offset, k_offset, v_offset;
  };
  std::vector<Rewrite> rewrites;
  {
    Matcher m(*g);
    for (NodeId sm_id = 0; sm_id < static_cast<NodeId>(g->num_nodes()); ++sm_id) {
      const Node& sm = g->node(sm_id);
      if (!IsOp(sm, "Softmax") || sm.inputs.size() != 1 || !keep[sm_id]) continue;
      const Shape& ss = g->value(sm.inputs[0]).desc.shape;
      if (g->value(sm.inputs[0]).desc.dtype != DT_FLOAT || ss.IsUnknownRank()) continue;
      const int64_t rank = ss.GetDimNum();
      const int64_t* axis = sm.GetAttr<int64_t>("axis");
      if ((rank != 3 && rank != 4) || axis == nullptr || (*axis != -1 && *axis != rank - 1)) continue;
      std::vector<NodeId> core = {sm_id};
      // Backwards from the Softmax: (mask Add) <- (scale) <- MatMul(q, k^T).
      ValueId s = sm.inputs[0], mask = kNoValue;
      float scale = 1.f;
      NodeId p = g->value(s).producer;
      if (p >= 0 && IsOp(g->node(p), "Add") && g->node(p).inputs.size() == 2 && m.OnlyReadBy(s, sm_id)) {
        // The scores side is the one that leads (through a scale) to a MatMul.
        const Node& add = g->node(p);
        int side = -1;
        for (int i = 0; i < 2 && side < 0; ++i) {
          ValueId x = add.inputs[i];
          float unused = 1.f;
          std::vector<NodeId> scratch;
          m.PeelScale(g->value(x).producer, &x, &unused, &scratch);
          if (m.Producer(x, "MatMul") >= 0) side = i;
        }
        if (side < 0) continue;
        mask = add.inputs[1 - side];
        core.push_back(p);
        s = add.inputs[side];
        p = g->value(s).producer;
      } else if (!m.OnlyReadBy(s, sm_id)) {
        continue;
      }
      if (m.PeelScale(p, &s, &scale, &core)) p = g->value(s).producer;
      if (p < 0 || !IsOp(g->node(p), "MatMul") || g->node(p).inputs.size() != 2) continue;
      const NodeId mm1 = p;
      core.push_back(mm1);
      ValueId qv = g->node(mm1).inputs[0], kv = g->node(mm1).inputs[1];
      if (!m.PeelScale(g->value(qv).producer, &qv, &scale, &core)) qv = g->node(mm1).inputs[0];
      if (!m.PeelScale(g->value(kv).producer, &kv, &scale, &core)) kv = g->node(mm1).inputs[1];
      // Forwards: Softmax -> MatMul(p, v) -> head-merge Transpose.
      const NodeId mm2 = m.SoleReader(sm.outputs[0], "MatMul");
      if (mm2 < 0 || g->node(mm2).inputs.size() != 2 || g->node(mm2).inputs[0] != sm.outputs[0]) continue;
      core.push_back(mm2);
      const NodeId merge = m.SoleReader(g->node(mm2).outputs[0], "Transpose");
      if (merge < 0) continue;
      HeadSource hq, hk, hv;
      if (!m.Head(qv, Role::kQ, &hq) || !m.Head(kv, Role::kK, &hk) || !m.Head(g->node(mm2).inputs[1], Role::kV, &hv))
        continue;
      if (hq.seq_first != hk.seq_first || hq.seq_first != hv.seq_first || hq.batch != hk.batch ||
          hq.batch != hv.batch || hq.heads != hk.heads || hq.heads != hv.heads || hq.head_dim != hk.head_dim ||
          hq.head_dim != hv.head_dim || !Compatible(hk.seq, hv.seq))
        continue;
      // A dynamic batch must be provably one batch: Q, K and V projected from one tensor.
      if (hq.batch < 0 && (m.LeadingDimsRoot(hq.src) != m.LeadingDimsRoot(hk.src) ||
                           m.LeadingDimsRoot(hq.src) != m.LeadingDimsRoot(hv.src)))
        continue;
      const auto* perm = g->node(merge).GetAttr<std::vector<int64_t>>("perm");
      const std::vector<int64_t> want = hq.seq_first ? std::vector<int64_t>{1, 0, 2} : std::vector<int64_t>{0, 2, 1, 3};
      if (perm == nullptr || *perm != want || static_cast<int64_t>(want.size()) != rank) continue;
      if (mask != kNoValue && !m.Mask(mask, hq.seq, hk.seq)) continue;
      // Every intermediate of the core is read once, inside the core (checked on the way for
      // the scores chain; here for the scale nodes and both MatMuls' outputs).
      bool ok = m.OnlyReadBy(g->node(mm2).outputs[0], merge) && m.OnlyReadBy(sm.outputs[0], mm2);
      for (NodeId n : core) ok &= keep[n];
      for (NodeId n : core) {
        if (n == sm_id || n == mm2) continue;
        const ValueId o = g->node(n).outputs[0];
        ok &= !m.is_output_[o] && m.readers_[o].size() == 1;
      }
      if (!ok || !keep[merge]) continue;
      for (NodeId n : core) keep[n] = false;
      keep[merge] = false;  // rewritten below, kept
      rewrites.push_back({merge, hq.src, hk.src, hv.src, mask, hq, scale, hq.offset, hk.offset, hv.offset});
    }
  }
  for (const Rewrite& r : rewrites) {
    keep[r.merge] = true;
    const ValueId merged = g->node(r.merge).outputs[0];
    const TensorDesc merged_desc = g->value(merged).desc;
    const std::string label = g->node(r.merge).name;
    const int64_t hidden = r.head.heads * r.head.head_dim;
    TensorDesc yd;
    yd.dtype = DT_FLOAT;
    yd.shape = r.head.seq_first ? Shape({r.head.seq, r.head.batch, hidden}) : Shape({r.head.batch, r.head.seq, hidden});
    const ValueId y = g->AddValue(UniqueValueName(*g, g->value(merged).name + "/attention"), yd);
    Node& n = g->node(r.merge);
    n.type = "FusedAttention";
    n.domain.clear();
    n.inputs = {r.q, r.k, r.v, r.mask};
    n.outputs = {y};
    n.attrs = {{"num_heads", r.head.heads},
               {"head_dim", r.head.head_dim},
               {"scale", r.scale},
               {"q_offset", r.q_offset},
               {"k_offset", r.k_offset},
               {"v_offset", r.v_offset},
               {"seq_first", static_cast<int64_t>(r.head.seq_first ? 1 : 0)}};
    if (r.mask == kNoValue) n.inputs.pop_back();
    g->value(y).producer = r.merge;
    g->value(y).producer_output = 0;
    // A view back to the head-merge Transpose's shape ([S, B*H, D] / [B, S, H, D]; the
    // sequence length may be unknown: -1).
    std::vector<int64_t> dims;
    if (r.head.seq_first)
      dims = {r.head.seq, r.head.batch * r.head.heads, r.head.head_dim};
    else
      dims = {r.head.batch, r.head.seq, r.head.heads, r.head.head_dim};
    HostTensor shape(DT_INT64, Shape({static_cast<int64_t>(dims.size())}));
    for (size_t i = 0; i < dims.size(); ++i) shape.mutable_data_as<int64_t>()[i] = dims[i] < 0 ? -1 : dims[i];
    const ValueId shape_v = g->AddConstant(UniqueValueName(*g, label + "/merge_shape"), std::move(shape));
    g->AddNode(label + "/merge", "Reshape", {y, shape_v}, {merged});
    g->value(merged).desc = merged_desc;
    keep.push_back(true);
    *changed = true;
    LogRewrite(name(), fmt::format("{} -> FusedAttention ({} heads of {}, scale {}, {}{})", label, r.head.heads,
                                   r.head.head_dim, r.scale, r.head.seq_first ? "seq-first" : "batch-first",
                                   r.mask != kNoValue ? ", masked" : ""));
  }
  if (*changed) g->RemoveNodes(keep);
  return Status::Ok();
}

}  // namespace ge
