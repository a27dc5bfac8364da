// The fallback decision: per node, sink / host kernel / host fallback, from the node's shapes,
// its OpDef's aclnn mode and the compile options (DESIGN.md's table):
//   no fallback     static: sink                 dynamic: host kernel
//   support_aclnn   static: sink                 dynamic: host fallback
//   aclnn_only      host fallback (graph break; deprecated, warned once per op type)
//   offline         never fallback; an aclnn_only node (or one with no kernel) is an error
// prefer_fallback (tests, benchmarks) takes the fallback wherever an op-execute function exists.
// Fallback nodes are logged at debug level as "<node>, setting fallback attribute (<reason>)".
#include "compiler/placement.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <mutex>
#include <set>

#include "base/log.h"
#include "compiler/node_binding.h"
#include "compiler/static_inference.h"
#include "register/fallback_hook.h"

namespace ge {

const char* PlacementName(Placement p) {
  switch (p) {
    case Placement::kSink: return "sink";
    case Placement::kHostKernel: return "host kernel";
    case Placement::kHostFallback: return "host fallback";
  }
  return "?";
}

namespace {

void WarnAclnnOnlyOnce(const std::string& op_type) {
  static std::mutex mu;
  static std::set<std::string> warned;
  std::lock_guard<std::mutex> lock(mu);
  if (warned.insert(op_type).second)
    GELOGW(
        "operator {} uses aclnnSupport.value = aclnn_only, which is deprecated: its nodes always take the "
        "fallback path and break the graph; prefer support_aclnn",
        op_type);
}

// Decides one node; `reason` says why a fallback was chosen.
Status DecideNode(const Node& node, bool is_static, const CompileOptions& opt, Placement* p, const char** reason) {
  NodeBinding b;
  GE_RETURN_IF_ERROR(BindNode(node, &b));
  const std::string aclnn = b.op_def ? b.op_def->GetAclnnSupport() : "";
  const bool has_fallback = ResolveFallback(node.type.c_str()) != nullptr;
  const bool has_kernel = b.impl->kernel != nullptr;
  *reason = nullptr;
  if (aclnn == "aclnn_only") {
    WarnAclnnOnlyOnce(node.type);
    if (opt.offline)
      return InvalidArgument("{}: operator {} is aclnn_only (host fallback only), which an offline model cannot run",
                             NodeLabel(node), node.type);
    *reason = "aclnn_only";
  } else if (!has_kernel) {
    if (opt.offline)
      return InvalidArgument("{}: operator {} has no kernel, only a host fallback, which an offline model cannot run",
                             NodeLabel(node), node.type);
    *reason = "no kernel";
  } else if (!opt.offline && aclnn == "support_aclnn" && !is_static && has_fallback) {
    *reason = "support_aclnn, dynamic shape";
  } else if (!opt.offline && opt.prefer_fallback && has_fallback) {
    *reason = "prefer_fallback";
  }
  if (*reason != nullptr && !has_fallback)
    return Unsupported("{}: needs host fallback ({}) but has no op-execute function", NodeLabel(node), *reason);
  *p = *reason                             ? Placement::kHostFallback
       : (is_static && opt.mode != "host") ? Placement::kSink
                                           : Placement::kHostKernel;
  return Status::Ok();
}

}  // namespace

Status DecidePlacement(const Graph& graph, const CompileOptions& opt, std::vector<Placement>* placement,
                       std::vector<std::string>* reasons) {
  placement->assign(graph.num_nodes(), Placement::kHostKernel);
  if (reasons) reasons->assign(graph.num_nodes(), std::string());
  std::vector<std::string> dynamic_nodes;
  for (NodeId n = 0; n < static_cast<NodeId>(graph.num_nodes()); ++n) {
    const Node& node = graph.node(n);
    const bool is_static = IsStaticNode(graph, node);
    const char* reason = nullptr;
    GE_RETURN_IF_ERROR(DecideNode(node, is_static, opt, &(*placement)[n], &reason));
    if (reasons)
      (*reasons)[n] = reason                                ? std::string("fallback: ") + reason
                      : (*placement)[n] == Placement::kSink ? std::string()
                      : !is_static                          ? std::string("dynamic shape")
                                                            : std::string("--mode host");
    if (reason)
      GELOGD("{}, setting fallback attribute ({})", node.name, reason);
    else
      GELOGD("{}, no fallback: {} ({} shape)", node.name, PlacementName((*placement)[n]),
             is_static ? "static" : "dynamic");
    if (!is_static) dynamic_nodes.push_back(NodeLabel(node));
  }
  if (opt.mode == "sink" && !dynamic_nodes.empty())
    return InvalidArgument("--mode sink: {} node(s) have dynamic shapes: {}", dynamic_nodes.size(),
                           fmt::join(dynamic_nodes, ", "));
  return Status::Ok();
}

}  // namespace ge
