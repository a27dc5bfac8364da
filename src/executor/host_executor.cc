// Host scheduling: per node infer -> tiling -> alloc -> launch -> free.
#include "executor/host_executor.h"
#include "executor/run_control.h"

#include <algorithm>
#include <chrono>
#include <cstring>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/error_message.h"
#include "base/log.h"
#include "base/trace.h"
#include "executor/device_tensor.h"
#include "executor/input_check.h"
#include "register/op_def.h"
#include "runtime/caching_allocator.h"
#include "runtime/kernel_error.h"

namespace ge {

namespace {

// Trace args of a host step: the node, its op and (when known) its input shapes.
auto NodeArgs(const Node& node, const OpCall* call = nullptr) {
  return [&node, call] {
    std::string args = fmt::format("{{\"node\":{},\"op\":{}", trace::Quote(node.name), trace::Quote(node.type));
    if (call) args += fmt::format(",\"inputs\":{}", trace::Quote(call->DescribeInputs()));
    return args + "}";
  };
}

}  // namespace

HostExecutor::~HostExecutor() {
  if (stream_) aclrtSynchronizeStream(stream_);
  for (auto& s : slots_)
    if (s.device_owned) allocator_->Free(s.tensor.GetAddr());
  for (void* p : constant_buffers_) aclrtFree(p);
  if (stream_) aclrtDestroyStream(stream_);
}

Status HostExecutor::Create(std::shared_ptr<const Graph> graph, const std::vector<Placement>* placement,
                            std::unique_ptr<HostExecutor>* out) {
  auto plan = std::make_shared<HostPlan>();
  GE_RETURN_IF_ERROR(BuildHostPlan(*graph, placement, plan.get()));
  return Load(std::move(graph), std::move(plan), out);
}

Status HostExecutor::Load(std::shared_ptr<const Graph> graph, std::shared_ptr<const HostPlan> plan,
                          std::unique_ptr<HostExecutor>* out) {
  std::unique_ptr<HostExecutor> ex(new HostExecutor());
  ex->graph_ = std::move(graph);
  ex->plan_ = std::move(plan);
  GE_RETURN_IF_ERROR(ex->Init());
  const std::vector<Placement>& placement = ex->plan_->placement;
  for (auto& step : ex->steps_) {
    const auto* impl = step->binding.impl;
    step->use_fallback =
        impl->op_execute_func != nullptr &&
        (impl->kernel == nullptr || (!placement.empty() && placement[step->node] == Placement::kHostFallback));
    const Node& node = ex->graph_->node(step->node);
    const auto def = ops::GetOpDef(node.type);
    step->view = def != nullptr && !impl->outputs_by_execute && node.outputs.size() == 1 && !node.inputs.empty() &&
                 node.inputs[0] != kNoValue && node.outputs[0] != kNoValue &&
                 std::any_of(def->GetOutputViews().begin(), def->GetOutputViews().end(),
                             [](const ops::OpDef::OutputReuse& r) { return r.output == 0 && r.input == 0; });
  }
  *out = std::move(ex);
  return Status::Ok();
}

Status HostExecutor::Clone(std::unique_ptr<HostExecutor>* out) const { return Load(graph_, plan_, out); }

Status HostExecutor::Init() {
  GE_RETURN_IF_ERROR(EnsureDevice(&core_num_));
  if (aclrtCreateStream(&stream_) != ACL_SUCCESS) return Internal("cannot create a stream: {}", aclGetRecentErrMsg());
  allocator_ = std::make_unique<rt::CachingAllocator>();
  slots_.resize(graph_->num_values());
  const auto readers = graph_->Consumers();
  std::vector<bool> is_output(graph_->num_values(), false);
  for (ValueId v : graph_->outputs())
    if (v >= 0 && static_cast<size_t>(v) < is_output.size()) is_output[v] = true;
  for (ValueId v = 0; v < static_cast<ValueId>(graph_->num_values()); ++v) {
    const Value& val = graph_->value(v);
    if (!val.constant) continue;
    // A constant whose bytes were released (an offline model's constants that only sink
    // segments read) has nothing to upload: a node here reading it would read past a 1-byte
    // buffer (a mutated .gem did: heap-buffer-overflow in Softmax, gem harness).
    if (val.constant->data() == nullptr && val.constant->NumElements() != 0 && (!readers[v].empty() || is_output[v]))
      return InvalidArgument(
          "value '{}' ({}) is a constant without bytes (released), but {} reads it", val.name,
          val.constant->desc().ToString(),
          readers[v].empty() ? std::string("the graph's output") : NodeLabel(graph_->node(readers[v][0].first)));
    void* dev = nullptr;
    GE_RETURN_IF_ERROR(UploadConstant(*val.constant, &dev, &slots_[v].tensor));
    if (dev) constant_buffers_.push_back(dev);
    slots_[v].is_constant = true;
  }
  auto consumers = graph_->Consumers();
  for (ValueId v = 0; v < static_cast<ValueId>(graph_->num_values()); ++v)
    slots_[v].uses = static_cast<int>(consumers[v].size());
  for (ValueId v : graph_->outputs()) slots_[v].uses += 1;  // graph outputs are never freed
  for (size_t k = 0; k < plan_->order.size(); ++k) {
    const NodeId n = plan_->order[k];
    auto step = std::make_unique<Step>();
    step->node = n;
    const Node& node = graph_->node(n);
    step->label = NodeLabel(node);
    step->binding = plan_->bindings[k];
    step->call.Prepare(node, step->binding);
    for (size_t i = 0; i < node.inputs.size(); ++i)
      if (step->binding.value_depend[i] && node.inputs[i] != kNoValue && !graph_->value(node.inputs[i]).constant)
        step->needs_sync = true;
    if (step->binding.impl->outputs_by_execute) step->needs_sync = true;  // runs nested executors
    steps_.push_back(std::move(step));
  }
  return Status::Ok();
}

void HostExecutor::Release(ValueId v) {
  ValueSlot& s = slots_[v];
  if (s.view_of != kNoValue) {
    Release(s.view_of);
    return;
  }
  if (s.is_constant || --s.remaining > 0) return;
  if (s.device_owned) allocator_->Free(s.tensor.GetAddr());
  s.device_owned = false;
}

Status HostExecutor::Run(const std::vector<HostTensor>& inputs, std::vector<HostTensor>* outputs) {
  const auto& gin = graph_->inputs();
  GE_RETURN_IF_ERROR(CheckGraphInputs(*graph_, inputs));
  // A run again at the same shapes takes its blocks from an arena planned from the earlier runs.
  allocator_->BeginRun();
  for (auto& s : slots_) {
    s.remaining = s.uses;
    s.view_of = kNoValue;
  }
  Status st;
  for (size_t i = 0; i < inputs.size(); ++i) {
    ValueSlot& s = slots_[gin[i]];
    st = AllocDeviceTensor(allocator_.get(), inputs[i].dtype(), inputs[i].shape(), &s.tensor);
    if (!st.ok()) break;
    s.device_owned = true;
    const size_t n = std::min(inputs[i].NumBytes(), s.tensor.GetSize());
    if (n > 0) std::memcpy(s.tensor.GetAddr(), inputs[i].data(), n);  // an empty input has no bytes (data() null)
    if (n > 0 && inputs[i].dtype() == DT_BOOL) NormalizeBoolBytes(s.tensor.GetAddr(), n);
  }
  for (size_t i = 0; i < steps_.size() && st.ok(); ++i) {  // not when an input failed
    auto& step = steps_[i];
    st = CheckRunControl([&] { return step->label; });
    if (st.ok()) st = RunStep(*step);
    if (!st.ok()) break;
  }
  if (aclError ret = aclrtSynchronizeStream(stream_); ret != ACL_SUCCESS && st.ok())
    st = DeviceError(ret, "device error");
  if (st.ok()) {
    outputs->clear();
    for (ValueId v : graph_->outputs()) outputs->push_back(DownloadTensor(slots_[v].tensor));
  }
  for (auto& s : slots_) {
    if (s.device_owned) allocator_->Free(s.tensor.GetAddr());
    s.device_owned = false;
  }
  allocator_->EndRun(st.ok());
  return st;
}

Status HostExecutor::RunStep(Step& step) {
  const Node& node = graph_->node(step.node);
  OpCall& call = step.call;
  if (aclError ret = step.needs_sync ? aclrtSynchronizeStream(stream_) : ACL_SUCCESS; ret != ACL_SUCCESS)
    return DeviceError(ret, "device error");
  for (size_t i = 0; i < node.inputs.size(); ++i)
    if (node.inputs[i] != kNoValue) call.input(i) = slots_[node.inputs[i]].tensor;
  const bool by_execute = step.binding.impl->outputs_by_execute;
  if (by_execute)  // control flow: the op-execute function allocates and shapes its outputs
    for (size_t o = 0; o < node.outputs.size(); ++o) call.output(o) = gert::Tensor();
  // The same input shapes as last run: its inferred output shapes and tiling still hold.
  const bool reuse = !step.needs_sync && !profiling_ && SameShapesAsLastRun(step);
  if (!by_execute && !reuse) {
    trace::Scope infer("infer shape", NodeArgs(node));
    GE_RETURN_IF_ERROR(call.InferDataType());
    GE_RETURN_IF_ERROR(call.InferShape());
  }
  if (step.view && !profiling_ && TryView(step)) return Status::Ok();
  trace::Scope alloc("allocate", NodeArgs(node));
  for (size_t o = 0; o < node.outputs.size() && !by_execute; ++o) {
    if (call.output(o).GetShapeSize() < 0)
      return Internal("{}: output {} shape {} is not concrete after inference", NodeLabel(node), o,
                      ShapeToString(call.output(o).GetStorageShape()));
    // Inference set the shape and dtype in place: only the bytes are new.
    gert::Tensor& out = call.output(o);
    const size_t bytes = out.GetSize();
    void* p = allocator_->Malloc(bytes == 0 ? 1 : bytes);
    if (p == nullptr)
      return Error(Status::kOutOfMemory, "{}: out of device memory allocating {} bytes for output {}: {}",
                   NodeLabel(node), bytes, o, aclGetRecentErrMsg());
    out.SetFormat(FORMAT_ND);
    out.SetAddr(p);
  }
  alloc.End();
  std::vector<void*> workspaces;
  Status st;
  if (profiling_) {
    const auto start = std::chrono::steady_clock::now();
    st = LaunchOrExecute(step, workspaces, reuse);
    if (aclError ret = aclrtSynchronizeStream(stream_); ret != ACL_SUCCESS && st.ok())
      st = DeviceError(ret, "device error");
    step.total_ns += static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
    ++step.runs;
    step.input_shapes = call.DescribeInputs();
  } else {
    st = LaunchOrExecute(step, workspaces, reuse);
  }
  if (!step.needs_sync) {  // remember this run's shapes only if inference and tiling held
    step.shape_key_valid = st.ok();
    if (st.ok() && !reuse) step.shape_key.swap(key_);
  }
  if (st.ok() && allocator_->guard_bytes() > 0) st = CheckGuards(step, workspaces);
  for (void* w : workspaces) allocator_->Free(w);
  for (size_t o = 0; o < node.outputs.size(); ++o) {
    ValueId v = node.outputs[o];
    if (v == kNoValue) {
      allocator_->Free(call.output(o).GetAddr());
      continue;
    }
    slots_[v].tensor = call.output(o);
    slots_[v].device_owned = true;
    slots_[v].remaining = slots_[v].uses;
    if (slots_[v].uses == 0) Release(v);  // unused output: free now
  }
  if (!st.ok()) return st;
  for (ValueId v : node.inputs)
    if (v != kNoValue) Release(v);
  return Status::Ok();
}

bool HostExecutor::TryView(Step& step) {
  const Node& node = graph_->node(step.node);
  const gert::Tensor& in = step.call.input(0);
  gert::Tensor& out = step.call.output(0);
  if (in.GetDataType() != out.GetDataType() || in.GetSize() != out.GetSize() || out.GetShapeSize() < 0) return false;
  out.SetFormat(FORMAT_ND);
  out.SetAddr(const_cast<void*>(in.GetAddr()));
  // The output's readers hold the bytes through the value that owns them; this step's own use
  // of input 0 passes to them.
  ValueId root = node.inputs[0];
  while (slots_[root].view_of != kNoValue) root = slots_[root].view_of;
  ValueSlot& o = slots_[node.outputs[0]];
  o.tensor = out;
  o.device_owned = false;
  o.view_of = root;
  slots_[root].remaining += o.uses;
  for (ValueId v : node.inputs)
    if (v != kNoValue) Release(v);
  if (o.uses == 0) o.view_of = kNoValue;
  return true;
}

void HostExecutor::SetProfiling(bool on) { profiling_ = on; }

void HostExecutor::TakeProfile(OpProfile* out) {
  for (auto& step : steps_) {
    if (step->runs == 0) continue;
    const Node& node = graph_->node(step->node);
    out->push_back(OpTiming{node.name, node.type, step->input_shapes, step->total_ns, step->runs});
    step->total_ns = 0;
    step->runs = 0;
  }
}

// GE_GUARD_BYTES (base/guard_bytes.h): after the node's kernels finish, the bytes past each
// output and workspace it was given must be untouched.
Status HostExecutor::CheckGuards(Step& step, const std::vector<void*>& workspaces) {
  const Node& node = graph_->node(step.node);
  if (aclError ret = aclrtSynchronizeStream(stream_); ret != ACL_SUCCESS) return DeviceError(ret, "device error");
  if (!step.binding.impl->outputs_by_execute)
    for (size_t o = 0; o < node.outputs.size(); ++o)
      if (int64_t at = allocator_->CheckGuard(step.call.output(o).GetAddr()); at >= 0)
        return Internal("{}: wrote past the end of output {} ({} bytes): guard byte {} after it changed",
                        NodeLabel(node), o, step.call.output(o).GetSize(), at);
  for (size_t w = 0; w < workspaces.size(); ++w)
    if (int64_t at = allocator_->CheckGuard(workspaces[w]); at >= 0)
      return Internal("{}: wrote past the end of workspace {}: guard byte {} after it changed", NodeLabel(node), w, at);
  return Status::Ok();
}

bool HostExecutor::SameShapesAsLastRun(Step& step) {
  OpCall& call = step.call;
  key_.clear();
  key_.push_back(core_num_);
  for (size_t i = 0; i < call.num_inputs(); ++i) {
    if (call.data().inputs[i] == nullptr) {
      key_.push_back(-1);
      continue;
    }
    const gert::Tensor& t = call.input(i);
    const gert::Shape& shape = t.GetStorageShape();
    key_.push_back(static_cast<int64_t>(t.GetDataType()));
    key_.push_back(static_cast<int64_t>(shape.GetDimNum()));
    for (size_t d = 0; d < shape.GetDimNum(); ++d) key_.push_back(shape.GetDim(d));
  }
  return step.shape_key_valid && key_ == step.shape_key;
}

Status HostExecutor::LaunchOrExecute(Step& step, std::vector<void*>& workspaces, bool reuse_tiling) {
  const Node& node = graph_->node(step.node);
  const auto* impl = step.binding.impl;
  OpCall& call = step.call;
  if (step.use_fallback) {
    call.data().stream = stream_;
    call.data().ws_owner = allocator_.get();
    call.data().malloc_ws = [](void* owner, size_t size) {
      return static_cast<rt::CachingAllocator*>(owner)->Malloc(size);
    };
    call.data().free_ws = [](void* owner, void* addr) {
      if (addr) static_cast<rt::CachingAllocator*>(owner)->Free(addr);
    };
    gert::OpExecuteContext ctx(&call.data());
    trace::Scope fallback("fallback", NodeArgs(node, &call));
    ++stats_.fallbacks;
    ClearRecentErrMsg();
    rt::ScopedLaunchName name(step.label.c_str());  // names the kernels the single-op API launches
    if (impl->op_execute_func(&ctx) != GRAPH_SUCCESS) {
      std::string why = RecentErrMsg();
      // A control-flow body stopped by the run's time limit or cancellation keeps that code.
      if (Status c = CheckRunControl([&] { return step.label; }); !c.ok())
        return Status(c.code(), why.empty() ? c.message() : why);
      return Internal("{}: op execute failed for inputs ({}){}{}", NodeLabel(node), call.DescribeInputs(),
                      why.empty() ? "" : ": ", why);
    }
    return Status::Ok();
  }
  if (impl->kernel == nullptr)
    return Internal("{}: operator has neither a kernel nor an op-execute function", NodeLabel(node));
  if (!reuse_tiling) {
    trace::Scope tiling("tiling", NodeArgs(node));
    GE_RETURN_IF_ERROR(call.Tiling(core_num_));
  }
  addrs_.clear();
  for (size_t i = 0; i < call.num_inputs(); ++i)
    addrs_.push_back(call.data().inputs[i] ? call.input(i).GetAddr() : nullptr);
  for (size_t o = 0; o < call.num_outputs(); ++o) addrs_.push_back(call.output(o).GetAddr());
  for (size_t w : call.data().workspace_sizes) {
    workspaces.push_back(allocator_->Malloc(std::max<size_t>(w, 1)));
    if (workspaces.back() == nullptr)
      return Error(Status::kOutOfMemory, "{}: out of device memory for a {}-byte workspace", NodeLabel(node), w);
    addrs_.push_back(workspaces.back());
  }
  ++stats_.launches;
  trace::Scope launch("launch", NodeArgs(node, &call));
  if (aclrtLaunchKernelWithName(step.label.c_str(), impl->kernel, call.data().block_dim, addrs_.data(),
                                static_cast<uint32_t>(addrs_.size()), call.tiling().GetData(),
                                static_cast<uint32_t>(call.tiling().GetDataSize()), stream_) != ACL_SUCCESS)
    return Internal("{}: kernel launch failed: {}", NodeLabel(node), aclGetRecentErrMsg());
  return Status::Ok();
}

}  // namespace ge
