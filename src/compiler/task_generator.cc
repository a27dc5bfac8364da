// Sink task generation: tiling per node, then streams, then memory, then bound arguments.
#include "compiler/task_generator.h"

#include "base/trace.h"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "compiler/memory_checker.h"
#include "compiler/node_binding.h"
#include "compiler/op_call.h"

namespace ge {
namespace {

gert::Tensor DescTensor(const TensorDesc& d, const void* addr) {
  gert::StorageShape ss;
  ss.SetShape(ToGertShape(d.shape));
  return gert::Tensor(ss, d.dtype, FORMAT_ND, const_cast<void*>(addr));
}

// What tiling tells about one node, kept until the arguments are bound.
struct NodeCompile {
  bool is_view = false;
  aclrtKernelFunc kernel = nullptr;
  uint32_t block_dim = 1;
  std::vector<uint8_t> tiling;
  std::vector<int64_t> workspaces;
  std::vector<int64_t> absent_output_bytes;  // per output; 0 for present ones
};

// Infers the node's outputs from its (static) inputs and runs its tiling once.
// `expect` (loading an offline program): the shapes the program recorded, checked before tiling.
Status CompileNode(const Graph& graph, NodeId n, uint32_t core_num, std::vector<gert::Tensor>& values, NodeCompile* nc,
                   const std::vector<gert::Tensor>* expect = nullptr) {
  const Node& node = graph.node(n);
  nc->is_view = IsViewNode(graph, node);
  if (nc->is_view) {  // static output desc; the shape input's data is not needed
    values[node.outputs[0]] = DescTensor(graph.value(node.outputs[0]).desc, nullptr);
    return Status::Ok();
  }
  NodeBinding binding;
  GE_RETURN_IF_ERROR(BindNode(node, &binding));
  OpCall call;
  call.Prepare(node, binding);
  for (size_t i = 0; i < node.inputs.size(); ++i)
    if (node.inputs[i] != kNoValue) call.input(i) = values[node.inputs[i]];
  GE_RETURN_IF_ERROR(call.InferDataType());
  GE_RETURN_IF_ERROR(call.InferShape());
  for (size_t o = 0; o < node.outputs.size(); ++o) {
    if (call.output(o).GetShapeSize() < 0)
      return InvalidArgument("{}: output {} has no static shape ({}); it cannot be sunk", NodeLabel(node), o,
                             ShapeToString(call.output(o).GetStorageShape()));
    if (node.outputs[o] != kNoValue) values[node.outputs[o]] = call.output(o);
    if (expect != nullptr && node.outputs[o] != kNoValue) {
      const gert::Tensor& want = (*expect)[node.outputs[o]];
      const gert::Tensor& got = call.output(o);
      if (got.GetDataType() != want.GetDataType() || !(got.GetStorageShape() == want.GetStorageShape()))
        return InvalidArgument("{}: output '{}' is {}{} here, {}{} in the compiled program", NodeLabel(node),
                               graph.value(node.outputs[o]).name, DataTypeName(got.GetDataType()),
                               ShapeToString(got.GetStorageShape()), DataTypeName(want.GetDataType()),
                               ShapeToString(want.GetStorageShape()));
    }
    nc->absent_output_bytes.push_back(node.outputs[o] != kNoValue
                                          ? 0
                                          : call.output(o).GetShapeSize() *
                                                static_cast<int64_t>(GetSizeByDataType(call.output(o).GetDataType())));
  }
  if (binding.impl->kernel == nullptr)
    return Unsupported("{}: the operator has no kernel; it cannot be sunk", NodeLabel(node));
  for (size_t i = 0; i < node.inputs.size(); ++i)
    if (binding.value_depend[i] && node.inputs[i] != kNoValue && !graph.value(node.inputs[i]).constant)
      return Unsupported("{}: input {} is value-dependent and computed at run time; it cannot be sunk", NodeLabel(node),
                         i);
  GE_RETURN_IF_ERROR(call.Tiling(core_num));
  nc->kernel = binding.impl->kernel;
  nc->block_dim = std::max<uint32_t>(call.data().block_dim, 1);
  const auto* t = static_cast<const uint8_t*>(call.tiling().GetData());
  nc->tiling.assign(t, t + call.tiling().GetDataSize());
  for (size_t w : call.data().workspace_sizes) nc->workspaces.push_back(static_cast<int64_t>(w));
  return Status::Ok();
}

// The task that last wrote v's storage (through views), or -1 for inputs and constants.
int SourceTask(const Graph& graph, const std::vector<int>& position, const std::vector<NodeCompile>& nc, ValueId v) {
  while (v != kNoValue && !graph.value(v).constant) {
    NodeId prod = graph.value(v).producer;
    if (prod < 0) return -1;
    int p = position[prod];
    if (!nc[p].is_view) return p;
    v = graph.node(prod).inputs[0];
  }
  return -1;
}

// max_streams <= 0: the default bound, min(kDefaultMaxStreams, cores), and one stream when
// the parallel gain (of the tasks narrower than the device) is estimated too small to pay for
// starting a helper and joining.
Status BuildStreams(const Graph& graph, const SinkProgram& prog, const std::vector<NodeCompile>& nc, int max_streams,
                    uint32_t core_num, StreamAssignment* out) {
  const bool automatic = max_streams <= 0;
  if (automatic) max_streams = std::max(1, std::min<int>(kDefaultMaxStreams, static_cast<int>(core_num)));
  std::vector<int> position(graph.num_nodes(), -1);
  for (size_t p = 0; p < prog.order.size(); ++p) position[prog.order[p]] = static_cast<int>(p);
  StreamAssignerInput in;
  in.max_streams = max_streams;
  for (size_t p = 0; p < prog.order.size(); ++p) {
    const Node& node = graph.node(prog.order[p]);
    std::vector<int> deps;
    for (ValueId v : node.inputs) {
      int s = SourceTask(graph, position, nc, v);
      if (s >= 0 && std::find(deps.begin(), deps.end(), s) == deps.end()) deps.push_back(s);
    }
    int64_t cost = 0;
    for (ValueId v : node.outputs)
      if (v != kNoValue) cost += prog.values[v].GetShapeSize();
    in.deps.push_back(nc[p].is_view ? std::vector<int>{} : deps);
    in.is_task.push_back(!nc[p].is_view);
    in.cost.push_back(cost);
  }
  GE_RETURN_IF_ERROR(AssignStreams(in, out));
  // Tasks whose blocks already cover every core gain nothing from a second stream: only the
  // narrower tasks count towards the parallel gain.
  // When the segment has such wide tasks at all, streams would only contend for the cores those
  // already share: one stream (measured at 2 threads: the encoder 7.8 ms on 2 streams, 4.6 on 1;
  // shufflenet_v2 4.3 vs 2.8). Graphs of narrow tasks only (parallel chains) keep the gain test.
  StreamAssignerInput narrow = in;
  int64_t wide_cost = 0;
  for (size_t p = 0; p < nc.size() && p < narrow.cost.size(); ++p) {
    if (core_num > 1 && nc[p].block_dim >= core_num) {
      wide_cost += narrow.cost[p];
      narrow.cost[p] = 0;
    }
  }
  if (automatic && out->num_streams > 1 &&
      (wide_cost > 0 || EstimateParallelGainNs(narrow, *out) < kMinParallelGainNs)) {
    in.max_streams = 1;
    GE_RETURN_IF_ERROR(AssignStreams(in, out));
  }
  return Status::Ok();
}

KernelArg ArgFor(const Graph& graph, const MemoryPlan& plan, const std::vector<ValueId>& root, ValueId v) {
  KernelArg a;
  if (v == kNoValue) return a;
  if (graph.value(v).constant) {
    a.kind = KernelArg::kConstant;
    a.value = v;
  } else {
    a.kind = KernelArg::kArena;
    a.offset = plan.buffers[plan.value_buffer[v]].offset;
    a.value = root[v];
  }
  return a;
}

void BindTasks(const Graph& graph, const std::vector<NodeCompile>& nc, SinkProgram* prog) {
  std::vector<bool> used_const(graph.num_values(), false);
  const MemoryPlan& plan = prog->memory;
  std::vector<ValueId> root(graph.num_values());  // a view's bytes are its input's (offset 0)
  for (size_t v = 0; v < root.size(); ++v) root[v] = static_cast<ValueId>(v);
  for (size_t p = 0; p < prog->order.size(); ++p) {
    const Node& node = graph.node(prog->order[p]);
    if (nc[p].is_view && !node.outputs.empty() && node.outputs[0] != kNoValue)
      root[node.outputs[0]] = root[node.inputs[0]];
  }
  for (size_t p = 0; p < prog->order.size(); ++p) {
    if (nc[p].is_view) continue;
    const Node& node = graph.node(prog->order[p]);
    SinkTask t;
    t.position = static_cast<int>(p);
    t.node = prog->order[p];
    t.kernel = nc[p].kernel;
    t.block_dim = nc[p].block_dim;
    t.tiling = nc[p].tiling;
    for (ValueId v : node.inputs) {
      t.args.push_back(ArgFor(graph, plan, root, v));
      if (v != kNoValue && graph.value(v).constant) used_const[v] = true;
    }
    for (size_t o = 0; o < node.outputs.size(); ++o) {
      ValueId v = node.outputs[o];
      if (v != kNoValue)
        t.args.push_back(ArgFor(graph, plan, root, v));
      else
        t.args.push_back({KernelArg::kArena, plan.buffers[plan.scratch_buffer[p][o]].offset, kNoValue});
    }
    for (int b : plan.workspace_buffer[p]) t.args.push_back({KernelArg::kArena, plan.buffers[b].offset, kNoValue});
    prog->tasks.push_back(std::move(t));
  }
  for (size_t v = 0; v < used_const.size(); ++v)
    if (used_const[v]) prog->constants.push_back(static_cast<ValueId>(v));
  for (ValueId v : graph.inputs()) prog->input_offsets.push_back(plan.buffers[plan.value_buffer[v]].offset);
  for (ValueId v : graph.outputs())
    prog->output_offsets.push_back(plan.value_buffer[v] < 0 ? -1 : plan.buffers[plan.value_buffer[v]].offset);
  prog->value_root = std::move(root);
}

}  // namespace

bool IsSinkableNode(const Graph& graph, const Node& node) {
  NodeBinding binding;
  if (!BindNode(node, &binding).ok()) return false;
  if (IsViewNode(graph, node)) return true;
  if (binding.impl->kernel == nullptr) return false;
  for (size_t i = 0; i < node.inputs.size() && i < binding.value_depend.size(); ++i)
    if (binding.value_depend[i] && node.inputs[i] != kNoValue && !graph.value(node.inputs[i]).constant) return false;
  return true;
}

Status RetileSinkProgram(const Graph& graph, uint32_t core_num, SinkProgram* prog) {
  std::vector<gert::Tensor> values(graph.num_values());
  for (ValueId v = 0; v < static_cast<ValueId>(graph.num_values()); ++v) {
    const Value& val = graph.value(v);
    if (val.constant) values[v] = DescTensor(val.constant->desc(), val.constant->data());
  }
  for (ValueId v : graph.inputs()) values[v] = prog->values[v];
  size_t next_task = 0;
  for (size_t p = 0; p < prog->order.size(); ++p) {
    const Node& node = graph.node(prog->order[p]);
    NodeCompile nc;
    GE_RETURN_IF_ERROR(CompileNode(graph, prog->order[p], core_num, values, &nc, &prog->values));
    const PlannerNode& pn = prog->planner_input.nodes[p];
    if (nc.workspaces != pn.workspaces || nc.absent_output_bytes != pn.absent_output_bytes)
      return InvalidArgument("{}: its workspaces differ from the compiled program's", NodeLabel(node));
    const bool has_task = next_task < prog->tasks.size() && prog->tasks[next_task].position == static_cast<int>(p);
    if (nc.is_view == has_task)
      return InvalidArgument("{}: {} in the compiled program", NodeLabel(node), has_task ? "a task" : "no task");
    if (!has_task) continue;
    SinkTask& t = prog->tasks[next_task++];
    if (nc.block_dim != t.block_dim || nc.tiling.size() != t.tiling.size())
      return InvalidArgument("{}: tiling gives block dim {} and {} bytes, the compiled program {} and {}",
                             NodeLabel(node), nc.block_dim, nc.tiling.size(), t.block_dim, t.tiling.size());
    t.kernel = nc.kernel;
    t.tiling = std::move(nc.tiling);
  }
  if (next_task != prog->tasks.size()) return InvalidArgument("tasks beyond the schedule");
  prog->values = std::move(values);
  return Status::Ok();
}

Status GenerateSinkProgram(const Graph& graph, const SinkCompileOptions& options, SinkProgram* out) {
  SinkProgram& prog = *out;
  prog = SinkProgram();
  GE_RETURN_IF_ERROR(graph.TopologicalOrder(&prog.order));
  prog.values.resize(graph.num_values());
  for (ValueId v = 0; v < static_cast<ValueId>(graph.num_values()); ++v) {
    const Value& val = graph.value(v);
    if (val.constant) prog.values[v] = DescTensor(val.constant->desc(), val.constant->data());
  }
  for (ValueId v : graph.inputs()) {
    const TensorDesc& d = graph.value(v).desc;
    if (d.shape.IsUnknownRank() || d.shape.GetShapeSize() < 0)
      return InvalidArgument("input '{}' has no static shape ({}); it cannot be sunk", graph.value(v).name,
                             d.ToString());
    prog.values[v] = DescTensor(d, nullptr);
  }
  std::vector<NodeCompile> nc(prog.order.size());
  {
    trace::Step step("tiling (compile nodes)");
    for (size_t p = 0; p < prog.order.size(); ++p)
      GE_RETURN_IF_ERROR(CompileNode(graph, prog.order[p], options.core_num, prog.values, &nc[p]));
  }
  {
    trace::Step step("stream assignment");
    GE_RETURN_IF_ERROR(BuildStreams(graph, prog, nc, options.max_streams, options.core_num, &prog.streams));
  }
  GE_RETURN_IF_ERROR(BuildPlannerInput(graph, prog.order, &prog.planner_input));
  for (size_t p = 0; p < prog.order.size(); ++p) {
    prog.planner_input.nodes[p].workspaces = nc[p].workspaces;
    prog.planner_input.nodes[p].absent_output_bytes = nc[p].absent_output_bytes;
  }
  {
    trace::Step step("memory plan");
    GE_RETURN_IF_ERROR(PlanMemory(prog.planner_input, prog.streams, &prog.memory));
  }
  // GE_CHECK_MEMORY=1 turns the checker on in release builds (the backend sweep uses it).
  bool check = options.check_memory || std::getenv("GE_CHECK_MEMORY") != nullptr;
#ifndef NDEBUG
  check = true;
#endif
  if (check) GE_RETURN_IF_ERROR(CheckMemoryPlan(prog.memory, prog.streams, &prog.planner_input));
  BindTasks(graph, nc, &prog);
  return Status::Ok();
}

}  // namespace ge
