// graphStatus: the status code returned by operator functions (infer shape, tiling, execute).
#ifndef GE_INCLUDE_GRAPH_GE_ERROR_CODES_H_
#define GE_INCLUDE_GRAPH_GE_ERROR_CODES_H_

#include <cstdint>

namespace ge {
using graphStatus = uint32_t;
constexpr graphStatus GRAPH_SUCCESS = 0;
constexpr graphStatus GRAPH_FAILED = 0xFFFFFFFF;
constexpr graphStatus GRAPH_PARAM_INVALID = 50331649;
constexpr graphStatus GRAPH_NOT_CHANGED = 1343242304;
}  // namespace ge

#endif  // GE_INCLUDE_GRAPH_GE_ERROR_CODES_H_
