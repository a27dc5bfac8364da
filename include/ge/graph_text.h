// The textual IR: a Graph printed as text, one declaration per line, and parsed back — what
// the compiler's pass tests are written in (before/after, MLIR-style, with ge/graph_passes.h),
// what `ge run --dump-graph` writes and what debug logs show.
//
//   graph small_cnn
//   input x: float32[1, 3, 8, 8]
//   const w: float32[2, 3, 1, 1] = [0.5, -1, 2, 0.25, 1, 1]
//   const big: float32[64, 3, 7, 7] = opaque
//   node conv0: y: float32[1, 2, 8, 8] = Conv(x, w, _) {pads=[0, 0, 0, 0], strides=[1, 1]}
//   node relu0: z = Relu(y)
//   output z
//
// * Names are bare when made of letters, digits and `_ . / : -` (and not `_` alone), otherwise
//   quoted ("a b"). `_` is an absent optional input or output.
// * A type is `dtype[dims]` as TensorDesc::ToString prints it: `float32[1, -1]` (-1 or ? = an
//   unknown dim), `float32[?]` (unknown rank), `int64[]` (a scalar); a sequence or optional
//   value is prefixed `sequence `/`optional `. A node output without a type is left unknown.
// * Constants print their elements as a flat list (row-major) when they have at most
//   TextOptions::max_literal_elements elements of a numeric or bool dtype, else `opaque`. Parsing
//   `opaque` gives a zero-filled tensor of the declared type (enough for structural tests).
// * Attributes: ints `3`, floats always with a point or exponent (`1.0`, `1e-05`), strings
//   `"s"`, lists `[1, 2]` / `[1.0, 2.0]` / `["a"]` (an empty float list is `f[]`), tensors
//   `tensor float32[2] = [1, 2]`; subgraph attributes print as `graph NAME` and do not parse.
// * Nodes print in topological order; an op in another domain is `Op@domain`. `#` starts a
//   comment; blank lines are ignored.
#ifndef GE_INCLUDE_GE_GRAPH_TEXT_H_
#define GE_INCLUDE_GE_GRAPH_TEXT_H_

#include <memory>
#include <string>

#include "ge/graph.h"
#include "ge/status.h"

namespace ge {

struct TextOptions {
  int64_t max_literal_elements = 16;  // larger constants print as `opaque`
};

std::string GraphToText(const Graph& graph, const TextOptions& options = {});

// Fails with "line N: ..." naming what was expected.
Status ParseGraphText(const std::string& text, std::shared_ptr<Graph>* out);

}  // namespace ge

#endif  // GE_INCLUDE_GE_GRAPH_TEXT_H_
