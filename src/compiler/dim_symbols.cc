#include "compiler/dim_symbols.h"

#include <algorithm>
#include <string>
#include <unordered_set>

namespace ge {
namespace {

constexpr int64_t kNoKey = INT64_MIN;  // a rule that knows nothing about the dim

// Ops whose output 0 has input 0's shape.
const std::unordered_set<std::string>& ShapePreserving() {
  static const std::unordered_set<std::string> kOps = {"Relu",
                                                       "LeakyRelu",
                                                       "PRelu",
                                                       "Elu",
                                                       "Selu",
                                                       "Celu",
                                                       "Gelu",
                                                       "Clip",
                                                       "Sigmoid",
                                                       "HardSigmoid",
                                                       "HardSwish",
                                                       "Tanh",
                                                       "Softplus",
                                                       "Mish",
                                                       "Erf",
                                                       "Exp",
                                                       "Log",
                                                       "Sqrt",
                                                       "Reciprocal",
                                                       "Neg",
                                                       "Abs",
                                                       "Floor",
                                                       "Ceil",
                                                       "Round",
                                                       "Sign",
                                                       "Not",
                                                       "Identity",
                                                       "Cast",
                                                       "Dropout",
                                                       "BatchNormalization",
                                                       "InstanceNormalization",
                                                       "LRN",
                                                       "Softmax",
                                                       "LogSoftmax",
                                                       "LayerNormalization",
                                                       "Sin",
                                                       "Cos",
                                                       "IsNaN"};
  return kOps;
}

// Numpy-broadcasting ops: every input aligned at the last dim.
const std::unordered_set<std::string>& Broadcasting() {
  static const std::unordered_set<std::string> kOps = {
      "Add", "Sub", "Mul", "Div",   "Pow",  "Max",     "Min",   "Sum",         "Mean",
      "And", "Or",  "Xor", "Equal", "Less", "Greater", "Where", "LessOrEqual", "GreaterOrEqual",
      "Mod"};
  return kOps;
}

// Ops whose output 0 keeps input 0's batch (dim 0) and, for the global pools, its channels.
const std::unordered_set<std::string>& BatchPreserving() {
  static const std::unordered_set<std::string> kOps = {"Conv",   "ConvTranspose",     "MaxPool",       "AveragePool",
                                                       "LpPool", "GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool"};
  return kOps;
}

int64_t IntAttr(const Node& n, const char* key, int64_t def) {
  const int64_t* v = n.GetAttr<int64_t>(key);
  return v ? *v : def;
}

// The broadcast of the keys at one aligned position: a static size other than 1 wins (the
// broadcast's result, or the model is invalid); else one symbol shared by every operand.
int64_t BroadcastKey(const std::vector<int64_t>& keys) {
  int64_t size = kNoKey, sym = kNoKey;
  for (int64_t k : keys) {
    if (k == kNoKey || k == 0) return kNoKey;  // 0 is left to the static shape
    if (k > 1) {
      if (size != kNoKey && size != k) return kNoKey;  // invalid: shape inference reports it
      size = k;
    } else if (k < 0) {
      if (sym != kNoKey && sym != k) return kNoKey;
      sym = k;
    }
  }
  return size != kNoKey ? size : sym;  // 1s broadcast
}

}  // namespace

DimSymbols::DimSymbols(const Graph& g) : keys_(g.num_values()), ranked_(g.num_values(), false) {
  int64_t next = -1;
  auto fresh = [&](ValueId v) {
    const Shape& s = g.value(v).desc.shape;
    if (s.IsUnknownRank()) return;
    ranked_[v] = true;
    keys_[v].clear();
    for (int64_t d : s.GetDims()) keys_[v].push_back(d >= 0 ? d : next--);
  };
  // What a rule derived (kNoKey: nothing) fills the output's unknown dims.
  auto apply = [&](ValueId v, const std::vector<int64_t>& rule) {
    if (!ranked_[v] || rule.size() != keys_[v].size()) return;
    const Shape& s = g.value(v).desc.shape;
    for (size_t i = 0; i < rule.size(); ++i)
      if (s.GetDim(i) < 0 && rule[i] != kNoKey) keys_[v][i] = rule[i];
  };
  auto in = [&](const Node& n, size_t i) -> const std::vector<int64_t>* {
    if (i >= n.inputs.size() || n.inputs[i] == kNoValue || !ranked_[n.inputs[i]]) return nullptr;
    return &keys_[n.inputs[i]];
  };

  for (size_t v = 0; v < g.num_values(); ++v) fresh(static_cast<ValueId>(v));
  std::vector<NodeId> order;
  if (!g.TopologicalOrder(&order).ok()) return;  // every dim keeps a symbol of its own
  for (NodeId id : order) {
    const Node& n = g.node(id);
    if (!n.domain.empty() || n.outputs.empty() || n.outputs[0] == kNoValue) continue;
    const ValueId y = n.outputs[0];
    if (!ranked_[y]) continue;
    const size_t rank = keys_[y].size();
    std::vector<int64_t> rule(rank, kNoKey);
    const std::vector<int64_t>* x = in(n, 0);
    if (ShapePreserving().count(n.type)) {
      if (x && x->size() == rank) rule = *x;
    } else if (Broadcasting().count(n.type)) {
      std::vector<const std::vector<int64_t>*> ops;
      for (size_t i = 0; i < n.inputs.size(); ++i) ops.push_back(in(n, i));
      for (size_t j = 0; j < rank; ++j) {  // j counts from the last dim
        std::vector<int64_t> at;
        for (const auto* o : ops) {
          if (!o)
            at.push_back(kNoKey);
          else if (j < o->size())
            at.push_back((*o)[o->size() - 1 - j]);
        }
        rule[rank - 1 - j] = BroadcastKey(at);
      }
    } else if (BatchPreserving().count(n.type)) {
      if (x && x->size() == rank && rank >= 1) rule[0] = (*x)[0];
      if (x && x->size() == rank && rank >= 2 && n.type.rfind("Global", 0) == 0) rule[1] = (*x)[1];
    } else if (n.type == "Transpose") {
      const auto* perm = n.GetAttr<std::vector<int64_t>>("perm");
      if (x && x->size() == rank) {
        for (size_t i = 0; i < rank; ++i) {
          int64_t p = perm ? (i < perm->size() ? (*perm)[i] : -1) : static_cast<int64_t>(rank - 1 - i);
          if (p >= 0 && p < static_cast<int64_t>(rank)) rule[i] = (*x)[p];
        }
      }
    } else if (n.type == "Concat" || n.type == "Split") {
      int64_t axis = IntAttr(n, "axis", 0);
      if (axis < 0) axis += static_cast<int64_t>(rank);
      if (x && x->size() == rank) {
        for (size_t i = 0; i < rank; ++i)
          if (static_cast<int64_t>(i) != axis) rule[i] = (*x)[i];  // the non-axis dims agree
        if (n.type == "Split") {
          for (ValueId o : n.outputs) {
            if (o == kNoValue) continue;
            apply(o, rule);
          }
          continue;
        }
      }
    } else if (n.type == "Flatten") {
      if (x && rank == 2 && IntAttr(n, "axis", 1) == 1 && !x->empty()) rule[0] = (*x)[0];
    } else if (n.type == "Gemm") {
      const std::vector<int64_t>* b = in(n, 1);
      if (x && x->size() == 2 && rank == 2) rule[0] = (*x)[IntAttr(n, "transA", 0) ? 1 : 0];
      if (b && b->size() == 2 && rank == 2) rule[1] = (*b)[IntAttr(n, "transB", 0) ? 0 : 1];
    } else if (n.type == "MatMul") {
      const std::vector<int64_t>* b = in(n, 1);
      if (x && b && x->size() >= 2 && b->size() >= 2 && rank == std::max(x->size(), b->size())) {
        rule[rank - 2] = (*x)[x->size() - 2];
        rule[rank - 1] = (*b)[b->size() - 1];
        for (size_t j = 2; j < rank; ++j) {  // batch dims broadcast
          std::vector<int64_t> at;
          if (j < x->size()) at.push_back((*x)[x->size() - 1 - j]);
          if (j < b->size()) at.push_back((*b)[b->size() - 1 - j]);
          rule[rank - 1 - j] = BroadcastKey(at);
        }
      }
    } else if (n.type == "Reshape") {
      const HostTensor* target = n.inputs.size() > 1 && n.inputs[1] != kNoValue && g.value(n.inputs[1]).constant
                                     ? &*g.value(n.inputs[1]).constant
                                     : nullptr;
      if (x && target && target->dtype() == DT_INT64 && IntAttr(n, "allowzero", 0) == 0 &&
          target->NumElements() == static_cast<int64_t>(rank)) {
        const int64_t* t = target->data_as<int64_t>();
        for (size_t i = 0; i < rank; ++i)
          if (t[i] == 0 && i < x->size()) rule[i] = (*x)[i];  // 0 copies the input's dim
      }
    }
    apply(y, rule);
  }
}

bool DimSymbols::SameShape(ValueId a, ValueId b) const {
  if (a < 0 || b < 0 || static_cast<size_t>(a) >= keys_.size() || static_cast<size_t>(b) >= keys_.size()) return false;
  return ranked_[a] && ranked_[b] && keys_[a] == keys_[b];
}

}  // namespace ge
