// TensorFlow GraphDef -> ge::Graph (see tf_parser.h).
#include "parser/tf/tf_parser.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "parser/onnx/tensor_proto.h"
#include "tf_graph.pb.h"

namespace ge {
namespace {

// ---- dtypes and tensors -------------------------------------------------------------------------

DataType FromTfDataType(int t) {
  if (t > 100) t -= 100;  // reference types
  switch (t) {
    case tf::DT_FLOAT: return DT_FLOAT;
    case tf::DT_DOUBLE: return DT_DOUBLE;
    case tf::DT_INT32: return DT_INT32;
    case tf::DT_UINT8: return DT_UINT8;
    case tf::DT_INT16: return DT_INT16;
    case tf::DT_INT8: return DT_INT8;
    case tf::DT_INT64: return DT_INT64;
    case tf::DT_BOOL: return DT_BOOL;
    case tf::DT_UINT16: return DT_UINT16;
    case tf::DT_HALF: return DT_FLOAT16;
    case tf::DT_BFLOAT16: return DT_BF16;
    case tf::DT_UINT32: return DT_UINT32;
    case tf::DT_UINT64: return DT_UINT64;
    default: return DT_UNDEFINED;
  }
}

size_t ElemSize(DataType dt) {
  switch (dt) {
    case DT_DOUBLE:
    case DT_INT64:
    case DT_UINT64: return 8;
    case DT_FLOAT:
    case DT_INT32:
    case DT_UINT32: return 4;
    case DT_FLOAT16:
    case DT_BF16:
    case DT_INT16:
    case DT_UINT16: return 2;
    default: return 1;
  }
}

Status ShapeFromTf(const tf::TensorShapeProto& s, Shape* out) {
  if (s.unknown_rank()) {
    *out = Shape::UnknownRank();
    return Status::Ok();
  }
  std::vector<int64_t> dims;
  for (const auto& d : s.dim()) {
    if (d.size() < -1) return InvalidArgument("shape has a negative dimension {}", d.size());
    dims.push_back(d.size());
  }
  *out = Shape(dims);
  return Status::Ok();
}

// Element i of a typed value list of k elements: a shorter list repeats its last element (a
// single value fills the tensor), an empty one means zeros.
template <typename T, typename Src>
void FillFrom(const Src& vals, int64_t n, T* dst) {
  const int64_t k = vals.size();
  for (int64_t i = 0; i < n; ++i) dst[i] = k == 0 ? T{} : static_cast<T>(vals[std::min(i, k - 1)]);
}

Status TensorFromTf(const tf::TensorProto& p, HostTensor* out) {
  DataType dt = FromTfDataType(p.dtype());
  if (dt == DT_UNDEFINED) return Unsupported("tensor of unsupported TF dtype {}", p.dtype());
  Shape shape;
  GE_RETURN_IF_ERROR(ShapeFromTf(p.tensor_shape(), &shape));
  if (shape.IsUnknownRank()) return InvalidArgument("constant tensor of unknown rank");
  int64_t n = 1;
  for (int64_t d : shape.GetDims()) {
    if (d < 0) return InvalidArgument("constant tensor with an unknown dimension");
    if (d > 0 && n > (int64_t{1} << 40) / d) return InvalidArgument("constant tensor too large");
    n *= d;
  }
  const size_t bytes = static_cast<size_t>(n) * ElemSize(dt);
  if (!p.tensor_content().empty()) {
    if (p.tensor_content().size() != bytes)
      return InvalidArgument("tensor_content holds {} bytes, the shape needs {}", p.tensor_content().size(), bytes);
    *out = HostTensor::FromBytes(dt, shape, p.tensor_content().data(), bytes);
    return Status::Ok();
  }
  HostTensor t(dt, shape);
  switch (dt) {
    case DT_FLOAT: FillFrom(p.float_val(), n, t.mutable_data_as<float>()); break;
    case DT_DOUBLE: FillFrom(p.double_val(), n, t.mutable_data_as<double>()); break;
    case DT_INT32: FillFrom(p.int_val(), n, t.mutable_data_as<int32_t>()); break;
    case DT_INT16: FillFrom(p.int_val(), n, t.mutable_data_as<int16_t>()); break;
    case DT_UINT16: FillFrom(p.int_val(), n, t.mutable_data_as<uint16_t>()); break;
    case DT_INT8: FillFrom(p.int_val(), n, t.mutable_data_as<int8_t>()); break;
    case DT_UINT8: FillFrom(p.int_val(), n, t.mutable_data_as<uint8_t>()); break;
    case DT_INT64: FillFrom(p.int64_val(), n, t.mutable_data_as<int64_t>()); break;
    case DT_BOOL: FillFrom(p.bool_val(), n, t.mutable_data_as<uint8_t>()); break;
    case DT_FLOAT16:
    case DT_BF16: FillFrom(p.half_val(), n, t.mutable_data_as<uint16_t>()); break;
    case DT_UINT32: FillFrom(p.uint32_val(), n, t.mutable_data_as<uint32_t>()); break;
    case DT_UINT64: FillFrom(p.uint64_val(), n, t.mutable_data_as<uint64_t>()); break;
    default: return Unsupported("constant of dtype {}", static_cast<int>(dt));
  }
  *out = std::move(t);
  return Status::Ok();
}

HostTensor IntTensor(DataType dt, std::vector<int64_t> dims, const std::vector<int64_t>& vals) {
  HostTensor t(dt, Shape(std::move(dims)));
  for (size_t i = 0; i < vals.size(); ++i) {
    if (dt == DT_INT32)
      t.mutable_data_as<int32_t>()[i] = static_cast<int32_t>(vals[i]);
    else
      t.mutable_data_as<int64_t>()[i] = vals[i];
  }
  return t;
}
HostTensor I64Vec(const std::vector<int64_t>& v) { return IntTensor(DT_INT64, {static_cast<int64_t>(v.size())}, v); }

HostTensor ScalarOf(DataType dt, double v) {
  HostTensor t(dt, Shape());
  switch (dt) {
    case DT_FLOAT: *t.mutable_data_as<float>() = static_cast<float>(v); break;
    case DT_DOUBLE: *t.mutable_data_as<double>() = v; break;
    case DT_INT32: *t.mutable_data_as<int32_t>() = static_cast<int32_t>(v); break;
    case DT_INT64: *t.mutable_data_as<int64_t>() = static_cast<int64_t>(v); break;
    case DT_FLOAT16: {  // exact for the small integers used here (0, 1, 6)
      float f = static_cast<float>(v);
      uint32_t b;
      std::memcpy(&b, &f, 4);
      uint16_t h =
          f == 0
              ? 0
              : static_cast<uint16_t>(((b >> 16) & 0x8000) | ((((b >> 23) & 0xff) - 112) << 10) | ((b >> 13) & 0x3ff));
      *t.mutable_data_as<uint16_t>() = h;
      break;
    }
    default: *t.mutable_data_as<float>() = static_cast<float>(v); break;
  }
  return t;
}

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

bool IsIntegral(DataType dt) { return dt == DT_INT32 || dt == DT_INT64; }

// "node:k" / "^node" / "node" -> node.
std::string NodeOf(const std::string& in) {
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
  Status LoopBody(const std::string& frame, LoopParts& lp, std::shared_ptr<Graph>* body,
                  std::vector<std::pair<std::string, ValueId>>* outer);
  Status TensorArrayOp(const tf::NodeDef& n, std::vector<TRef*>& in, bool* done);
  Status ScatterOp(const tf::NodeDef& n, std::vector<TRef*>& in, bool* done);
  Status ComposedOp(const tf::NodeDef& n, std::vector<TRef*>& in, bool* done);
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
      if (n.input_size() != 2 || enter < 0 || v.next < 0)
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
    auto it = var_of_merge.find(node_of(n.input(0)));
    if (it == var_of_merge.end() || n.input_size() != 2 || node_of(n.input(1)) != lp->loop_cond)
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
  for (auto& v : lp.vars) {
    TRef* r;
    GE_RETURN_IF_ERROR(bc.Ref(gd.node(v.next).input(0), &r));
    if (v.ta != (r->ta == TaState::kWritten))
      return Unsupported("loop variable '{}': a TensorArray must be written exactly once per iteration",
                         gd.node(v.merge).name());
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

// ---- ops built from several GE ops ----------------------------------------------------------------

// An [m, n] identity-pattern matrix of dtype dt (1 where row == column), m and n int64 scalars.
ValueId Converter::Eye(ValueId m, ValueId n, DataType dt) {
  auto iota = [&](ValueId k, int64_t axis) {
    ValueId r = Emit1("Range", {C(IntTensor(DT_INT64, {}, {0})), k, C(IntTensor(DT_INT64, {}, {1}))});
    return Emit1("Unsqueeze", {r, C(I64Vec({axis}))});
  };
  ValueId eq = Emit1("Equal", {iota(m, 1), iota(n, 0)});
  return Emit1("Cast", {eq}, {{"to", int64_t{ToOnnxDataType(dt)}}});
}

// Dimension `axis` of x's shape as an int64 scalar.
ValueId Converter::Dim(ValueId x, int64_t axis) {
  return Emit1("Gather", {Emit1("Shape", {x}), C(IntTensor(DT_INT64, {}, {axis}))}, {{"axis", int64_t{0}}});
}

// TF's FakeQuant*: x clamped to the range [min, max] nudged so that zero is exactly
// representable, then rounded to one of the 2^num_bits (-1 when narrow) levels.
void Converter::FakeQuant(const tf::NodeDef& n, ValueId x, float lo, float hi) {
  const float qmin = AttrB(n, "narrow_range") ? 1.f : 0.f;
  const float qmax = static_cast<float>((int64_t{1} << AttrI(n, "num_bits", 8)) - 1);
  const float scale = (hi - lo) / (qmax - qmin);
  const float zp_from_min = qmin - lo / scale;
  const float zp = zp_from_min < qmin ? qmin : zp_from_min > qmax ? qmax : std::round(zp_from_min);
  const float nlo = (qmin - zp) * scale, nhi = (qmax - zp) * scale;
  ValueId c = Emit1("Clip", {x, C(ScalarOf(DT_FLOAT, nlo)), C(ScalarOf(DT_FLOAT, nhi))});
  ValueId q =
      Emit1("Floor",
            {Emit1("Add", {Emit1("Div", {Emit1("Sub", {c, C(ScalarOf(DT_FLOAT, nlo))}), C(ScalarOf(DT_FLOAT, scale))}),
                           C(ScalarOf(DT_FLOAT, 0.5))})});
  ValueId y =
      Emit("Add", {Emit1("Mul", {q, C(ScalarOf(DT_FLOAT, scale))}), C(ScalarOf(DT_FLOAT, nlo))}, {}, 1, true)[0];
  SetOut1(y, -1, DT_FLOAT);
}

// Scatter-into-tensor and segment reductions, as ScatterND with a reduction.
Status Converter::ScatterOp(const tf::NodeDef& n, std::vector<TRef*>& in, bool* done) {
  static const std::map<std::string, std::string> kTensorScatter = {{"TensorScatterUpdate", "none"},
                                                                    {"TensorScatterAdd", "add"},
                                                                    {"TensorScatterSub", "add"},
                                                                    {"TensorScatterMax", "max"},
                                                                    {"TensorScatterMin", "min"}};
  static const std::map<std::string, std::string> kSegment = {
      {"UnsortedSegmentSum", "add"}, {"UnsortedSegmentProd", "mul"}, {"UnsortedSegmentMax", "max"},
      {"UnsortedSegmentMin", "min"}, {"SegmentSum", "add"},          {"SegmentProd", "mul"}};
  const std::string& op = n.op();
  auto ts = kTensorScatter.find(op);
  auto seg = kSegment.find(op);
  *done = ts != kTensorScatter.end() || seg != kSegment.end();
  if (!*done) return Status::Ok();
  const size_t want = op.rfind("Segment", 0) == 0 ? 2 : 3;
  if (in.size() < want) return InvalidArgument("expects {} inputs, has {}", want, in.size());
  const DataType dt = in[0]->dt;
  if (ts != kTensorScatter.end()) {  // tensor, indices, updates
    ValueId upd = V(*in[2]);
    if (op == "TensorScatterSub") upd = Emit1("Neg", {upd});
    SetOut1(Emit("ScatterND", {V(*in[0]), I64(*in[1]), upd}, {{"reduction", ts->second}}, 1, true)[0], in[0]->rank, dt);
    return Status::Ok();
  }
  // data, segment_ids[, num_segments]: out[ids[i...], ...] (reduce)= data[i..., ...]; rows no id
  // names hold the reduction's identity (sum 0, prod 1, max lowest, min highest).
  if (in[0]->rank < 0 || in[1]->rank < 0) return Unsupported("data and segment_ids of unknown rank");
  ValueId ids = I64(*in[1]);
  ValueId num =
      want == 2
          ? Emit1("Add", {Emit1("ReduceMax", {Emit1("Reshape", {ids, C(I64Vec({-1}))})}, {{"keepdims", int64_t{1}}}),
                          C(I64Vec({1}))})
          : Emit1("Reshape", {I64(*in[2]), C(I64Vec({1}))});
  ValueId rest = Emit1("Slice", {Emit1("Shape", {V(*in[0])}), C(I64Vec({in[1]->rank})),
                                 C(I64Vec({std::numeric_limits<int64_t>::max()}))});
  ValueId shape = Emit1("Concat", {num, rest}, {{"axis", int64_t{0}}});
  const std::string& red = seg->second;
  HostTensor init;
  if (dt == DT_INT32 || dt == DT_INT64) {
    const bool i32 = dt == DT_INT32;
    int64_t v = red == "mul" ? 1 : 0;
    if (red == "max") v = i32 ? std::numeric_limits<int32_t>::min() : std::numeric_limits<int64_t>::min();
    if (red == "min") v = i32 ? std::numeric_limits<int32_t>::max() : std::numeric_limits<int64_t>::max();
    init = IntTensor(dt, {}, {v});
  } else {
    const double big = dt == DT_DOUBLE ? std::numeric_limits<double>::max() : std::numeric_limits<float>::max();
    init = ScalarOf(dt, red == "mul" ? 1 : red == "max" ? -big : red == "min" ? big : 0);
  }
  ValueId base = Emit1("Expand", {C(std::move(init)), shape});
  ValueId idx = Emit1("Unsqueeze", {ids, C(I64Vec({-1}))});
  SetOut1(Emit("ScatterND", {base, idx, V(*in[0])}, {{"reduction", red}}, 1, true)[0], in[0]->rank - in[1]->rank + 1,
          dt);
  return Status::Ok();
}

Status Converter::ComposedOp(const tf::NodeDef& n, std::vector<TRef*>& in, bool* done) {
  const std::string& op = n.op();
  GE_RETURN_IF_ERROR(ScatterOp(n, in, done));
  if (*done) return Status::Ok();
  *done = true;
  static const std::map<std::string, size_t> kInputs = {{"Mod", 2},
                                                        {"TruncateMod", 2},
                                                        {"Erfc", 1},
                                                        {"IsFinite", 1},
                                                        {"Xlogy", 2},
                                                        {"Xdivy", 2},
                                                        {"Xlog1py", 2},
                                                        {"ApproximateEqual", 2},
                                                        {"MatrixDeterminant", 1},
                                                        {"MatrixDiag", 1},
                                                        {"MatrixDiagPart", 1},
                                                        {"MatrixSetDiag", 2},
                                                        {"FakeQuantWithMinMaxArgs", 1},
                                                        {"FakeQuantWithMinMaxVars", 3},
                                                        {"LinSpace", 3},
                                                        {"Cross", 2},
                                                        {"ShapeN", 1},
                                                        {"AdjustContrastv2", 2},
                                                        {"BroadcastArgs", 2},
                                                        {"Roll", 3}};
  auto k = kInputs.find(op);
  if (k == kInputs.end()) {
    *done = false;
    return Status::Ok();
  }
  if (in.size() < k->second) return InvalidArgument("expects {} inputs, has {}", k->second, in.size());
  const int r0 = in[0]->rank, rb = MaxRank(in);
  const DataType d0 = in[0]->dt;
  auto out1 = [&](const std::string& type, std::vector<ValueId> ins, AttrMap attrs, int rank, DataType dt) {
    SetOut1(Emit(type, std::move(ins), std::move(attrs), 1, true)[0], rank, dt);
    return Status::Ok();
  };
  if (op == "Mod" || op == "TruncateMod")  // C semantics: the result has the dividend's sign
    return out1("Mod", {V(*in[0]), V(*in[1])}, {{"fmod", int64_t{1}}}, rb, d0);
  if (op == "Erfc") return out1("Sub", {C(ScalarOf(d0, 1)), Emit1("Erf", {V(*in[0])})}, {}, r0, d0);
  if (op == "IsFinite") {
    ValueId x = V(*in[0]);
    return out1("Not", {Emit1("Or", {Emit1("IsInf", {x}), Emit1("IsNaN", {x})})}, {}, r0, DT_BOOL);
  }
  if (op == "Xlogy" || op == "Xdivy" || op == "Xlog1py") {  // 0 where x == 0, whatever y is
    ValueId x = V(*in[0]), y = V(*in[1]), zero = C(ScalarOf(d0, 0));
    if (op == "Xlog1py") y = Emit1("Add", {y, C(ScalarOf(d0, 1))});
    ValueId t = op == "Xdivy" ? Emit1("Div", {x, y}) : Emit1("Mul", {x, Emit1("Log", {y})});
    return out1("Where", {Emit1("Equal", {x, zero}), zero, t}, {}, rb, d0);
  }
  if (op == "ApproximateEqual") {
    ValueId d = Emit1("Abs", {Emit1("Sub", {V(*in[0]), V(*in[1])})});
    return out1("Less", {d, C(ScalarOf(d0, AttrF(n, "tolerance", 1e-5f)))}, {}, rb, DT_BOOL);
  }
  if (op == "MatrixDeterminant") return out1("Det", {V(*in[0])}, {}, r0 < 0 ? -1 : r0 - 2, d0);
  if (op == "MatrixDiag") {  // [..., n] -> [..., n, n]
    ValueId x = V(*in[0]), nn = Dim(x, -1);
    return out1("Mul", {Emit1("Unsqueeze", {x, C(I64Vec({-1}))}), Eye(nn, nn, d0)}, {}, r0 < 0 ? -1 : r0 + 1, d0);
  }
  if (op == "MatrixDiagPart") {  // [..., m, n] -> [..., min(m, n)]
    ValueId x = V(*in[0]), nn = Dim(x, -1);
    ValueId s =
        Emit1("ReduceSum", {Emit1("Mul", {x, Eye(Dim(x, -2), nn, d0)}), C(I64Vec({-1}))}, {{"keepdims", int64_t{0}}});
    return out1("Slice", {s, C(I64Vec({0})), Emit1("Reshape", {nn, C(I64Vec({1}))}), C(I64Vec({-1}))}, {},
                r0 < 0 ? -1 : r0 - 1, d0);
  }
  if (op == "MatrixSetDiag") {  // [..., m, n] with m <= n, diagonal [..., m]
    ValueId x = V(*in[0]), e = Eye(Dim(x, -2), Dim(x, -1), d0);
    ValueId off = Emit1("Sub", {x, Emit1("Mul", {x, e})});
    return out1("Add", {off, Emit1("Mul", {Emit1("Unsqueeze", {V(*in[1]), C(I64Vec({-1}))}), e})}, {}, r0, d0);
  }
  if (op == "FakeQuantWithMinMaxArgs" || op == "FakeQuantWithMinMaxVars") {
    float lo = AttrF(n, "min", -6), hi = AttrF(n, "max", 6);
    if (op == "FakeQuantWithMinMaxVars") {
      if (!in[1]->c || !in[2]->c || in[1]->c->NumElements() != 1 || in[2]->c->NumElements() != 1)
        return Unsupported("min and max must be scalar constants");
      lo = static_cast<float>(in[1]->c->ToDoubleVector()[0]);
      hi = static_cast<float>(in[2]->c->ToDoubleVector()[0]);
    }
    if (!(lo <= 0 && hi >= 0 && lo < hi)) return InvalidArgument("the range [{}, {}] must hold 0", lo, hi);
    FakeQuant(n, V(*in[0]), lo, hi);
    outs_[cur_][0].rank = r0;
    return Status::Ok();
  }
  if (op == "LinSpace") {  // start + i * (stop - start) / (num - 1), the last one stop
    ValueId num = Emit1("Cast", {V(*in[2])}, {{"to", int64_t{ToOnnxDataType(d0)}}});
    ValueId i = Emit1("Range", {C(ScalarOf(d0, 0)), num, C(ScalarOf(d0, 1))});
    ValueId span = Emit1("Sub", {V(*in[1]), V(*in[0])});
    ValueId step = Emit1("Div", {span, Emit1("Max", {Emit1("Sub", {num, C(ScalarOf(d0, 1))}), C(ScalarOf(d0, 1))})});
    ValueId y = Emit1("Add", {V(*in[0]), Emit1("Mul", {i, step})});
    ValueId last = Emit1("Equal", {i, Emit1("Sub", {num, C(ScalarOf(d0, 1))})});
    ValueId last_not_first = Emit1("And", {last, Emit1("Greater", {i, C(ScalarOf(d0, 0))})});
    return out1("Where", {last_not_first, V(*in[1]), y}, {}, 1, d0);
  }
  if (op == "Cross") {  // along the last axis, of length 3
    auto pick = [&](TRef* t, std::vector<int64_t> idx) {
      return Emit1("Gather", {V(*t), C(I64Vec(idx))}, {{"axis", int64_t{-1}}});
    };
    ValueId p = Emit1("Mul", {pick(in[0], {1, 2, 0}), pick(in[1], {2, 0, 1})});
    ValueId q = Emit1("Mul", {pick(in[0], {2, 0, 1}), pick(in[1], {1, 2, 0})});
    return out1("Sub", {p, q}, {}, rb, d0);
  }
  if (op == "ShapeN") {
    const DataType dt = AttrT(n, "out_type") == DT_INT64 ? DT_INT64 : DT_INT32;
    std::vector<TRef> refs(in.size());
    for (size_t j = 0; j < in.size(); ++j) {
      refs[j].v = g_->AddValue(j == 0 ? cur_ : fmt::format("{}:{}", cur_, j));
      g_->AddNode(fmt::format("{}/_ge_shape{}", cur_, j), "Cast", {Emit1("Shape", {V(*in[j])})}, {refs[j].v},
                  {{"to", int64_t{ToOnnxDataType(dt)}}});
      refs[j].rank = 1;
      refs[j].dt = dt;
    }
    SetOut(refs);
    return Status::Ok();
  }
  if (op == "AdjustContrastv2") {  // (x - mean) * factor + mean, the mean over height and width
    ValueId x = V(*in[0]);
    ValueId mean = Emit1("ReduceMean", {x}, {{"axes", std::vector<int64_t>{-3, -2}}, {"keepdims", int64_t{1}}});
    return out1("Add", {Emit1("Mul", {Emit1("Sub", {x, mean}), V(*in[1])}), mean}, {}, r0, d0);
  }
  if (op == "BroadcastArgs") {  // the broadcast shape of two shapes
    ValueId z = C(ScalarOf(DT_UINT8, 0));
    ValueId s = Emit1("Shape", {Emit1("Add", {Emit1("Expand", {z, I64(*in[0])}), Emit1("Expand", {z, I64(*in[1])})})});
    return out1("Cast", {s}, {{"to", int64_t{ToOnnxDataType(d0)}}}, 1, d0);
  }
  // Roll: input, shift, axis (constants): each axis rotated by its shift (mod its length).
  std::vector<int64_t> shift, axes;
  GE_RETURN_IF_ERROR(Ints(in[1], "shift", &shift));
  GE_RETURN_IF_ERROR(Ints(in[2], "axis", &axes));
  if (shift.size() != axes.size()) return InvalidArgument("{} shifts for {} axes", shift.size(), axes.size());
  ValueId x = V(*in[0]);
  const ValueId kEnd = C(I64Vec({std::numeric_limits<int64_t>::max()}));
  for (size_t j = 0; j < axes.size(); ++j) {
    ValueId len = Emit1("Reshape", {Dim(x, axes[j]), C(I64Vec({1}))});
    ValueId cut = Emit1("Sub", {len, Emit1("Mod", {C(I64Vec({shift[j]})), len})});
    ValueId ax = C(I64Vec({axes[j]}));
    ValueId tail = Emit1("Slice", {x, cut, kEnd, ax}), head = Emit1("Slice", {x, C(I64Vec({0})), cut, ax});
    x = Emit1("Concat", {tail, head}, {{"axis", axes[j]}});
  }
  return out1("Identity", {x}, {}, r0, d0);
}

// Parse-time evaluation of integer shape arithmetic (all inputs constant integers).
Status Converter::FoldOrEmit(const tf::NodeDef& n, std::vector<TRef*>& in, bool* done) {
  *done = false;
  const std::string& op = n.op();
  if (op == "Rank" && in.size() == 1 && in[0]->rank >= 0) {
    SetConst(IntTensor(DT_INT32, {}, {in[0]->rank}));
    *done = true;
    return Status::Ok();
  }
  if (op == "Shape" && in.size() == 1 && in[0]->c) {
    auto dims = in[0]->c->shape().GetDims();
    DataType dt = AttrT(n, "out_type");
    SetConst(IntTensor(dt == DT_INT64 ? DT_INT64 : DT_INT32, {static_cast<int64_t>(dims.size())}, dims));
    *done = true;
    return Status::Ok();
  }
  if (op == "Size" && in.size() == 1 && in[0]->c) {
    DataType dt = AttrT(n, "out_type");
    SetConst(IntTensor(dt == DT_INT64 ? DT_INT64 : DT_INT32, {}, {in[0]->c->NumElements()}));
    *done = true;
    return Status::Ok();
  }
  if (op == "Shape" && in.size() == 1 && in[0]->dims) {
    DataType dt = AttrT(n, "out_type");
    SetConst(
        IntTensor(dt == DT_INT64 ? DT_INT64 : DT_INT32, {static_cast<int64_t>(in[0]->dims->size())}, *in[0]->dims));
    *done = true;
    return Status::Ok();
  }
  for (auto* i : in)
    if (!i->c || !(IsIntegral(i->c->dtype()) || i->c->dtype() == DT_BOOL)) return Status::Ok();
  std::vector<std::vector<int64_t>> v;
  for (auto* i : in) {
    if (i->c->dtype() == DT_BOOL) {
      const uint8_t* b = i->c->data_as<uint8_t>();
      v.emplace_back(b, b + i->c->NumElements());
    } else {
      v.push_back(i->c->ToInt64Vector());
    }
  }
  static const std::set<std::string> kCompare = {"Less", "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual"};
  if (kCompare.count(op) && in.size() == 2 && (v[1].size() == 1 || v[0].size() == v[1].size()) &&
      (v[0].size() >= v[1].size())) {
    HostTensor t(DT_BOOL, in[0]->c->shape());
    for (size_t i = 0; i < v[0].size(); ++i) {
      int64_t x = v[0][i], y = v[1].size() == 1 ? v[1][0] : v[1][i];
      bool r = op == "Less"           ? x < y
               : op == "LessEqual"    ? x <= y
               : op == "Greater"      ? x > y
               : op == "GreaterEqual" ? x >= y
               : op == "Equal"        ? x == y
                                      : x != y;
      t.mutable_data_as<uint8_t>()[i] = r;
    }
    SetConst(std::move(t));
    *done = true;
    return Status::Ok();
  }
  if ((op == "ListDiff" || op == "SetDiff1D") && in.size() == 2) {
    std::set<int64_t> drop(v[1].begin(), v[1].end());
    std::vector<int64_t> out, idx;
    for (size_t i = 0; i < v[0].size(); ++i)
      if (!drop.count(v[0][i])) {
        out.push_back(v[0][i]);
        idx.push_back(static_cast<int64_t>(i));
      }
    DataType it = AttrT(n, "out_idx");
    TRef a, b;
    a.c = IntTensor(in[0]->c->dtype(), {static_cast<int64_t>(out.size())}, out);
    b.c = IntTensor(it == DT_INT64 ? DT_INT64 : DT_INT32, {static_cast<int64_t>(idx.size())}, idx);
    a.rank = b.rank = 1;
    a.dt = a.c->dtype();
    b.dt = b.c->dtype();
    SetOut({a, b});
    *done = true;
    return Status::Ok();
  }
  if ((op == "Gather" || op == "GatherV2") && in.size() >= 2 && in[0]->c->shape().GetDims().size() == 1 &&
      (op == "Gather" || v[2] == std::vector<int64_t>{0} || v[2] == std::vector<int64_t>{-1})) {
    std::vector<int64_t> out;
    for (int64_t i : v[1]) {
      if (i < 0 || i >= static_cast<int64_t>(v[0].size())) return InvalidArgument("gather index {} out of range", i);
      out.push_back(v[0][i]);
    }
    SetConst(IntTensor(in[0]->c->dtype(), in[1]->c->shape().GetDims(), out));
    *done = true;
    return Status::Ok();
  }
  if ((op == "Prod" || op == "Sum") && in.size() == 2 && in[0]->c->shape().GetDims().size() == 1 &&
      (v[1].empty() || v[1] == std::vector<int64_t>{0} || v[1] == std::vector<int64_t>{-1}) && !v[1].empty()) {
    int64_t r = op == "Prod" ? 1 : 0;
    for (int64_t x : v[0]) r = op == "Prod" ? r * x : r + x;
    bool keep = AttrB(n, "keep_dims");
    SetConst(IntTensor(in[0]->c->dtype(), keep ? std::vector<int64_t>{1} : std::vector<int64_t>{}, {r}));
    *done = true;
    return Status::Ok();
  }
  auto shape0 = in.empty() ? std::vector<int64_t>{} : in[0]->c->shape().GetDims();
  DataType dt0 = in.empty() ? DT_INT32 : in[0]->c->dtype();
  static const std::set<std::string> kBinary = {"Add",      "AddV2",   "Sub",     "Mul",
                                                "FloorDiv", "Maximum", "Minimum", "FloorMod"};
  if (kBinary.count(op) && in.size() == 2) {
    // Broadcast only scalar-vs-tensor or equal shapes.
    auto sa = in[0]->c->shape().GetDims(), sb = in[1]->c->shape().GetDims();
    const auto& a = v[0];
    const auto& b = v[1];
    std::vector<int64_t> shape;
    if (a.size() == 1 && sa.size() <= sb.size())
      shape = sb;
    else if (b.size() == 1 || sa == sb)
      shape = sa;
    else
      return Status::Ok();
    size_t m = std::max(a.size(), b.size());
    if (a.empty() || b.empty()) m = 0;
    std::vector<int64_t> r(m);
    for (size_t i = 0; i < m; ++i) {
      int64_t x = a.size() == 1 ? a[0] : a[i], y = b.size() == 1 ? b[0] : b[i];
      if ((op == "FloorDiv" || op == "FloorMod") && y == 0) return InvalidArgument("integer division by zero");
      if (op == "Add" || op == "AddV2")
        r[i] = x + y;
      else if (op == "Sub")
        r[i] = x - y;
      else if (op == "Mul")
        r[i] = x * y;
      else if (op == "Maximum")
        r[i] = std::max(x, y);
      else if (op == "Minimum")
        r[i] = std::min(x, y);
      else if (op == "FloorDiv")
        r[i] = x / y - ((x % y != 0) && ((x < 0) != (y < 0)));
      else
        r[i] = ((x % y) + y) % y;
    }
    SetConst(IntTensor(dt0, shape, r));
    *done = true;
    return Status::Ok();
  }
  if (op == "Range" && in.size() == 3) {
    int64_t s = v[0][0], l = v[1][0], d = v[2][0];
    if (d == 0) return InvalidArgument("Range with delta 0");
    std::vector<int64_t> r;
    for (int64_t x = s; d > 0 ? x < l : x > l; x += d) r.push_back(x);
    SetConst(IntTensor(dt0, {static_cast<int64_t>(r.size())}, r));
    *done = true;
    return Status::Ok();
  }
  if ((op == "Identity" || op == "StopGradient" || op == "Snapshot") && in.size() == 1) {
    SetOut({*in[0]});
    *done = true;
    return Status::Ok();
  }
  if (op == "Pack" && !in.empty() && AttrI(n, "axis") == 0) {
    std::vector<int64_t> r;
    for (auto& x : v) r.insert(r.end(), x.begin(), x.end());
    std::vector<int64_t> shape = {static_cast<int64_t>(in.size())};
    shape.insert(shape.end(), shape0.begin(), shape0.end());
    SetConst(IntTensor(dt0, shape, r));
    *done = true;
    return Status::Ok();
  }
  if (op == "ConcatV2" && in.size() >= 2 && shape0.size() == 1) {
    std::vector<int64_t> r;
    for (size_t i = 0; i + 1 < v.size(); ++i) r.insert(r.end(), v[i].begin(), v[i].end());
    SetConst(IntTensor(dt0, {static_cast<int64_t>(r.size())}, r));
    *done = true;
    return Status::Ok();
  }
  if (op == "Cast" && in.size() == 1) {
    DataType dst = AttrT(n, "DstT");
    if (IsIntegral(dst)) {
      SetConst(IntTensor(dst, shape0, v[0]));
      *done = true;
    }
    return Status::Ok();
  }
  if (op == "Fill" && in.size() == 2 && v[1].size() == 1) {
    int64_t m = 1;
    for (int64_t d : v[0]) m *= d;
    if (m > 1 << 20) return Status::Ok();
    SetConst(IntTensor(in[1]->c->dtype(), v[0], std::vector<int64_t>(m, v[1][0])));
    *done = true;
    return Status::Ok();
  }
  if (op == "StridedSlice" && in.size() == 4 && shape0.size() == 1 && AttrI(n, "ellipsis_mask") == 0 &&
      AttrI(n, "new_axis_mask") == 0 && v[1].size() == 1) {
    int64_t len = static_cast<int64_t>(v[0].size());
    int64_t b = v[1][0], e = v[2][0], s = v[3][0];
    if (s == 0) return InvalidArgument("StridedSlice with stride 0");
    bool shrink = AttrI(n, "shrink_axis_mask") & 1;
    if (b < 0) b += len;
    if (e < 0) e += len;
    if (AttrI(n, "begin_mask") & 1) b = s > 0 ? 0 : len - 1;
    if (AttrI(n, "end_mask") & 1) e = s > 0 ? len : -1;
    if (shrink) {
      if (b < 0 || b >= len) return InvalidArgument("StridedSlice index {} out of range", v[1][0]);
      SetConst(IntTensor(dt0, {}, {v[0][b]}));
      *done = true;
      return Status::Ok();
    }
    std::vector<int64_t> r;
    b = std::clamp<int64_t>(b, s > 0 ? 0 : -1, s > 0 ? len : len - 1);
    e = std::clamp<int64_t>(e, s > 0 ? 0 : -1, s > 0 ? len : len - 1);
    for (int64_t i = b; s > 0 ? i < e : i > e; i += s) r.push_back(v[0][i]);
    SetConst(IntTensor(dt0, {static_cast<int64_t>(r.size())}, r));
    *done = true;
    return Status::Ok();
  }
  if ((op == "Reshape" || op == "ExpandDims" || op == "Squeeze") && !in.empty() && in[0]->c->NumElements() <= 64) {
    // Only the common scalar <-> [1] cases.
    std::vector<int64_t> shape;
    if (op == "Reshape") {
      shape = v[1];
      for (auto& d : shape)
        if (d < 0) d = static_cast<int64_t>(v[0].size());
    } else if (op == "ExpandDims" && shape0.empty()) {
      shape = {1};
    } else if (op == "Squeeze" && shape0.size() == 1 && shape0[0] == 1) {
      shape = {};
    } else {
      return Status::Ok();
    }
    SetConst(IntTensor(dt0, shape, v[0]));
    *done = true;
  }
  return Status::Ok();
}

Status Converter::Convert(const tf::NodeDef& n) {
  cur_ = n.name();
  const std::string& op = n.op();
  if (op == "NoOp" || op == "Assert") return Status::Ok();
  if (op == "Exit") {  // set by its loop's conversion
    if (outs_.count(cur_)) return Status::Ok();
    return Unsupported("an Exit that leaves no recognized while loop");
  }
  if (op == "NextIteration")
    return Unsupported(
        "a NextIteration outside a recognized while loop (Merge(Enter, NextIteration), LoopCond, Switch)");
  std::vector<TRef*> in;
  GE_RETURN_IF_ERROR(Inputs(n, &in));
  if (op == "Enter" || op == "LoopCond") {  // a loop invariant entering its frame; the condition
    if (in.size() != 1) return InvalidArgument("expects 1 input, has {}", in.size());
    SetOut({*in[0]});
    return Status::Ok();
  }
  bool ta_done = false;
  GE_RETURN_IF_ERROR(TensorArrayOp(n, in, &ta_done));
  if (ta_done) return Status::Ok();
  DataType T = AttrT(n);
  auto need = [&](size_t k) -> Status {
    if (in.size() < k) return InvalidArgument("expects {} inputs, has {}", k, in.size());
    return Status::Ok();
  };

  if (op == "Placeholder" || (op == "PlaceholderWithDefault" && in.empty())) {
    DataType dt = AttrT(n, "dtype");
    if (dt == DT_UNDEFINED) return Unsupported("placeholder of an unsupported dtype");
    Shape shape = Shape::UnknownRank();
    if (auto* a = Attr(n, "shape")) GE_RETURN_IF_ERROR(ShapeFromTf(a->shape(), &shape));
    ValueId v = g_->AddInput(n.name(), TensorDesc{dt, FORMAT_ND, shape});
    SetOut1(v, shape.IsUnknownRank() ? -1 : static_cast<int>(shape.GetDims().size()), dt);
    auto dims = shape.GetDims();
    if (!shape.IsUnknownRank() && std::all_of(dims.begin(), dims.end(), [](int64_t d) { return d >= 0; }))
      outs_[cur_][0].dims = dims;
    return Status::Ok();
  }
  if (op == "Const") {
    auto* a = Attr(n, "value");
    if (!a || !a->has_tensor()) return InvalidArgument("Const without a tensor 'value'");
    HostTensor t;
    GE_RETURN_IF_ERROR(TensorFromTf(a->tensor(), &t));
    SetConst(std::move(t));
    return Status::Ok();
  }
  bool folded = false;
  GE_RETURN_IF_ERROR(FoldOrEmit(n, in, &folded));
  if (folded) return Status::Ok();

  static const std::map<std::string, std::string> kUnary = {{"Relu", "Relu"},
                                                            {"Tanh", "Tanh"},
                                                            {"Sigmoid", "Sigmoid"},
                                                            {"Abs", "Abs"},
                                                            {"Neg", "Neg"},
                                                            {"Exp", "Exp"},
                                                            {"Log", "Log"},
                                                            {"Sqrt", "Sqrt"},
                                                            {"Floor", "Floor"},
                                                            {"Ceil", "Ceil"},
                                                            {"Round", "Round"},
                                                            {"Sign", "Sign"},
                                                            {"Softplus", "Softplus"},
                                                            {"Softsign", "Softsign"},
                                                            {"Elu", "Elu"},
                                                            {"Selu", "Selu"},
                                                            {"Erf", "Erf"},
                                                            {"Sin", "Sin"},
                                                            {"Cos", "Cos"},
                                                            {"Tan", "Tan"},
                                                            {"Asin", "Asin"},
                                                            {"Acos", "Acos"},
                                                            {"Atan", "Atan"},
                                                            {"Sinh", "Sinh"},
                                                            {"Cosh", "Cosh"},
                                                            {"Asinh", "Asinh"},
                                                            {"Acosh", "Acosh"},
                                                            {"Atanh", "Atanh"},
                                                            {"Reciprocal", "Reciprocal"},
                                                            {"Inv", "Reciprocal"},
                                                            {"LogicalNot", "Not"},
                                                            {"IsNaN", "IsNaN"},
                                                            {"Identity", "Identity"},
                                                            {"StopGradient", "Identity"},
                                                            {"Snapshot", "Identity"},
                                                            {"PreventGradient", "Identity"},
                                                            {"CheckNumerics", "Identity"},
                                                            {"EnsureShape", "Identity"},
                                                            {"Rint", "Round"},
                                                            {"IsInf", "IsInf"},
                                                            {"Invert", "BitwiseNot"}};
  static const std::map<std::string, std::string> kBinary = {{"Add", "Add"},
                                                             {"AddV2", "Add"},
                                                             {"Sub", "Sub"},
                                                             {"Mul", "Mul"},
                                                             {"RealDiv", "Div"},
                                                             {"TruncateDiv", "Div"},
                                                             {"Maximum", "Max"},
                                                             {"Minimum", "Min"},
                                                             {"Pow", "Pow"},
                                                             {"Less", "Less"},
                                                             {"Greater", "Greater"},
                                                             {"Equal", "Equal"},
                                                             {"LessEqual", "LessOrEqual"},
                                                             {"GreaterEqual", "GreaterOrEqual"},
                                                             {"LogicalAnd", "And"},
                                                             {"LogicalOr", "Or"},
                                                             {"BitwiseAnd", "BitwiseAnd"},
                                                             {"BitwiseOr", "BitwiseOr"},
                                                             {"BitwiseXor", "BitwiseXor"}};

  if (auto it = kUnary.find(op); it != kUnary.end()) {
    GE_RETURN_IF_ERROR(need(1));
    if (it->second == "Identity") {  // an alias
      SetOut({*in[0]});
      return Status::Ok();
    }
    SetOut1(Emit(it->second, {V(*in[0])}, {}, 1, true)[0], in[0]->rank, in[0]->dt);
    return Status::Ok();
  }
  if (auto it = kBinary.find(op); it != kBinary.end()) {
    GE_RETURN_IF_ERROR(need(2));
    DataType dt = (it->second == "Less" || it->second == "Greater" || it->second == "Equal" ||
                   it->second == "LessOrEqual" || it->second == "GreaterOrEqual")
                      ? DT_BOOL
                      : in[0]->dt;
    SetOut1(Emit(it->second, {V(*in[0]), V(*in[1])}, {}, 1, true)[0], MaxRank(in), dt);
    return Status::Ok();
  }
  if (op == "Div" || op == "FloorDiv" || op == "FloorMod") {
    GE_RETURN_IF_ERROR(need(2));
    ValueId x = V(*in[0]), y = V(*in[1]);
    ValueId d = Emit1("Div", {x, y});
    const bool integral = IsIntegral(in[0]->dt);
    if (op != "Div") {
      if (integral) {  // ONNX Div truncates: one less where the remainder is nonzero and signs differ
        ValueId rem = Emit1("Sub", {x, Emit1("Mul", {d, y})});
        ValueId zero = C(ScalarOf(in[0]->dt, 0));
        ValueId adjust =
            Emit1("And", {Emit1("Not", {Emit1("Equal", {rem, zero})}), Emit1("Less", {Emit1("Mul", {rem, y}), zero})});
        d = Emit1("Sub", {d, Emit1("Cast", {adjust}, {{"to", int64_t{ToOnnxDataType(in[0]->dt)}}})});
      } else {
        d = Emit1("Floor", {d});
      }
      if (op == "FloorMod") d = Emit1("Sub", {x, Emit1("Mul", {d, y})});
    }
    SetOut1(Emit("Identity", {d}, {}, 1, true)[0], MaxRank(in), in[0]->dt);
    return Status::Ok();
  }
  if (op == "NotEqual") {
    GE_RETURN_IF_ERROR(need(2));
    SetOut1(Emit("Not", {Emit1("Equal", {V(*in[0]), V(*in[1])})}, {}, 1, true)[0], MaxRank(in), DT_BOOL);
    return Status::Ok();
  }
  if (op == "DivNoNan") {
    GE_RETURN_IF_ERROR(need(2));
    ValueId zero = C(ScalarOf(in[0]->dt, 0));
    ValueId y = V(*in[1]);
    ValueId d = Emit1("Div", {V(*in[0]), y});
    SetOut1(Emit("Where", {Emit1("Equal", {y, zero}), zero, d}, {}, 1, true)[0], MaxRank(in), in[0]->dt);
    return Status::Ok();
  }
  if (op == "AddN") {
    GE_RETURN_IF_ERROR(need(1));
    std::vector<ValueId> xs;
    for (auto* x : in) xs.push_back(V(*x));
    SetOut1(Emit("Sum", xs, {}, 1, true)[0], MaxRank(in), in[0]->dt);
    return Status::Ok();
  }
  if (op == "L2Loss") {  // sum(x^2) / 2
    GE_RETURN_IF_ERROR(need(1));
    ValueId x = V(*in[0]);
    ValueId sq = Emit1("ReduceSum", {Emit1("Mul", {x, x})}, {{"keepdims", int64_t{0}}});
    SetOut1(Emit("Div", {sq, C(ScalarOf(in[0]->dt, 2))}, {}, 1, true)[0], 0, in[0]->dt);
    return Status::Ok();
  }
  if (op == "ClipByValue") {
    GE_RETURN_IF_ERROR(need(3));
    SetOut1(Emit("Clip", {V(*in[0]), V(*in[1]), V(*in[2])}, {}, 1, true)[0], in[0]->rank, in[0]->dt);
    return Status::Ok();
  }
  if (op == "IdentityN") {
    std::vector<TRef> refs;
    for (auto* x : in) refs.push_back(*x);
    SetOut(refs);
    return Status::Ok();
  }
  if (op == "PlaceholderWithDefault") {  // with its default input: the default
    GE_RETURN_IF_ERROR(need(1));
    SetOut({*in[0]});
    return Status::Ok();
  }
  if (op == "ArgMax" || op == "ArgMin") {
    GE_RETURN_IF_ERROR(need(2));
    std::vector<int64_t> axis;
    GE_RETURN_IF_ERROR(Ints(in[1], "dimension", &axis));
    DataType ot = AttrT(n, "output_type");
    if (ot == DT_UNDEFINED) ot = DT_INT64;
    ValueId a = Emit1(op, {V(*in[0])}, {{"axis", axis.at(0)}, {"keepdims", int64_t{0}}});
    int r = in[0]->rank < 0 ? -1 : in[0]->rank - 1;
    SetOut1(Emit("Cast", {a}, {{"to", int64_t{ToOnnxDataType(ot)}}}, 1, true)[0], r, ot);
    return Status::Ok();
  }
  if (op == "All" || op == "Any") {  // on int32: ReduceMin/ReduceMax, back to bool
    GE_RETURN_IF_ERROR(need(2));
    std::vector<int64_t> axes;
    GE_RETURN_IF_ERROR(Ints(in[1], "reduction_indices", &axes));
    bool keep = AttrB(n, "keep_dims");
    ValueId x = Emit1("Cast", {V(*in[0])}, {{"to", int64_t{ToOnnxDataType(DT_INT32)}}});
    if (!axes.empty())
      x = Emit1(op == "All" ? "ReduceMin" : "ReduceMax", {x}, {{"axes", axes}, {"keepdims", int64_t{keep}}});
    int r = in[0]->rank < 0 ? -1 : (keep ? in[0]->rank : in[0]->rank - static_cast<int>(axes.size()));
    SetOut1(Emit("Cast", {x}, {{"to", int64_t{ToOnnxDataType(DT_BOOL)}}}, 1, true)[0], r, DT_BOOL);
    return Status::Ok();
  }
  if (op == "EuclideanNorm") {
    GE_RETURN_IF_ERROR(need(2));
    std::vector<int64_t> axes;
    GE_RETURN_IF_ERROR(Ints(in[1], "reduction_indices", &axes));
    bool keep = AttrB(n, "keep_dims");
    int r = in[0]->rank < 0 ? -1 : (keep ? in[0]->rank : in[0]->rank - static_cast<int>(axes.size()));
    SetOut1(Emit("ReduceL2", {V(*in[0])}, {{"axes", axes}, {"keepdims", int64_t{keep}}}, 1, true)[0], r, in[0]->dt);
    return Status::Ok();
  }
  if (op == "Cumsum") {
    GE_RETURN_IF_ERROR(need(2));
    AttrMap attrs = {{"exclusive", int64_t{AttrB(n, "exclusive")}}, {"reverse", int64_t{AttrB(n, "reverse")}}};
    SetOut1(Emit("CumSum", {V(*in[0]), I64(*in[1])}, attrs, 1, true)[0], in[0]->rank, in[0]->dt);
    return Status::Ok();
  }
  if (op == "OneHot") {  // indices, depth, on_value, off_value
    GE_RETURN_IF_ERROR(need(4));
    ValueId off = Emit1("Reshape", {V(*in[3]), C(I64Vec({1}))});
    ValueId on = Emit1("Reshape", {V(*in[2]), C(I64Vec({1}))});
    ValueId values = Emit1("Concat", {off, on}, {{"axis", int64_t{0}}});
    int r = in[0]->rank < 0 ? -1 : in[0]->rank + 1;
    SetOut1(Emit("OneHot", {V(*in[0]), V(*in[1]), values}, {{"axis", AttrI(n, "axis", -1)}}, 1, true)[0], r, in[2]->dt);
    return Status::Ok();
  }
  if (op == "BroadcastTo") {
    GE_RETURN_IF_ERROR(need(2));
    int r = in[1]->c ? static_cast<int>(in[1]->c->NumElements()) : -1;
    SetOut1(Emit("Expand", {V(*in[0]), I64(*in[1])}, {}, 1, true)[0], r, in[0]->dt);
    return Status::Ok();
  }
  if (op == "ReverseV2") {
    GE_RETURN_IF_ERROR(need(2));
    std::vector<int64_t> axes;
    GE_RETURN_IF_ERROR(Ints(in[1], "axis", &axes));
    if (axes.empty()) {
      SetOut({*in[0]});
      return Status::Ok();
    }
    std::vector<int64_t> starts(axes.size(), -1), ends(axes.size(), std::numeric_limits<int64_t>::min()),
        steps(axes.size(), -1);
    SetOut1(Emit("Slice", {V(*in[0]), C(I64Vec(starts)), C(I64Vec(ends)), C(I64Vec(axes)), C(I64Vec(steps))}, {}, 1,
                 true)[0],
            in[0]->rank, in[0]->dt);
    return Status::Ok();
  }
  if (op == "Where" && in.size() == 1) {  // coordinates of the true elements: [n, rank] int64
    ValueId nz = Emit1("NonZero", {V(*in[0])});
    SetOut1(Emit("Transpose", {nz}, {{"perm", std::vector<int64_t>{1, 0}}}, 1, true)[0], 2, DT_INT64);
    return Status::Ok();
  }
  if (op == "Einsum") {
    std::vector<ValueId> xs;
    for (auto* x : in) xs.push_back(V(*x));
    SetOut1(Emit("Einsum", xs, {{"equation", AttrS(n, "equation")}}, 1, true)[0], -1, in.empty() ? T : in[0]->dt);
    return Status::Ok();
  }
  if (op == "GatherNd") {
    GE_RETURN_IF_ERROR(need(2));
    SetOut1(Emit("GatherND", {V(*in[0]), I64(*in[1])}, {}, 1, true)[0], -1, in[0]->dt);
    return Status::Ok();
  }
  if (op == "ScatterNd") {  // indices, updates, shape -> into zeros
    GE_RETURN_IF_ERROR(need(3));
    ValueId zeros = Emit1("Expand", {C(ScalarOf(in[1]->dt, 0)), I64(*in[2])});
    int r = in[2]->c ? static_cast<int>(in[2]->c->NumElements()) : -1;
    SetOut1(Emit("ScatterND", {zeros, I64(*in[0]), V(*in[1])}, {{"reduction", std::string("add")}}, 1, true)[0], r,
            in[1]->dt);
    return Status::Ok();
  }
  if (op == "SquaredDifference") {
    GE_RETURN_IF_ERROR(need(2));
    ValueId d = Emit1("Sub", {V(*in[0]), V(*in[1])});
    SetOut1(Emit("Mul", {d, d}, {}, 1, true)[0], MaxRank(in), in[0]->dt);
    return Status::Ok();
  }
  if (op == "Square") {
    GE_RETURN_IF_ERROR(need(1));
    ValueId x = V(*in[0]);
    SetOut1(Emit("Mul", {x, x}, {}, 1, true)[0], in[0]->rank, in[0]->dt);
    return Status::Ok();
  }
  if (op == "Rsqrt") {
    GE_RETURN_IF_ERROR(need(1));
    ValueId s = Emit1("Sqrt", {V(*in[0])});
    SetOut1(Emit("Reciprocal", {s}, {}, 1, true)[0], in[0]->rank, in[0]->dt);
    return Status::Ok();
  }
  if (op == "Log1p") {
    GE_RETURN_IF_ERROR(need(1));
    ValueId s = Emit1("Add", {V(*in[0]), C(ScalarOf(in[0]->dt, 1))});
    SetOut1(Emit("Log", {s}, {}, 1, true)[0], in[0]->rank, in[0]->dt);
    return Status::Ok();
  }
  if (op == "Relu6") {
    GE_RETURN_IF_ERROR(need(1));
    DataType dt = in[0]->dt != DT_UNDEFINED ? in[0]->dt : T;
    SetOut1(Emit("Clip", {V(*in[0]), C(ScalarOf(dt, 0)), C(ScalarOf(dt, 6))}, {}, 1, true)[0], in[0]->rank, dt);
    return Status::Ok();
  }
  if (op == "LeakyRelu") {
    GE_RETURN_IF_ERROR(need(1));
    SetOut1(Emit("LeakyRelu", {V(*in[0])}, {{"alpha", AttrF(n, "alpha", 0.2f)}}, 1, true)[0], in[0]->rank, in[0]->dt);
    return Status::Ok();
  }
  if (op == "Softmax" || op == "LogSoftmax") {
    GE_RETURN_IF_ERROR(need(1));
    SetOut1(Emit(op, {V(*in[0])}, {{"axis", int64_t{-1}}}, 1, true)[0], in[0]->rank, in[0]->dt);
    return Status::Ok();
  }
  if (op == "BiasAdd" || op == "BiasAddV1") {
    GE_RETURN_IF_ERROR(need(2));
    ValueId b = V(*in[1]);
    if (!ChannelsLast(n)) {
      if (in[0]->rank < 0) return Unsupported("NCHW BiasAdd on an input of unknown rank");
      std::vector<int64_t> shape = {-1};
      for (int i = 2; i < in[0]->rank; ++i) shape.push_back(1);
      b = Emit1("Reshape", {b, C(I64Vec(shape))});
    }
    SetOut1(Emit("Add", {V(*in[0]), b}, {}, 1, true)[0], in[0]->rank, in[0]->dt);
    return Status::Ok();
  }
  if (op == "MatMul" || op == "BatchMatMul" || op == "BatchMatMulV2" || op == "BatchMatMulV3") {
    GE_RETURN_IF_ERROR(need(2));
    bool ta = op == "MatMul" ? AttrB(n, "transpose_a") : AttrB(n, "adj_x");
    bool tb = op == "MatMul" ? AttrB(n, "transpose_b") : AttrB(n, "adj_y");
    ValueId a = V(*in[0]), b = V(*in[1]);
    // The last two axes of an operand of rank r swapped (the rank must be known).
    auto swap_last = [&](ValueId* x, int r) -> Status {
      if (r < 2) return Unsupported("transposed/adjoint operand of unknown rank");
      std::vector<int64_t> p;
      for (int i = 0; i < r; ++i) p.push_back(i);
      std::swap(p[r - 1], p[r - 2]);
      *x = Transpose(*x, p);
      return Status::Ok();
    };
    int ra = op == "MatMul" ? 2 : in[0]->rank, rb = op == "MatMul" ? 2 : in[1]->rank;
    if (ta) GE_RETURN_IF_ERROR(swap_last(&a, ra));
    if (tb) GE_RETURN_IF_ERROR(swap_last(&b, rb));
    int r = (ra < 0 || rb < 0) ? -1 : std::max(ra, rb);
    SetOut1(Emit("MatMul", {a, b}, {}, 1, true)[0], r, in[0]->dt);
    return Status::Ok();
  }
  if (op == "Reshape") {
    GE_RETURN_IF_ERROR(need(2));
    if (!in[1]->c) {  // a shape computed at run time
      int r = in[1]->dims && in[1]->dims->size() == 1 ? static_cast<int>((*in[1]->dims)[0]) : -1;
      SetOut1(Emit("Reshape", {V(*in[0]), I64(*in[1])}, {}, 1, true)[0], r, in[0]->dt);
      return Status::Ok();
    }
    std::vector<int64_t> shape;
    GE_RETURN_IF_ERROR(Ints(in[1], "shape", &shape));
    SetOut1(Emit("Reshape", {V(*in[0]), C(I64Vec(shape))}, {}, 1, true)[0], static_cast<int>(shape.size()), in[0]->dt);
    return Status::Ok();
  }
  if (op == "SoftmaxCrossEntropyWithLogits") {
    GE_RETURN_IF_ERROR(need(2));
    ValueId logits = V(*in[0]), labels = V(*in[1]);
    ValueId ls = Emit1("LogSoftmax", {logits}, {{"axis", int64_t{-1}}});
    ValueId prod = Emit1("Mul", {labels, ls});
    ValueId loss = g_->AddValue(cur_), grad = g_->AddValue(cur_ + ":1");
    g_->AddNode(cur_, "ReduceSum", {Emit1("Neg", {prod}), C(I64Vec({-1}))}, {loss}, {{"keepdims", int64_t{0}}});
    g_->AddNode(cur_ + "/_ge_grad", "Sub", {Emit1("Softmax", {logits}, {{"axis", int64_t{-1}}}), labels}, {grad});
    TRef a, b;
    a.v = loss;
    a.rank = in[0]->rank < 0 ? -1 : in[0]->rank - 1;
    b.v = grad;
    b.rank = in[0]->rank;
    a.dt = b.dt = in[0]->dt;
    SetOut({a, b});
    return Status::Ok();
  }
  if (op == "InvertPermutation") {  // y[x[i]] = i
    GE_RETURN_IF_ERROR(need(1));
    DataType dt = in[0]->dt == DT_UNDEFINED ? DT_INT32 : in[0]->dt;
    ValueId x = V(*in[0]);
    ValueId n = Emit1("Cast", {Emit1("Size", {x})}, {{"to", int64_t{ToOnnxDataType(dt)}}});
    ValueId r = Emit1("Range", {C(ScalarOf(dt, 0)), n, C(ScalarOf(dt, 1))});
    SetOut1(Emit("ScatterElements", {r, x, r}, {{"axis", int64_t{0}}}, 1, true)[0], 1, dt);
    return Status::Ok();
  }
  if (op == "BatchToSpaceND" || op == "SpaceToBatchND") {
    // Reshape / Transpose / Reshape with run-time shapes (Shape, Slice, Concat); block_shape
    // and crops/paddings must be constants.
    GE_RETURN_IF_ERROR(need(3));
    std::vector<int64_t> block, cp;
    GE_RETURN_IF_ERROR(Ints(in[1], "block_shape", &block));
    GE_RETURN_IF_ERROR(Ints(in[2], op == "BatchToSpaceND" ? "crops" : "paddings", &cp));
    const int64_t m = static_cast<int64_t>(block.size());
    const int r = in[0]->rank;
    if (r < 0) return Unsupported("input of unknown rank");
    if (m < 1 || m + 1 > r || static_cast<int64_t>(cp.size()) != 2 * m)
      return InvalidArgument("block_shape/crops of the wrong size");
    int64_t prodb = 1;
    for (int64_t b : block) {
      if (b < 1) return InvalidArgument("block size {}", b);
      prodb *= b;
    }
    auto slice = [&](ValueId v, int64_t a, int64_t b) { return Emit1("Slice", {v, C(I64Vec({a})), C(I64Vec({b}))}); };
    auto concat = [&](std::vector<ValueId> vs) { return Emit1("Concat", vs, {{"axis", int64_t{0}}}); };
    ValueId x = V(*in[0]);
    if (op == "BatchToSpaceND") {
      ValueId s = Emit1("Shape", {x});
      ValueId bp = Emit1("Div", {slice(s, 0, 1), C(I64Vec({prodb}))});
      x = Emit1("Reshape", {x, concat({C(I64Vec(block)), bp, slice(s, 1, r)})});
      std::vector<int64_t> perm = {m};
      for (int64_t i = 0; i < m; ++i) {
        perm.push_back(m + 1 + i);
        perm.push_back(i);
      }
      for (int64_t i = 2 * m + 1; i < r + m; ++i) perm.push_back(i);
      x = Transpose(x, perm);
      std::vector<ValueId> parts = {bp, Emit1("Mul", {slice(s, 1, m + 1), C(I64Vec(block))})};
      if (m + 1 < r) parts.push_back(slice(s, m + 1, r));
      x = Emit1("Reshape", {x, concat(parts)});
      std::vector<int64_t> starts, ends, axes;
      for (int64_t i = 0; i < m; ++i) {
        starts.push_back(cp[2 * i]);
        ends.push_back(cp[2 * i + 1] > 0 ? -cp[2 * i + 1] : std::numeric_limits<int64_t>::max());
        axes.push_back(i + 1);
      }
      x = Emit("Slice", {x, C(I64Vec(starts)), C(I64Vec(ends)), C(I64Vec(axes))}, {}, 1, true)[0];
    } else {
      if (std::any_of(cp.begin(), cp.end(), [](int64_t p) { return p != 0; })) {
        std::vector<int64_t> pads(2 * r, 0);
        for (int64_t i = 0; i < m; ++i) {
          pads[1 + i] = cp[2 * i];
          pads[r + 1 + i] = cp[2 * i + 1];
        }
        x = Emit1("Pad", {x, C(I64Vec(pads))}, {{"mode", std::string("constant")}});
      }
      ValueId s = Emit1("Shape", {x});
      ValueId q = Emit1("Div", {slice(s, 1, m + 1), C(I64Vec(block))});
      std::vector<ValueId> parts = {slice(s, 0, 1)};
      for (int64_t i = 0; i < m; ++i) {
        parts.push_back(slice(q, i, i + 1));
        parts.push_back(C(I64Vec({block[i]})));
      }
      if (m + 1 < r) parts.push_back(slice(s, m + 1, r));
      x = Emit1("Reshape", {x, concat(parts)});
      std::vector<int64_t> perm;
      for (int64_t i = 0; i < m; ++i) perm.push_back(2 + 2 * i);
      perm.push_back(0);
      for (int64_t i = 0; i < m; ++i) perm.push_back(1 + 2 * i);
      for (int64_t i = 2 * m + 1; i < r + m; ++i) perm.push_back(i);
      x = Transpose(x, perm);
      std::vector<ValueId> parts2 = {Emit1("Mul", {slice(s, 0, 1), C(I64Vec({prodb}))}), q};
      if (m + 1 < r) parts2.push_back(slice(s, m + 1, r));
      x = Emit("Reshape", {x, concat(parts2)}, {}, 1, true)[0];
    }
    SetOut1(x, r, in[0]->dt);
    return Status::Ok();
  }
  if (op == "BlockLSTM" || op == "BlockLSTMV2") {
    // Unrolled over the (static) time steps. Inputs: seq_len_max, x [T, B, I], cs_prev, h_prev,
    // w [I + H, 4H], wci, wcf, wco, b [4H]; gates in the order i, ci, f, o (BlockLSTMV2 has no
    // forget_bias). Outputs (each [T, B, H]): i, cs, f, o, ci, co, h.
    GE_RETURN_IF_ERROR(need(9));
    std::vector<int64_t> xd;
    if (in[1]->c)
      xd = in[1]->c->shape().GetDims();
    else if (in[1]->dims)
      xd = *in[1]->dims;
    if (xd.size() != 3) return Unsupported("x without a static [T, B, I] shape");
    const int64_t steps = xd[0];
    if (in[0]->c) {
      std::vector<int64_t> len = in[0]->c->ToInt64Vector();
      if (len.size() != 1 || len[0] < steps) return Unsupported("seq_len_max below the time steps");
    }
    const bool peep = AttrB(n, "use_peephole");
    const float clip = op == "BlockLSTM" ? AttrF(n, "cell_clip", 3.0f) : AttrF(n, "cell_clip", 0.0f);
    const float fbias = op == "BlockLSTM" ? AttrF(n, "forget_bias", 1.0f) : 0.0f;
    DataType dt = in[1]->dt;
    ValueId x = V(*in[1]), cs = V(*in[2]), h = V(*in[3]), w = V(*in[4]), b = V(*in[8]);
    ValueId wci = V(*in[5]), wcf = V(*in[6]), wco = V(*in[7]);
    std::vector<std::vector<ValueId>> seq(7);
    ValueId axis0 = C(I64Vec({0}));
    for (int64_t t = 0; t < steps; ++t) {
      ValueId xt = Emit1("Squeeze", {Emit1("Slice", {x, C(I64Vec({t})), C(I64Vec({t + 1})), axis0}), axis0});
      ValueId g = Emit1("Add", {Emit1("MatMul", {Emit1("Concat", {xt, h}, {{"axis", int64_t{1}}}), w}), b});
      std::vector<ValueId> p = Emit("Split", {g}, {{"axis", int64_t{1}}}, 4);
      ValueId iz = p[0], ciz = p[1], fz = p[2], oz = p[3];
      if (peep) {
        iz = Emit1("Add", {iz, Emit1("Mul", {cs, wci})});
        fz = Emit1("Add", {fz, Emit1("Mul", {cs, wcf})});
      }
      ValueId i = Emit1("Sigmoid", {iz});
      ValueId f = Emit1("Sigmoid", {fbias != 0 ? Emit1("Add", {fz, C(ScalarOf(dt, fbias))}) : fz});
      ValueId ci = Emit1("Tanh", {ciz});
      cs = Emit1("Add", {Emit1("Mul", {ci, i}), Emit1("Mul", {cs, f})});
      if (clip > 0) cs = Emit1("Clip", {cs, C(ScalarOf(dt, -clip)), C(ScalarOf(dt, clip))});
      if (peep) oz = Emit1("Add", {oz, Emit1("Mul", {cs, wco})});
      ValueId o = Emit1("Sigmoid", {oz});
      ValueId co = Emit1("Tanh", {cs});
      h = Emit1("Mul", {co, o});
      ValueId step[7] = {i, cs, f, o, ci, co, h};
      for (int k = 0; k < 7; ++k) seq[k].push_back(Emit1("Unsqueeze", {step[k], axis0}));
    }
    std::vector<TRef> refs(7);
    for (int k = 0; k < 7; ++k) {
      refs[k].v = g_->AddValue(k == 0 ? cur_ : fmt::format("{}:{}", cur_, k));
      g_->AddNode(fmt::format("{}/_ge_out{}", cur_, k), "Concat", seq[k], {refs[k].v}, {{"axis", int64_t{0}}});
      refs[k].rank = 3;
      refs[k].dt = dt;
    }
    SetOut(refs);
    return Status::Ok();
  }
  if (op == "Switch") {  // output 0: the data on the false branch, output 1: on the true branch
    GE_RETURN_IF_ERROR(need(2));
    TRef f = *in[0], t = *in[0];
    f.pred = t.pred = V(*in[1]);
    f.branch = false;
    t.branch = true;
    SetOut({f, t});
    return Status::Ok();
  }
  if (op == "Merge") {  // the two branches of one Switch predicate: Where(pred, true, false)
    GE_RETURN_IF_ERROR(need(1));
    if (in.size() == 1) {
      TRef r = *in[0];
      r.pred = kNoValue;
      TRef idx;
      idx.c = IntTensor(DT_INT32, {}, {0});
      idx.rank = 0;
      idx.dt = DT_INT32;
      SetOut({r, idx});
      return Status::Ok();
    }
    if (in.size() != 2 || in[0]->pred == kNoValue || in[0]->pred != in[1]->pred || in[0]->branch == in[1]->branch)
      return Unsupported("Merge that is not the join of one conditional's two branches (TF1 loops are not supported)");
    const int t = in[0]->branch ? 0 : 1;
    ValueId pred = in[0]->pred;
    ValueId y = Emit("Where", {pred, V(*in[t]), V(*in[1 - t])}, {}, 1, true)[0];
    ValueId idx = g_->AddValue(cur_ + ":1");
    ValueId p = t == 1 ? pred : Emit1("Not", {pred});
    g_->AddNode(cur_ + "/_ge_index", "Cast", {p}, {idx}, {{"to", int64_t{ToOnnxDataType(DT_INT32)}}});
    TRef a, b;
    a.v = y;
    a.rank = MaxRank(in);
    a.dt = in[0]->dt;
    b.v = idx;
    b.rank = 0;
    b.dt = DT_INT32;
    SetOut({a, b});
    return Status::Ok();
  }
  if (op == "Expm1") {
    GE_RETURN_IF_ERROR(need(1));
    SetOut1(Emit("Sub", {Emit1("Exp", {V(*in[0])}), C(ScalarOf(in[0]->dt, 1))}, {}, 1, true)[0], in[0]->rank,
            in[0]->dt);
    return Status::Ok();
  }
  if (op == "Unique") {  // y (first-occurrence order), idx (out_idx)
    GE_RETURN_IF_ERROR(need(1));
    std::vector<ValueId> u = Emit("Unique", {V(*in[0])}, {{"sorted", int64_t{0}}, {"axis", int64_t{0}}}, 4);
    DataType it = AttrT(n, "out_idx");
    if (it == DT_UNDEFINED) it = DT_INT32;
    ValueId y = g_->AddValue(cur_), idx = g_->AddValue(cur_ + ":1");
    g_->AddNode(cur_, "Identity", {u[0]}, {y});
    g_->AddNode(cur_ + "/_ge_idx", "Cast", {u[2]}, {idx}, {{"to", int64_t{ToOnnxDataType(it)}}});
    TRef a, b;
    a.v = y;
    a.rank = b.rank = 1;
    a.dt = in[0]->dt;
    b.v = idx;
    b.dt = it;
    SetOut({a, b});
    return Status::Ok();
  }
  if (op == "ReverseSequence") {
    GE_RETURN_IF_ERROR(need(2));
    AttrMap attrs = {{"batch_axis", AttrI(n, "batch_dim")}, {"time_axis", AttrI(n, "seq_dim")}};
    SetOut1(Emit("ReverseSequence", {V(*in[0]), I64(*in[1])}, attrs, 1, true)[0], in[0]->rank, in[0]->dt);
    return Status::Ok();
  }
  if (op == "MatrixBandPart") {  // the band num_lower below and num_upper above the diagonal (-1: all)
    GE_RETURN_IF_ERROR(need(3));
    std::vector<int64_t> lo, up;
    GE_RETURN_IF_ERROR(Ints(in[1], "num_lower", &lo));
    GE_RETURN_IF_ERROR(Ints(in[2], "num_upper", &up));
    ValueId x = V(*in[0]);
    if (up.at(0) >= 0) x = Emit1("Trilu", {x, C(IntTensor(DT_INT64, {}, {up[0]}))}, {{"upper", int64_t{0}}});
    if (lo.at(0) >= 0) x = Emit1("Trilu", {x, C(IntTensor(DT_INT64, {}, {-lo[0]}))}, {{"upper", int64_t{1}}});
    SetOut1(Emit("Identity", {x}, {}, 1, true)[0], in[0]->rank, in[0]->dt);
    return Status::Ok();
  }
  if (op == "ListDiff" || op == "SetDiff1D") {  // constants only (folded)
    return Unsupported("{} of run-time values", op);
  }
  if (op == "ParallelConcat") {
    GE_RETURN_IF_ERROR(need(1));
    std::vector<ValueId> xs;
    for (auto* x : in) xs.push_back(V(*x));
    SetOut1(Emit("Concat", xs, {{"axis", int64_t{0}}}, 1, true)[0], in[0]->rank, in[0]->dt);
    return Status::Ok();
  }
  if (op == "Transpose") {
    GE_RETURN_IF_ERROR(need(2));
    std::vector<int64_t> perm;
    GE_RETURN_IF_ERROR(Ints(in[1], "perm", &perm));
    SetOut1(Emit("Transpose", {V(*in[0])}, {{"perm", perm}}, 1, true)[0], static_cast<int>(perm.size()), in[0]->dt);
    return Status::Ok();
  }
  if (op == "ConcatV2" || op == "Concat") {
    GE_RETURN_IF_ERROR(need(2));
    bool v2 = op == "ConcatV2";
    TRef* axis_in = v2 ? in.back() : in.front();
    std::vector<int64_t> axis;
    GE_RETURN_IF_ERROR(Ints(axis_in, "axis", &axis));
    std::vector<ValueId> xs;
    std::vector<TRef*> data(in.begin() + (v2 ? 0 : 1), in.end() - (v2 ? 1 : 0));
    for (auto* x : data) xs.push_back(V(*x));
    SetOut1(Emit("Concat", xs, {{"axis", axis.at(0)}}, 1, true)[0], MaxRank(data), data[0]->dt);
    return Status::Ok();
  }
  if (op == "Pack") {
    GE_RETURN_IF_ERROR(need(1));
    int64_t axis = AttrI(n, "axis");
    std::vector<ValueId> xs;
    for (auto* x : in) xs.push_back(Emit1("Unsqueeze", {V(*x), C(I64Vec({axis}))}));
    int r = in[0]->rank < 0 ? -1 : in[0]->rank + 1;
    SetOut1(Emit("Concat", xs, {{"axis", axis}}, 1, true)[0], r, in[0]->dt);
    return Status::Ok();
  }
  if (op == "Unpack") {
    GE_RETURN_IF_ERROR(need(1));
    int64_t num = AttrI(n, "num"), axis = AttrI(n, "axis");
    if (num <= 0) return InvalidArgument("Unpack with num {}", num);
    std::vector<ValueId> parts = Emit("Split", {V(*in[0])}, {{"axis", axis}}, static_cast<int>(num));
    std::vector<TRef> refs;
    for (int64_t k = 0; k < num; ++k) {
      ValueId o = g_->AddValue(k == 0 ? cur_ : fmt::format("{}:{}", cur_, k));
      g_->AddNode(fmt::format("{}/_ge_squeeze_{}", cur_, k), "Squeeze", {parts[k], C(I64Vec({axis}))}, {o});
      TRef r;
      r.v = o;
      r.rank = in[0]->rank < 0 ? -1 : in[0]->rank - 1;
      r.dt = in[0]->dt;
      refs.push_back(r);
    }
    SetOut(refs);
    return Status::Ok();
  }
  if (op == "Split" || op == "SplitV") {
    GE_RETURN_IF_ERROR(need(op == "Split" ? 2 : 3));
    TRef* x = op == "Split" ? in[1] : in[0];
    std::vector<int64_t> axis;
    GE_RETURN_IF_ERROR(Ints(op == "Split" ? in[0] : in[2], "axis", &axis));
    int64_t num = AttrI(n, "num_split");
    std::vector<ValueId> ins = {V(*x)};
    if (op == "SplitV") {
      std::vector<int64_t> sizes;
      GE_RETURN_IF_ERROR(Ints(in[1], "size_splits", &sizes));
      if (std::count(sizes.begin(), sizes.end(), -1) > 0) return Unsupported("SplitV with a -1 size");
      ins.push_back(C(I64Vec(sizes)));
      num = static_cast<int64_t>(sizes.size());
    }
    std::vector<ValueId> outs = Emit("Split", ins, {{"axis", axis.at(0)}}, static_cast<int>(num), true);
    std::vector<TRef> refs;
    for (ValueId o : outs) {
      TRef r;
      r.v = o;
      r.rank = x->rank;
      r.dt = x->dt;
      refs.push_back(r);
    }
    SetOut(refs);
    return Status::Ok();
  }
  if (op == "ExpandDims") {
    GE_RETURN_IF_ERROR(need(2));
    std::vector<int64_t> axis;
    GE_RETURN_IF_ERROR(Ints(in[1], "axis", &axis));
    int r = in[0]->rank < 0 ? -1 : in[0]->rank + 1;
    SetOut1(Emit("Unsqueeze", {V(*in[0]), C(I64Vec({axis.at(0)}))}, {}, 1, true)[0], r, in[0]->dt);
    return Status::Ok();
  }
  if (op == "Squeeze") {
    GE_RETURN_IF_ERROR(need(1));
    std::vector<int64_t> axes = AttrInts(n, "squeeze_dims");
    if (axes.empty()) axes = AttrInts(n, "axis");
    std::vector<ValueId> ins = {V(*in[0])};
    if (!axes.empty()) ins.push_back(C(I64Vec(axes)));
    int r = (in[0]->rank < 0 || axes.empty()) ? -1 : in[0]->rank - static_cast<int>(axes.size());
    SetOut1(Emit("Squeeze", ins, {}, 1, true)[0], r, in[0]->dt);
    return Status::Ok();
  }
  static const std::map<std::string, std::string> kReduce = {
      {"Mean", "ReduceMean"}, {"Sum", "ReduceSum"}, {"Max", "ReduceMax"}, {"Min", "ReduceMin"}, {"Prod", "ReduceProd"}};
  if (auto it = kReduce.find(op); it != kReduce.end()) {
    GE_RETURN_IF_ERROR(need(2));
    std::vector<int64_t> axes;
    GE_RETURN_IF_ERROR(Ints(in[1], "reduction_indices", &axes));
    bool keep = AttrB(n, "keep_dims");
    if (axes.empty()) {
      SetOut1(Emit("Identity", {V(*in[0])}, {}, 1, true)[0], in[0]->rank, in[0]->dt);
      return Status::Ok();
    }
    AttrMap attrs = {{"keepdims", int64_t{keep}}};
    std::vector<ValueId> ins = {V(*in[0])};
    if (it->second == "ReduceSum")
      ins.push_back(C(I64Vec(axes)));
    else
      attrs["axes"] = axes;
    int r = in[0]->rank < 0 ? -1 : (keep ? in[0]->rank : in[0]->rank - static_cast<int>(axes.size()));
    SetOut1(Emit(it->second, ins, attrs, 1, true)[0], r, in[0]->dt);
    return Status::Ok();
  }
  if (op == "Cast") {
    GE_RETURN_IF_ERROR(need(1));
    DataType dst = AttrT(n, "DstT");
    if (dst == DT_UNDEFINED) return Unsupported("Cast to an unsupported dtype");
    SetOut1(Emit("Cast", {V(*in[0])}, {{"to", int64_t{ToOnnxDataType(dst)}}}, 1, true)[0], in[0]->rank, dst);
    return Status::Ok();
  }
  if (op == "Shape" || op == "Size" || op == "Rank") {
    GE_RETURN_IF_ERROR(need(1));
    DataType dt = op == "Rank" ? DT_INT32 : AttrT(n, "out_type");
    if (dt == DT_UNDEFINED) dt = DT_INT32;
    ValueId s = Emit1("Shape", {V(*in[0])});
    if (op != "Shape") s = Emit1(op == "Size" ? "ReduceProd" : "Size", {s}, {{"keepdims", int64_t{0}}});
    SetOut1(Emit("Cast", {s}, {{"to", int64_t{ToOnnxDataType(dt)}}}, 1, true)[0], op == "Shape" ? 1 : 0, dt);
    return Status::Ok();
  }
  if (op == "Range") {
    GE_RETURN_IF_ERROR(need(3));
    SetOut1(Emit("Range", {V(*in[0]), V(*in[1]), V(*in[2])}, {}, 1, true)[0], 1, in[0]->dt);
    return Status::Ok();
  }
  if (op == "Fill") {
    GE_RETURN_IF_ERROR(need(2));
    ValueId dims = Emit1("Cast", {V(*in[0])}, {{"to", int64_t{ToOnnxDataType(DT_INT64)}}});
    int r = in[0]->c ? static_cast<int>(in[0]->c->NumElements()) : -1;
    SetOut1(Emit("Expand", {V(*in[1]), dims}, {}, 1, true)[0], r, in[1]->dt);
    return Status::Ok();
  }
  if (op == "ZerosLike" || op == "OnesLike") {
    GE_RETURN_IF_ERROR(need(1));
    ValueId s = Emit1("Shape", {V(*in[0])});
    ValueId z = C(ScalarOf(in[0]->dt, op == "OnesLike" ? 1 : 0));
    SetOut1(Emit("Expand", {z, s}, {}, 1, true)[0], in[0]->rank, in[0]->dt);
    return Status::Ok();
  }
  if (op == "Tile") {
    GE_RETURN_IF_ERROR(need(2));
    ValueId m = Emit1("Cast", {V(*in[1])}, {{"to", int64_t{ToOnnxDataType(DT_INT64)}}});
    SetOut1(Emit("Tile", {V(*in[0]), m}, {}, 1, true)[0], in[0]->rank, in[0]->dt);
    return Status::Ok();
  }
  if (op == "Select" || op == "SelectV2") {
    GE_RETURN_IF_ERROR(need(3));
    if (op == "Select" && in[0]->rank == 1 && in[1]->rank > 1) return Unsupported("Select with a vector condition");
    SetOut1(Emit("Where", {V(*in[0]), V(*in[1]), V(*in[2])}, {}, 1, true)[0], MaxRank(in), in[1]->dt);
    return Status::Ok();
  }
  if (op == "GatherV2" || op == "Gather") {
    GE_RETURN_IF_ERROR(need(2));
    int64_t axis = 0;
    if (op == "GatherV2") {
      GE_RETURN_IF_ERROR(need(3));
      std::vector<int64_t> a;
      GE_RETURN_IF_ERROR(Ints(in[2], "axis", &a));
      axis = a.at(0);
    }
    if (AttrI(n, "batch_dims") != 0) return Unsupported("GatherV2 with batch_dims");
    int r = (in[0]->rank < 0 || in[1]->rank < 0) ? -1 : in[0]->rank + in[1]->rank - 1;
    SetOut1(Emit("Gather", {V(*in[0]), V(*in[1])}, {{"axis", axis}}, 1, true)[0], r, in[0]->dt);
    return Status::Ok();
  }
  if (op == "StridedSlice") {
    GE_RETURN_IF_ERROR(need(4));
    std::vector<int64_t> b, e, s;
    GE_RETURN_IF_ERROR(Ints(in[1], "begin", &b));
    GE_RETURN_IF_ERROR(Ints(in[2], "end", &e));
    GE_RETURN_IF_ERROR(Ints(in[3], "strides", &s));
    if (AttrI(n, "ellipsis_mask") != 0 || AttrI(n, "new_axis_mask") != 0)
      return Unsupported("StridedSlice with an ellipsis or new-axis mask");
    int64_t bm = AttrI(n, "begin_mask"), em = AttrI(n, "end_mask"), sm = AttrI(n, "shrink_axis_mask");
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max(), kMin = std::numeric_limits<int64_t>::min();
    std::vector<int64_t> starts, ends, axes, steps, squeeze;
    for (size_t i = 0; i < b.size(); ++i) {
      int64_t st = s.at(i), bi = b[i], ei = e.at(i);
      if (sm >> i & 1) {
        st = 1;
        ei = bi == -1 ? kMax : bi + 1;
        squeeze.push_back(static_cast<int64_t>(i));
      } else {
        if (bm >> i & 1) bi = st > 0 ? 0 : kMax;
        if (em >> i & 1) ei = st > 0 ? kMax : kMin;
      }
      starts.push_back(bi);
      ends.push_back(ei);
      axes.push_back(static_cast<int64_t>(i));
      steps.push_back(st);
    }
    ValueId y = Emit1("Slice", {V(*in[0]), C(I64Vec(starts)), C(I64Vec(ends)), C(I64Vec(axes)), C(I64Vec(steps))});
    int r = in[0]->rank < 0 ? -1 : in[0]->rank - static_cast<int>(squeeze.size());
    if (squeeze.empty())
      y = Emit("Identity", {y}, {}, 1, true)[0];
    else
      y = Emit("Squeeze", {y, C(I64Vec(squeeze))}, {}, 1, true)[0];
    SetOut1(y, r, in[0]->dt);
    return Status::Ok();
  }
  if (op == "Slice") {
    GE_RETURN_IF_ERROR(need(3));
    if (!in[1]->c || !in[2]->c) {  // begin/size computed at run time: end = size < 0 ? max : begin + size
      ValueId b = I64(*in[1]), sz = I64(*in[2]);
      ValueId neg = Emit1("Less", {sz, C(IntTensor(DT_INT64, {}, {0}))});
      ValueId e = Emit1(
          "Where", {neg, C(IntTensor(DT_INT64, {}, {std::numeric_limits<int64_t>::max()})), Emit1("Add", {b, sz})});
      SetOut1(Emit("Slice", {V(*in[0]), b, e}, {}, 1, true)[0], in[0]->rank, in[0]->dt);
      return Status::Ok();
    }
    std::vector<int64_t> b, sz;
    GE_RETURN_IF_ERROR(Ints(in[1], "begin", &b));
    GE_RETURN_IF_ERROR(Ints(in[2], "size", &sz));
    std::vector<int64_t> ends, axes;
    for (size_t i = 0; i < b.size(); ++i) {
      ends.push_back(sz.at(i) < 0 ? std::numeric_limits<int64_t>::max() : b[i] + sz[i]);
      axes.push_back(static_cast<int64_t>(i));
    }
    SetOut1(Emit("Slice", {V(*in[0]), C(I64Vec(b)), C(I64Vec(ends)), C(I64Vec(axes))}, {}, 1, true)[0], in[0]->rank,
            in[0]->dt);
    return Status::Ok();
  }
  if (op == "Pad" || op == "PadV2" || op == "MirrorPad") {
    GE_RETURN_IF_ERROR(need(2));
    std::vector<int64_t> p;
    GE_RETURN_IF_ERROR(Ints(in[1], "paddings", &p));
    size_t r = p.size() / 2;
    std::vector<int64_t> pads(2 * r);
    for (size_t i = 0; i < r; ++i) {
      pads[i] = p[2 * i];
      pads[r + i] = p[2 * i + 1];
    }
    std::string mode = "constant";
    if (op == "MirrorPad") {
      std::string m = AttrS(n, "mode");
      if (m != "REFLECT") return Unsupported("MirrorPad mode '{}'", m);
      mode = "reflect";
    }
    std::vector<ValueId> ins = {V(*in[0]), C(I64Vec(pads))};
    if (op == "PadV2") ins.push_back(V(*in[2]));
    SetOut1(Emit("Pad", ins, {{"mode", mode}}, 1, true)[0], in[0]->rank, in[0]->dt);
    return Status::Ok();
  }
  if (op == "Conv2D" || op == "Conv3D" || op == "DepthwiseConv2dNative") {
    GE_RETURN_IF_ERROR(need(2));
    const int r = op == "Conv3D" ? 5 : 4;
    bool last = ChannelsLast(n);
    AttrMap attrs;
    GE_RETURN_IF_ERROR(Padding(n, &attrs));
    attrs["strides"] = Spatial(AttrInts(n, "strides"), last, r);
    attrs["dilations"] = Spatial(AttrInts(n, "dilations"), last, r);
    ValueId w = V(*in[1]);
    if (op == "DepthwiseConv2dNative") {  // [H, W, C, M] -> [C*M, 1, H, W], group C
      if (!in[1]->c) return Unsupported("depthwise filter is not a constant");
      auto d = in[1]->c->shape().GetDims();
      if (d.size() != 4) return InvalidArgument("depthwise filter of rank {}", d.size());
      w = Emit1("Reshape", {w, C(I64Vec({d[0], d[1], 1, d[2] * d[3]}))});
      w = Transpose(w, {3, 2, 0, 1});
      attrs["group"] = d[2];
    } else {
      w = Transpose(w, r == 4 ? std::vector<int64_t>{3, 2, 0, 1} : std::vector<int64_t>{4, 3, 0, 1, 2});
    }
    SetOut1(Spatial(n, "Conv", V(*in[0]), {w}, attrs, r), r, in[0]->dt);
    return Status::Ok();
  }
  if (op == "Conv2DBackpropInput" || op == "Conv3DBackpropInputV2") {
    // ConvTranspose with explicit pads: the forward convolution's SAME/VALID padding of the
    // (static) forward input size, plus output_padding so that the result has that size.
    GE_RETURN_IF_ERROR(need(3));
    const int r = op == "Conv2DBackpropInput" ? 4 : 5;
    bool last = ChannelsLast(n);
    std::vector<int64_t> sizes;
    GE_RETURN_IF_ERROR(Ints(in[0], "input_sizes", &sizes));
    if (!in[1]->c) return Unsupported("the filter is not a constant");
    auto fd = in[1]->c->shape().GetDims();
    if (static_cast<int>(sizes.size()) != r || static_cast<int>(fd.size()) != r)
      return InvalidArgument("input_sizes/filter of the wrong rank");
    std::vector<int64_t> strides = Spatial(AttrInts(n, "strides"), last, r);
    std::vector<int64_t> dil = Spatial(AttrInts(n, "dilations"), last, r);
    std::vector<int64_t> spatial = Spatial(sizes, last, r);
    std::string padding = AttrS(n, "padding", "VALID");
    if (padding != "SAME" && padding != "VALID") return Unsupported("padding '{}'", padding);
    std::vector<int64_t> pads(2 * (r - 2)), out_pad(r - 2);
    for (int i = 0; i < r - 2; ++i) {
      int64_t h = spatial[i], k = fd[i], s = strides[i], d = dil[i], ek = (k - 1) * d + 1;
      int64_t ho = padding == "SAME" ? (h + s - 1) / s : (h - ek + s) / s;
      int64_t total = padding == "SAME" ? std::max<int64_t>((ho - 1) * s + ek - h, 0) : 0;
      pads[i] = total / 2;
      pads[r - 2 + i] = total - total / 2;
      out_pad[i] = h - ((ho - 1) * s + ek - total);
      if (out_pad[i] < 0 || out_pad[i] >= std::max(s, d)) return Unsupported("inconsistent transposed-conv sizes");
    }
    AttrMap attrs = {{"strides", strides}, {"dilations", dil}, {"pads", pads}, {"output_padding", out_pad}};
    ValueId w = Transpose(V(*in[1]), r == 4 ? std::vector<int64_t>{3, 2, 0, 1} : std::vector<int64_t>{4, 3, 0, 1, 2});
    SetOut1(Spatial(n, "ConvTranspose", V(*in[2]), {w}, attrs, r), r, in[2]->dt);
    return Status::Ok();
  }
  if (op == "MaxPool" || op == "AvgPool" || op == "MaxPool3D" || op == "AvgPool3D" || op == "MaxPoolV2") {
    GE_RETURN_IF_ERROR(need(op == "MaxPoolV2" ? 3 : 1));
    const int r = op.back() == 'D' ? 5 : 4;
    bool last = ChannelsLast(n);
    AttrMap attrs;
    GE_RETURN_IF_ERROR(Padding(n, &attrs));
    std::vector<int64_t> ksize = AttrInts(n, "ksize"), strides = AttrInts(n, "strides");
    if (op == "MaxPoolV2") {  // ksize and strides as inputs
      GE_RETURN_IF_ERROR(Ints(in[1], "ksize", &ksize));
      GE_RETURN_IF_ERROR(Ints(in[2], "strides", &strides));
    }
    attrs["strides"] = Spatial(strides, last, r);
    attrs["kernel_shape"] = Spatial(ksize, last, r);
    std::string type = op.rfind("Max", 0) == 0 ? "MaxPool" : "AveragePool";
    SetOut1(Spatial(n, type, V(*in[0]), {}, attrs, r), r, in[0]->dt);
    return Status::Ok();
  }
  if (op == "FusedBatchNorm" || op == "FusedBatchNormV2" || op == "FusedBatchNormV3") {
    GE_RETURN_IF_ERROR(need(5));
    int r = in[0]->rank < 0 ? 4 : in[0]->rank;
    if (AttrB(n, "is_training", true)) return BatchNormTraining(n, in, r);
    AttrMap attrs = {{"epsilon", AttrF(n, "epsilon", 1e-4f)}};
    ValueId y = Spatial(n, "BatchNormalization", V(*in[0]), {V(*in[1]), V(*in[2]), V(*in[3]), V(*in[4])}, attrs, r);
    TRef o;
    o.v = y;
    o.rank = r;
    o.dt = in[0]->dt;
    SetOut({o, *in[3], *in[4]});
    return Status::Ok();
  }
  if (op == "TopKV2") {
    GE_RETURN_IF_ERROR(need(2));
    ValueId k =
        Emit1("Reshape", {Emit1("Cast", {V(*in[1])}, {{"to", int64_t{ToOnnxDataType(DT_INT64)}}}), C(I64Vec({1}))});
    std::vector<ValueId> o = Emit("TopK", {V(*in[0]), k}, {{"axis", int64_t{-1}}, {"largest", int64_t{1}}}, 2);
    ValueId vals = g_->AddValue(cur_), idx = g_->AddValue(cur_ + ":1");
    g_->AddNode(cur_, "Identity", {o[0]}, {vals});
    g_->AddNode(cur_ + "/_ge_idx", "Cast", {o[1]}, {idx}, {{"to", int64_t{ToOnnxDataType(DT_INT32)}}});
    TRef a, b;
    a.v = vals;
    a.rank = b.rank = in[0]->rank;
    a.dt = in[0]->dt;
    b.v = idx;
    b.dt = DT_INT32;
    SetOut({a, b});
    return Status::Ok();
  }
  if (op == "SpaceToDepth" || op == "DepthToSpace") {
    GE_RETURN_IF_ERROR(need(1));
    AttrMap attrs = {{"blocksize", AttrI(n, "block_size")}};
    if (op == "DepthToSpace") attrs["mode"] = std::string("DCR");
    SetOut1(Spatial(n, op, V(*in[0]), {}, attrs, 4), 4, in[0]->dt);
    return Status::Ok();
  }
  if (op == "ResizeBilinear" || op == "ResizeNearestNeighbor") {
    GE_RETURN_IF_ERROR(need(2));
    bool align = AttrB(n, "align_corners"), half = AttrB(n, "half_pixel_centers");
    AttrMap attrs = {{"mode", std::string(op == "ResizeBilinear" ? "linear" : "nearest")},
                     {"coordinate_transformation_mode",
                      std::string(align  ? "align_corners"
                                  : half ? (op == "ResizeBilinear" ? "half_pixel" : "tf_half_pixel_for_nn")
                                         : "asymmetric")}};
    if (op == "ResizeNearestNeighbor") attrs["nearest_mode"] = std::string(align ? "round_prefer_ceil" : "floor");
    ValueId x = Transpose(V(*in[0]), ToFirst(4));
    ValueId nc = Emit1("Slice", {Emit1("Shape", {x}), C(I64Vec({0})), C(I64Vec({2}))});
    ValueId hw = Emit1("Cast", {V(*in[1])}, {{"to", int64_t{ToOnnxDataType(DT_INT64)}}});
    ValueId sizes = Emit1("Concat", {nc, hw}, {{"axis", int64_t{0}}});
    ValueId y = Emit1("Resize", {x, kNoValue, kNoValue, sizes}, attrs);
    SetOut1(Emit("Transpose", {y}, {{"perm", ToLast(4)}}, 1, true)[0], 4, in[0]->dt);
    return Status::Ok();
  }
  if (op == "LRN") {
    GE_RETURN_IF_ERROR(need(1));
    int64_t radius = AttrI(n, "depth_radius", 5), size = 2 * radius + 1;
    AttrMap attrs = {{"size", size},
                     {"alpha", AttrF(n, "alpha", 1) * static_cast<float>(size)},
                     {"beta", AttrF(n, "beta", 0.5f)},
                     {"bias", AttrF(n, "bias", 1)}};
    ValueId x = Transpose(V(*in[0]), ToFirst(4));
    ValueId y = Emit1("LRN", {x}, attrs);
    SetOut1(Emit("Transpose", {y}, {{"perm", ToLast(4)}}, 1, true)[0], 4, in[0]->dt);
    return Status::Ok();
  }
  bool composed = false;
  GE_RETURN_IF_ERROR(ComposedOp(n, in, &composed));
  if (composed) return Status::Ok();
  return Unsupported("TensorFlow op '{}' is not supported", op);
}

// ---- files --------------------------------------------------------------------------------------

Status ParseGraphDef(const std::string& bytes, bool text, tf::GraphDef* gd) {
  if (bytes.empty()) return InvalidArgument("the file is empty");
  if (text) {
    google::protobuf::TextFormat::Parser parser;
    parser.AllowUnknownField(true);
    parser.AllowUnknownExtension(true);
    struct Collector : google::protobuf::io::ErrorCollector {
      std::string first;
      void AddError(int line, int column, const std::string& message) override {
        if (first.empty()) first = fmt::format("line {}, column {}: {}", line + 1, column + 1, message);
      }
    } errors;
    parser.RecordErrorsTo(&errors);
    if (!parser.ParseFromString(bytes, gd))
      return InvalidArgument("not a valid TensorFlow GraphDef in text format ({})", errors.first);
    return Status::Ok();
  }
  if (!gd->ParseFromString(bytes))
    return InvalidArgument("not a valid TensorFlow GraphDef (protobuf parse failed; truncated or corrupted file?)");
  return Status::Ok();
}

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

bool LooksLikeTensorFlowGraph(const std::string& head) {
  if (head.size() >= 3 && static_cast<uint8_t>(head[0]) == 0x0a) {
    size_t i = 1;  // skip the NodeDef's length varint
    while (i < head.size() && i < 11 && (static_cast<uint8_t>(head[i]) & 0x80)) ++i;
    ++i;
    return i < head.size() && static_cast<uint8_t>(head[i]) == 0x0a;
  }
  // Text format: comments and space, then "node {" / "node:" or "library".
  size_t i = 0;
  while (i < head.size()) {
    if (head[i] == '#') {
      while (i < head.size() && head[i] != '\n') ++i;
    } else if (std::isspace(static_cast<unsigned char>(head[i]))) {
      ++i;
    } else {
      break;
    }
  }
  std::string rest = head.substr(i);
  for (const char* kw : {"node", "library", "versions"}) {
    size_t l = std::strlen(kw);
    if (rest.compare(0, l, kw) == 0) {
      size_t j = l;
      while (j < rest.size() && std::isspace(static_cast<unsigned char>(rest[j]))) ++j;
      if (j < rest.size() && (rest[j] == '{' || rest[j] == ':')) return true;
    }
  }
  return false;
}

bool IsTensorFlowFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::string head(256, '\0');
  f.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(f.gcount()));
  return LooksLikeTensorFlowGraph(head) || EndsWith(path, ".pbtxt");
}

Status LoadTensorFlowModelFromBytes(const std::string& bytes, bool text, std::shared_ptr<Graph>* graph,
                                    const std::vector<std::string>& outputs) {
  try {
    tf::GraphDef gd;
    GE_RETURN_IF_ERROR(ParseGraphDef(bytes, text, &gd));
    auto g = std::make_shared<Graph>("main");
    GraphIndex gi;
    GE_RETURN_IF_ERROR(gi.Build(gd));
    Converter conv(g.get(), &gi, outputs);
    GE_RETURN_IF_ERROR(conv.Run());
    *graph = std::move(g);
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return Error(Status::kOutOfMemory, "out of host memory while loading the model");
  } catch (const std::exception& e) {
    return InvalidArgument("cannot load the TensorFlow model: {}", e.what());
  }
}

Status LoadTensorFlowModel(const std::string& path, std::shared_ptr<Graph>* graph,
                           const std::vector<std::string>& outputs) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return InvalidArgument("{}: is a directory, not a model file", path);
  std::ifstream f(path, std::ios::binary);
  if (!f) return InvalidArgument("{}: cannot open file", path);
  std::stringstream ss;
  ss << f.rdbuf();
  std::string bytes = ss.str();
  bool text = EndsWith(path, ".pbtxt") || (!bytes.empty() && static_cast<uint8_t>(bytes[0]) != 0x0a &&
                                           LooksLikeTensorFlowGraph(bytes.substr(0, 256)));
  Status st = LoadTensorFlowModelFromBytes(bytes, text, graph, outputs);
  if (!st.ok()) st.Prepend(path + ": ");
  return st;
}

}  // namespace ge
