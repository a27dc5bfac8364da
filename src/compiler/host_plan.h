// HostPlan: what compiling a host segment fixes — the node order and each node's binding (its
// op implementation, runtime attributes, IR input/output mapping, value-depend inputs) — so the
// host executor only loads it (stream, allocator, constants) and clones never bind again.
#ifndef GE_SRC_COMPILER_HOST_PLAN_H_
#define GE_SRC_COMPILER_HOST_PLAN_H_

#include <vector>

#include "base/status.h"
#include "compiler/node_binding.h"
#include "compiler/placement.h"
#include "graph/graph.h"

namespace ge {

struct HostPlan {
  std::vector<NodeId> order;          // topological
  std::vector<NodeBinding> bindings;  // per position in `order`
  std::vector<Placement> placement;   // per NodeId; empty: none given (kernel where there is one)
};

// Fails listing every unsupported node, or naming the first node that does not bind.
Status BuildHostPlan(const Graph& graph, const std::vector<Placement>* placement, HostPlan* out);

}  // namespace ge

#endif  // GE_SRC_COMPILER_HOST_PLAN_H_
