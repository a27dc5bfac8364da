// Helpers for operators that the host executes itself (control flow, sequences): reading the
// graph node behind a context, running subgraphs with nested host executors, publishing
// outputs allocated at execute time, slicing and stacking along an axis.
#ifndef GE_SRC_EXECUTOR_HOST_OP_UTIL_H_
#define GE_SRC_EXECUTOR_HOST_OP_UTIL_H_

#include <memory>
#include <vector>

#include "base/status.h"
#include "compiler/node_binding.h"
#include "exe_graph/runtime/op_execute_context.h"
#include "graph/graph.h"

namespace ge::host_op {

const Node& NodeOf(gert::OpExecuteContext* ctx);
size_t NumOuterRefs(const Node& node);
// Runs subgraph `g` with its formal inputs, then the outer-scope values it names.
Status RunSubgraph(gert::OpExecuteContext* ctx, const std::shared_ptr<Graph>& g, std::vector<HostTensor> formal,
                   std::vector<HostTensor>* outs);
// Records the failure for the executor's message and returns GRAPH_FAILED.
graphStatus Fail(gert::OpExecuteContext* ctx, const Status& st);
// Output i = a copy of `h` in memory from the context's allocator.
graphStatus SetOutput(gert::OpExecuteContext* ctx, size_t i, const HostTensor& h);
HostTensor InputToHost(gert::OpExecuteContext* ctx, size_t i);  // empty tensor if absent
bool ReadScalarBool(const gert::Tensor* t);
// Slice `index` of `t` along `axis` (the axis is removed); stack along a new axis.
HostTensor SliceAxis(const HostTensor& t, int64_t axis, int64_t index);
Status StackAxis(const std::vector<HostTensor>& parts, int64_t axis, DataType dt, HostTensor* out);

}  // namespace ge::host_op

#endif  // GE_SRC_EXECUTOR_HOST_OP_UTIL_H_
