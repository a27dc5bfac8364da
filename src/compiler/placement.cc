// The fallback decision: per node, sink / host kernel / host fallback, from the node's shapes,
// its OpDef's aclnn mode and the compile options. Logged at debug level.
#include "compiler/placement.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/log.h"
#include "compiler/node_binding.h"
#include "compiler/static_inference.h"

namespace ge {

const char* PlacementName(Placement p) {
  switch (p) {
    case Placement::kSink: return "sink";
    case Placement::kHostKernel: return "host kernel";
    case Placement::kHostFallback: return "host fallback";
  }
  return "?";
}

Status DecidePlacement(const Graph& graph, const CompileOptions& opt, std::vector<Placement>* placement) {
  placement->assign(graph.num_nodes(), Placement::kHostKernel);
  std::vector<std::string> dynamic_nodes;
  for (NodeId n = 0; n < static_cast<NodeId>(graph.num_nodes()); ++n) {
    const Node& node = graph.node(n);
    NodeBinding b;
    GE_RETURN_IF_ERROR(BindNode(node, &b));
    bool is_static = IsStaticNode(graph, node) && opt.mode != "host";
    std::string aclnn = b.op_def ? b.op_def->GetAclnnSupport() : "";
    bool has_fallback = b.impl->op_execute_func != nullptr;
    Placement p;
    if (aclnn == "aclnn_only") {
      if (opt.offline)
        return InvalidArgument("{}: the operator is aclnn_only, which an offline model cannot run", NodeLabel(node));
      p = Placement::kHostFallback;
    } else if (b.impl->kernel == nullptr) {
      p = Placement::kHostFallback;  // no kernel: only its op-execute function can run it
    } else if (is_static) {
      p = Placement::kSink;
    } else {
      p = (has_fallback && !opt.offline && (!aclnn.empty() || opt.prefer_fallback)) ? Placement::kHostFallback
                                                                                    : Placement::kHostKernel;
    }
    if (opt.prefer_fallback && has_fallback && !opt.offline) p = Placement::kHostFallback;
    if (p == Placement::kHostFallback && !has_fallback)
      return Unsupported("{}: needs host execution but has no op-execute function", NodeLabel(node));
    if (p == Placement::kHostFallback)
      GELOGD("{}, setting fallback attribute ({})", node.name,
             aclnn == "aclnn_only" ? "aclnn_only" : is_static ? "prefer_fallback" : "dynamic shape");
    if (!IsStaticNode(graph, node)) dynamic_nodes.push_back(NodeLabel(node));
    (*placement)[n] = p;
  }
  if (opt.mode == "sink" && !dynamic_nodes.empty())
    return InvalidArgument("--mode sink: {} node(s) have dynamic shapes: {}", dynamic_nodes.size(),
                           fmt::join(dynamic_nodes, ", "));
  return Status::Ok();
}

}  // namespace ge
