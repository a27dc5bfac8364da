// Memory planning: (1) liveness — group values that share storage (views, in-place outputs)
// into buffers with a def position and use positions; (2) placement — greedy by size, each
// buffer at the best-fitting gap among the already placed buffers it conflicts with.
#include "compiler/memory_planner.h"

#include "base/checked_math.h"
#include "base/guard_bytes.h"

#include <algorithm>
#include <functional>
#include <numeric>

#include <fmt/format.h>

#include "register/op_def.h"

namespace ge {
namespace {

// The registered prototype's memory properties (OpDef::OutputView / OutputInplace); none for
// an op type that is not registered.
bool DeclaresReuse(const std::vector<ops::OpDef::OutputReuse>& pairs, uint32_t output, uint32_t input) {
  return std::any_of(pairs.begin(), pairs.end(),
                     [&](const ops::OpDef::OutputReuse& r) { return r.output == output && r.input == input; });
}

// Whether `def` lets this node's output `output` be written over its input `input`: declared
// unconditionally, or with a string attribute that the node (or, without it, the OpDef's
// default) gives the declared value.
bool DeclaresInplace(const ops::OpDef& def, const Node& node, uint32_t output, uint32_t input) {
  for (const ops::OpDef::OutputReuse& r : def.GetOutputInplaces()) {
    if (r.output != output || r.input != input) continue;
    if (r.attr.empty()) return true;
    if (const auto* v = node.GetAttr<std::string>(r.attr)) {
      if (*v == r.value) return true;
      continue;
    }
    for (const auto& a : def.GetAttrs())
      if (a.GetName() == r.attr && a.GetDefault().s == r.value) return true;
  }
  return false;
}

// The most bytes one value, or the sum of all values, may plan (offsets and their sums stay far
// from int64's limit).
constexpr int64_t kMaxPlannedBytes = int64_t{1} << 56;

int64_t AlignUp(int64_t bytes) {
  return std::max<int64_t>(kArenaAlign, (bytes + kArenaAlign - 1) / kArenaAlign * kArenaAlign);
}

// -1 without a static shape, -2 when the byte size overflows.
int64_t DescBytes(const TensorDesc& d) {
  if (d.shape.IsUnknownRank()) return -1;
  std::vector<int64_t> dims;
  for (size_t i = 0; i < d.shape.GetDimNum(); ++i) {
    if (d.shape.GetDim(i) < 0) return -1;
    dims.push_back(d.shape.GetDim(i));
  }
  auto bytes = CheckedTensorBytes(dims, GetSizeByDataType(d.dtype));
  return bytes && *bytes <= static_cast<size_t>(kMaxPlannedBytes) ? static_cast<int64_t>(*bytes) : -2;
}

bool IsPlanned(const Graph& g, ValueId v) { return v != kNoValue && !g.value(v).constant; }

// Before(a, b): every access of a is complete before b is first written.
bool Before(const PlannedBuffer& a, const PlannedBuffer& b, const StreamAssignment& s) {
  if (!s.HappensBefore(a.def, b.def)) return false;
  for (int u : a.uses)
    if (!s.HappensBefore(u, b.def)) return false;
  return true;
}

}  // namespace

bool BuffersConflict(const PlannedBuffer& a, const PlannedBuffer& b, const StreamAssignment& s) {
  return !Before(a, b, s) && !Before(b, a, s);
}

bool IsViewNode(const Graph& graph, const Node& node) {
  if (node.inputs.empty() || node.outputs.size() != 1) return false;
  std::shared_ptr<const ops::OpDef> def = ops::GetOpDef(node.type);
  if (def == nullptr || !DeclaresReuse(def->GetOutputViews(), 0, 0)) return false;
  ValueId in = node.inputs[0], out = node.outputs[0];
  if (!IsPlanned(graph, in) || out == kNoValue) return false;
  const TensorDesc& a = graph.value(in).desc;
  const TensorDesc& b = graph.value(out).desc;
  return a.dtype == b.dtype && DescBytes(a) >= 0 && DescBytes(a) == DescBytes(b);
}

Status BuildPlannerInput(const Graph& graph, const std::vector<NodeId>& order, PlannerInput* in) {
  in->value_bytes.assign(graph.num_values(), -1);
  in->nodes.clear();
  int64_t total = 0;
  auto plan_value = [&](ValueId v) -> Status {
    if (!IsPlanned(graph, v)) return Status::Ok();
    int64_t b = DescBytes(graph.value(v).desc);
    if (b == -2 || (b >= 0 && (total += AlignUp(b)) > kMaxPlannedBytes))
      return InvalidArgument("value '{}' ({}) is too large to plan: the sink arena would exceed 2^56 bytes",
                             graph.value(v).name, graph.value(v).desc.ToString());
    if (b < 0)
      return Internal("memory planner: value '{}' has no static shape ({})", graph.value(v).name,
                      graph.value(v).desc.ToString());
    in->value_bytes[v] = b;
    return Status::Ok();
  };
  for (ValueId v : graph.inputs()) GE_RETURN_IF_ERROR(plan_value(v));
  for (NodeId n : order) {
    const Node& node = graph.node(n);
    PlannerNode pn;
    for (ValueId v : node.inputs)
      if (IsPlanned(graph, v)) pn.inputs.push_back(v);
    pn.outputs = node.outputs;
    for (ValueId v : node.outputs) GE_RETURN_IF_ERROR(plan_value(v));
    pn.is_view = IsViewNode(graph, node);
    std::shared_ptr<const ops::OpDef> def = pn.is_view ? nullptr : ops::GetOpDef(node.type);
    if (def != nullptr && !node.outputs.empty() && node.outputs[0] != kNoValue) {
      const TensorDesc& od = graph.value(node.outputs[0]).desc;
      for (uint32_t i = 0; i < node.inputs.size(); ++i) {
        ValueId v = node.inputs[i];
        if (!IsPlanned(graph, v) || !DeclaresInplace(*def, node, 0, i)) continue;
        // A value given to two inputs is in place only if both are declared: a conv whose X is
        // also its residual Z reads X's neighbours after Y's first elements are written.
        bool other_reader = false;
        for (uint32_t j = 0; j < node.inputs.size(); ++j)
          if (j != i && node.inputs[j] == v && !DeclaresInplace(*def, node, 0, j)) other_reader = true;
        if (other_reader) continue;
        const TensorDesc& id = graph.value(v).desc;
        if (id.dtype == od.dtype && id.shape == od.shape) pn.in_place.push_back(v);
      }
    }
    in->nodes.push_back(std::move(pn));
  }
  in->graph_inputs = graph.inputs();
  in->graph_outputs = graph.outputs();
  return Status::Ok();
}

namespace {

// Liveness: values grouped by view aliasing, each group's use positions, then buffers in
// schedule order with in-place takeover where the input's buffer dies at the node.
class LivenessBuilder {
 public:
  LivenessBuilder(const PlannerInput& in, const StreamAssignment& s, MemoryPlan* plan) : in_(in), s_(s), plan_(plan) {}

  Status Build() {
    const size_t nv = in_.value_bytes.size();
    root_.resize(nv);
    std::iota(root_.begin(), root_.end(), 0);
    for (const PlannerNode& pn : in_.nodes)
      if (pn.is_view) root_[pn.outputs[0]] = root_[pn.inputs[0]];
    group_uses_.assign(nv, {});
    group_is_output_.assign(nv, false);
    for (size_t p = 0; p < in_.nodes.size(); ++p) {
      if (in_.nodes[p].is_view) continue;
      for (ValueId v : in_.nodes[p].inputs) group_uses_[root_[v]].push_back(static_cast<int>(p));
    }
    for (ValueId v : in_.graph_outputs)
      if (v != kNoValue && in_.value_bytes[v] >= 0) group_is_output_[root_[v]] = true;
    plan_->value_buffer.assign(nv, -1);
    plan_->workspace_buffer.assign(in_.nodes.size(), {});
    plan_->scratch_buffer.assign(in_.nodes.size(), {});
    for (ValueId v : in_.graph_inputs)
      if (plan_->value_buffer[v] < 0) NewGroupBuffer(v, kBeforeAll);
    for (size_t p = 0; p < in_.nodes.size(); ++p) GE_RETURN_IF_ERROR(Place(static_cast<int>(p)));
    return Status::Ok();
  }

 private:
  int NewBuffer(int def, int64_t bytes) {
    PlannedBuffer b;
    b.def = def;
    b.size = AlignUp(bytes);
    b.used = bytes;
    plan_->buffers.push_back(b);
    is_output_.push_back(false);
    return static_cast<int>(plan_->buffers.size()) - 1;
  }
  // Gives value v (a group root) its own buffer, or joins buffer `into`.
  void AssignGroup(ValueId v, int buf) {
    PlannedBuffer& b = plan_->buffers[buf];
    b.size = std::max(b.size, AlignUp(in_.value_bytes[v]));
    b.used = std::max(b.used, in_.value_bytes[v]);
    const auto& u = group_uses_[root_[v]];
    b.uses.insert(b.uses.end(), u.begin(), u.end());
    if (group_is_output_[root_[v]]) {
      b.uses.push_back(kAfterAll);
      is_output_[buf] = true;
    }
    plan_->value_buffer[v] = buf;
  }
  void NewGroupBuffer(ValueId v, int def) { AssignGroup(v, NewBuffer(def, in_.value_bytes[v])); }

  // True when every access of buffer `buf` other than position p is complete before p.
  bool DiesAt(int buf, int p) const {
    if (is_output_[buf]) return false;
    const PlannedBuffer& b = plan_->buffers[buf];
    if (b.def != p && !s_.HappensBefore(b.def, p)) return false;
    for (int u : b.uses)
      if (u != p && !s_.HappensBefore(u, p)) return false;
    return true;
  }

  Status Place(int p) {
    const PlannerNode& pn = in_.nodes[p];
    if (pn.is_view) {
      ValueId in = pn.inputs[0], out = pn.outputs[0];
      if (plan_->value_buffer[in] < 0) return Internal("memory planner: view input v{} has no buffer", in);
      plan_->value_buffer[out] = plan_->value_buffer[in];
      return Status::Ok();
    }
    plan_->scratch_buffer[p].assign(pn.outputs.size(), -1);
    for (size_t o = 0; o < pn.outputs.size(); ++o) {
      ValueId v = pn.outputs[o];
      if (v == kNoValue) {
        // The kernel still writes it: a scratch buffer live at p only.
        plan_->scratch_buffer[p][o] = NewBuffer(p, o < pn.absent_output_bytes.size() ? pn.absent_output_bytes[o] : 0);
        continue;
      }
      if (in_.value_bytes[v] < 0) return Internal("memory planner: output v{} has no size", v);
      int reuse = -1;
      if (o == 0)
        for (ValueId c : pn.in_place) {
          int b = plan_->value_buffer[c];
          if (b >= 0 && !plan_->buffers[b].is_workspace && DiesAt(b, p)) {
            reuse = b;
            break;
          }
        }
      if (reuse >= 0)
        AssignGroup(v, reuse);
      else
        NewGroupBuffer(v, p);
    }
    for (int64_t w : pn.workspaces) {
      int b = NewBuffer(p, w);
      plan_->buffers[b].is_workspace = true;
      plan_->workspace_buffer[p].push_back(b);
    }
    return Status::Ok();
  }

  const PlannerInput& in_;
  const StreamAssignment& s_;
  MemoryPlan* plan_;
  std::vector<ValueId> root_;
  std::vector<std::vector<int>> group_uses_;
  std::vector<bool> group_is_output_;
  std::vector<bool> is_output_;  // per buffer
};

// One greedy pass: buffers in `order`, each at the smallest gap that fits among the
// conflicting buffers already placed (else above them all). Returns the arena size.
int64_t PlaceInOrder(const StreamAssignment& s, const std::vector<int>& order, std::vector<PlannedBuffer>& bufs) {
  std::vector<int> placed;
  std::vector<std::pair<int64_t, int64_t>> busy;
  int64_t arena = 0;
  for (int i : order) {
    busy.clear();
    for (int j : placed)
      if (BuffersConflict(bufs[i], bufs[j], s)) busy.push_back({bufs[j].offset, bufs[j].offset + bufs[j].size});
    std::sort(busy.begin(), busy.end());
    int64_t best = -1, best_gap = INT64_MAX, end = 0;
    for (const auto& [lo, hi] : busy) {
      int64_t gap = lo - end;
      if (gap >= bufs[i].size && gap < best_gap) {
        best = end;
        best_gap = gap;
      }
      end = std::max(end, hi);
    }
    bufs[i].offset = best >= 0 ? best : end;
    arena = std::max(arena, bufs[i].offset + bufs[i].size);
    placed.push_back(i);
  }
  return arena;
}

// Greedy by size (Pisarchyk & Lee 2020), largest first. Ties decide a lot on small graphs, so a
// few tie-breaks (index, longest lifetime, earliest def) are tried and the smallest arena kept.
void PlaceOffsets(const StreamAssignment& s, int num_positions, MemoryPlan* plan) {
  auto& bufs = plan->buffers;
  std::vector<int64_t> first(bufs.size()), span(bufs.size());
  for (size_t i = 0; i < bufs.size(); ++i) {
    first[i] = bufs[i].def == kBeforeAll ? -1 : bufs[i].def;
    int64_t last = first[i];
    for (int u : bufs[i].uses) last = std::max<int64_t>(last, u == kAfterAll ? num_positions : u);
    span[i] = last - first[i];
  }
  using Less = std::function<bool(int, int)>;
  const Less tie_breaks[] = {
      [](int, int) { return false; },
      [&](int a, int b) { return span[a] > span[b]; },
      [&](int a, int b) { return first[a] < first[b]; },
  };
  std::vector<int64_t> best_offsets;
  plan->arena_bytes = INT64_MAX;
  for (const Less& tie : tie_breaks) {
    std::vector<int> order(bufs.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      return bufs[a].size != bufs[b].size ? bufs[a].size > bufs[b].size : tie(a, b);
    });
    int64_t arena = PlaceInOrder(s, order, bufs);
    if (arena < plan->arena_bytes) {
      plan->arena_bytes = arena;
      best_offsets.clear();
      for (const auto& b : bufs) best_offsets.push_back(b.offset);
    }
  }
  for (size_t i = 0; i < bufs.size(); ++i) bufs[i].offset = best_offsets[i];
  if (bufs.empty()) plan->arena_bytes = 0;
}

void FillReport(const PlannerInput& in, MemoryPlan* plan) {
  MemoryReport& r = plan->report;
  r = MemoryReport();
  for (size_t v = 0; v < in.value_bytes.size(); ++v)
    if (plan->value_buffer[v] >= 0) {
      r.naive_bytes += AlignUp(in.value_bytes[v]);
      ++r.num_tensors;
    }
  const int n = static_cast<int>(in.nodes.size());
  std::vector<int64_t> delta(n + 2, 0);
  for (const PlannedBuffer& b : plan->buffers) {
    if (b.is_workspace) r.naive_bytes += b.size;
    int first = b.def == kBeforeAll ? 0 : b.def, last = first;
    for (int u : b.uses) last = std::max(last, u == kAfterAll ? n : u);
    delta[first] += b.size;
    delta[last + 1] -= b.size;
  }
  int64_t live = 0;
  for (int64_t d : delta) r.lower_bound_bytes = std::max(r.lower_bound_bytes, live += d);
  r.arena_bytes = plan->arena_bytes;
  r.num_buffers = static_cast<int>(plan->buffers.size());
}

std::string Bytes(int64_t b) {
  if (b < 1024) return fmt::format("{} B", b);
  if (b < (1 << 20)) return fmt::format("{:.1f} KiB", b / 1024.0);
  return fmt::format("{:.2f} MiB", b / 1048576.0);
}

}  // namespace

Status PlanMemory(const PlannerInput& in, const StreamAssignment& streams, MemoryPlan* plan) {
  *plan = MemoryPlan();
  if (streams.stream.size() != in.nodes.size())
    return Internal("memory planner: {} positions but a stream assignment for {}", in.nodes.size(),
                    streams.stream.size());
  LivenessBuilder live(in, streams, plan);
  GE_RETURN_IF_ERROR(live.Build());
  if (const int64_t guard = GuardBytes(); guard > 0) {
    // Debug: each buffer its own range, followed by guard bytes (nothing else may use them).
    int64_t end = 0;
    for (PlannedBuffer& b : plan->buffers) {
      b.size = AlignUp(b.used + guard);
      b.offset = end;
      end += b.size;
    }
    plan->arena_bytes = end;
    plan->guard_bytes = guard;
  } else {
    PlaceOffsets(streams, static_cast<int>(in.nodes.size()), plan);
  }
  FillReport(in, plan);
  return Status::Ok();
}

std::string MemoryReport::ToString() const {
  double over = lower_bound_bytes > 0 ? 100.0 * (arena_bytes - lower_bound_bytes) / lower_bound_bytes : 0.0;
  return fmt::format("naive {}, lower bound {}, arena {} (+{:.1f}% over the bound; {} tensors in {} buffers)",
                     Bytes(naive_bytes), Bytes(lower_bound_bytes), Bytes(arena_bytes), over, num_tensors, num_buffers);
}

std::string MemoryPlan::ToString(const Graph* graph) const {
  std::string s;
  for (size_t v = 0; v < value_buffer.size(); ++v) {
    int b = value_buffer[v];
    if (b < 0) continue;
    std::string name = graph ? graph->value(static_cast<ValueId>(v)).name : fmt::format("v{}", v);
    s += fmt::format("{} -> buf{} @{} ({} B)\n", name, b, buffers[b].offset, buffers[b].size);
  }
  for (size_t p = 0; p < workspace_buffer.size(); ++p)
    for (int b : workspace_buffer[p])
      s += fmt::format("ws@n{} -> buf{} @{} ({} B)\n", p, b, buffers[b].offset, buffers[b].size);
  s += fmt::format("arena {} B\n", arena_bytes);
  return s;
}

}  // namespace ge
