// Control-flow operators If, Loop and Scan: host-executed op-execute functions that run their
// subgraphs with nested host executors. Values a subgraph reads from enclosing scopes arrive as
// the node's trailing inputs, named by the "__outer_refs" attribute (see the ONNX parser).
#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>

#include "executor/device_tensor.h"
#include "executor/host_op_util.h"
#include "executor/run_control.h"
#include "register/op_impl_registry.h"

namespace ge {
namespace {
using namespace host_op;

graphStatus IfExecute(gert::OpExecuteContext* ctx) {
  const Node& node = NodeOf(ctx);
  bool cond = ReadScalarBool(ctx->GetInputTensor(0));
  auto* branch = node.GetAttr<std::shared_ptr<Graph>>(cond ? "then_branch" : "else_branch");
  if (branch == nullptr) return Fail(ctx, InvalidArgument("{}: missing branch subgraph", NodeLabel(node)));
  std::vector<HostTensor> outs;
  Status st = RunSubgraph(ctx, *branch, {}, &outs);
  if (!st.ok()) return Fail(ctx, st);
  for (size_t i = 0; i < outs.size(); ++i)
    if (SetOutput(ctx, i, outs[i]) != GRAPH_SUCCESS) return GRAPH_FAILED;
  return GRAPH_SUCCESS;
}

HostTensor Scalar(DataType dt, int64_t v) {
  HostTensor t(dt, Shape());
  if (dt == DT_BOOL)
    *t.mutable_data_as<uint8_t>() = v != 0;
  else
    *t.mutable_data_as<int64_t>() = v;
  return t;
}

graphStatus LoopExecute(gert::OpExecuteContext* ctx) {
  const Node& node = NodeOf(ctx);
  auto* body = node.GetAttr<std::shared_ptr<Graph>>("body");
  if (body == nullptr) return Fail(ctx, InvalidArgument("{}: missing body subgraph", NodeLabel(node)));
  size_t explicit_inputs = node.inputs.size() - NumOuterRefs(node);
  const gert::Tensor* m = ctx->GetInputTensor(0);
  const gert::Tensor* c = ctx->GetInputTensor(1);
  int64_t max_iter = (m && m->GetAddr()) ? *m->GetData<int64_t>() : INT64_MAX;
  bool cond = c && c->GetAddr() ? ReadScalarBool(c) : true;
  std::vector<HostTensor> carried;
  for (size_t i = 2; i < explicit_inputs; ++i) carried.push_back(DownloadTensor(*ctx->GetInputTensor(i)));
  size_t n = carried.size();
  if (explicit_inputs < 2 || node.outputs.size() < n)
    return Fail(ctx, InvalidArgument("{}: {} inputs and {} outputs do not fit M, cond and {} carried values",
                                     NodeLabel(node), explicit_inputs, node.outputs.size(), n));
  size_t k = node.outputs.size() - n;
  std::vector<std::vector<HostTensor>> scans(k);
  for (int64_t it = 0; it < max_iter && cond; ++it) {
    if (Status st = CheckRunControl([&] { return fmt::format("{} iteration {}", NodeLabel(node), it); }); !st.ok())
      return Fail(ctx, st);
    std::vector<HostTensor> formal = {Scalar(DT_INT64, it), Scalar(DT_BOOL, cond)};
    formal.insert(formal.end(), carried.begin(), carried.end());
    std::vector<HostTensor> outs;
    Status st = RunSubgraph(ctx, *body, std::move(formal), &outs);
    if (!st.ok()) return Fail(ctx, st);
    if (outs.size() != 1 + n + k)
      return Fail(
          ctx, InvalidArgument("{}: body returned {} outputs, expected {}", NodeLabel(node), outs.size(), 1 + n + k));
    if (outs[0].NumBytes() == 0)
      return Fail(ctx, InvalidArgument("{}: body returned an empty condition", NodeLabel(node)));
    cond = *static_cast<const uint8_t*>(outs[0].data()) != 0;
    for (size_t i = 0; i < n; ++i) carried[i] = std::move(outs[1 + i]);
    for (size_t j = 0; j < k; ++j) scans[j].push_back(std::move(outs[1 + n + j]));
  }
  for (size_t i = 0; i < n; ++i)
    if (SetOutput(ctx, i, carried[i]) != GRAPH_SUCCESS) return GRAPH_FAILED;
  for (size_t j = 0; j < k; ++j) {
    DataType dt = (*body)->value((*body)->outputs()[1 + n + j]).desc.dtype;
    HostTensor stacked;
    Status st = StackAxis(scans[j], 0, dt == DT_UNDEFINED ? DT_FLOAT : dt, &stacked);
    if (!st.ok()) return Fail(ctx, st.Prepend(NodeLabel(node) + ": scan output: "));
    if (SetOutput(ctx, n + j, stacked) != GRAPH_SUCCESS) return GRAPH_FAILED;
  }
  return GRAPH_SUCCESS;
}

int64_t ListAt(const Node& node, const char* key, size_t i, int64_t dflt) {
  auto* l = node.GetAttr<std::vector<int64_t>>(key);
  return (l && i < l->size()) ? (*l)[i] : dflt;
}

graphStatus ScanExecute(gert::OpExecuteContext* ctx) {
  const Node& node = NodeOf(ctx);
  auto* body = node.GetAttr<std::shared_ptr<Graph>>("body");
  auto* num_scan = node.GetAttr<int64_t>("num_scan_inputs");
  if (body == nullptr || num_scan == nullptr)
    return Fail(ctx, InvalidArgument("{}: missing body or num_scan_inputs", NodeLabel(node)));
  const size_t explicit_inputs = node.inputs.size() - NumOuterRefs(node);
  // ONNX: num_scan_inputs M in [1, inputs]; the N = inputs - M state values are also the first
  // N outputs; every scan input has the same length along its (in range) scan axis.
  if (*num_scan < 1 || static_cast<uint64_t>(*num_scan) > explicit_inputs)
    return Fail(ctx, InvalidArgument("{}: num_scan_inputs {} must be in [1, {}] (the number of inputs)",
                                     NodeLabel(node), *num_scan, explicit_inputs));
  size_t m = static_cast<size_t>(*num_scan), n = explicit_inputs - m;
  if (node.outputs.size() < n)
    return Fail(ctx, InvalidArgument("{}: {} outputs, fewer than its {} state inputs", NodeLabel(node),
                                     node.outputs.size(), n));
  const size_t k = node.outputs.size() - n;
  std::vector<HostTensor> state, scan_in;
  for (size_t i = 0; i < explicit_inputs; ++i)
    if (ctx->GetInputTensor(i) == nullptr)
      return Fail(ctx, InvalidArgument("{}: input {} is missing", NodeLabel(node), i));
  for (size_t i = 0; i < n; ++i) state.push_back(DownloadTensor(*ctx->GetInputTensor(i)));
  for (size_t j = 0; j < m; ++j) scan_in.push_back(DownloadTensor(*ctx->GetInputTensor(n + j)));
  std::vector<int64_t> axes(m);
  int64_t len = -1;
  for (size_t j = 0; j < m; ++j) {
    int64_t a = ListAt(node, "scan_input_axes", j, 0), r = static_cast<int64_t>(scan_in[j].shape().GetDimNum());
    axes[j] = a < 0 ? a + r : a;
    if (axes[j] < 0 || axes[j] >= r)
      return Fail(ctx, InvalidArgument("{}: scan input {} has rank {}, no axis {}", NodeLabel(node), j, r, a));
    const int64_t l = scan_in[j].shape().GetDim(axes[j]);
    if (len >= 0 && l != len)
      return Fail(ctx, InvalidArgument("{}: scan input {} has length {} along its scan axis, scan input 0 has {}",
                                       NodeLabel(node), j, l, len));
    len = l;
  }
  std::vector<std::vector<HostTensor>> scans(k);
  for (int64_t t = 0; t < len; ++t) {
    if (Status st = CheckRunControl([&] { return fmt::format("{} iteration {}", NodeLabel(node), t); }); !st.ok())
      return Fail(ctx, st);
    std::vector<HostTensor> formal = state;
    for (size_t j = 0; j < m; ++j) {
      int64_t idx = ListAt(node, "scan_input_directions", j, 0) ? len - 1 - t : t;
      formal.push_back(SliceAxis(scan_in[j], axes[j], idx));
    }
    std::vector<HostTensor> outs;
    Status st = RunSubgraph(ctx, *body, std::move(formal), &outs);
    if (!st.ok()) return Fail(ctx, st);
    if (outs.size() != n + k)
      return Fail(ctx,
                  InvalidArgument("{}: body returned {} outputs, expected {}", NodeLabel(node), outs.size(), n + k));
    for (size_t i = 0; i < n; ++i) state[i] = std::move(outs[i]);
    for (size_t j = 0; j < k; ++j) scans[j].push_back(std::move(outs[n + j]));
  }
  for (size_t i = 0; i < n; ++i)
    if (SetOutput(ctx, i, state[i]) != GRAPH_SUCCESS) return GRAPH_FAILED;
  for (size_t j = 0; j < k; ++j) {
    if (ListAt(node, "scan_output_directions", j, 0)) std::reverse(scans[j].begin(), scans[j].end());
    int64_t rank = scans[j].empty() ? 0 : static_cast<int64_t>(scans[j][0].shape().GetDimNum());
    int64_t a = ListAt(node, "scan_output_axes", j, 0);
    DataType dt = (*body)->value((*body)->outputs()[n + j]).desc.dtype;
    HostTensor stacked;
    Status st = StackAxis(scans[j], a < 0 ? a + rank + 1 : a, dt == DT_UNDEFINED ? DT_FLOAT : dt, &stacked);
    if (!st.ok()) return Fail(ctx, st.Prepend(NodeLabel(node) + ": scan output: "));
    if (SetOutput(ctx, n + j, stacked) != GRAPH_SUCCESS) return GRAPH_FAILED;
  }
  return GRAPH_SUCCESS;
}

}  // namespace
}  // namespace ge

IMPL_OP(If).OpExecuteFunc(ge::IfExecute).OutputsByExecute();
IMPL_OP(Loop).OpExecuteFunc(ge::LoopExecute).OutputsByExecute();
IMPL_OP(Scan).OpExecuteFunc(ge::ScanExecute).OutputsByExecute();
