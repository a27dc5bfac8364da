// Partial values (ONNX's "data propagation"): the known elements of the small integer tensors a
// model computes from shapes, where some dims are dynamic. Shape(x) of a float[?, 1, 768] is
// [?, 1, 768]; Gather(that, 2) is 768, a constant although x is dynamic; Concat(Unsqueeze(
// Gather(Shape(x), 0)), [4], [64]) is [?, 4, 64], so the Reshape reading it has rank 3 and two
// known dims. Static inference (RunStaticInference) keeps one PartialValues for a graph: a
// partial value whose elements are all known becomes a constant (and folds the chain further),
// and Reshape, Expand, ConstantOfShape and Range get output ranks and dims from partial inputs
// where their own inference only sees "not a constant".
//
// Rules (ai.onnx, int32/int64 values of rank 0 or 1, at most kMaxElements): Shape (start/end),
// Gather on axis 0 with constant indices, Unsqueeze of a scalar, Squeeze to a scalar, Concat,
// Cast to an integer type, Identity, Slice with constant parameters, Reshape of a 1-D value to
// 1-D, Equal (bool, never folded), Where, and Add, Sub, Mul, Div of non-negative elements (one
// side may broadcast one element). Anything else has no partial value.
//
// Dim symbols: an element Shape(x) gives for an unknown dim of x is not just unknown but the
// symbol of that dim, and Reshape and Transpose carry symbols from their inputs' dims and
// target shapes to their outputs' unknown dims. A Reshape whose target holds the same symbols as
// its input's unknown dims then knows its -1 dim: PyTorch's channel shuffle, x.view(b, g, c / g,
// h, w).transpose(1, 2).view(b, -1, h, w) with b = x.size(0) dynamic, reshapes [b, 58, 2, 28, 28]
// to [b, -1, 28, 28], whose -1 is 116 whatever b is.
#ifndef GE_SRC_COMPILER_PARTIAL_VALUES_H_
#define GE_SRC_COMPILER_PARTIAL_VALUES_H_

#include <cstdint>
#include <limits>
#include <optional>
#include <unordered_map>
#include <vector>

#include "graph/graph.h"

namespace ge {

struct PartialValue {
  static constexpr int64_t kUnknown = std::numeric_limits<int64_t>::min();
  // Elements in (kUnknown, kUnknown + kMaxSymbols] are dim symbols: unknown, but equal to every
  // other element or dim of the same symbol.
  static constexpr int64_t kMaxSymbols = int64_t{1} << 30;
  static bool IsUnknown(int64_t e) { return e <= kUnknown + kMaxSymbols; }
  static bool IsSymbol(int64_t e) { return e != kUnknown && IsUnknown(e); }
  std::vector<int64_t> elements;  // kUnknown (or a symbol) where not known
  bool scalar = false;            // rank 0 (one element) rather than rank 1
  bool AllKnown() const;
};

class PartialValues {
 public:
  static constexpr size_t kMaxElements = 64;

  // The value's partial value: its constant's (int32/int64, rank <= 1) or the one propagated.
  std::optional<PartialValue> Get(const Graph& g, ValueId v) const;
  // Computes the partial value of the node's first output from its inputs; true if it has one.
  bool Propagate(const Graph& g, const Node& node);
  // The output shape of a Reshape, Expand, ConstantOfShape or Range whose inference left it of
  // unknown rank, from partial inputs; nullopt when nothing is known.
  std::optional<Shape> OutputShape(const Graph& g, const Node& node) const;
  // Records the symbols of the node's output dims that are unknown once its output shape is
  // set (Reshape: from its target's symbols and copied dims; Transpose: its input's, permuted).
  void PropagateDimSymbols(const Graph& g, const Node& node);

 private:
  // The symbol of dim `dim` of v (unknown there), made on first use.
  int64_t DimSymbol(ValueId v, size_t dim);
  // The symbol recorded for that dim, or kUnknown.
  int64_t RecordedSymbol(ValueId v, size_t dim) const;

  std::unordered_map<ValueId, PartialValue> values_;
  std::unordered_map<ValueId, std::vector<int64_t>> dim_symbols_;  // kUnknown where none
  int64_t next_symbol_ = 0;
};

// The constant a fully known partial value stands for (int64, or int32 when dtype says so).
HostTensor PartialValueConstant(const PartialValue& p, DataType dtype);

}  // namespace ge

#endif  // GE_SRC_COMPILER_PARTIAL_VALUES_H_
