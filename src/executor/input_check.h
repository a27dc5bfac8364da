// Checking the tensors a caller passes against a graph's declared inputs: count, dtype, rank
// and every known dim. One message format for every executor.
#ifndef GE_SRC_EXECUTOR_INPUT_CHECK_H_
#define GE_SRC_EXECUTOR_INPUT_CHECK_H_

#include <vector>

#include "base/status.h"
#include "graph/graph.h"

namespace ge {

// "expected 2 input(s), got 1" / "input 'x': expected float32[4, 64], got int64[4, 64]".
// An undefined declared dtype (a subgraph's outer-scope input) or unknown rank matches anything;
// a -1 dim matches any size.
Status CheckGraphInputs(const Graph& graph, const std::vector<HostTensor>& inputs);

}  // namespace ge

#endif  // GE_SRC_EXECUTOR_INPUT_CHECK_H_
