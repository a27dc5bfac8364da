// The textual IR printer and parser (format in graph_text.h).
#include "ge/graph_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <set>
#include <sstream>
#include <unordered_map>

namespace ge {
namespace {

// ---- printing ---------------------------------------------------------------------------------

bool IsBareChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '/' || c == '-';
}

std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string NameText(const std::string& s) {
  bool bare = !s.empty() && s != "_";
  for (char c : s) bare = bare && IsBareChar(c);
  return bare ? s : Quote(s);
}

std::string TypeText(const TensorDesc& d) {
  std::string prefix = d.kind == ValueKind::kSequence ? "sequence " : d.kind == ValueKind::kOptional ? "optional " : "";
  return prefix + d.ToString();
}

// A float that always reads back as a float: "1.0", "1e-05", "inf", "nan".
std::string FloatText(float x) {
  std::string s = fmt::format("{}", x);
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";  // 'n': inf / nan
  return s;
}

template <typename T>
void AppendElements(const HostTensor& t, std::vector<std::string>* out) {
  const T* p = t.data_as<T>();
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    if constexpr (std::is_floating_point_v<T>)
      out->push_back(fmt::format("{}", p[i]));
    else
      out->push_back(std::to_string(static_cast<int64_t>(p[i])));
  }
}

// The elements as text, or false for dtypes without a literal form.
bool ElementsText(const HostTensor& t, std::vector<std::string>* out) {
  switch (t.dtype()) {
    case DT_FLOAT: AppendElements<float>(t, out); return true;
    case DT_DOUBLE: AppendElements<double>(t, out); return true;
    case DT_INT8: AppendElements<int8_t>(t, out); return true;
    case DT_INT16: AppendElements<int16_t>(t, out); return true;
    case DT_INT32: AppendElements<int32_t>(t, out); return true;
    case DT_INT64: AppendElements<int64_t>(t, out); return true;
    case DT_UINT8: AppendElements<uint8_t>(t, out); return true;
    case DT_UINT16: AppendElements<uint16_t>(t, out); return true;
    case DT_UINT32: AppendElements<uint32_t>(t, out); return true;
    case DT_UINT64: {
      const auto* p = t.data_as<uint64_t>();
      for (int64_t i = 0; i < t.NumElements(); ++i) out->push_back(std::to_string(p[i]));
      return true;
    }
    case DT_BOOL: AppendElements<uint8_t>(t, out); return true;
    default: return false;
  }
}

std::string TensorText(const HostTensor& t, const TextOptions& opt) {
  std::vector<std::string> elems;
  // Opaque: large, or bytes released after loading (HostTensor::ReleaseBytes).
  bool released = t.data() == nullptr && t.NumElements() > 0;
  if (released || t.NumElements() < 0 || t.NumElements() > opt.max_literal_elements || !ElementsText(t, &elems))
    return "opaque";
  return fmt::format("[{}]", fmt::join(elems, ", "));
}

std::string AttrText(const AttrValue& v, const TextOptions& opt) {
  struct Visitor {
    const TextOptions& opt;
    std::string operator()(int64_t x) const { return std::to_string(x); }
    std::string operator()(float x) const { return FloatText(x); }
    std::string operator()(const std::string& x) const { return Quote(x); }
    std::string operator()(const std::vector<int64_t>& x) const { return fmt::format("[{}]", fmt::join(x, ", ")); }
    std::string operator()(const std::vector<float>& x) const {
      if (x.empty()) return "f[]";
      std::vector<std::string> s;
      for (float f : x) s.push_back(FloatText(f));
      return fmt::format("[{}]", fmt::join(s, ", "));
    }
    std::string operator()(const std::vector<std::string>& x) const {
      std::vector<std::string> s;
      for (const auto& e : x) s.push_back(Quote(e));
      return fmt::format("[{}]", fmt::join(s, ", "));
    }
    std::string operator()(const HostTensor& t) const {
      return fmt::format("tensor {} = {}", TypeText(t.desc()), TensorText(t, opt));
    }
    std::string operator()(const std::shared_ptr<Graph>& g) const { return "graph " + NameText(g ? g->name() : ""); }
    std::string operator()(const std::vector<std::shared_ptr<Graph>>& g) const {
      std::vector<std::string> s;
      for (const auto& e : g) s.push_back("graph " + NameText(e ? e->name() : ""));
      return fmt::format("[{}]", fmt::join(s, ", "));
    }
  };
  return std::visit(Visitor{opt}, v);
}

// ---- lexing -----------------------------------------------------------------------------------

struct Token {
  enum Kind { kWord, kString, kPunct, kEnd } kind = kEnd;
  std::string text;
};

Status Lex(const std::string& line, int line_no, std::vector<Token>* out) {
  size_t i = 0;
  while (i < line.size()) {
    char c = line[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '#') {
      break;
    } else if (c == '"') {
      std::string s;
      ++i;
      while (i < line.size() && line[i] != '"') {
        if (line[i] == '\\' && i + 1 < line.size()) ++i;
        s += line[i++];
      }
      if (i >= line.size()) return InvalidArgument("line {}: unterminated string", line_no);
      ++i;
      out->push_back({Token::kString, s});
    } else if (IsBareChar(c) || c == '+') {
      size_t j = i;
      while (j < line.size() && (IsBareChar(line[j]) || line[j] == '+')) ++j;
      out->push_back({Token::kWord, line.substr(i, j - i)});
      i = j;
    } else if (std::strchr(":=(){}[],@?", c)) {
      out->push_back({Token::kPunct, std::string(1, c)});
      ++i;
    } else {
      return InvalidArgument("line {}: unexpected character '{}'", line_no, c);
    }
  }
  out->push_back({Token::kEnd, ""});
  return Status::Ok();
}

// ---- parsing ----------------------------------------------------------------------------------

DataType DataTypeFromName(const std::string& s) {
  for (int d = 0; d < DT_MAX; ++d) {
    auto dt = static_cast<DataType>(d);
    if (dt != DT_UNDEFINED && s == DataTypeName(dt)) return dt;
  }
  return DT_UNDEFINED;
}

class LineParser {
 public:
  LineParser(std::vector<Token> toks, int line_no) : toks_(std::move(toks)), line_(line_no) {}

  const Token& Peek() const { return toks_[pos_]; }
  bool AtEnd() const { return Peek().kind == Token::kEnd; }
  bool IsPunct(const char* p) const { return Peek().kind == Token::kPunct && Peek().text == p; }
  bool TryPunct(const char* p) {
    if (!IsPunct(p)) return false;
    ++pos_;
    return true;
  }
  Status Expect(const char* p) {
    if (TryPunct(p)) return Status::Ok();
    return Error(fmt::format("expected '{}'", p));
  }
  Status Error(const std::string& what) const {
    std::string got = AtEnd() ? "end of line" : "'" + Peek().text + "'";
    return InvalidArgument("line {}: {}, got {}", line_, what, got);
  }
  Status Word(std::string* w) {
    if (Peek().kind != Token::kWord) return Error("expected a word");
    *w = toks_[pos_++].text;
    return Status::Ok();
  }
  // A value or node name: a bare word or a quoted string.
  Status Name(std::string* n) {
    if (Peek().kind != Token::kWord && Peek().kind != Token::kString) return Error("expected a name");
    *n = toks_[pos_++].text;
    return Status::Ok();
  }
  Status Int(int64_t* v) {
    std::string w;
    GE_RETURN_IF_ERROR(Word(&w));
    char* end = nullptr;
    *v = std::strtoll(w.c_str(), &end, 10);
    if (*end != '\0') return InvalidArgument("line {}: expected an integer, got '{}'", line_, w);
    return Status::Ok();
  }
  // dtype[dims], optionally prefixed by sequence/optional.
  Status Type(TensorDesc* d) {
    std::string w;
    GE_RETURN_IF_ERROR(Word(&w));
    if (w == "sequence" || w == "optional") {
      d->kind = w == "sequence" ? ValueKind::kSequence : ValueKind::kOptional;
      GE_RETURN_IF_ERROR(Word(&w));
    }
    d->dtype = DataTypeFromName(w);
    if (d->dtype == DT_UNDEFINED && w != "undefined") return InvalidArgument("line {}: unknown dtype '{}'", line_, w);
    GE_RETURN_IF_ERROR(Expect("["));
    std::vector<int64_t> dims;
    if (TryPunct("?")) {  // `[?]`: unknown rank; `[?, ...]`: an unknown first dim
      if (TryPunct("]")) {
        d->shape = Shape::UnknownRank();
        return Status::Ok();
      }
      dims.push_back(Shape::kUnknownDim);
    }
    while (!TryPunct("]")) {
      if (!dims.empty()) GE_RETURN_IF_ERROR(Expect(","));
      int64_t v = -1;
      if (!TryPunct("?")) GE_RETURN_IF_ERROR(Int(&v));
      dims.push_back(v < 0 ? Shape::kUnknownDim : v);
    }
    d->shape = Shape(std::move(dims));
    return Status::Ok();
  }
  // `[e, ...]` or `opaque`, into a tensor of type d.
  Status Literal(const TensorDesc& d, HostTensor* t) {
    if (!d.shape.IsStatic()) return Error("a constant needs a static shape");
    *t = HostTensor(d.dtype, d.shape);
    if (Peek().kind == Token::kWord && Peek().text == "opaque") {
      ++pos_;
      return Status::Ok();
    }
    GE_RETURN_IF_ERROR(Expect("["));
    std::vector<std::string> elems;
    while (!TryPunct("]")) {
      if (!elems.empty()) GE_RETURN_IF_ERROR(Expect(","));
      std::string w;
      GE_RETURN_IF_ERROR(Word(&w));
      elems.push_back(w);
    }
    if (static_cast<int64_t>(elems.size()) != t->NumElements())
      return InvalidArgument("line {}: {} has {} elements, the literal {}", line_, TypeText(d), t->NumElements(),
                             elems.size());
    for (size_t i = 0; i < elems.size(); ++i) GE_RETURN_IF_ERROR(SetElement(t, i, elems[i]));
    return Status::Ok();
  }
  Status Attr(AttrValue* v) {
    if (Peek().kind == Token::kString) {
      *v = toks_[pos_++].text;
      return Status::Ok();
    }
    if (Peek().kind == Token::kWord && Peek().text == "tensor") {
      ++pos_;
      TensorDesc d;
      GE_RETURN_IF_ERROR(Type(&d));
      GE_RETURN_IF_ERROR(Expect("="));
      HostTensor t;
      GE_RETURN_IF_ERROR(Literal(d, &t));
      *v = std::move(t);
      return Status::Ok();
    }
    if (Peek().kind == Token::kWord && Peek().text == "f") {  // f[]: an empty float list
      ++pos_;
      GE_RETURN_IF_ERROR(Expect("["));
      GE_RETURN_IF_ERROR(Expect("]"));
      *v = std::vector<float>{};
      return Status::Ok();
    }
    if (Peek().kind == Token::kWord && Peek().text == "graph") return Error("subgraph attributes have no textual form");
    if (TryPunct("[")) {
      std::vector<std::string> words;
      bool strings = false, floats = false;
      while (!TryPunct("]")) {
        if (!words.empty()) GE_RETURN_IF_ERROR(Expect(","));
        if (Peek().kind == Token::kString) {
          strings = true;
          words.push_back(toks_[pos_++].text);
          continue;
        }
        std::string w;
        GE_RETURN_IF_ERROR(Word(&w));
        floats |= IsFloatWord(w);
        words.push_back(w);
      }
      if (strings) {
        *v = words;
      } else if (floats) {
        std::vector<float> f;
        for (const auto& w : words) f.push_back(std::strtof(w.c_str(), nullptr));
        *v = std::move(f);
      } else {
        std::vector<int64_t> ints;
        for (const auto& w : words) ints.push_back(std::strtoll(w.c_str(), nullptr, 10));
        *v = std::move(ints);
      }
      return Status::Ok();
    }
    std::string w;
    GE_RETURN_IF_ERROR(Word(&w));
    if (IsFloatWord(w)) {
      *v = std::strtof(w.c_str(), nullptr);
      return Status::Ok();
    }
    char* end = nullptr;
    int64_t i = std::strtoll(w.c_str(), &end, 10);
    if (*end != '\0') return InvalidArgument("line {}: expected an attribute value, got '{}'", line_, w);
    *v = i;
    return Status::Ok();
  }

 private:
  static bool IsFloatWord(const std::string& w) { return w.find_first_of(".eEn") != std::string::npos; }

  Status SetElement(HostTensor* t, size_t i, const std::string& w) {
    char* end = nullptr;
    switch (t->dtype()) {
      case DT_FLOAT: t->mutable_data_as<float>()[i] = std::strtof(w.c_str(), &end); break;
      case DT_DOUBLE: t->mutable_data_as<double>()[i] = std::strtod(w.c_str(), &end); break;
      case DT_INT8: t->mutable_data_as<int8_t>()[i] = static_cast<int8_t>(std::strtoll(w.c_str(), &end, 10)); break;
      case DT_INT16: t->mutable_data_as<int16_t>()[i] = static_cast<int16_t>(std::strtoll(w.c_str(), &end, 10)); break;
      case DT_INT32: t->mutable_data_as<int32_t>()[i] = static_cast<int32_t>(std::strtoll(w.c_str(), &end, 10)); break;
      case DT_INT64: t->mutable_data_as<int64_t>()[i] = std::strtoll(w.c_str(), &end, 10); break;
      case DT_UINT8:
      case DT_BOOL: t->mutable_data_as<uint8_t>()[i] = static_cast<uint8_t>(std::strtoull(w.c_str(), &end, 10)); break;
      case DT_UINT16:
        t->mutable_data_as<uint16_t>()[i] = static_cast<uint16_t>(std::strtoull(w.c_str(), &end, 10));
        break;
      case DT_UINT32:
        t->mutable_data_as<uint32_t>()[i] = static_cast<uint32_t>(std::strtoull(w.c_str(), &end, 10));
        break;
      case DT_UINT64: t->mutable_data_as<uint64_t>()[i] = std::strtoull(w.c_str(), &end, 10); break;
      default:
        return InvalidArgument("line {}: {} constants have no literal form (use opaque)", line_,
                               DataTypeName(t->dtype()));
    }
    if (end == nullptr || *end != '\0')
      return InvalidArgument("line {}: '{}' is not a {} element", line_, w, DataTypeName(t->dtype()));
    return Status::Ok();
  }

  std::vector<Token> toks_;
  size_t pos_ = 0;
  int line_;
};

}  // namespace

std::string GraphToText(const Graph& g, const TextOptions& opt) {
  std::string out = "graph " + NameText(g.name()) + "\n";
  std::set<ValueId> inputs(g.inputs().begin(), g.inputs().end());
  for (ValueId v : g.inputs())
    out += fmt::format("input {}: {}\n", NameText(g.value(v).name), TypeText(g.value(v).desc));
  std::vector<bool> used(g.num_values(), false);
  for (size_t n = 0; n < g.num_nodes(); ++n)
    for (ValueId v : g.node(n).inputs)
      if (v != kNoValue) used[v] = true;
  for (ValueId v : g.outputs()) used[v] = true;
  for (ValueId v = 0; v < static_cast<ValueId>(g.num_values()); ++v) {
    const Value& val = g.value(v);
    if (!used[v] || !val.constant || val.producer >= 0 || inputs.count(v)) continue;
    out += fmt::format("const {}: {} = {}\n", NameText(val.name), TypeText(val.constant->desc()),
                       TensorText(*val.constant, opt));
  }
  std::vector<NodeId> order;
  if (!g.TopologicalOrder(&order).ok()) {
    order.clear();
    for (NodeId n = 0; n < static_cast<NodeId>(g.num_nodes()); ++n) order.push_back(n);
  }
  for (NodeId n : order) {
    const Node& node = g.node(n);
    std::vector<std::string> outs, ins, attrs;
    for (ValueId v : node.outputs) {
      if (v == kNoValue) {
        outs.push_back("_");
        continue;
      }
      const TensorDesc& d = g.value(v).desc;
      bool typed = d.dtype != DT_UNDEFINED || !d.shape.IsUnknownRank();
      outs.push_back(NameText(g.value(v).name) + (typed ? ": " + TypeText(d) : ""));
    }
    for (ValueId v : node.inputs) ins.push_back(v == kNoValue ? "_" : NameText(g.value(v).name));
    for (const auto& [k, a] : node.attrs) attrs.push_back(NameText(k) + "=" + AttrText(a, opt));
    out += fmt::format("node {}: {} = {}{}({})", NameText(node.name), fmt::join(outs, ", "), NameText(node.type),
                       node.domain.empty() ? std::string() : fmt::format("@{}", NameText(node.domain)),
                       fmt::join(ins, ", "));
    if (!attrs.empty()) out += fmt::format(" {{{}}}", fmt::join(attrs, ", "));
    out += "\n";
  }
  if (!g.outputs().empty()) {
    std::vector<std::string> outs;
    for (ValueId v : g.outputs()) outs.push_back(NameText(g.value(v).name));
    out += fmt::format("output {}\n", fmt::join(outs, ", "));
  }
  return out;
}

Status ParseGraphText(const std::string& text, std::shared_ptr<Graph>* out) {
  std::istringstream in(text);
  std::string line;
  int line_no = 0;
  std::shared_ptr<Graph> g;
  std::unordered_map<std::string, ValueId> values;
  auto define = [&](const std::string& name, int ln) -> Status {
    if (values.count(name)) return InvalidArgument("line {}: value '{}' is defined twice", ln, name);
    return Status::Ok();
  };
  while (std::getline(in, line)) {
    ++line_no;
    std::vector<Token> toks;
    GE_RETURN_IF_ERROR(Lex(line, line_no, &toks));
    if (toks.front().kind == Token::kEnd) continue;
    LineParser p(std::move(toks), line_no);
    std::string kw;
    GE_RETURN_IF_ERROR(p.Word(&kw));
    if (kw == "graph") {
      if (g) return InvalidArgument("line {}: a second 'graph' line", line_no);
      std::string name;
      GE_RETURN_IF_ERROR(p.Name(&name));
      g = std::make_shared<Graph>(name);
    } else if (!g) {
      return InvalidArgument("line {}: expected 'graph NAME' first, got '{}'", line_no, kw);
    } else if (kw == "input" || kw == "const") {
      std::string name;
      TensorDesc d;
      GE_RETURN_IF_ERROR(p.Name(&name));
      GE_RETURN_IF_ERROR(define(name, line_no));
      GE_RETURN_IF_ERROR(p.Expect(":"));
      GE_RETURN_IF_ERROR(p.Type(&d));
      if (kw == "input") {
        values[name] = g->AddInput(name, d);
      } else {
        GE_RETURN_IF_ERROR(p.Expect("="));
        HostTensor t;
        GE_RETURN_IF_ERROR(p.Literal(d, &t));
        values[name] = g->AddConstant(name, std::move(t));
      }
    } else if (kw == "node") {
      std::string node_name, op, domain;
      GE_RETURN_IF_ERROR(p.Name(&node_name));
      GE_RETURN_IF_ERROR(p.Expect(":"));
      std::vector<ValueId> outs, ins;
      do {
        std::string name;
        GE_RETURN_IF_ERROR(p.Name(&name));
        if (name == "_") {
          outs.push_back(kNoValue);
          continue;
        }
        GE_RETURN_IF_ERROR(define(name, line_no));
        TensorDesc d;
        if (p.TryPunct(":")) GE_RETURN_IF_ERROR(p.Type(&d));
        outs.push_back(values[name] = g->AddValue(name, d));
      } while (p.TryPunct(","));
      GE_RETURN_IF_ERROR(p.Expect("="));
      GE_RETURN_IF_ERROR(p.Name(&op));
      if (p.TryPunct("@")) GE_RETURN_IF_ERROR(p.Name(&domain));
      GE_RETURN_IF_ERROR(p.Expect("("));
      while (!p.TryPunct(")")) {
        if (!ins.empty()) GE_RETURN_IF_ERROR(p.Expect(","));
        std::string name;
        GE_RETURN_IF_ERROR(p.Name(&name));
        if (name == "_") {
          ins.push_back(kNoValue);
          continue;
        }
        auto it = values.find(name);
        if (it == values.end())
          return InvalidArgument("line {}: node '{}' reads '{}', which is not defined above", line_no, node_name, name);
        ins.push_back(it->second);
      }
      AttrMap attrs;
      if (p.TryPunct("{")) {
        while (!p.TryPunct("}")) {
          if (!attrs.empty()) GE_RETURN_IF_ERROR(p.Expect(","));
          std::string key;
          GE_RETURN_IF_ERROR(p.Name(&key));
          GE_RETURN_IF_ERROR(p.Expect("="));
          AttrValue v;
          GE_RETURN_IF_ERROR(p.Attr(&v));
          attrs[key] = std::move(v);
        }
      }
      NodeId n = g->AddNode(node_name, op, std::move(ins), std::move(outs), std::move(attrs));
      g->node(n).domain = domain;
    } else if (kw == "output") {
      do {
        std::string name;
        GE_RETURN_IF_ERROR(p.Name(&name));
        auto it = values.find(name);
        if (it == values.end()) return InvalidArgument("line {}: output '{}' is not defined above", line_no, name);
        g->AddOutput(it->second);
      } while (p.TryPunct(","));
    } else {
      return InvalidArgument("line {}: expected graph, input, const, node or output, got '{}'", line_no, kw);
    }
    if (!p.AtEnd()) return p.Error("expected the end of the line");
  }
  if (!g) return InvalidArgument("no 'graph NAME' line");
  *out = std::move(g);
  return Status::Ok();
}

}  // namespace ge
