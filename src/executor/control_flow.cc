// Control-flow operators If, Loop and Scan: host-executed op-execute functions that run their
// subgraphs with nested host executors. Values a subgraph reads from enclosing scopes arrive as
// the node's trailing inputs, named by the "__outer_refs" attribute (see the ONNX parser).
#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>

#include "base/error_message.h"
#include "compiler/static_inference.h"
#include "executor/device_tensor.h"
#include "executor/host_executor.h"
#include "register/op_impl_registry.h"

namespace ge {
namespace {

const Node& NodeOf(gert::OpExecuteContext* ctx) { return *static_cast<const Node*>(ctx->GetData()->compute_node); }

// Nested executors, one per subgraph, created on first use.
Status SubgraphExecutor(const std::shared_ptr<Graph>& g, HostExecutor** out) {
  static std::mutex mu;
  static std::map<const Graph*, std::unique_ptr<HostExecutor>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto& ex = cache[g.get()];
  if (!ex) {
    GE_RETURN_IF_ERROR(RunStaticInference(g.get()));
    GE_RETURN_IF_ERROR(HostExecutor::Create(g, nullptr, &ex));
  }
  *out = ex.get();
  return Status::Ok();
}

size_t NumOuterRefs(const Node& node) {
  auto* refs = node.GetAttr<std::vector<std::string>>("__outer_refs");
  return refs ? refs->size() : 0;
}

// Runs subgraph `g` with its formal inputs, then the outer-scope values it names.
Status RunSubgraph(gert::OpExecuteContext* ctx, const std::shared_ptr<Graph>& g, std::vector<HostTensor> formal,
                   std::vector<HostTensor>* outs) {
  const Node& node = NodeOf(ctx);
  auto* refs = node.GetAttr<std::vector<std::string>>("__outer_refs");
  size_t explicit_inputs = node.inputs.size() - NumOuterRefs(node);
  for (size_t i = formal.size(); i < g->inputs().size(); ++i) {
    const std::string& name = g->value(g->inputs()[i]).name;
    size_t k = 0;
    while (refs && k < refs->size() && (*refs)[k] != name) ++k;
    if (!refs || k == refs->size()) return Internal("{}: subgraph input '{}' is not bound", NodeLabel(node), name);
    formal.push_back(DownloadTensor(*ctx->GetInputTensor(explicit_inputs + k)));
  }
  HostExecutor* ex = nullptr;
  GE_RETURN_IF_ERROR(SubgraphExecutor(g, &ex));
  Status st = ex->Run(formal, outs);
  if (!st.ok()) st.Prepend(NodeLabel(node) + " subgraph '" + g->name() + "': ");
  return st;
}

// The executor reports the recent error message with the node's failure.
graphStatus Fail(gert::OpExecuteContext*, const Status& st) {
  SetRecentErrMsg(st.message());
  return GRAPH_FAILED;
}

graphStatus SetOutput(gert::OpExecuteContext* ctx, size_t i, const HostTensor& h) {
  gert::Tensor* out = ctx->GetOutputTensor(i);
  if (out == nullptr) return GRAPH_SUCCESS;
  void* p = ctx->MallocWorkspace(std::max<size_t>(h.NumBytes(), 1));
  if (p == nullptr) return GRAPH_FAILED;
  if (h.NumBytes()) std::memcpy(p, h.data(), h.NumBytes());
  gert::StorageShape ss;
  ss.SetShape(ToGertShape(h.shape()));
  *out = gert::Tensor(ss, h.dtype(), FORMAT_ND, p);
  return GRAPH_SUCCESS;
}

bool ReadScalarBool(const gert::Tensor* t) { return t && t->GetAddr() && *static_cast<const uint8_t*>(t->GetAddr()) != 0; }

// Slice `index` of `t` along `axis` (the axis is removed).
HostTensor SliceAxis(const HostTensor& t, int64_t axis, int64_t index) {
  std::vector<int64_t> dims = t.shape().GetDims();
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= dims[d];
  for (size_t d = axis + 1; d < dims.size(); ++d) inner *= dims[d];
  size_t es = GetSizeByDataType(t.dtype());
  int64_t len = dims[axis];
  dims.erase(dims.begin() + axis);
  HostTensor out(t.dtype(), Shape(dims));
  for (int64_t o = 0; o < outer; ++o)
    std::memcpy(static_cast<uint8_t*>(out.mutable_data()) + o * inner * es,
                static_cast<const uint8_t*>(t.data()) + ((o * len + index) * inner) * es, inner * es);
  return out;
}

// Stacks equally shaped tensors along a new `axis`.
HostTensor StackAxis(const std::vector<HostTensor>& parts, int64_t axis, DataType dt) {
  if (parts.empty()) return HostTensor(dt, Shape({0}));
  std::vector<int64_t> dims = parts[0].shape().GetDims();
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= dims[d];
  for (size_t d = axis; d < dims.size(); ++d) inner *= dims[d];
  dims.insert(dims.begin() + axis, static_cast<int64_t>(parts.size()));
  HostTensor out(parts[0].dtype(), Shape(dims));
  size_t es = GetSizeByDataType(out.dtype()), n = parts.size();
  for (size_t k = 0; k < n; ++k)
    for (int64_t o = 0; o < outer; ++o)
      std::memcpy(static_cast<uint8_t*>(out.mutable_data()) + ((o * n + k) * inner) * es,
                  static_cast<const uint8_t*>(parts[k].data()) + o * inner * es, inner * es);
  return out;
}

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
  if (dt == DT_BOOL) *t.mutable_data_as<uint8_t>() = v != 0;
  else *t.mutable_data_as<int64_t>() = v;
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
  size_t n = carried.size(), k = node.outputs.size() - n;
  std::vector<std::vector<HostTensor>> scans(k);
  for (int64_t it = 0; it < max_iter && cond; ++it) {
    std::vector<HostTensor> formal = {Scalar(DT_INT64, it), Scalar(DT_BOOL, cond)};
    formal.insert(formal.end(), carried.begin(), carried.end());
    std::vector<HostTensor> outs;
    Status st = RunSubgraph(ctx, *body, std::move(formal), &outs);
    if (!st.ok()) return Fail(ctx, st);
    if (outs.size() != 1 + n + k) return Fail(ctx, InvalidArgument("{}: body returned {} outputs, expected {}", NodeLabel(node), outs.size(), 1 + n + k));
    cond = *static_cast<const uint8_t*>(outs[0].data()) != 0;
    for (size_t i = 0; i < n; ++i) carried[i] = std::move(outs[1 + i]);
    for (size_t j = 0; j < k; ++j) scans[j].push_back(std::move(outs[1 + n + j]));
  }
  for (size_t i = 0; i < n; ++i)
    if (SetOutput(ctx, i, carried[i]) != GRAPH_SUCCESS) return GRAPH_FAILED;
  for (size_t j = 0; j < k; ++j) {
    DataType dt = (*body)->value((*body)->outputs()[1 + n + j]).desc.dtype;
    if (SetOutput(ctx, n + j, StackAxis(scans[j], 0, dt == DT_UNDEFINED ? DT_FLOAT : dt)) != GRAPH_SUCCESS) return GRAPH_FAILED;
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
  if (body == nullptr || num_scan == nullptr) return Fail(ctx, InvalidArgument("{}: missing body or num_scan_inputs", NodeLabel(node)));
  size_t explicit_inputs = node.inputs.size() - NumOuterRefs(node);
  size_t m = static_cast<size_t>(*num_scan), n = explicit_inputs - m, k = node.outputs.size() - n;
  std::vector<HostTensor> state, scan_in;
  for (size_t i = 0; i < n; ++i) state.push_back(DownloadTensor(*ctx->GetInputTensor(i)));
  for (size_t j = 0; j < m; ++j) scan_in.push_back(DownloadTensor(*ctx->GetInputTensor(n + j)));
  std::vector<int64_t> axes(m);
  for (size_t j = 0; j < m; ++j) {
    int64_t a = ListAt(node, "scan_input_axes", j, 0), r = static_cast<int64_t>(scan_in[j].shape().GetDimNum());
    axes[j] = a < 0 ? a + r : a;
  }
  int64_t len = m ? scan_in[0].shape().GetDim(axes[0]) : 0;
  std::vector<std::vector<HostTensor>> scans(k);
  for (int64_t t = 0; t < len; ++t) {
    std::vector<HostTensor> formal = state;
    for (size_t j = 0; j < m; ++j) {
      int64_t idx = ListAt(node, "scan_input_directions", j, 0) ? len - 1 - t : t;
      formal.push_back(SliceAxis(scan_in[j], axes[j], idx));
    }
    std::vector<HostTensor> outs;
    Status st = RunSubgraph(ctx, *body, std::move(formal), &outs);
    if (!st.ok()) return Fail(ctx, st);
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
    if (SetOutput(ctx, n + j, StackAxis(scans[j], a < 0 ? a + rank + 1 : a, dt == DT_UNDEFINED ? DT_FLOAT : dt)) != GRAPH_SUCCESS)
      return GRAPH_FAILED;
  }
  return GRAPH_SUCCESS;
}

}  // namespace
}  // namespace ge

IMPL_OP(If).OpExecuteFunc(ge::IfExecute).OutputsByExecute();
IMPL_OP(Loop).OpExecuteFunc(ge::LoopExecute).OutputsByExecute();
IMPL_OP(Scan).OpExecuteFunc(ge::ScanExecute).OutputsByExecute();
