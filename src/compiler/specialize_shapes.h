// Shape specialization (CompileOptions::input_shapes): fixes inputs' dims at compile time, so a
// model with symbolic batch or sequence dims compiled with all of them given is fully static.
#ifndef GE_SRC_COMPILER_SPECIALIZE_SHAPES_H_
#define GE_SRC_COMPILER_SPECIALIZE_SHAPES_H_

#include <map>
#include <string>
#include <vector>

#include "base/status.h"
#include "graph/graph.h"

namespace ge {

// Fails naming the input when it does not exist, a dim is negative, the byte size overflows, or
// the dims do not fit the declared shape.
Status SpecializeInputShapes(const std::map<std::string, std::vector<int64_t>>& input_shapes, Graph* graph);

}  // namespace ge

#endif  // GE_SRC_COMPILER_SPECIALIZE_SHAPES_H_
