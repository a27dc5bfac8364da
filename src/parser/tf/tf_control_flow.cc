// TF1 while loops -> Loop subgraphs, and TensorArrayV3 resolved at parse time (see
// tf_converter.h and NOTES.md).
#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "parser/tf/tf_converter.h"

namespace ge::tf_frontend {

Status GraphIndex::Build(const tf::GraphDef& g) {
  gd = &g;
  for (int i = 0; i < g.node_size(); ++i) {
    const auto& n = g.node(i);
    if (n.name().empty()) return InvalidArgument("node #{} ({}) has no name", i, n.op());
    if (!index.emplace(n.name(), i).second) return InvalidArgument("two nodes are named '{}'", n.name());
  }
  std::vector<int> state(g.node_size(), 0);
  std::function<Status(int)> visit = [&](int i) -> Status {
    if (state[i] == 2) return Status::Ok();
    if (state[i] == 1)
      return Unsupported("node '{}' ({}) is on a cycle that is not a TF1 while loop (Merge <- NextIteration)",
                         g.node(i).name(), g.node(i).op());
    state[i] = 1;
    for (const auto& in : g.node(i).input()) {
      auto it = index.find(NodeOf(in));
      if (it == index.end())
        return InvalidArgument("node '{}' ({}): input '{}' names no node of the graph", g.node(i).name(),
                               g.node(i).op(), in);
      if (!BackEdge(i, it->second)) GE_RETURN_IF_ERROR(visit(it->second));
    }
    state[i] = 2;
    order.push_back(i);
    return Status::Ok();
  };
  for (int i = 0; i < g.node_size(); ++i) GE_RETURN_IF_ERROR(visit(i));
  return AssignFrames();
}

Status GraphIndex::AssignFrames() {
  frame.assign(gd->node_size(), "");
  for (int i : order) {
    const auto& n = gd->node(i);
    std::string in_frame;
    for (const auto& in : n.input()) {
      int j = index.at(NodeOf(in));
      if (BackEdge(i, j) || frame[j].empty()) continue;
      in_frame = frame[j];
      break;
    }
    if (n.op() == "Enter") {
      std::string f;
      for (const auto& e : n.attr())
        if (e.key() == "frame_name") f = e.value().s();
      if (f.empty()) return InvalidArgument("node '{}' (Enter): no frame_name", n.name());
      auto [it, fresh] = parent.emplace(f, in_frame);
      if (!fresh && it->second != in_frame)
        return Unsupported("node '{}' (Enter): frame '{}' is entered from frames '{}' and '{}'", n.name(), f,
                           it->second, in_frame);
      frame[i] = f;
    } else if (n.op() == "Exit") {
      if (in_frame.empty()) return InvalidArgument("node '{}' (Exit): its input is in no loop frame", n.name());
      frame[i] = parent.at(in_frame);
      const int sw = index.at(NodeOf(n.input(0)));
      if (gd->node(sw).op() == "Switch") exit_of_switch[sw] = i;
    } else {
      frame[i] = in_frame;
    }
  }
  for (const auto& [f, p] : parent) {  // frames nest: no frame encloses itself
    std::string a = p;
    for (size_t depth = 0; !a.empty(); a = parent.at(a))
      if (a == f || ++depth > parent.size()) return Unsupported("loop frame '{}' encloses itself", f);
  }
  for (int i : order)
    for (std::string f = frame[i]; !f.empty(); f = parent.at(f)) members[f].push_back(i);
  return Status::Ok();
}

// ---- TF1 while loops ----------------------------------------------------------------------------
//
// A frame's Merge(Enter(x), NextIteration(y)) pairs are its loop variables, its LoopCond the
// condition, each Switch(Merge, LoopCond) hands a variable to the body (output 1) or to an Exit
// (output 0). The frame becomes an ONNX Loop whose body runs the frame's nodes on the variables
// and then the condition on their next values; the condition on the initial values is computed
// before the Loop. A TensorArray written once per iteration becomes a scan output.

struct LoopParts {
  struct Var {
    int merge = -1, next = -1, sw = -1, exit = -1;
    TRef* init = nullptr;
    bool ta = false;  // the flow of a TensorArray the body writes: a scan output
    int rank = -1;    // of the next value (the element written, for a TensorArray)
    DataType dt = DT_UNDEFINED;
  };
  std::vector<Var> vars;
  int loop_cond = -1;
  std::vector<int> cond;  // the condition's nodes, in order
  std::set<int> skip;     // the frame's nodes the body does not convert as such
};

Status Converter::ConvertScope(const std::string& scope, const std::vector<int>& nodes, const std::set<int>& skip) {
  const tf::GraphDef& gd = *gi_->gd;
  // The frame directly inside `scope` that holds node i: "" for scope itself, none outside it.
  auto unit = [&](int i) -> std::optional<std::string> {
    for (std::string f = gi_->frame[i];; f = gi_->parent.at(f)) {
      if (f == scope) return std::string();
      if (f.empty()) return std::nullopt;
      if (gi_->parent.at(f) == scope) return f;
    }
  };
  std::set<int> seen;
  std::set<std::string> frames_done, frames_active;
  std::function<Status(int)> visit = [&](int i) -> Status {
    auto u = unit(i);
    if (!u || skip.count(i)) return Status::Ok();
    if (u->empty()) {
      if (!seen.insert(i).second || outs_.count(gd.node(i).name())) return Status::Ok();
      for (const auto& in : gd.node(i).input()) {
        int j = gi_->index.at(NodeOf(in));
        if (!gi_->BackEdge(i, j)) GE_RETURN_IF_ERROR(visit(j));
      }
      return ConvertOne(gd.node(i));
    }
    if (frames_done.count(*u)) return Status::Ok();
    if (!frames_active.insert(*u).second)
      return Unsupported("while-loop frame '{}' reads its own output through nodes outside it", *u);
    const auto& members = gi_->members.at(*u);
    std::set<int> inside(members.begin(), members.end());
    for (int m : members)
      for (const auto& in : gd.node(m).input()) {
        int j = gi_->index.at(NodeOf(in));
        if (!inside.count(j)) GE_RETURN_IF_ERROR(visit(j));
      }
    frames_active.erase(*u);
    frames_done.insert(*u);
    Status st = ConvertLoop(*u);
    return st.ok() ? st : st.Prepend(fmt::format("while-loop frame '{}': ", *u));
  };
  for (int i : nodes) GE_RETURN_IF_ERROR(visit(i));
  return Status::Ok();
}

// Converts n; a node fed by a conditional branch is on that branch (both branches are
// computed; Merge selects).
Status Converter::ConvertOne(const tf::NodeDef& n) {
  Status st = Convert(n);
  if (!st.ok()) return st.Prepend(fmt::format("node '{}' ({}): ", n.name(), n.op()));
  if (n.op() == "Switch" || n.op() == "Merge") return Status::Ok();
  std::vector<TRef*> ins;
  if (!Inputs(n, &ins).ok()) return Status::Ok();
  auto tagged = std::find_if(ins.begin(), ins.end(), [](TRef* r) { return r->pred != kNoValue; });
  if (tagged == ins.end()) return Status::Ok();
  for (auto& o : outs_[n.name()]) {
    if (o.pred != kNoValue) continue;
    o.pred = (*tagged)->pred;
    o.branch = (*tagged)->branch;
  }
  return Status::Ok();
}

Status Converter::LoopStructure(const std::string& frame, LoopParts* lp) {
  const tf::GraphDef& gd = *gi_->gd;
  const auto& members = gi_->members.at(frame);
  auto node_of = [&](const std::string& in) { return gi_->index.at(NodeOf(in)); };
  std::map<int, size_t> var_of_merge;
  for (int i : members) {
    const auto& n = gd.node(i);
    if (gi_->frame[i] != frame) continue;
    if (n.op() == "LoopCond") {
      if (lp->loop_cond >= 0)
        return Unsupported("two LoopCond nodes, '{}' and '{}'", gd.node(lp->loop_cond).name(), n.name());
      lp->loop_cond = i;
    } else if (n.op() == "Merge") {
      LoopParts::Var v;
      v.merge = i;
      int enter = -1;
      for (const auto& in : n.input()) {
        const std::string& op = gd.node(node_of(in)).op();
        if (op == "Enter") enter = node_of(in);
        if (op == "NextIteration") v.next = node_of(in);
      }
      if (n.input_size() != 2 || enter < 0 || v.next < 0 || gd.node(enter).input_size() < 1 ||
          gd.node(v.next).input_size() < 1)
        return Unsupported("Merge '{}' does not join an Enter and a NextIteration", n.name());
      GE_RETURN_IF_ERROR(Ref(gd.node(enter).input(0), &v.init));
      v.ta = v.init->ta == TaState::kEmpty;
      var_of_merge[i] = lp->vars.size();
      lp->vars.push_back(v);
    } else if (!(n.op() == "Switch" || n.op() == "NextIteration" || (n.op() == "Enter" && !AttrB(n, "is_constant")))) {
      continue;
    }
    lp->skip.insert(i);
  }
  if (lp->loop_cond < 0) return Unsupported("no LoopCond node");
  for (int i : members) {
    const auto& n = gd.node(i);
    if (gi_->frame[i] != frame || n.op() != "Switch") continue;
    if (n.input_size() != 2)
      return Unsupported("Switch '{}' has {} inputs, expected (Merge, LoopCond)", n.name(), n.input_size());
    auto it = var_of_merge.find(node_of(n.input(0)));
    if (it == var_of_merge.end() || node_of(n.input(1)) != lp->loop_cond)
      return Unsupported("Switch '{}' is not a loop variable's Switch(Merge, LoopCond)", n.name());
    lp->vars[it->second].sw = i;
    if (auto e = gi_->exit_of_switch.find(i); e != gi_->exit_of_switch.end()) lp->vars[it->second].exit = e->second;
  }
  for (const auto& v : lp->vars)
    if (v.sw < 0) return Unsupported("loop variable '{}' has no Switch", gd.node(v.merge).name());
  // The condition: LoopCond and what it reads in this frame, back to the Merges.
  const std::set<int> inside(members.begin(), members.end());
  std::set<int> cond = {lp->loop_cond};
  std::vector<int> stack = {lp->loop_cond};
  while (!stack.empty()) {
    int i = stack.back();
    stack.pop_back();
    for (const auto& in : gd.node(i).input()) {
      int j = node_of(in);
      if (inside.count(j) && gi_->frame[j] != frame)
        return Unsupported("the condition's node '{}' reads node '{}' of a nested loop", gd.node(i).name(),
                           gd.node(j).name());
      if (gi_->frame[j] == frame && gd.node(j).op() != "Merge" && cond.insert(j).second) stack.push_back(j);
    }
  }
  for (int i : members)
    if (cond.count(i)) {
      lp->cond.push_back(i);
      lp->skip.insert(i);
    }
  return Status::Ok();
}

Status Converter::LoopBody(const std::string& frame, LoopParts& lp, std::shared_ptr<Graph>* body_out,
                           std::vector<std::pair<std::string, ValueId>>* outer) {
  const tf::GraphDef& gd = *gi_->gd;
  auto body = std::make_shared<Graph>(frame);
  Converter bc(this, body.get());
  bc.cur_ = frame;
  body->AddInput(frame + "/_ge_iter", TensorDesc{DT_INT64, FORMAT_ND, Shape()});
  body->AddInput(frame + "/_ge_cond", TensorDesc{DT_BOOL, FORMAT_ND, Shape()});
  for (auto& v : lp.vars) {
    TRef r;
    r.dt = v.init->dt;
    if (v.ta) {
      r.ta = TaState::kEmpty;
    } else {
      r.rank = v.init->rank;
      r.ta = v.init->ta;
      r.v = body->AddInput(gd.node(v.merge).name(), TensorDesc{r.dt, FORMAT_ND, Shape::UnknownRank()});
    }
    bc.outs_[gd.node(v.merge).name()] = {r};
    bc.outs_[gd.node(v.sw).name()] = {r, r};
  }
  GE_RETURN_IF_ERROR(bc.ConvertScope(frame, gi_->members.at(frame), lp.skip));
  std::vector<TRef> next;
  for (size_t j = 0; j < lp.vars.size(); ++j) {
    auto& v = lp.vars[j];
    TRef* r;
    GE_RETURN_IF_ERROR(bc.Ref(gd.node(v.next).input(0), &r));
    if (v.ta != (r->ta == TaState::kWritten))
      return Unsupported("loop variable '{}': a TensorArray must be written exactly once per iteration",
                         gd.node(v.merge).name());
    if (v.ta) GE_RETURN_IF_ERROR(CheckWriteIndex(lp, j));
    next.push_back(*r);
    v.rank = r->rank;
    v.dt = r->dt;
  }
  for (size_t j = 0; j < lp.vars.size(); ++j) bc.outs_[gd.node(lp.vars[j].merge).name()] = {next[j]};
  GE_RETURN_IF_ERROR(bc.ConvertScope(frame, lp.cond, {}));
  TRef* pred;
  GE_RETURN_IF_ERROR(bc.Ref(gd.node(lp.loop_cond).name(), &pred));
  auto output = [&](ValueId v, const std::string& name) {
    ValueId o = body->AddValue(name);
    body->AddNode(name, "Identity", {v}, {o});
    body->AddOutput(o);
  };
  output(bc.V(*pred), frame + "/_ge_cond_out");
  for (int pass = 0; pass < 2; ++pass)  // carried values, then scan outputs
    for (size_t j = 0; j < lp.vars.size(); ++j)
      if (lp.vars[j].ta == (pass == 1)) output(bc.V(next[j]), gd.node(lp.vars[j].merge).name() + "/_ge_next");
  *outer = bc.outer_;
  *body_out = std::move(body);
  return Status::Ok();
}

// The element a loop writes to a TensorArray becomes the scan output of its iteration, so the
// write must be at the iteration number: its index is a loop variable that starts at constant 0
// and is incremented by constant 1 (the counter tf.while_loop and dynamic_rnn keep).
Status Converter::CheckWriteIndex(const LoopParts& lp, size_t var) {
  const tf::GraphDef& gd = *gi_->gd;
  const LoopParts::Var& v = lp.vars[var];
  auto node = [&](const std::string& in) -> const tf::NodeDef& { return gd.node(gi_->index.at(NodeOf(in))); };
  auto through = [&](std::string in) {  // past Identity aliases
    while (node(in).op() == "Identity" && node(in).input_size() >= 1) in = node(in).input(0);
    return in;
  };
  const tf::NodeDef& write = node(through(gd.node(v.next).input(0)));
  if (write.op() != "TensorArrayWriteV3" || write.input_size() < 2)
    return Unsupported("loop variable '{}': the TensorArray flow is not a TensorArrayWriteV3's",
                       gd.node(v.merge).name());
  const std::string idx = through(write.input(1));
  auto is_const = [&](const std::string& in, int64_t want) {
    const tf::NodeDef& c = node(in);
    HostTensor t;
    for (const auto& e : c.attr())
      if (c.op() == "Const" && e.key() == "value" && TensorFromTf(e.value().tensor(), &t).ok())
        return t.ToInt64Vector() == std::vector<int64_t>{want};
    return false;
  };
  for (const auto& c : lp.vars) {
    if (c.ta || idx != gd.node(c.sw).name() + ":1") continue;
    const tf::NodeDef& inc = node(through(gd.node(c.next).input(0)));
    const bool starts_at_0 = c.init->c && c.init->c->ToInt64Vector() == std::vector<int64_t>{0};
    const bool adds_1 = (inc.op() == "Add" || inc.op() == "AddV2") && inc.input_size() == 2 &&
                        ((through(inc.input(0)) == idx && is_const(through(inc.input(1)), 1)) ||
                         (through(inc.input(1)) == idx && is_const(through(inc.input(0)), 1)));
    if (starts_at_0 && adds_1) return Status::Ok();
  }
  return Unsupported("'{}' writes its TensorArray at '{}', not at the iteration number (a loop variable from 0 by 1)",
                     write.name(), write.input(1));
}

Status Converter::ConvertLoop(const std::string& frame) {
  const tf::GraphDef& gd = *gi_->gd;
  LoopParts lp;
  GE_RETURN_IF_ERROR(LoopStructure(frame, &lp));
  cur_ = frame;
  ValueId init_pred;
  {  // the condition on the initial values, in this scope
    Converter cc(this, g_);
    for (auto& v : lp.vars) cc.outs_[gd.node(v.merge).name()] = {*v.init};
    GE_RETURN_IF_ERROR(cc.ConvertScope(frame, lp.cond, {}));
    TRef* pred;
    GE_RETURN_IF_ERROR(cc.Ref(gd.node(lp.loop_cond).name(), &pred));
    init_pred = cc.V(*pred);
  }
  std::shared_ptr<Graph> body;
  std::vector<std::pair<std::string, ValueId>> outer;
  GE_RETURN_IF_ERROR(LoopBody(frame, lp, &body, &outer));
  cur_ = frame;
  std::vector<ValueId> ins = {kNoValue, init_pred}, outs;
  for (auto& v : lp.vars)
    if (!v.ta) ins.push_back(V(*v.init));
  std::vector<std::string> refs;
  for (const auto& [name, pv] : outer) {
    ins.push_back(pv);
    refs.push_back(name);
  }
  std::vector<const LoopParts::Var*> by_output;
  for (int pass = 0; pass < 2; ++pass)
    for (const auto& v : lp.vars)
      if (v.ta == (pass == 1)) {
        // The dtype is known (the next value's), the shape only once the Loop ran.
        TensorDesc desc{v.dt != DT_UNDEFINED ? v.dt : v.init->dt, FORMAT_ND, Shape::UnknownRank()};
        outs.push_back(g_->AddValue(v.exit >= 0 ? gd.node(v.exit).name() : Tmp("loop_out"), desc));
        by_output.push_back(&v);
      }
  AttrMap attrs = {{"body", body}};
  if (!refs.empty()) attrs["__outer_refs"] = refs;
  g_->AddNode(frame + "/_ge_loop", "Loop", ins, outs, std::move(attrs));
  for (size_t k = 0; k < outs.size(); ++k) {
    const auto* v = by_output[k];
    if (v->exit < 0) continue;
    TRef r;
    r.v = outs[k];
    r.dt = v->dt;
    r.rank = v->ta ? (v->rank >= 0 ? v->rank + 1 : -1) : v->rank;
    r.ta = v->ta ? TaState::kContent : v->init->ta;
    outs_[gd.node(v->exit).name()] = {r};
  }
  return Status::Ok();
}

// The indices of a TensorArray scatter must be 0, 1, ..., n-1 (so that the array is the value):
// a constant, or a Range from 0 by 1.
Status Converter::IotaIndices(const std::string& in) {
  TRef* r;
  GE_RETURN_IF_ERROR(Ref(in, &r));
  if (r->c) {
    std::vector<int64_t> v = r->c->ToInt64Vector();
    for (size_t i = 0; i < v.size(); ++i)
      if (v[i] != static_cast<int64_t>(i)) return Unsupported("scatter indices '{}' are not 0, 1, ..., n-1", in);
    return Status::Ok();
  }
  const auto& n = gi_->gd->node(gi_->index.at(NodeOf(in)));
  if (n.op() == "Range" && n.input_size() == 3) {
    TRef *start, *delta;
    GE_RETURN_IF_ERROR(Ref(n.input(0), &start));
    GE_RETURN_IF_ERROR(Ref(n.input(2), &delta));
    if (start->c && delta->c && start->c->ToInt64Vector() == std::vector<int64_t>{0} &&
        delta->c->ToInt64Vector() == std::vector<int64_t>{1})
      return Status::Ok();
  }
  return Unsupported("scatter indices '{}' are not a constant 0, 1, ..., n-1 nor a Range from 0 by 1", in);
}

// TensorArrayV3 and its ops, resolved at parse time (see TaState). An element written in a loop
// body is the iteration's scan output: element i is the one written in iteration i, the way
// tf.nn.dynamic_rnn and tf.while_loop's TensorArrays write them.
Status Converter::TensorArrayOp(const tf::NodeDef& n, std::vector<TRef*>& in, bool* done) {
  const std::string& op = n.op();
  *done = op.rfind("TensorArray", 0) == 0;
  if (!*done) return Status::Ok();
  auto flow = [&](size_t k, TaState want, const char* what) -> Status {
    if (in.size() <= k) return InvalidArgument("expects {} inputs, has {}", k + 1, in.size());
    if (in[k]->ta != want) return Unsupported("input {} is not the flow of {}", k, what);
    return Status::Ok();
  };
  if (op == "TensorArrayV3") {
    TRef h, f;
    h.ta = TaState::kHandle;
    f.ta = TaState::kEmpty;
    f.dt = AttrT(n, "dtype");
    SetOut({h, f});
  } else if (op == "TensorArrayScatterV3") {  // handle, indices, value, flow: fills the array at once
    GE_RETURN_IF_ERROR(flow(3, TaState::kEmpty, "an array nothing has written yet"));
    GE_RETURN_IF_ERROR(IotaIndices(n.input(1)));
    TRef r = *in[2];
    r.ta = TaState::kContent;
    SetOut({r});
  } else if (op == "TensorArrayWriteV3") {  // handle, index, value, flow
    GE_RETURN_IF_ERROR(flow(3, TaState::kEmpty, "an array not yet written in this loop iteration"));
    TRef r = *in[2];
    r.ta = TaState::kWritten;
    SetOut({r});
  } else if (op == "TensorArrayReadV3" || op == "TensorArrayGatherV3") {  // handle, index(es), flow
    GE_RETURN_IF_ERROR(flow(2, TaState::kContent, "a filled array"));
    int rank = in[2]->rank < 0 || in[1]->rank < 0 ? -1 : in[2]->rank - 1 + in[1]->rank;
    SetOut1(Emit("Gather", {V(*in[2]), V(*in[1])}, {{"axis", int64_t{0}}}, 1, true)[0], rank, in[2]->dt);
  } else if (op == "TensorArraySizeV3") {  // handle, flow -> int32 scalar
    GE_RETURN_IF_ERROR(flow(1, TaState::kContent, "a filled array"));
    ValueId n0 =
        Emit1("Gather", {Emit1("Shape", {V(*in[1])}), C(IntTensor(DT_INT64, {}, {0}))}, {{"axis", int64_t{0}}});
    SetOut1(Emit("Cast", {n0}, {{"to", int64_t{ToOnnxDataType(DT_INT32)}}}, 1, true)[0], 0, DT_INT32);
  } else if (op == "TensorArrayConcatV3") {  // handle, flow -> the elements concatenated, their lengths
    GE_RETURN_IF_ERROR(flow(1, TaState::kContent, "a filled array"));
    ValueId x = V(*in[1]), shape = Emit1("Shape", {x});
    ValueId rest = Emit1("Slice", {shape, C(I64Vec({2})), C(I64Vec({std::numeric_limits<int64_t>::max()}))});
    ValueId flat = Emit1("Concat", {C(I64Vec({-1})), rest}, {{"axis", int64_t{0}}});
    TRef y, len;
    y.v = Emit("Reshape", {x, flat}, {}, 1, true)[0];
    y.rank = in[1]->rank > 0 ? in[1]->rank - 1 : -1;
    y.dt = in[1]->dt;
    len.v = g_->AddValue(cur_ + ":1");
    ValueId d0 = Emit1("Slice", {shape, C(I64Vec({1})), C(I64Vec({2}))});
    ValueId n = Emit1("Slice", {shape, C(I64Vec({0})), C(I64Vec({1}))});
    g_->AddNode(cur_ + "/_ge_lengths", "Expand", {d0, n}, {len.v});
    len.rank = 1;
    len.dt = DT_INT64;
    SetOut({y, len});
  } else if (op == "TensorArrayCloseV3") {
    SetOut({});
  } else {
    return Unsupported("TensorArray op '{}' is not supported", op);
  }
  return Status::Ok();
}

}  // namespace ge::tf_frontend
