// The TF op mappings: Converter::FoldOrEmit (parse-time integer shape arithmetic) and
// Converter::Convert (one NodeDef -> graph IR nodes).
#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "parser/tf/tf_converter.h"

namespace ge::tf_frontend {

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
      const auto unknown = std::find(sizes.begin(), sizes.end(), -1);
      if (std::count(sizes.begin(), sizes.end(), -1) > 1) return Unsupported("SplitV with more than one -1 size");
      if (unknown == sizes.end()) {
        ins.push_back(C(I64Vec(sizes)));
      } else {  // the -1 size: what the others leave of the axis
        int64_t known = 0;
        for (int64_t k : sizes) known += k == -1 ? 0 : k;
        ValueId len = Emit1("Gather", {Emit1("Shape", {V(*x)}), C(IntTensor(DT_INT64, {}, {axis.at(0)}))},
                            {{"axis", int64_t{0}}});
        std::vector<ValueId> parts;
        if (unknown != sizes.begin()) parts.push_back(C(I64Vec(std::vector<int64_t>(sizes.begin(), unknown))));
        parts.push_back(Emit1("Reshape", {Emit1("Sub", {len, C(IntTensor(DT_INT64, {}, {known}))}), C(I64Vec({1}))}));
        if (unknown + 1 != sizes.end()) parts.push_back(C(I64Vec(std::vector<int64_t>(unknown + 1, sizes.end()))));
        ins.push_back(Emit1("Concat", parts, {{"axis", int64_t{0}}}));
      }
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
    ValueId cond = V(*in[0]);
    if (op == "Select" && in[0]->rank == 1 && in[1]->rank > 1) {  // a vector picks rows: [n] -> [n, 1, ...]
      std::vector<int64_t> shape(in[1]->rank, 1);
      shape[0] = -1;
      cond = Emit1("Reshape", {cond, C(I64Vec(shape))});
    }
    SetOut1(Emit("Where", {cond, V(*in[1]), V(*in[2])}, {}, 1, true)[0], MaxRank(in), in[1]->dt);
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
    const int64_t bm = AttrI(n, "begin_mask"), em = AttrI(n, "end_mask"), sm = AttrI(n, "shrink_axis_mask");
    const int64_t elm = AttrI(n, "ellipsis_mask"), nam = AttrI(n, "new_axis_mask");
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max(), kMin = std::numeric_limits<int64_t>::min();
    // Spec entry i -> input dim d: an ellipsis stands for the input dims no other entry names (all
    // of them), a new axis names none (a size-1 output dim at its output position).
    int64_t named = 0;
    for (size_t i = 0; i < b.size(); ++i) named += !(elm >> i & 1) && !(nam >> i & 1);
    if (elm != 0 && in[0]->rank < 0) return Unsupported("StridedSlice with an ellipsis on an input of unknown rank");
    std::vector<int64_t> starts, ends, axes, steps, squeeze, new_axes;
    int64_t d = 0, out = 0;
    for (size_t i = 0; i < b.size(); ++i) {
      if (elm >> i & 1) {
        const int64_t k = std::max<int64_t>(in[0]->rank - named, 0);
        d += k;
        out += k;
        continue;
      }
      if (nam >> i & 1) {
        new_axes.push_back(out++);
        continue;
      }
      int64_t st = s.at(i), bi = b[i], ei = e.at(i);
      if (sm >> i & 1) {
        st = 1;
        ei = bi == -1 ? kMax : bi + 1;
        squeeze.push_back(d);
      } else {
        if (bm >> i & 1) bi = st > 0 ? 0 : kMax;
        if (em >> i & 1) ei = st > 0 ? kMax : kMin;
        ++out;
      }
      starts.push_back(bi);
      ends.push_back(ei);
      axes.push_back(d++);
      steps.push_back(st);
    }
    ValueId y = V(*in[0]);
    if (!axes.empty()) y = Emit1("Slice", {y, C(I64Vec(starts)), C(I64Vec(ends)), C(I64Vec(axes)), C(I64Vec(steps))});
    int r = in[0]->rank < 0 ? -1 : in[0]->rank - static_cast<int>(squeeze.size()) + static_cast<int>(new_axes.size());
    if (!squeeze.empty()) y = Emit1("Squeeze", {y, C(I64Vec(squeeze))});
    if (!new_axes.empty()) y = Emit1("Unsqueeze", {y, C(I64Vec(new_axes))});
    y = Emit("Identity", {y}, {}, 1, true)[0];
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
      if (m == "SYMMETRIC") {  // per axis: the first b elements reversed, x, the last a reversed
        ValueId x = V(*in[0]);
        const int64_t kMin = std::numeric_limits<int64_t>::min();
        for (size_t i = 0; i < r; ++i) {
          const int64_t b = p[2 * i], a = p[2 * i + 1], ax = static_cast<int64_t>(i);
          if (b == 0 && a == 0) continue;
          auto rev = [&](int64_t start, int64_t end) {
            return Emit1("Slice", {x, C(I64Vec({start})), C(I64Vec({end})), C(I64Vec({ax})), C(I64Vec({-1}))});
          };
          std::vector<ValueId> parts;
          if (b > 0) parts.push_back(rev(b - 1, kMin));
          parts.push_back(x);
          if (a > 0) parts.push_back(rev(-1, -a - 1));
          x = Emit1("Concat", parts, {{"axis", ax}});
        }
        SetOut1(Emit("Identity", {x}, {}, 1, true)[0], in[0]->rank, in[0]->dt);
        return Status::Ok();
      }
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

}  // namespace ge::tf_frontend
