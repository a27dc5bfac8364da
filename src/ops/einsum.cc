// Einsum: any equation over up to kMaxIn operands (explicit or implicit output, ellipsis with
// broadcasting, repeated labels as diagonals). define: OpDef. create: the equation is parsed into
// labels with sizes and per-operand strides (tiling data). run: each output element sums the
// product of operands over the contracted labels (SPMD over output elements).
#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "ops/op_util.h"

namespace ge::ops_einsum {
using namespace ge::ops_util;

constexpr int kMaxIn = 4;
constexpr int kMaxLabels = 32;

struct EinsumTiling {
  int32_t n_in, n_labels, n_out_labels, dtype;  // labels [0, n_out_labels) index the output
  int64_t size[kMaxLabels];
  int64_t stride[kMaxIn][kMaxLabels];  // per operand; summed for repeated labels; 0 if absent
};

// Parsed equation: per operand (and the output) its label ids; letters are their own ids and
// ellipsis dims get ids 1000+k, right-aligned across operands.
struct Parsed {
  std::vector<std::vector<int>> ins;
  std::vector<int> out;
};

// Splits one term into label ids, expanding "..." into ids 1000, 1001, ... (rank < 0: the output,
// whose ellipsis has *ell_rank dims).
bool Term(const std::string& s, int64_t rank, int* ell_rank, std::vector<int>* labels) {
  size_t dots = s.find("...");
  int letters = 0;
  for (char ch : s)
    if (std::isalpha(static_cast<unsigned char>(ch))) ++letters;
  int ell = dots == std::string::npos ? 0 : static_cast<int>(rank) - letters;
  if (rank >= 0 && ell < 0) return false;
  if (rank >= 0 && dots != std::string::npos) *ell_rank = std::max(*ell_rank, ell);
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.compare(i, 3, "...") == 0) {
      int total = rank >= 0 ? ell : *ell_rank;
      for (int k = 0; k < total; ++k) labels->push_back(1000 + k);
      i += 2;
    } else if (std::isalpha(static_cast<unsigned char>(s[i]))) {
      labels->push_back(s[i]);
    } else if (s[i] != ' ') {
      return false;
    }
  }
  return rank < 0 || static_cast<int64_t>(labels->size()) == rank;
}

// Parses eq; false on a malformed one, with the reason in *why for output labels that ONNX (and
// NumPy) refuse: one not in any input, or one given twice ("bij,bjk->bikx" ran with x of size 1,
// "->bikk" gave a [5, 2, 4, 1] output; onnx_model harness).
bool Parse(std::string eq, const std::vector<int64_t>& ranks, Parsed* p, std::string* why) {
  std::string lhs = eq, rhs;
  size_t arrow = eq.find("->");
  bool implicit = arrow == std::string::npos;
  if (!implicit) {
    lhs = eq.substr(0, arrow);
    rhs = eq.substr(arrow + 2);
  }
  std::vector<std::string> terms(1);
  for (char ch : lhs) {
    if (ch == ',')
      terms.emplace_back();
    else
      terms.back() += ch;
  }
  if (terms.size() != ranks.size()) return false;
  int ell_rank = 0;
  p->ins.assign(terms.size(), {});
  for (size_t i = 0; i < terms.size(); ++i)
    if (!Term(terms[i], ranks[i], &ell_rank, &p->ins[i])) return false;
  // Ellipsis ids are right-aligned: an operand with fewer ellipsis dims uses the last ones.
  for (size_t i = 0; i < terms.size(); ++i) {
    int ell = 0;
    for (int l : p->ins[i]) ell += l >= 1000;
    for (int& l : p->ins[i])
      if (l >= 1000) l += ell_rank - ell;
  }
  p->out.clear();
  if (!implicit) {
    if (!Term(rhs, -1, &ell_rank, &p->out)) return false;
    std::set<int> seen;
    for (int l : p->out) {
      if (l >= 1000) continue;  // ellipsis dims: as many as the inputs have
      bool in_input = false;
      for (const auto& in : p->ins) in_input = in_input || std::find(in.begin(), in.end(), l) != in.end();
      if (!in_input || !seen.insert(l).second) {
        *why = fmt::format("output label '{}' {} in equation '{}'", static_cast<char>(l),
                           in_input ? "appears more than once" : "is in no input", eq);
        return false;
      }
    }
    return true;
  }
  std::map<int, int> count;
  for (const auto& in : p->ins)
    for (int l : in) ++count[l];
  for (int k = 0; k < ell_rank; ++k) p->out.push_back(1000 + k);
  for (const auto& [l, n] : count)
    if (l < 1000 && n == 1) p->out.push_back(l);
  return true;
}

// Builds the tiling (labels, sizes, strides); false on a bad equation or mismatched sizes.
bool Build(const char* equation, const std::vector<gert::Shape>& shapes, EinsumTiling* t, std::vector<int64_t>* out,
           std::string* why) {
  std::vector<int64_t> ranks;
  for (const auto& s : shapes) ranks.push_back(static_cast<int64_t>(s.GetDimNum()));
  Parsed p;
  if (shapes.size() > kMaxIn || !Parse(equation ? equation : "", ranks, &p, why)) return false;
  std::vector<int> order = p.out;
  for (const auto& in : p.ins)
    for (int l : in)
      if (std::find(order.begin(), order.end(), l) == order.end()) order.push_back(l);
  if (order.size() > kMaxLabels) return false;
  *t = EinsumTiling{};
  t->n_in = static_cast<int32_t>(shapes.size());
  t->n_labels = static_cast<int32_t>(order.size());
  t->n_out_labels = static_cast<int32_t>(p.out.size());
  for (int i = 0; i < t->n_labels; ++i) t->size[i] = 1;
  for (size_t k = 0; k < shapes.size(); ++k) {
    int64_t strides[gert::Shape::kMaxDimNum] = {};
    ContiguousStrides(shapes[k].GetDims(), static_cast<int>(ranks[k]), strides);
    for (size_t d = 0; d < p.ins[k].size(); ++d) {
      int li = static_cast<int>(std::find(order.begin(), order.end(), p.ins[k][d]) - order.begin());
      int64_t dim = shapes[k].GetDim(d);
      if (dim != 1) {
        if (t->size[li] != 1 && t->size[li] != dim) return false;
        t->size[li] = dim;
        t->stride[k][li] += strides[d];
      }
    }
  }
  out->clear();
  for (int i = 0; i < t->n_out_labels; ++i) out->push_back(t->size[i]);
  return true;
}

template <typename Ctx, typename ShapeOf>
bool BuildFrom(const Ctx* ctx, ShapeOf shape_of, EinsumTiling* t, std::vector<int64_t>* out, std::string* why) {
  std::vector<gert::Shape> shapes;
  for (size_t i = 0; i < ctx->GetComputeNodeInputNum(); ++i) shapes.push_back(shape_of(i));
  return Build(ctx->GetAttrs() ? ctx->GetAttrs()->GetStr(0) : nullptr, shapes, t, out, why);
}

ge::graphStatus InferShape(gert::InferShapeContext* ctx) {
  EinsumTiling t;
  std::vector<int64_t> out;
  std::string why;
  if (!BuildFrom(
          ctx, [&](size_t i) { return *ctx->GetInputShape(i); }, &t, &out, &why))
    return InferFail(why);
  SetDims(ctx->GetOutputShape(0), out);
  return ge::GRAPH_SUCCESS;
}

// Every operand of one dtype, the output's (a double operand with an int32 one read the int32
// tensor as doubles, past its end: heap-buffer-overflow, onnx_model harness).
ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx) {
  const ge::DataType dt = ctx->GetInputDataType(0);
  for (size_t i = 1; i < ctx->GetComputeNodeInputNum(); ++i)
    if (ctx->GetInputDataType(i) != dt)
      return InferFail(fmt::format("expected every input of one dtype, got {} (input 0) and {} (input {})",
                                   ge::DataTypeName(dt), ge::DataTypeName(ctx->GetInputDataType(i)), i));
  return ctx->SetOutputDataType(0, dt);
}

ge::graphStatus Tiling(gert::TilingContext* ctx) {
  EinsumTiling t;
  std::vector<int64_t> out;
  std::string why;
  if (!BuildFrom(
          ctx, [&](size_t i) { return ctx->GetInputShape(i)->GetStorageShape(); }, &t, &out, &why))
    return InferFail(why);
  t.dtype = ctx->GetInputDesc(0)->GetDataType();
  for (size_t i = 1; i < ctx->GetComputeNodeInputNum(); ++i)  // the kernel reads every operand as t.dtype
    if (ctx->GetInputDesc(i)->GetDataType() != t.dtype) return ge::GRAPH_FAILED;
  int64_t numel = 1, work = 1;
  for (int i = 0; i < t.n_labels; ++i) (i < t.n_out_labels ? numel : work) *= t.size[i];
  ctx->SetBlockDim(ChooseBlockDim(ctx, numel * work, 1 << 14));
  return SetTiling(ctx, t);
}

template <typename T>
void Run(const EinsumTiling& t, const aclrtKernelArgs* args, int64_t begin, int64_t end) {
  using C = ComputeT<T>;
  const T* in[kMaxIn];
  for (int k = 0; k < t.n_in; ++k) in[k] = static_cast<const T*>(args->addrs[k]);
  T* y = static_cast<T*>(args->addrs[t.n_in]);
  int64_t reduce = 1;
  for (int i = t.n_out_labels; i < t.n_labels; ++i) reduce *= t.size[i];
  for (int64_t o = begin; o < end; ++o) {
    int64_t base[kMaxIn] = {}, rem = o;
    for (int i = t.n_out_labels - 1; i >= 0; --i) {
      int64_t idx = rem % t.size[i];
      rem /= t.size[i];
      for (int k = 0; k < t.n_in; ++k) base[k] += idx * t.stride[k][i];
    }
    C acc = C(0);
    for (int64_t r = 0; r < reduce; ++r) {
      int64_t off[kMaxIn], rr = r;
      for (int k = 0; k < t.n_in; ++k) off[k] = base[k];
      for (int i = t.n_labels - 1; i >= t.n_out_labels; --i) {
        int64_t idx = rr % t.size[i];
        rr /= t.size[i];
        for (int k = 0; k < t.n_in; ++k) off[k] += idx * t.stride[k][i];
      }
      C prod = C(1);
      for (int k = 0; k < t.n_in; ++k) prod *= static_cast<C>(in[k][off[k]]);
      acc += prod;
    }
    y[o] = static_cast<T>(acc);
  }
}

using EinsumTypes =
    DtypeSet<DtypeEntry<ge::DT_FLOAT, float>, DtypeEntry<ge::DT_DOUBLE, double>, DtypeEntry<ge::DT_FLOAT16, Half>,
             DtypeEntry<ge::DT_INT32, int32_t>, DtypeEntry<ge::DT_INT64, int64_t>>;

void Kernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<EinsumTiling>(args);
  int64_t b, e;
  BlockRange(kernels::NumElements(t.size, t.n_out_labels), args->blockIdx, args->blockDim, &b, &e);
  Dispatch<EinsumTypes>(t.dtype, [&](auto tag) { Run<TypeOf<decltype(tag)>>(t, args, b, e); });
}

}  // namespace ge::ops_einsum

namespace ops {
using namespace ge::ops_einsum;
class Einsum : public OpDef {
 public:
  explicit Einsum(const char* name) : OpDef(name) {
    this->Input("Inputs").ParamType(DYNAMIC).DataType(
        {ge::DT_FLOAT, ge::DT_DOUBLE, ge::DT_FLOAT16, ge::DT_INT32, ge::DT_INT64});
    this->Output("Output").ParamType(REQUIRED).DataType(
        {ge::DT_FLOAT, ge::DT_DOUBLE, ge::DT_FLOAT16, ge::DT_INT32, ge::DT_INT64});
    this->Attr("equation").AttrType(REQUIRED).String();
    this->SetInferShape(InferShape);
    this->SetInferDataType(InferDataType);
    this->AICore().SetTiling(Tiling).SetKernel(Kernel).AddConfig("ascend910b");
  }
};
OP_ADD(Einsum);
}  // namespace ops
