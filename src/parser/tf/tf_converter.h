// The TensorFlow frontend's converter (internal to src/parser/tf): GraphDef nodes -> graph IR
// nodes, per TF tensor a TRef; TF1 while-loop frames (GraphIndex) become Loop subgraphs.
// tf_parser.cc: tensors and files; tf_ops.cc: the op mappings; tf_control_flow.cc: loops and
// TensorArrays; tf_composed_ops.cc: ops built from several GE ops.
#ifndef GE_SRC_PARSER_TF_TF_CONVERTER_H_
#define GE_SRC_PARSER_TF_TF_CONVERTER_H_

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "parser/onnx/tensor_proto.h"
#include "tf_graph.pb.h"

namespace ge::tf_frontend {

DataType FromTfDataType(int t);
Status ShapeFromTf(const tf::TensorShapeProto& s, Shape* out);
Status TensorFromTf(const tf::TensorProto& p, HostTensor* out);
HostTensor IntTensor(DataType dt, std::vector<int64_t> dims, const std::vector<int64_t>& vals);
HostTensor I64Vec(const std::vector<int64_t>& v);
HostTensor ScalarOf(DataType dt, double v);

// ---- the converter ------------------------------------------------------------------------------

// TensorArray state a TRef stands for (TensorArrayV3 and its Read/Write/Scatter/Gather/Size ops
// are resolved at parse time: an array is its stacked content, written one element per loop
// iteration or scattered whole).
enum class TaState {
  kNone,
  kHandle,   // the array's handle (no value)
  kEmpty,    // the flow of an array nothing has written yet
  kContent,  // the flow of a filled array: v is the stacked content [size, element...]
  kWritten,  // in a loop body, the flow after this iteration's write: v is the element written
};

// One TF tensor (a node's output k): its value in the graph IR (materialized lazily for
// constants), its parse-time constant value when known, and its rank when known.
struct TRef {
  ValueId v = kNoValue;
  std::optional<HostTensor> c;
  int rank = -1;
  DataType dt = DT_UNDEFINED;
  std::optional<std::vector<int64_t>> dims;  // static shape, when known (placeholders)
  // Inside a TF1 conditional (Switch ... Merge): the predicate and the branch this tensor is on.
  ValueId pred = kNoValue;
  bool branch = false;
  TaState ta = TaState::kNone;
};

inline bool IsIntegral(DataType dt) { return dt == DT_INT32 || dt == DT_INT64; }

// "node:k" / "^node" / "node" -> node.
inline std::string NodeOf(const std::string& in) {
  std::string s = in[0] == '^' ? in.substr(1) : in;
  auto colon = s.rfind(':');
  if (colon != std::string::npos && colon + 1 < s.size() &&
      std::all_of(s.begin() + colon + 1, s.end(), [](char c) { return c >= '0' && c <= '9'; }))
    s = s.substr(0, colon);
  return s;
}

// The GraphDef's nodes in a topological order and its TF1 while-loop frames. A Merge's input
// from a NextIteration is a loop's back edge, left out of the order. A node's frame is the one
// its inputs are in: an Enter's frame is its frame_name, an Exit's the frame around its input's.
struct GraphIndex {
  const tf::GraphDef* gd = nullptr;
  std::map<std::string, int> index;
  std::vector<int> order;
  std::vector<std::string> frame;                   // per node; "" outside every loop
  std::map<std::string, std::string> parent;        // frame -> the frame around it
  std::map<std::string, std::vector<int>> members;  // frame -> its nodes and its inner frames', in order
  std::map<int, int> exit_of_switch;                // loop Switch -> the Exit reading its output 0

  bool BackEdge(int consumer, int producer) const {
    return gd->node(consumer).op() == "Merge" && gd->node(producer).op() == "NextIteration";
  }
  Status Build(const tf::GraphDef& g);
  Status AssignFrames();
};

struct LoopParts;

class Converter {
 public:
  Converter(Graph* g, const GraphIndex* gi, std::vector<std::string> requested)
      : g_(g), gi_(gi), requested_(std::move(requested)) {}
  // A converter for a loop's condition (same graph) or body (a graph of its own) inside parent's
  // scope: it resolves the tensors parent's scope defines, a body through outer references.
  Converter(Converter* parent, Graph* g) : g_(g), gi_(parent->gi_), parent_(parent), tmp_(parent->tmp_) {}

  Status Run() {
    GE_RETURN_IF_ERROR(ConvertScope("", gi_->order, {}));
    const tf::GraphDef& gd = *gi_->gd;
    std::set<std::string> consumed;
    for (const auto& n : gd.node())
      for (const auto& in : n.input())
        if (!in.empty() && in[0] != '^') consumed.insert(NodeOf(in));
    // Outputs: the requested ones, or every output of each node nothing consumes, in graph order.
    auto add_output = [&](TRef& ref, const std::string& name) {
      ValueId v = V(ref);
      if (v == kNoValue) return;
      if (g_->value(v).name != name || g_->value(v).producer < 0) {
        ValueId o = g_->AddValue(name);
        g_->AddNode(name + "/_ge_out", "Identity", {v}, {o});
        v = o;
      }
      g_->AddOutput(v);
    };
    if (!requested_.empty()) {
      for (const std::string& r : requested_) {
        std::string node = NodeOf(r);
        int k = node.size() < r.size() ? std::stoi(r.substr(node.size() + 1)) : 0;
        auto it = outs_.find(node);
        auto idx = gi_->index.find(node);
        if (it == outs_.end() && idx != gi_->index.end() && !gi_->frame[idx->second].empty())
          return InvalidArgument("output '{}': node '{}' is inside while-loop frame '{}' (a value per iteration)", r,
                                 node, gi_->frame[idx->second]);
        if (it == outs_.end()) return InvalidArgument("output '{}': no node '{}' with outputs", r, node);
        if (k >= static_cast<int>(it->second.size()))
          return InvalidArgument("output '{}': node '{}' has {} output(s)", r, node, it->second.size());
        add_output(it->second[k], k == 0 ? node : fmt::format("{}:{}", node, k));
      }
      return Status::Ok();
    }
    static const std::set<std::string> kNotOutputs = {"Const", "NoOp", "Assert", "Placeholder",
                                                      "PlaceholderWithDefault"};
    for (const auto& n : gd.node()) {
      if (consumed.count(n.name()) || kNotOutputs.count(n.op())) continue;
      auto it = outs_.find(n.name());
      if (it == outs_.end()) continue;
      for (size_t k = 0; k < it->second.size(); ++k)
        add_output(it->second[k], k == 0 ? n.name() : fmt::format("{}:{}", n.name(), k));
    }
    if (g_->outputs().empty()) return InvalidArgument("the graph has no outputs (no node is left unconsumed)");
    return Status::Ok();
  }

 private:
  // The data inputs of n (control inputs dropped), resolved.
  Status Inputs(const tf::NodeDef& n, std::vector<TRef*>* ins) {
    for (const auto& in : n.input()) {
      if (in.empty() || in[0] == '^') continue;
      TRef* r;
      GE_RETURN_IF_ERROR(Ref(in, &r));
      ins->push_back(r);
    }
    return Status::Ok();
  }

  // The tensor "node" / "node:k": converted in this scope, or in an enclosing one. A loop body
  // reads an enclosing scope's tensor through a body input (an outer reference) named after it;
  // constants and TensorArray handles are copied in.
  Status Ref(const std::string& in, TRef** out) {
    std::string src = NodeOf(in);
    int k = 0;
    if (src.size() < in.size()) k = std::stoi(in.substr(src.size() + 1));
    if (auto it = outs_.find(src); it != outs_.end()) {
      if (k >= static_cast<int>(it->second.size()))
        return InvalidArgument("input '{}': node '{}' has {} outputs", in, src, it->second.size());
      *out = &it->second[k];
      return Status::Ok();
    }
    if (parent_ == nullptr) return Unsupported("input '{}': its node produced nothing that can be used", in);
    TRef* pr;
    GE_RETURN_IF_ERROR(parent_->Ref(in, &pr));
    if (parent_->g_ == g_) {
      *out = pr;
      return Status::Ok();
    }
    auto [it, fresh] = imported_.try_emplace(fmt::format("{}:{}", src, k));
    if (fresh) {
      TRef r = *pr;
      r.v = kNoValue;
      r.pred = kNoValue;
      if (!r.c && r.ta != TaState::kHandle && r.ta != TaState::kEmpty) {
        ValueId pv = parent_->V(*pr);
        auto [iv, new_value] = imported_values_.try_emplace(pv, kNoValue);
        if (new_value) {
          std::string name = parent_->g_->value(pv).name;
          iv->second = g_->AddValue(name, TensorDesc{pr->dt, FORMAT_ND, Shape::UnknownRank()});
          g_->mutable_inputs().push_back(iv->second);
          outer_.emplace_back(name, pv);
        }
        r.v = iv->second;
      }
      it->second = std::move(r);
    }
    *out = &it->second;
    return Status::Ok();
  }

  // Converts `nodes` (in topological order) that are in frame `scope`, each loop frame directly
  // inside it as one Loop when first needed; skips `skip` and nodes already converted.
  Status ConvertScope(const std::string& scope, const std::vector<int>& nodes, const std::set<int>& skip);
  Status ConvertOne(const tf::NodeDef& n);
  Status ConvertLoop(const std::string& frame);
  Status LoopStructure(const std::string& frame, LoopParts* lp);
  Status IotaIndices(const std::string& in);
  Status CheckWriteIndex(const LoopParts& lp, size_t var);
  Status LoopBody(const std::string& frame, LoopParts& lp, std::shared_ptr<Graph>* body,
                  std::vector<std::pair<std::string, ValueId>>* outer);
  Status TensorArrayOp(const tf::NodeDef& n, std::vector<TRef*>& in, bool* done);
  Status ScatterOp(const tf::NodeDef& n, std::vector<TRef*>& in, bool* done);
  Status ComposedOp(const tf::NodeDef& n, std::vector<TRef*>& in, bool* done);
  Status NonMaxSuppression(const tf::NodeDef& n, std::vector<TRef*>& in);
  Status ColorSpace(const tf::NodeDef& n, std::vector<TRef*>& in);
  ValueId Eye(ValueId m, ValueId n, DataType dt);
  ValueId Dim(ValueId x, int64_t axis);
  void FakeQuant(const tf::NodeDef& n, ValueId x, float lo, float hi);

  // The IR value of r (a constant is added on first use).
  ValueId V(TRef& r) {
    if (r.v == kNoValue && r.c) r.v = g_->AddConstant(Tmp("const"), *r.c);
    return r.v;
  }
  ValueId C(HostTensor t) { return g_->AddConstant(Tmp("const"), std::move(t)); }
  std::string Tmp(const std::string& what) { return fmt::format("{}/_ge_{}_{}", cur_, what, (*tmp_)++); }

  // Adds a node with n_out outputs; the last node of a mapping names its outputs after the TF
  // node (final = true).
  std::vector<ValueId> Emit(const std::string& type, std::vector<ValueId> ins, AttrMap attrs = {}, int n_out = 1,
                            bool final = false) {
    std::vector<ValueId> outs;
    for (int k = 0; k < n_out; ++k)
      outs.push_back(g_->AddValue(final ? (k == 0 ? cur_ : fmt::format("{}:{}", cur_, k)) : Tmp(type)));
    g_->AddNode(final ? cur_ : Tmp(type + "_node"), type, ins, outs, std::move(attrs));
    return outs;
  }
  ValueId Emit1(const std::string& type, std::vector<ValueId> ins, AttrMap attrs = {}) {
    return Emit(type, std::move(ins), std::move(attrs))[0];
  }
  // Sets the TF node's outputs.
  void SetOut(std::vector<TRef> refs) { outs_[cur_] = std::move(refs); }
  void SetOut1(ValueId v, int rank, DataType dt) {
    TRef r;
    r.v = v;
    r.rank = rank;
    r.dt = dt;
    SetOut({r});
  }
  void SetConst(HostTensor t) {
    TRef r;
    r.rank = static_cast<int>(t.shape().GetDims().size());
    r.dt = t.dtype();
    r.c = std::move(t);
    SetOut({r});
  }

  static const tf::AttrValue* Attr(const tf::NodeDef& n, const std::string& k) {
    for (const auto& e : n.attr())
      if (e.key() == k) return &e.value();
    return nullptr;
  }
  static std::string AttrS(const tf::NodeDef& n, const std::string& k, const std::string& def = "") {
    auto* a = Attr(n, k);
    return a ? a->s() : def;
  }
  static int64_t AttrI(const tf::NodeDef& n, const std::string& k, int64_t def = 0) {
    auto* a = Attr(n, k);
    return a ? a->i() : def;
  }
  static float AttrF(const tf::NodeDef& n, const std::string& k, float def = 0) {
    auto* a = Attr(n, k);
    return a ? a->f() : def;
  }
  static bool AttrB(const tf::NodeDef& n, const std::string& k, bool def = false) {
    auto* a = Attr(n, k);
    return a ? a->b() : def;
  }
  static std::vector<int64_t> AttrInts(const tf::NodeDef& n, const std::string& k) {
    auto* a = Attr(n, k);
    if (!a) return {};
    return std::vector<int64_t>(a->list().i().begin(), a->list().i().end());
  }
  static DataType AttrT(const tf::NodeDef& n, const std::string& k = "T") {
    auto* a = Attr(n, k);
    return a ? FromTfDataType(a->type()) : DT_UNDEFINED;
  }

  // An input that must be known at parse time, as integers.
  Status Ints(TRef* r, const char* what, std::vector<int64_t>* v) {
    if (!r->c) return Unsupported("the {} input is not a constant at parse time", what);
    *v = r->c->ToInt64Vector();
    if (v->empty() && r->c->NumElements() != 0) return Unsupported("the {} input is not an integer tensor", what);
    return Status::Ok();
  }

  // r as int64 (shape-like operands of ONNX ops).
  ValueId I64(TRef& r) {
    if (r.c && IsIntegral(r.c->dtype())) return C(IntTensor(DT_INT64, r.c->shape().GetDims(), r.c->ToInt64Vector()));
    if (r.dt == DT_INT64) return V(r);
    return Emit1("Cast", {V(r)}, {{"to", int64_t{ToOnnxDataType(DT_INT64)}}});
  }

  ValueId Transpose(ValueId x, std::vector<int64_t> perm) { return Emit1("Transpose", {x}, {{"perm", perm}}); }

  // perm from channels-last to channels-first and back, for rank r.
  static std::vector<int64_t> ToFirst(int r) {
    std::vector<int64_t> p = {0, r - 1};
    for (int i = 1; i < r - 1; ++i) p.push_back(i);
    return p;
  }
  static std::vector<int64_t> ToLast(int r) {
    std::vector<int64_t> p = {0};
    for (int i = 2; i < r; ++i) p.push_back(i);
    p.push_back(1);
    return p;
  }
  static bool ChannelsLast(const tf::NodeDef& n) {
    std::string f = AttrS(n, "data_format", "NHWC");
    return f.empty() || f.back() == 'C';
  }
  // The spatial entries of an N..C / NC.. attribute list (strides, ksize, dilations).
  static std::vector<int64_t> Spatial(const std::vector<int64_t>& v, bool last, int r, int64_t def = 1) {
    std::vector<int64_t> s;
    for (int i = 0; i < r - 2; ++i) {
      size_t idx = last ? 1 + i : 2 + i;
      s.push_back(idx < v.size() ? v[idx] : def);
    }
    return s;
  }
  static Status Padding(const tf::NodeDef& n, AttrMap* attrs) {
    std::string p = AttrS(n, "padding", "VALID");
    if (p == "SAME") {
      (*attrs)["auto_pad"] = std::string("SAME_UPPER");
    } else if (p == "VALID") {
      (*attrs)["auto_pad"] = std::string("VALID");
    } else if (p == "EXPLICIT") {  // explicit_paddings: (before, after) per dim, in data_format order
      std::vector<int64_t> e = AttrInts(n, "explicit_paddings");
      const int r = static_cast<int>(e.size() / 2);
      if (r < 3 || e.size() % 2) return InvalidArgument("explicit_paddings of {} values", e.size());
      const bool last = ChannelsLast(n);
      std::vector<int64_t> pads(2 * (r - 2));
      for (int i = 0; i < r - 2; ++i) {
        int d = last ? 1 + i : 2 + i;
        pads[i] = e[2 * d];
        pads[r - 2 + i] = e[2 * d + 1];
      }
      (*attrs)["pads"] = pads;
    } else {
      return Unsupported("padding '{}'", p);
    }
    return Status::Ok();
  }

  // A spatial op (conv/pool): x in the graph's layout -> ONNX NC.. op -> back.
  ValueId Spatial(const tf::NodeDef& n, const std::string& type, ValueId x, std::vector<ValueId> more, AttrMap attrs,
                  int r) {
    bool last = ChannelsLast(n);
    if (last) x = Transpose(x, ToFirst(r));
    std::vector<ValueId> ins = {x};
    ins.insert(ins.end(), more.begin(), more.end());
    if (!last) return Emit(type, ins, std::move(attrs), 1, true)[0];
    ValueId y = Emit1(type, ins, std::move(attrs));
    return Emit("Transpose", {y}, {{"perm", ToLast(r)}}, 1, true)[0];
  }

  static int MaxRank(const std::vector<TRef*>& ins) {
    int r = -1;
    for (auto* i : ins) {
      if (i->rank < 0) return -1;
      r = std::max(r, i->rank);
    }
    return r;
  }

  // FusedBatchNorm with is_training: normalizes with the batch statistics (biased variance);
  // outputs 1 and 2 are the batch mean and the Bessel-corrected batch variance. Half inputs are
  // computed in float.
  Status BatchNormTraining(const tf::NodeDef& n, std::vector<TRef*>& in, int r) {
    bool last = ChannelsLast(n);
    std::vector<int64_t> axes;
    for (int i = 0; i < r; ++i)
      if (i != (last ? r - 1 : 1)) axes.push_back(i);
    DataType xdt = in[0]->dt;
    ValueId x = V(*in[0]);
    if (xdt == DT_FLOAT16) x = Emit1("Cast", {x}, {{"to", int64_t{ToOnnxDataType(DT_FLOAT)}}});
    DataType cdt = xdt == DT_FLOAT16 ? DT_FLOAT : xdt;
    ValueId mean = Emit1("ReduceMean", {x}, {{"axes", axes}, {"keepdims", int64_t{1}}});
    ValueId d = Emit1("Sub", {x, mean});
    ValueId var = Emit1("ReduceMean", {Emit1("Mul", {d, d})}, {{"axes", axes}, {"keepdims", int64_t{1}}});
    ValueId eps = C(ScalarOf(cdt, AttrF(n, "epsilon", 1e-4f)));
    ValueId norm = Emit1("Div", {d, Emit1("Sqrt", {Emit1("Add", {var, eps})})});
    std::vector<int64_t> pshape = {-1};
    if (!last)
      for (int i = 2; i < r; ++i) pshape.push_back(1);
    ValueId scale = Emit1("Reshape", {V(*in[1]), C(I64Vec(pshape))});
    ValueId offset = Emit1("Reshape", {V(*in[2]), C(I64Vec(pshape))});
    ValueId y = Emit1("Add", {Emit1("Mul", {norm, scale}), offset});
    std::vector<TRef> refs(3);
    if (xdt == DT_FLOAT16)
      refs[0].v = Emit("Cast", {y}, {{"to", int64_t{ToOnnxDataType(DT_FLOAT16)}}}, 1, true)[0];
    else
      refs[0].v = Emit("Identity", {y}, {}, 1, true)[0];
    refs[0].rank = r;
    refs[0].dt = xdt;
    auto to_f = [&](ValueId v) { return Emit1("Cast", {v}, {{"to", int64_t{ToOnnxDataType(cdt)}}}); };
    ValueId cnt = Emit1("Div", {to_f(Emit1("Size", {x})), to_f(Emit1("Size", {mean}))});
    ValueId corr = Emit1("Div", {cnt, Emit1("Sub", {cnt, C(ScalarOf(cdt, 1))})});
    ValueId flat = C(I64Vec({-1}));
    refs[1].v = g_->AddValue(cur_ + ":1");
    g_->AddNode(cur_ + "/_ge_mean", "Reshape", {mean, flat}, {refs[1].v});
    refs[2].v = g_->AddValue(cur_ + ":2");
    g_->AddNode(cur_ + "/_ge_var", "Reshape", {Emit1("Mul", {var, corr}), flat}, {refs[2].v});
    refs[1].rank = refs[2].rank = 1;
    refs[1].dt = refs[2].dt = cdt;
    SetOut(refs);
    return Status::Ok();
  }

  Status Convert(const tf::NodeDef& n);
  Status FoldOrEmit(const tf::NodeDef& n, std::vector<TRef*>& in, bool* done);

  Graph* g_;
  const GraphIndex* gi_;
  std::vector<std::string> requested_;
  std::map<std::string, std::vector<TRef>> outs_;
  std::string cur_;
  Converter* parent_ = nullptr;
  std::shared_ptr<int> tmp_ = std::make_shared<int>(0);  // shared by nested scopes: unique names
  // In a loop body: the enclosing scope's tensors read here ("node:k" -> local ref), the values
  // imported (enclosing value -> body input) and the body inputs in order (name, enclosing value).
  std::map<std::string, TRef> imported_;
  std::map<ValueId, ValueId> imported_values_;
  std::vector<std::pair<std::string, ValueId>> outer_;
};

}  // namespace ge::tf_frontend

#endif  // GE_SRC_PARSER_TF_TF_CONVERTER_H_
