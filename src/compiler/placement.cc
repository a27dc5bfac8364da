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

#include <algorithm>
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

// Output elements up to which a static node of integer outputs counts as shape arithmetic (a
// Gather of one dim, a Concat of a target shape): run where its readers run.
constexpr int64_t kTinyElements = 64;

bool IsShapeArithmetic(const Graph& graph, const Node& node) {
  for (ValueId v : node.outputs) {
    if (v == kNoValue) continue;
    const TensorDesc& d = graph.value(v).desc;
    if (d.dtype != DT_INT64 && d.dtype != DT_INT32) return false;
    if (d.shape.IsUnknownRank() || d.shape.GetShapeSize() < 0 || d.shape.GetShapeSize() > kTinyElements) return false;
  }
  return true;
}

// Static nodes of a few integers whose readers all run on the host (the shape arithmetic
// between a dynamic Shape and the Reshape it feeds) run on the host too: as a sink segment of
// their own they cut the host run in two, and each cut costs a device synchronization and a
// copy of every value live across it (tinybert at a dynamic sequence length: 11 segments).
void DemoteTinySinkIslands(const Graph& graph, std::vector<Placement>* placement, std::vector<std::string>* reasons) {
  std::vector<NodeId> order;
  if (!graph.TopologicalOrder(&order).ok()) return;
  const auto consumers = graph.Consumers();
  std::vector<bool> is_output(graph.num_values(), false);
  for (ValueId v : graph.outputs()) is_output[v] = true;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const Node& node = graph.node(*it);
    if ((*placement)[*it] != Placement::kSink || !IsShapeArithmetic(graph, node)) continue;
    bool host_readers = false, sink_reader = false;
    for (ValueId v : node.outputs) {
      if (v == kNoValue) continue;
      if (is_output[v]) sink_reader = true;  // a graph output stays where it is
      for (auto [c, pos] : consumers[v]) ((*placement)[c] == Placement::kSink ? sink_reader : host_readers) = true;
    }
    if (!host_readers || sink_reader) continue;
    (*placement)[*it] = Placement::kHostKernel;
    if (reasons) (*reasons)[*it] = "shape arithmetic read only by host nodes";
    GELOGD("{}: host kernel (static shape arithmetic, {} integers or fewer, read only by host nodes)", node.name,
           kTinyElements);
  }
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
  if (std::any_of(placement->begin(), placement->end(), [](Placement p) { return p != Placement::kSink; }))
    DemoteTinySinkIslands(graph, placement, reasons);
  return Status::Ok();
}

}  // namespace ge
