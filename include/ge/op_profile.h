// Per-node timing of profiled runs (ge bench --per-op): what each executor measured on the
// device for the nodes it ran, mapped back to node names and op types.
#ifndef GE_INCLUDE_GE_OP_PROFILE_H_
#define GE_INCLUDE_GE_OP_PROFILE_H_

#include <cstdint>
#include <string>
#include <vector>

namespace ge {

struct OpTiming {
  std::string node;          // node name
  std::string type;          // op type
  std::string input_shapes;  // "float32[1, 3], int64[2]" (the last profiled run's)
  uint64_t total_ns = 0;     // summed over `runs`
  uint32_t runs = 0;         // profiled runs that executed the node
};

// One entry per executed node, in execution order (segments in order).
using OpProfile = std::vector<OpTiming>;

}  // namespace ge

#endif  // GE_INCLUDE_GE_OP_PROFILE_H_
