// Sink scheduling: load once (weights, arena, model), then each run is copy-in, one model
// execution, copy-out.
#include "executor/sink_executor.h"

#include "executor/input_check.h"

#include <cstring>

#include "compiler/node_binding.h"
#include "compiler/op_call.h"
#include "executor/device_tensor.h"

namespace ge {

SinkExecutor::~SinkExecutor() {
  if (model_) aclmdlRIDestroy(model_);
  if (arena_) aclrtFree(arena_);
  for (void* p : constant_buffers_) aclrtFree(p);
}

Status SinkExecutor::Create(std::shared_ptr<const Graph> graph, const SinkCompileOptions& options,
                            std::unique_ptr<SinkExecutor>* out) {
  std::unique_ptr<SinkExecutor> ex(new SinkExecutor());
  ex->graph_ = std::move(graph);
  SinkCompileOptions opt = options;
  GE_RETURN_IF_ERROR(EnsureDevice(&opt.core_num));
  GE_RETURN_IF_ERROR(GenerateSinkProgram(*ex->graph_, opt, &ex->program_));
  GE_RETURN_IF_ERROR(ex->Load());
  *out = std::move(ex);
  return Status::Ok();
}

Status SinkExecutor::Load() {
  const size_t arena_bytes = static_cast<size_t>(std::max<int64_t>(program_.memory.arena_bytes, 1));
  void* arena = nullptr;
  if (aclrtMalloc(&arena, arena_bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
    return Error(Status::kOutOfMemory, "out of device memory for a {}-byte arena: {}", arena_bytes,
                 aclGetRecentErrMsg());
  arena_ = static_cast<uint8_t*>(arena);
  constant_addr_.assign(graph_->num_values(), nullptr);
  for (ValueId v : program_.constants) {
    void* dev = nullptr;
    gert::Tensor t;
    GE_RETURN_IF_ERROR(UploadConstant(*graph_->value(v).constant, &dev, &t));
    constant_buffers_.push_back(dev);
    constant_addr_[v] = dev;
  }
  const StreamAssignment& s = program_.streams;
  if (aclmdlRICreate(static_cast<uint32_t>(s.num_streams), static_cast<uint32_t>(s.num_events), &model_) != ACL_SUCCESS)
    return Internal("cannot create a device model: {}", aclGetRecentErrMsg());
  GE_RETURN_IF_ERROR(AddTasks());
  if (aclmdlRILoadComplete(model_) != ACL_SUCCESS)
    return Internal("cannot load the device model: {}", aclGetRecentErrMsg());
  return Status::Ok();
}

Status SinkExecutor::AddTasks() {
  const StreamAssignment& s = program_.streams;
  size_t next_sync = 0;  // syncs are in consumer order, as are tasks
  std::vector<void*> addrs;
  for (const SinkTask& t : program_.tasks) {
    const uint32_t stream = static_cast<uint32_t>(s.stream[t.position]);
    for (; next_sync < s.syncs.size() && s.syncs[next_sync].consumer <= t.position; ++next_sync)
      if (aclmdlRIAddEventWait(model_, stream, static_cast<uint32_t>(s.event[s.syncs[next_sync].producer])) !=
          ACL_SUCCESS)
        return Internal("cannot add an event wait: {}", aclGetRecentErrMsg());
    addrs.clear();
    for (const KernelArg& a : t.args) {
      switch (a.kind) {
        case KernelArg::kNull: addrs.push_back(nullptr); break;
        case KernelArg::kArena: addrs.push_back(arena_ + a.offset); break;
        case KernelArg::kConstant: addrs.push_back(constant_addr_[a.value]); break;
      }
    }
    if (aclmdlRIAddKernelTask(model_, stream, t.kernel, t.block_dim, addrs.data(), static_cast<uint32_t>(addrs.size()),
                              t.tiling.empty() ? nullptr : t.tiling.data(),
                              static_cast<uint32_t>(t.tiling.size())) != ACL_SUCCESS)
      return Internal("{}: cannot add its kernel task: {}", NodeLabel(graph_->node(t.node)), aclGetRecentErrMsg());
    if (s.event[t.position] >= 0 &&
        aclmdlRIAddEventRecord(model_, stream, static_cast<uint32_t>(s.event[t.position])) != ACL_SUCCESS)
      return Internal("cannot add an event record: {}", aclGetRecentErrMsg());
  }
  return Status::Ok();
}

Status SinkExecutor::Run(const std::vector<HostTensor>& inputs, std::vector<HostTensor>* outputs) {
  const auto& gin = graph_->inputs();
  GE_RETURN_IF_ERROR(CheckGraphInputs(*graph_, inputs));
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].NumBytes() > 0)
      aclrtMemcpy(arena_ + program_.input_offsets[i], inputs[i].NumBytes(), inputs[i].data(), inputs[i].NumBytes(),
                  ACL_MEMCPY_HOST_TO_DEVICE);
  }
  if (aclmdlRIExecute(model_, -1) != ACL_SUCCESS)
    return Internal("device model execution failed: {}", aclGetRecentErrMsg());
  outputs->resize(graph_->outputs().size());
  for (size_t o = 0; o < graph_->outputs().size(); ++o) {
    ValueId v = graph_->outputs()[o];
    if (program_.output_offsets[o] < 0) {
      (*outputs)[o] = *graph_->value(v).constant;
      continue;
    }
    const gert::Tensor& t = program_.values[v];
    HostTensor h(t.GetDataType(), FromGertShape(t.GetStorageShape()));
    if (h.NumBytes() > 0)
      aclrtMemcpy(h.mutable_data(), h.NumBytes(), arena_ + program_.output_offsets[o], h.NumBytes(),
                  ACL_MEMCPY_DEVICE_TO_HOST);
    (*outputs)[o] = std::move(h);
  }
  return Status::Ok();
}

}  // namespace ge
