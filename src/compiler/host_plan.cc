// Host plans: order and bindings, once per compiled host segment.
#include "compiler/host_plan.h"

#include "compiler/check_supported.h"

namespace ge {

Status BuildHostPlan(const Graph& graph, const std::vector<Placement>* placement, HostPlan* out) {
  GE_RETURN_IF_ERROR(CheckSupported(graph));
  GE_RETURN_IF_ERROR(graph.TopologicalOrder(&out->order));
  out->bindings.resize(out->order.size());
  for (size_t k = 0; k < out->order.size(); ++k)
    GE_RETURN_IF_ERROR(BindNode(graph.node(out->order[k]), &out->bindings[k]));
  out->placement = placement ? *placement : std::vector<Placement>();
  return Status::Ok();
}

}  // namespace ge
