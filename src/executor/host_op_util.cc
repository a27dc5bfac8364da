#include "executor/host_op_util.h"

#include <cstring>
#include <map>
#include <mutex>

#include "base/error_message.h"
#include "compiler/static_inference.h"
#include "executor/device_tensor.h"
#include "executor/host_executor.h"

namespace ge::host_op {
namespace {
// Nested executors of subgraphs, pooled per subgraph: a run takes an idle one (or makes one) and
// gives it back, so concurrent runs of one model (and of models sharing a subgraph) never share
// an executor. The pool holds the graph weakly: an entry whose graph is gone (its address
// reused) is dropped.
struct SubgraphPool {
  std::weak_ptr<Graph> graph;
  std::vector<std::unique_ptr<HostExecutor>> idle;
};
std::mutex pools_mu;
std::map<const Graph*, SubgraphPool> pools;

Status AcquireSubgraphExecutor(const std::shared_ptr<Graph>& g, std::unique_ptr<HostExecutor>* out) {
  std::lock_guard<std::mutex> lock(pools_mu);
  SubgraphPool& p = pools[g.get()];
  if (p.graph.lock() != g) {  // first use of this subgraph: infer it once, before any executor
    p = SubgraphPool{};
    GE_RETURN_IF_ERROR(RunStaticInference(g.get()));
    p.graph = g;
  }
  if (!p.idle.empty()) {
    *out = std::move(p.idle.back());
    p.idle.pop_back();
    return Status::Ok();
  }
  return HostExecutor::Create(g, nullptr, out);
}

void ReleaseSubgraphExecutor(const std::shared_ptr<Graph>& g, std::unique_ptr<HostExecutor> ex) {
  std::lock_guard<std::mutex> lock(pools_mu);
  SubgraphPool& p = pools[g.get()];
  if (p.graph.lock() == g) p.idle.push_back(std::move(ex));
}
}  // namespace

HostTensor InputToHost(gert::OpExecuteContext* ctx, size_t i) {
  const gert::Tensor* t = ctx->GetInputTensor(i);
  return t ? DownloadTensor(*t) : HostTensor();
}

const Node& NodeOf(gert::OpExecuteContext* ctx) { return *static_cast<const Node*>(ctx->GetData()->compute_node); }

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
    formal.push_back(InputToHost(ctx, explicit_inputs + k));
  }
  std::unique_ptr<HostExecutor> ex;
  GE_RETURN_IF_ERROR(AcquireSubgraphExecutor(g, &ex));
  Status st = ex->Run(formal, outs);
  ReleaseSubgraphExecutor(g, std::move(ex));
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

bool ReadScalarBool(const gert::Tensor* t) {
  return t && t->GetAddr() && *static_cast<const uint8_t*>(t->GetAddr()) != 0;
}

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
  for (int64_t o = 0; o < outer && inner > 0; ++o)  // an empty tensor has no buffer: no memcpy from null
    std::memcpy(static_cast<uint8_t*>(out.mutable_data()) + o * inner * es,
                static_cast<const uint8_t*>(t.data()) + ((o * len + index) * inner) * es, inner * es);
  return out;
}

// Stacks equally shaped tensors along a new `axis`.
Status StackAxis(const std::vector<HostTensor>& parts, int64_t axis, DataType dt, HostTensor* out) {
  if (parts.empty()) {
    *out = HostTensor(dt, Shape({0}));
    return Status::Ok();
  }
  std::vector<int64_t> dims = parts[0].shape().GetDims();
  if (axis < 0 || axis > static_cast<int64_t>(dims.size()))
    return InvalidArgument("axis {} out of range for stacking rank-{} tensors", axis, dims.size());
  for (size_t k = 1; k < parts.size(); ++k)
    if (parts[k].shape() != parts[0].shape() || parts[k].dtype() != parts[0].dtype())
      return InvalidArgument("cannot stack {} {} with {} {} (element {}): shapes and types must match",
                             DataTypeName(parts[0].dtype()), parts[0].shape().ToString(),
                             DataTypeName(parts[k].dtype()), parts[k].shape().ToString(), k);
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= dims[d];
  for (size_t d = axis; d < dims.size(); ++d) inner *= dims[d];
  dims.insert(dims.begin() + axis, static_cast<int64_t>(parts.size()));
  HostTensor r(parts[0].dtype(), Shape(dims));
  size_t es = GetSizeByDataType(r.dtype()), n = parts.size();
  for (size_t k = 0; k < n && inner > 0; ++k)  // empty parts have no buffer: no memcpy from null
    for (int64_t o = 0; o < outer; ++o)
      std::memcpy(static_cast<uint8_t*>(r.mutable_data()) + ((o * n + k) * inner) * es,
                  static_cast<const uint8_t*>(parts[k].data()) + o * inner * es, inner * es);
  *out = std::move(r);
  return Status::Ok();
}

}  // namespace ge::host_op
