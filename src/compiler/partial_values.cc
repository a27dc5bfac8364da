#include "compiler/partial_values.h"

#include "base/checked_math.h"

#include <algorithm>

namespace ge {
namespace {

constexpr int64_t kUnknown = PartialValue::kUnknown;
bool IsUnknown(int64_t e) { return PartialValue::IsUnknown(e); }

bool IsInt(DataType dt) { return dt == DT_INT64 || dt == DT_INT32; }

// [start, end) of a Shape node over rank dims (negative values count from the end, clamped).
void ShapeRange(const Node& node, int64_t rank, int64_t* b, int64_t* e) {
  const int64_t* start = node.GetAttr<int64_t>("start");
  const int64_t* end = node.GetAttr<int64_t>("end");
  *b = start ? *start : 0;
  *e = end ? *end : rank;
  if (*b < 0) *b += rank;
  if (*e < 0) *e += rank;
  *b = std::clamp<int64_t>(*b, 0, rank);
  *e = std::clamp<int64_t>(*e, *b, rank);
}

std::optional<std::vector<int64_t>> ConstInts(const Graph& g, ValueId v) {
  if (v == kNoValue || !g.value(v).constant || !IsInt(g.value(v).constant->dtype())) return std::nullopt;
  return g.value(v).constant->ToInt64Vector();
}

int64_t Arith(const std::string& op, int64_t a, int64_t b) {
  if (a == kUnknown || b == kUnknown || a < 0 || b < 0) return kUnknown;
  if (op == "Add") return a + b <= (int64_t{1} << 40) ? a + b : kUnknown;
  if (op == "Sub") return a - b;
  if (op == "Mul") return (a == 0 || b <= (int64_t{1} << 40) / std::max<int64_t>(a, 1)) ? a * b : kUnknown;
  if (op == "Div") return b == 0 ? kUnknown : a / b;
  return kUnknown;
}

}  // namespace

bool PartialValue::AllKnown() const { return std::none_of(elements.begin(), elements.end(), IsUnknown); }

HostTensor PartialValueConstant(const PartialValue& p, DataType dtype) {
  Shape shape = p.scalar ? Shape() : Shape({static_cast<int64_t>(p.elements.size())});
  if (dtype == DT_INT32) {
    std::vector<int32_t> v(p.elements.begin(), p.elements.end());
    return HostTensor::FromBytes(DT_INT32, shape, v.data(), v.size() * sizeof(int32_t));
  }
  return HostTensor::FromBytes(DT_INT64, shape, p.elements.data(), p.elements.size() * sizeof(int64_t));
}

std::optional<PartialValue> PartialValues::Get(const Graph& g, ValueId v) const {
  if (v == kNoValue) return std::nullopt;
  const Value& val = g.value(v);
  if (val.constant) {
    const HostTensor& t = *val.constant;
    if ((!IsInt(t.dtype()) && t.dtype() != DT_BOOL) || t.shape().GetDimNum() > 1 ||
        static_cast<size_t>(t.NumElements()) > kMaxElements)
      return std::nullopt;
    return PartialValue{t.ToInt64Vector(), t.shape().GetDimNum() == 0};
  }
  auto it = values_.find(v);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

bool PartialValues::Propagate(const Graph& g, const Node& node) {
  if (!node.domain.empty() || node.outputs.empty() || node.outputs[0] == kNoValue || node.inputs.empty()) return false;
  const ValueId out = node.outputs[0];
  const DataType out_dt = g.value(out).desc.dtype;
  if (!IsInt(out_dt) && node.type != "Shape" && !(node.type == "Equal" && out_dt == DT_BOOL)) return false;
  const std::string& op = node.type;
  auto in = [&](size_t i) { return i < node.inputs.size() ? Get(g, node.inputs[i]) : std::nullopt; };
  PartialValue r;
  if (op == "Shape") {
    const Shape& s = g.value(node.inputs[0]).desc.shape;
    if (s.IsUnknownRank()) return false;
    int64_t b, e;
    ShapeRange(node, static_cast<int64_t>(s.GetDimNum()), &b, &e);
    for (int64_t i = b; i < e; ++i)
      r.elements.push_back(s.GetDim(i) < 0 ? DimSymbol(node.inputs[0], static_cast<size_t>(i)) : s.GetDim(i));
  } else if (op == "Identity" || op == "Cast") {
    auto a = in(0);
    if (!a) return false;
    r = *a;
  } else if (op == "Gather") {
    auto a = in(0);
    auto idx = ConstInts(g, node.inputs.size() > 1 ? node.inputs[1] : kNoValue);
    const int64_t* axis = node.GetAttr<int64_t>("axis");
    if (!a || a->scalar || !idx || (axis && *axis != 0 && *axis != -1)) return false;
    const auto& ishape = g.value(node.inputs[1]).constant->shape();
    if (ishape.GetDimNum() > 1) return false;
    const auto n = static_cast<int64_t>(a->elements.size());
    for (int64_t i : *idx) {
      if (i < 0) i += n;
      if (i < 0 || i >= n) return false;
      r.elements.push_back(a->elements[i]);
    }
    r.scalar = ishape.GetDimNum() == 0;
  } else if (op == "Unsqueeze") {
    auto a = in(0);
    if (!a || !a->scalar) return false;
    r.elements = a->elements;
  } else if (op == "Squeeze") {
    auto a = in(0);
    if (!a || a->scalar || a->elements.size() != 1) return false;
    r.elements = a->elements;
    r.scalar = true;
  } else if (op == "Concat") {
    for (size_t i = 0; i < node.inputs.size(); ++i) {
      auto a = in(i);
      if (!a || a->scalar) return false;
      r.elements.insert(r.elements.end(), a->elements.begin(), a->elements.end());
    }
  } else if (op == "Slice") {
    auto a = in(0);
    auto starts = ConstInts(g, node.inputs.size() > 1 ? node.inputs[1] : kNoValue);
    auto ends = ConstInts(g, node.inputs.size() > 2 ? node.inputs[2] : kNoValue);
    if (!a || a->scalar || !starts || !ends || starts->size() != 1 || ends->size() != 1) return false;
    if (node.inputs.size() > 3 && node.inputs[3] != kNoValue) {
      auto axes = ConstInts(g, node.inputs[3]);
      if (!axes || axes->size() != 1 || ((*axes)[0] != 0 && (*axes)[0] != -1)) return false;
    }
    if (node.inputs.size() > 4 && node.inputs[4] != kNoValue) {
      auto steps = ConstInts(g, node.inputs[4]);
      if (!steps || *steps != std::vector<int64_t>{1}) return false;
    }
    const auto n = static_cast<int64_t>(a->elements.size());
    int64_t b = (*starts)[0], e = (*ends)[0];
    if (b < 0) b += n;
    if (e < 0) e += n;
    b = std::clamp<int64_t>(b, 0, n);
    e = std::clamp<int64_t>(e, b, n);
    r.elements.assign(a->elements.begin() + b, a->elements.begin() + e);
  } else if (op == "Reshape") {  // a 1-D value reshaped to 1-D (PyTorch's expand exports)
    auto a = in(0);
    auto shape = ConstInts(g, node.inputs.size() > 1 ? node.inputs[1] : kNoValue);
    if (!a || !shape || shape->size() != 1 ||
        ((*shape)[0] != -1 && (*shape)[0] != static_cast<int64_t>(a->elements.size())))
      return false;
    r.elements = a->elements;
  } else if (op == "Equal") {  // 1 / 0 where both sides are known
    auto a = in(0), b = in(1);
    if (!a || !b || a->elements.size() != b->elements.size()) return false;
    for (size_t i = 0; i < a->elements.size(); ++i) {
      const int64_t x = a->elements[i], y = b->elements[i];
      r.elements.push_back(PartialValue::IsSymbol(x) && x == y ? 1 : IsUnknown(x) || IsUnknown(y) ? kUnknown : x == y);
    }
    r.scalar = a->scalar && b->scalar;
  } else if (op == "Where") {  // the branch the condition picks, or the value both branches agree on
    auto c = in(0), a = in(1), b = in(2);
    if (!c || !a || !b || c->elements.size() != a->elements.size() || a->elements.size() != b->elements.size())
      return false;
    for (size_t i = 0; i < c->elements.size(); ++i) {
      const int64_t e = IsUnknown(c->elements[i]) ? (a->elements[i] == b->elements[i] ? a->elements[i] : kUnknown)
                                                  : (c->elements[i] ? a->elements[i] : b->elements[i]);
      r.elements.push_back(e);
    }
    r.scalar = c->scalar;
  } else if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div") {
    auto a = in(0), b = in(1);
    if (!a || !b || node.inputs.size() != 2) return false;
    const size_t n = std::max(a->elements.size(), b->elements.size());
    if ((a->elements.size() != n && a->elements.size() != 1) || (b->elements.size() != n && b->elements.size() != 1))
      return false;
    for (size_t i = 0; i < n; ++i)
      r.elements.push_back(
          Arith(op, a->elements[a->elements.size() == 1 ? 0 : i], b->elements[b->elements.size() == 1 ? 0 : i]));
    r.scalar = a->scalar && b->scalar;
  } else {
    return false;
  }
  if (r.elements.size() > kMaxElements) return false;
  values_[out] = std::move(r);
  return true;
}

std::optional<Shape> PartialValues::OutputShape(const Graph& g, const Node& node) const {
  if (!node.domain.empty() || node.inputs.empty()) return std::nullopt;
  const std::string& op = node.type;
  if (op == "Range") return Shape({Shape::kUnknownDim});
  auto dims_of = [](const PartialValue& p) {
    std::vector<int64_t> d;
    for (int64_t e : p.elements) d.push_back(e == kUnknown || e < 0 ? Shape::kUnknownDim : e);
    return d;
  };
  if (op == "ConstantOfShape") {
    auto p = Get(g, node.inputs[0]);
    if (!p || p->scalar) return std::nullopt;
    return Shape(dims_of(*p));
  }
  if (node.inputs.size() < 2) return std::nullopt;
  auto p = Get(g, node.inputs[1]);
  if (!p || p->scalar) return std::nullopt;
  const Shape& x = g.value(node.inputs[0]).desc.shape;
  if (op == "Reshape") {
    const int64_t* allowzero = node.GetAttr<int64_t>("allowzero");
    std::vector<int64_t> d;
    int64_t minus_one = -1, known = 1;
    // The target's symbols (its unknown elements, all of them symbols when `symbolic`).
    std::vector<int64_t> symbols;
    bool symbolic = true;
    for (size_t i = 0; i < p->elements.size(); ++i) {
      int64_t e = p->elements[i];
      if (e == 0 && !(allowzero && *allowzero)) {
        const bool in_x = !x.IsUnknownRank() && i < x.GetDimNum();
        e = in_x && x.GetDim(i) >= 0 ? x.GetDim(i) : in_x ? RecordedSymbol(node.inputs[0], i) : kUnknown;
      }
      if (e == -1) {
        if (minus_one >= 0) return std::nullopt;  // two -1s: the model is invalid, let inference say so
        minus_one = static_cast<int64_t>(i);
        d.push_back(Shape::kUnknownDim);
        continue;
      }
      if (!IsUnknown(e) && e < 0) return std::nullopt;
      d.push_back(IsUnknown(e) ? Shape::kUnknownDim : e);
      if (IsUnknown(e)) {
        symbolic &= PartialValue::IsSymbol(e);
        symbols.push_back(e);
        continue;
      }
      // A product past int64 (a target shape [0, 2^63 - 1, -1]) leaves the -1 dim unknown;
      // shape inference rejects such a shape with its message.
      if (known < 0 || !CheckedMul(known, e, &known)) known = -1;
    }
    // The -1 dim, when the input's size is the other dims' known product times the same
    // symbols (none where the input is static).
    if (minus_one >= 0 && known > 0 && symbolic && !x.IsUnknownRank()) {
      std::vector<int64_t> x_symbols;
      int64_t x_known = 1;
      for (size_t i = 0; i < x.GetDimNum() && x_known > 0; ++i) {
        const int64_t xd = x.GetDim(i);
        if (xd >= 0) {
          if (!CheckedMul(x_known, xd, &x_known)) x_known = -1;
          continue;
        }
        const int64_t s = RecordedSymbol(node.inputs[0], i);
        if (s == kUnknown) x_known = -1;
        x_symbols.push_back(s);
      }
      std::sort(symbols.begin(), symbols.end());
      std::sort(x_symbols.begin(), x_symbols.end());
      if (x_known >= 0 && symbols == x_symbols && x_known % known == 0) d[minus_one] = x_known / known;
    }
    return Shape(d);
  }
  if (op == "Expand") {
    if (x.IsUnknownRank()) return std::nullopt;
    const auto xr = static_cast<int64_t>(x.GetDimNum()), sr = static_cast<int64_t>(p->elements.size());
    const int64_t rank = std::max(xr, sr);
    std::vector<int64_t> d(rank);
    for (int64_t i = 0; i < rank; ++i) {
      const int64_t xd = i - (rank - xr) >= 0 ? x.GetDim(i - (rank - xr)) : 1;
      const int64_t sd = i - (rank - sr) >= 0 ? p->elements[i - (rank - sr)] : 1;
      if (!IsUnknown(sd) && sd != 1) {
        d[i] = sd;
      } else if (sd == 1) {
        d[i] = xd;
      } else {
        d[i] = xd > 1 ? xd : Shape::kUnknownDim;  // an unknown dim broadcasts against xd
      }
    }
    return Shape(d);
  }
  return std::nullopt;
}

int64_t PartialValues::DimSymbol(ValueId v, size_t dim) {
  auto& syms = dim_symbols_[v];
  if (syms.size() <= dim) syms.resize(dim + 1, kUnknown);
  if (syms[dim] == kUnknown && next_symbol_ < PartialValue::kMaxSymbols) syms[dim] = kUnknown + 1 + next_symbol_++;
  return syms[dim];
}

int64_t PartialValues::RecordedSymbol(ValueId v, size_t dim) const {
  auto it = dim_symbols_.find(v);
  return it != dim_symbols_.end() && dim < it->second.size() ? it->second[dim] : kUnknown;
}

void PartialValues::PropagateDimSymbols(const Graph& g, const Node& node) {
  if (!node.domain.empty() || node.inputs.empty() || node.inputs[0] == kNoValue || node.outputs.empty() ||
      node.outputs[0] == kNoValue)
    return;
  const Shape& y = g.value(node.outputs[0]).desc.shape;
  const Shape& x = g.value(node.inputs[0]).desc.shape;
  if (y.IsUnknownRank() || y.IsStatic()) return;
  std::vector<int64_t> syms(y.GetDimNum(), kUnknown);  // the symbol of each output dim, or kUnknown
  const size_t rank = y.GetDimNum();
  if (node.type == "Transpose") {
    if (x.IsUnknownRank() || x.GetDimNum() != rank) return;
    const auto* perm = node.GetAttr<std::vector<int64_t>>("perm");
    if (perm && perm->size() != rank) return;
    for (size_t i = 0; i < rank; ++i) {
      const int64_t from = perm ? (*perm)[i] : static_cast<int64_t>(rank - 1 - i);
      if (from >= 0 && static_cast<size_t>(from) < rank) syms[i] = RecordedSymbol(node.inputs[0], from);
    }
  } else if (node.type == "Reshape" && node.inputs.size() > 1) {
    auto p = Get(g, node.inputs[1]);
    if (!p || p->scalar || p->elements.size() != rank) return;
    const int64_t* allowzero = node.GetAttr<int64_t>("allowzero");
    for (size_t i = 0; i < rank; ++i) {
      const int64_t e = p->elements[i];
      if (e == 0 && !(allowzero && *allowzero))
        syms[i] = !x.IsUnknownRank() && i < x.GetDimNum() ? RecordedSymbol(node.inputs[0], i) : kUnknown;
      else if (PartialValue::IsSymbol(e))
        syms[i] = e;
    }
  } else {
    return;
  }
  bool any = false;
  for (size_t i = 0; i < rank; ++i) {
    if (y.GetDim(i) >= 0) syms[i] = kUnknown;
    any |= syms[i] != kUnknown;
  }
  if (any) dim_symbols_[node.outputs[0]] = std::move(syms);
}

}  // namespace ge
