// The first check of the pipeline: every node's op type has a registered implementation.
#ifndef GE_SRC_COMPILER_CHECK_SUPPORTED_H_
#define GE_SRC_COMPILER_CHECK_SUPPORTED_H_

#include "base/status.h"
#include "graph/graph.h"

namespace ge {

// Collects every node whose op type is not registered: "node 'a' (Foo), node 'b' (Bar)".
Status CheckSupported(const Graph& graph);

}  // namespace ge

#endif  // GE_SRC_COMPILER_CHECK_SUPPORTED_H_
