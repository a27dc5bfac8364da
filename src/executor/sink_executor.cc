// Sink scheduling: load a compiled sink program once (weights, arena, model), then each run is copy-in, one model
// execution, copy-out.
#include "executor/sink_executor.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "executor/input_check.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "base/guard_bytes.h"
#include "base/trace.h"
#include "compiler/node_binding.h"
#include "compiler/op_call.h"
#include "executor/device_tensor.h"
#include "runtime/model.h"

namespace ge {

SinkExecutor::~SinkExecutor() {
  if (model_) aclmdlRIDestroy(model_);
  if (arena_) aclrtFree(arena_);
}

Status SinkExecutor::Load(std::shared_ptr<const Graph> graph, std::shared_ptr<const SinkProgram> program,
                          std::unique_ptr<SinkExecutor>* out) {
  GE_RETURN_IF_ERROR(EnsureDevice(nullptr));
  std::unique_ptr<SinkExecutor> ex(new SinkExecutor());
  ex->graph_ = std::move(graph);
  ex->program_ = std::move(program);
  GE_RETURN_IF_ERROR(ex->PlaceWeights());
  GE_RETURN_IF_ERROR(ex->LoadModel());
  ex->CopyWeights();  // last: nothing fails after the host copies start being released
  *out = std::move(ex);
  return Status::Ok();
}

Status SinkExecutor::Clone(std::unique_ptr<SinkExecutor>* out) const {
  std::unique_ptr<SinkExecutor> ex(new SinkExecutor());
  ex->graph_ = graph_;
  ex->program_ = program_;  // the compile-time plan and the weights are shared
  ex->weights_ = weights_;
  ex->constant_addr_ = constant_addr_;
  GE_RETURN_IF_ERROR(ex->LoadModel());
  *out = std::move(ex);
  return Status::Ok();
}

Status SinkExecutor::LoadModel() {
  const size_t arena_bytes = static_cast<size_t>(std::max<int64_t>(program_->memory.arena_bytes, 1));
  void* arena = nullptr;
  if (aclrtMalloc(&arena, arena_bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
    return Error(Status::kOutOfMemory, "out of device memory for a {}-byte arena: {}", arena_bytes,
                 aclGetRecentErrMsg());
  arena_ = static_cast<uint8_t*>(arena);
  FillGuards();
  const StreamAssignment& s = program_->streams;
  if (aclmdlRICreate(static_cast<uint32_t>(s.num_streams), static_cast<uint32_t>(s.num_events), &model_) != ACL_SUCCESS)
    return Internal("cannot create a device model: {}", aclGetRecentErrMsg());
  GE_RETURN_IF_ERROR(AddTasks());
  if (trace::Enabled()) SetTraceInfo();
  if (aclmdlRILoadComplete(model_) != ACL_SUCCESS)
    return Internal("cannot load the device model: {}", aclGetRecentErrMsg());
  return Status::Ok();
}

namespace {
void ReturnFreedMemory() {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}
}  // namespace

// The weights go into one block, each model stream's in the order its tasks read them, so a
// stream walks its weights sequentially (the hardware prefetcher follows; separate allocations
// cost a branch-heavy model ~1.3x in weight-streaming time).
Status SinkExecutor::PlaceWeights() {
  constant_addr_.assign(graph_->num_values(), nullptr);
  std::vector<int> first_stream(graph_->num_values(), -1);
  std::vector<ValueId> order;  // constants by first use
  for (const SinkTask& t : program_->tasks)
    for (const KernelArg& a : t.args)
      if (a.kind == KernelArg::kConstant && first_stream[a.value] < 0) {
        first_stream[a.value] = program_->streams.stream[t.position];
        order.push_back(a.value);
      }
  for (ValueId v : program_->constants)  // constants no task reads (none today) still get a place
    if (first_stream[v] < 0) {
      first_stream[v] = 0;
      order.push_back(v);
    }
  std::stable_sort(order.begin(), order.end(), [&](ValueId a, ValueId b) { return first_stream[a] < first_stream[b]; });
  constexpr size_t kAlign = 64;
  std::vector<size_t> offset(order.size());
  size_t total = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    offset[i] = total;
    total += (graph_->value(order[i]).constant->NumBytes() + kAlign - 1) / kAlign * kAlign;
  }
  if (total == 0) return Status::Ok();
  void* block = nullptr;
  if (aclrtMalloc(&block, total, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
    return Error(Status::kOutOfMemory, "out of device memory for {} bytes of weights: {}", total, aclGetRecentErrMsg());
  weights_.reset(static_cast<uint8_t*>(block), [](uint8_t* p) { aclrtFree(p); });
  for (size_t i = 0; i < order.size(); ++i) constant_addr_[order[i]] = weights_.get() + offset[i];
  return Status::Ok();
}

// Each constant's host bytes are dropped as soon as they are on the device (unless the segment
// outputs it): the segment graph is this executor's, and holding every weight twice until the
// end of the copy would double a large model's peak memory. glibc keeps freed blocks below its
// (self-raising) mmap threshold in the heap: the freed pages go back every 64 MiB.
void SinkExecutor::CopyWeights() {
  std::vector<bool> is_output(graph_->num_values(), false);
  for (ValueId v : graph_->outputs()) is_output[v] = true;
  size_t released = 0;
  for (ValueId v = 0; v < static_cast<ValueId>(graph_->num_values()); ++v) {
    if (constant_addr_[v] == nullptr) continue;
    HostTensor& h = *const_cast<Graph&>(*graph_).value(v).constant;
    const size_t bytes = h.NumBytes();
    if (bytes > 0) aclrtMemcpy(constant_addr_[v], bytes, h.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    // Only floating-point weights: integer constants are small and may be read again by a
    // run's shape inference (value-depend inputs).
    const DataType dt = h.dtype();
    if (is_output[v] || !(dt == DT_FLOAT || dt == DT_FLOAT16 || dt == DT_BF16 || dt == DT_DOUBLE)) continue;
    h.ReleaseBytes();
    released += bytes;
    if (released >= (64u << 20)) {
      ReturnFreedMemory();
      released = 0;
    }
  }
  // malloc_trim walks the whole heap: only when a megabyte or more came free since the last one
  // (a small model's load spent 6% of its time here).
  if (released >= (1u << 20)) ReturnFreedMemory();
}

namespace {

constexpr int kFromConstant = -(1 << 30);

// Which graph inputs and outputs can be bound to caller buffers, and where the rest come from.
// slot_owner: per ValueId (a view root), the input i (i) or zero-copy output o (n_in + o).
void PlanZeroCopy(const Graph& graph, const SinkProgram& prog, std::vector<int>* slot_owner,
                  std::vector<bool>* zero_copy, std::vector<int>* source) {
  const auto& gin = graph.inputs();
  const auto& gout = graph.outputs();
  slot_owner->assign(graph.num_values(), -1);
  std::vector<int> input_of(graph.num_values(), -1), output_of(graph.num_values(), -1);
  for (size_t i = 0; i < gin.size(); ++i) {
    input_of[gin[i]] = static_cast<int>(i);
    (*slot_owner)[gin[i]] = static_cast<int>(i);
  }
  zero_copy->assign(gout.size(), false);
  source->assign(gout.size(), kFromConstant);  // read only for outputs that are not zero copy
  for (size_t o = 0; o < gout.size(); ++o) {
    if (prog.output_offsets[o] < 0) continue;  // a constant
    const ValueId r = prog.value_root[gout[o]];
    if (input_of[r] >= 0) {
      (*source)[o] = input_of[r];
    } else if (output_of[r] >= 0) {
      (*source)[o] = ~output_of[r];
    } else {
      output_of[r] = static_cast<int>(o);
      (*slot_owner)[r] = static_cast<int>(gin.size() + o);
      (*zero_copy)[o] = true;
    }
  }
}

}  // namespace

Status SinkExecutor::AddTasks() {
  const StreamAssignment& s = program_->streams;
  const size_t num_in = graph_->inputs().size();
  std::vector<int> slot_owner;
  PlanZeroCopy(*graph_, *program_, &slot_owner, &output_zero_copy_, &output_source_);
  input_slots_.assign(num_in, {});
  output_slots_.assign(graph_->outputs().size(), {});
  bound_inputs_.assign(num_in, nullptr);
  bound_outputs_.assign(graph_->outputs().size(), nullptr);
  std::vector<uint32_t> stream_tasks(static_cast<size_t>(s.num_streams), 0);  // tasks added per model stream
  size_t next_sync = 0;  // syncs are in consumer order, as are tasks
  std::vector<void*> addrs;
  for (const SinkTask& t : program_->tasks) {
    const uint32_t stream = static_cast<uint32_t>(s.stream[t.position]);
    for (; next_sync < s.syncs.size() && s.syncs[next_sync].consumer <= t.position; ++next_sync) {
      if (aclmdlRIAddEventWait(model_, stream, static_cast<uint32_t>(s.event[s.syncs[next_sync].producer])) !=
          ACL_SUCCESS)
        return Internal("cannot add an event wait: {}", aclGetRecentErrMsg());
      ++stream_tasks[stream];
    }
    addrs.clear();
    for (const KernelArg& a : t.args) {
      switch (a.kind) {
        case KernelArg::kNull: addrs.push_back(nullptr); break;
        case KernelArg::kArena: {
          addrs.push_back(arena_ + a.offset);
          const int owner = a.value == kNoValue ? -1 : slot_owner[a.value];
          if (owner < 0) break;
          AddrSlot slot{stream, stream_tasks[stream], static_cast<uint32_t>(addrs.size() - 1), addrs.back()};
          if (owner < static_cast<int>(num_in))
            input_slots_[owner].push_back(slot);
          else
            output_slots_[owner - num_in].push_back(slot);
          break;
        }
        case KernelArg::kConstant: addrs.push_back(constant_addr_[a.value]); break;
      }
    }
    const std::string label = NodeLabel(graph_->node(t.node));
    if (aclmdlRIAddKernelTaskWithName(model_, stream, label.c_str(), t.kernel, t.block_dim, addrs.data(),
                                      static_cast<uint32_t>(addrs.size()), t.tiling.empty() ? nullptr : t.tiling.data(),
                                      static_cast<uint32_t>(t.tiling.size())) != ACL_SUCCESS)
      return Internal("{}: cannot add its kernel task: {}", NodeLabel(graph_->node(t.node)), aclGetRecentErrMsg());
    ++stream_tasks[stream];
    if (s.event[t.position] >= 0) {
      if (aclmdlRIAddEventRecord(model_, stream, static_cast<uint32_t>(s.event[t.position])) != ACL_SUCCESS)
        return Internal("cannot add an event record: {}", aclGetRecentErrMsg());
      ++stream_tasks[stream];
    }
  }
  return Status::Ok();
}

std::string SinkExecutor::DescribeValues(const std::vector<ValueId>& values) const {
  std::string shapes;
  for (ValueId v : values) {
    if (!shapes.empty()) shapes += ", ";
    if (v == kNoValue) {
      shapes += "<none>";
      continue;
    }
    const gert::Tensor& d = program_->values[v];
    shapes += fmt::format("{}{}", DataTypeName(d.GetDataType()), ShapeToString(d.GetStorageShape()));
  }
  return shapes;
}

// The trace's name (the op type) and args (node, op, shapes, blocks, stream) of each kernel task.
void SinkExecutor::SetTraceInfo() {
  rt::Model* m = rt::FindModel(model_);
  if (m == nullptr) return;
  rt::TaskTraceInfo info;
  for (const SinkTask& t : program_->tasks) {
    const Node& node = graph_->node(t.node);
    info.names.push_back(node.type);
    info.args.push_back(
        fmt::format("{{\"node\":{},\"op\":{},\"inputs\":{},\"outputs\":{},\"blocks\":{},\"stream\":{}}}",
                    trace::Quote(node.name), trace::Quote(node.type), trace::Quote(DescribeValues(node.inputs)),
                    trace::Quote(DescribeValues(node.outputs)), t.block_dim, program_->streams.stream[t.position]));
  }
  m->SetTraceInfo(std::move(info));
}

Status SinkExecutor::SetProfiling(bool on) {
  if (aclmdlRISetProfiling(model_, on ? 1 : 0) != ACL_SUCCESS)
    return Unsupported("cannot profile the sink segment: {}", aclGetRecentErrMsg());
  return Status::Ok();
}

Status SinkExecutor::TakeProfile(OpProfile* out) {
  const auto& tasks = program_->tasks;  // kernel tasks were added in this order
  std::vector<uint64_t> ns(tasks.size());
  uint32_t runs = 0;
  if (aclmdlRIGetKernelTimes(model_, ns.data(), static_cast<uint32_t>(ns.size()), &runs) != ACL_SUCCESS)
    return Internal("cannot read the task times: {}", aclGetRecentErrMsg());
  for (size_t k = 0; k < tasks.size(); ++k) {
    const Node& node = graph_->node(tasks[k].node);
    OpTiming t;
    t.node = node.name;
    t.type = node.type;
    t.input_shapes = DescribeValues(node.inputs);
    t.total_ns = ns[k];
    t.runs = runs;
    out->push_back(std::move(t));
  }
  return Status::Ok();
}

size_t SinkExecutor::num_zero_copy_outputs() const {
  return static_cast<size_t>(std::count(output_zero_copy_.begin(), output_zero_copy_.end(), true));
}

Status SinkExecutor::Rebind(const std::vector<AddrSlot>& slots, void* addr, void** bound) {
  if (*bound == addr) return Status::Ok();
  for (const AddrSlot& s : slots)
    if (aclmdlRIUpdateTaskAddr(model_, s.stream, s.task, s.addr, addr ? addr : s.home) != ACL_SUCCESS)
      return Internal("cannot rebind a task address: {}", aclGetRecentErrMsg());
  *bound = addr;
  return Status::Ok();
}

Status SinkExecutor::BindArena() {
  for (size_t i = 0; i < input_slots_.size(); ++i)
    GE_RETURN_IF_ERROR(Rebind(input_slots_[i], nullptr, &bound_inputs_[i]));
  for (size_t o = 0; o < output_slots_.size(); ++o)
    GE_RETURN_IF_ERROR(Rebind(output_slots_[o], nullptr, &bound_outputs_[o]));
  return Status::Ok();
}

Status SinkExecutor::RunWithDeviceBuffers(const std::vector<DeviceBuffer>& inputs,
                                          const std::vector<DeviceBuffer>& outputs) {
  const auto& gin = graph_->inputs();
  const auto& gout = graph_->outputs();
  GE_RETURN_IF_ERROR(CheckBufferCounts(*graph_, inputs, outputs));
  auto bytes_of = [&](ValueId v) { return static_cast<size_t>(program_->planner_input.value_bytes[v]); };
  for (size_t i = 0; i < gin.size(); ++i) {
    const Value& v = graph_->value(gin[i]);
    GE_RETURN_IF_ERROR(CheckDeviceBuffer("input", v.name, v.desc, bytes_of(gin[i]), inputs[i]));
  }
  for (size_t o = 0; o < gout.size(); ++o) {
    const Value& v = graph_->value(gout[o]);
    const size_t need = program_->output_offsets[o] < 0 ? v.constant->NumBytes() : bytes_of(gout[o]);
    GE_RETURN_IF_ERROR(CheckDeviceBuffer("output", v.name, v.desc, need, outputs[o]));
  }
  for (size_t i = 0; i < gin.size(); ++i)
    GE_RETURN_IF_ERROR(Rebind(input_slots_[i], bytes_of(gin[i]) > 0 ? inputs[i].data : nullptr, &bound_inputs_[i]));
  for (size_t o = 0; o < gout.size(); ++o)
    if (output_zero_copy_[o] && bytes_of(gout[o]) > 0)
      GE_RETURN_IF_ERROR(Rebind(output_slots_[o], outputs[o].data, &bound_outputs_[o]));
  if (aclError ret = aclmdlRIExecute(model_, -1); ret != ACL_SUCCESS)
    return DeviceError(ret, "device model execution failed");
  GE_RETURN_IF_ERROR(CheckGuards());
  for (size_t o = 0; o < gout.size(); ++o) {  // outputs that are not the kernels' own
    if (output_zero_copy_[o]) continue;
    const int src = output_source_[o];
    const HostTensor* c = src == kFromConstant ? &*graph_->value(gout[o]).constant : nullptr;
    const size_t n = c ? c->NumBytes() : bytes_of(gout[o]);
    const void* from = c ? c->data() : src >= 0 ? inputs[src].data : outputs[~src].data;
    if (n > 0) aclrtMemcpy(outputs[o].data, outputs[o].size, from, n, ACL_MEMCPY_DEVICE_TO_DEVICE);
  }
  return Status::Ok();
}

void SinkExecutor::FillGuards() {
  const MemoryPlan& m = program_->memory;
  if (m.guard_bytes == 0) return;
  for (const PlannedBuffer& b : m.buffers)
    std::memset(arena_ + b.offset + b.used, kGuardByte, static_cast<size_t>(b.size - b.used));
}

// After a run: a changed guard byte means a kernel wrote past the buffer before it; names the
// node that first writes the buffer (in-place writers share it) and refills the guards.
Status SinkExecutor::CheckGuards() {
  const MemoryPlan& m = program_->memory;
  if (m.guard_bytes == 0) return Status::Ok();
  for (size_t i = 0; i < m.buffers.size(); ++i) {
    const PlannedBuffer& b = m.buffers[i];
    const int64_t at = FirstBrokenGuardByte(arena_ + b.offset + b.used, static_cast<size_t>(b.size - b.used));
    if (at < 0) continue;
    std::string who = "a graph input";
    if (b.def >= 0 && b.def < static_cast<int>(program_->order.size()))
      who = NodeLabel(graph_->node(program_->order[b.def]));
    FillGuards();
    return Internal("{}: wrote past the end of its {} ({} bytes): guard byte {} after it changed", who,
                    b.is_workspace ? "workspace" : "output", b.used, at);
  }
  return Status::Ok();
}

Status SinkExecutor::Run(const std::vector<HostTensor>& inputs, std::vector<HostTensor>* outputs) {
  GE_RETURN_IF_ERROR(CheckGraphInputs(*graph_, inputs));
  GE_RETURN_IF_ERROR(BindArena());  // after a zero-copy run
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].NumBytes() > 0) {
      aclrtMemcpy(arena_ + program_->input_offsets[i], inputs[i].NumBytes(), inputs[i].data(), inputs[i].NumBytes(),
                  ACL_MEMCPY_HOST_TO_DEVICE);
      if (inputs[i].dtype() == DT_BOOL) NormalizeBoolBytes(arena_ + program_->input_offsets[i], inputs[i].NumBytes());
    }
  }
  if (aclError ret = aclmdlRIExecute(model_, -1); ret != ACL_SUCCESS)
    return DeviceError(ret, "device model execution failed");
  GE_RETURN_IF_ERROR(CheckGuards());
  outputs->resize(graph_->outputs().size());
  for (size_t o = 0; o < graph_->outputs().size(); ++o) {
    ValueId v = graph_->outputs()[o];
    if (program_->output_offsets[o] < 0) {
      (*outputs)[o] = *graph_->value(v).constant;
      continue;
    }
    const gert::Tensor& t = program_->values[v];
    HostTensor h(t.GetDataType(), FromGertShape(t.GetStorageShape()));
    if (h.NumBytes() > 0)
      aclrtMemcpy(h.mutable_data(), h.NumBytes(), arena_ + program_->output_offsets[o], h.NumBytes(),
                  ACL_MEMCPY_DEVICE_TO_HOST);
    (*outputs)[o] = std::move(h);
  }
  return Status::Ok();
}

}  // namespace ge
