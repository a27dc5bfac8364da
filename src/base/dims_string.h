// Dims as error messages and dumps show them: "[2, 5]" (-1 for a dynamic dim), for the
// "expected 4-D input, got [2, 5]" messages of operators, the single-op API and the compiler.
#ifndef GE_SRC_BASE_DIMS_STRING_H_
#define GE_SRC_BASE_DIMS_STRING_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "exe_graph/runtime/shape.h"

namespace ge {

std::string DimsToString(const int64_t* dims, size_t n);
inline std::string DimsToString(const std::vector<int64_t>& dims) { return DimsToString(dims.data(), dims.size()); }
inline std::string ShapeToString(const gert::Shape& s) { return DimsToString(s.GetDims(), s.GetDimNum()); }

}  // namespace ge

#endif  // GE_SRC_BASE_DIMS_STRING_H_
