// Models: building and freezing the task list, and the single-stream execution loop.
#include "runtime/model.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "base/error_message.h"
#include "base/trace.h"

namespace ge::rt {
namespace {

aclError Fail(aclError code, std::string msg) {
  SetRecentErrMsg(std::move(msg));
  return code;
}

}  // namespace

void RunComputeTaskTraced(CorePool& pool, const ModelTask& task, int track, const TaskTraceInfo& info) {
  const auto start = trace::Clock::now();
  if (task.type == ModelTaskType::kKernel)
    RunKernel(pool, task.func, task.args);  // records the blocks on the cores' tracks
  else
    RunComputeTask(pool, task);
  const auto end = trace::Clock::now();
  if (task.type != ModelTaskType::kKernel) {
    trace::Record(track, task.type == ModelTaskType::kMemcpy ? "memcpy" : "callback", start, end);
    return;
  }
  const size_t k = task.kernel_index;
  trace::Record(track, k < info.names.size() ? info.names[k] : KernelName(task.args), start, end,
                k < info.args.size() ? info.args[k] : std::string());
}

Model::Model(CorePool* pool, uint32_t num_streams, uint32_t num_events)
    : pool_(pool), num_events_(num_events), tasks_(num_streams) {}

Model::~Model() { WaitIdle(); }

aclError Model::CheckAdd(uint32_t stream, const char* what) const {
  if (loaded_) {
    return Fail(ACL_ERROR_RT_MODEL_CONTEXT, fmt::format("{}: model is already loaded (LoadComplete was called)", what));
  }
  if (stream >= tasks_.size()) {
    return Fail(ACL_ERROR_INVALID_PARAM, fmt::format("{}: model stream {} out of range (model "
                                                     "has {})",
                                                     what, stream, tasks_.size()));
  }
  return ACL_SUCCESS;
}

aclError Model::CheckEvent(uint32_t event, const char* what) const {
  if (event >= num_events_) {
    return Fail(ACL_ERROR_INVALID_PARAM, fmt::format("{}: model event {} out of range (model "
                                                     "has {})",
                                                     what, event, num_events_));
  }
  return ACL_SUCCESS;
}

aclError Model::AddKernel(uint32_t stream, aclrtKernelFunc func, uint32_t block_dim, void* const* addrs,
                          uint32_t num_addrs, const void* tiling, uint32_t tiling_size, const char* name) {
  const char* what = "aclmdlRIAddKernelTask";
  if (aclError ret = CheckAdd(stream, what); ret != ACL_SUCCESS) return ret;
  if (func == nullptr || block_dim == 0 || (num_addrs > 0 && addrs == nullptr) ||
      (tiling_size > 0 && tiling == nullptr)) {
    return Fail(ACL_ERROR_INVALID_PARAM, fmt::format("{}: func={}, blockDim={}, addrs={} ({}), tiling={} ({} bytes)",
                                                     what, reinterpret_cast<void*>(func), block_dim,
                                                     static_cast<const void*>(addrs), num_addrs, tiling, tiling_size));
  }
  ModelTask task{};
  task.type = ModelTaskType::kKernel;
  task.func = func;
  task.args = aclrtKernelArgs{nullptr, num_addrs, nullptr, tiling_size, 0, block_dim};
  // Each kernel's block starts 16-byte aligned; addrs first, then tiling.
  const size_t start = (build_arena_.size() + 15) & ~size_t{15};
  const size_t tiling_off = KernelArgBuffer::TilingOffset(num_addrs);
  build_arena_.resize(start + tiling_off + tiling_size);
  if (num_addrs > 0) {
    std::memcpy(build_arena_.data() + start, addrs, size_t{num_addrs} * sizeof(void*));
  }
  if (tiling_size > 0) std::memcpy(build_arena_.data() + start + tiling_off, tiling, tiling_size);
  task.arg_offset = start;
  task.kernel_index = static_cast<uint32_t>(kernel_names_.size());
  kernel_names_.emplace_back(name ? name : "");
  tasks_[stream].push_back(task);
  return ACL_SUCCESS;
}

aclError Model::AddMemcpy(uint32_t stream, void* dst, const void* src, size_t count) {
  const char* what = "aclmdlRIAddMemcpyTask";
  if (aclError ret = CheckAdd(stream, what); ret != ACL_SUCCESS) return ret;
  if (count > 0 && (dst == nullptr || src == nullptr)) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                fmt::format("{}: null pointer (dst={}, src={}) for {} bytes", what, dst, src, count));
  }
  ModelTask task{};
  task.type = ModelTaskType::kMemcpy;
  task.dst = dst;
  task.src = src;
  task.count = count;
  tasks_[stream].push_back(task);
  return ACL_SUCCESS;
}

aclError Model::AddCallback(uint32_t stream, aclrtCallback fn, void* user_data) {
  const char* what = "aclmdlRIAddCallbackTask";
  if (aclError ret = CheckAdd(stream, what); ret != ACL_SUCCESS) return ret;
  if (fn == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, fmt::format("{}: fn is null", what));
  ModelTask task{};
  task.type = ModelTaskType::kCallback;
  task.callback = fn;
  task.user_data = user_data;
  tasks_[stream].push_back(task);
  return ACL_SUCCESS;
}

aclError Model::AddEventRecord(uint32_t stream, uint32_t event) {
  return AddEventTask(stream, event, ModelTaskType::kEventRecord, "aclmdlRIAddEventRecord");
}

aclError Model::AddEventWait(uint32_t stream, uint32_t event) {
  return AddEventTask(stream, event, ModelTaskType::kEventWait, "aclmdlRIAddEventWait");
}

aclError Model::AddEventTask(uint32_t stream, uint32_t event, ModelTaskType type, const char* what) {
  if (aclError ret = CheckAdd(stream, what); ret != ACL_SUCCESS) return ret;
  if (aclError ret = CheckEvent(event, what); ret != ACL_SUCCESS) return ret;
  ModelTask task{};
  task.type = type;
  task.event = event;
  tasks_[stream].push_back(task);
  return ACL_SUCCESS;
}

// The k-th wait on event e within one model stream needs min(k, records of e in the model)
// records in the current execution: a record/wait pair per sync point works, one record may
// release several streams, and a wait on an event the model never records is a no-op.
void Model::BindWaits() {
  std::vector<uint32_t> records(num_events_, 0);
  for (const auto& list : tasks_) {
    for (const ModelTask& t : list) {
      if (t.type == ModelTaskType::kEventRecord) ++records[t.event];
    }
  }
  std::vector<uint32_t> seen(num_events_);
  for (auto& list : tasks_) {
    std::fill(seen.begin(), seen.end(), 0);
    for (ModelTask& t : list) {
      if (t.type != ModelTaskType::kEventWait) continue;
      t.required = std::min(++seen[t.event], records[t.event]);
    }
  }
}

aclError Model::LoadComplete() {
  if (loaded_) {
    return Fail(ACL_ERROR_RT_MODEL_CONTEXT, "aclmdlRILoadComplete: model is already loaded");
  }
  const size_t words = (build_arena_.size() + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t);
  arena_.reset(new std::max_align_t[std::max<size_t>(words, 1)]);
  auto* base = reinterpret_cast<uint8_t*>(arena_.get());
  if (!build_arena_.empty()) std::memcpy(base, build_arena_.data(), build_arena_.size());
  std::vector<uint8_t>().swap(build_arena_);
  tags_.reset(new KernelErrorTag[std::max<size_t>(kernel_names_.size(), 1)]);
  for (auto& list : tasks_) {
    for (ModelTask& t : list) {
      if (t.type != ModelTaskType::kKernel) continue;
      uint8_t* p = base + t.arg_offset;
      t.args.addrs = t.args.numAddrs > 0 ? reinterpret_cast<void* const*>(p) : nullptr;
      t.args.tiling = t.args.tilingSize > 0 ? p + KernelArgBuffer::TilingOffset(t.args.numAddrs) : nullptr;
      KernelErrorTag& tag = tags_[t.kernel_index];
      tag.slot = &kernel_error_;
      tag.name = kernel_names_[t.kernel_index].c_str();
      t.args.errorSlot = &tag;
    }
  }
  BindWaits();
  if (tasks_.size() > 1) {
    scheduler_ = std::make_unique<ModelScheduler>(pool_, &tasks_, num_events_, &trace_info_);
  } else {
    single_counts_.reset(new uint32_t[std::max<uint32_t>(num_events_, 1)]);
  }
  loaded_ = true;
  return ACL_SUCCESS;
}

aclError Model::UpdateTaskAddr(uint32_t stream, uint32_t task, uint32_t addr_index, void* addr) {
  const char* what = "aclmdlRIUpdateTaskAddr";
  WaitIdle();  // an execution already enqueued on a stream keeps the old address (not under
               // exec_mu_: that execution needs it)
  std::lock_guard<std::mutex> lk(exec_mu_);
  if (stream >= tasks_.size()) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                fmt::format("{}: model stream {} out of range (model has {})", what, stream, tasks_.size()));
  }
  if (task >= tasks_[stream].size() || tasks_[stream][task].type != ModelTaskType::kKernel) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                fmt::format("{}: task {} of model stream {} is not a kernel task (the stream has {} tasks)", what, task,
                            stream, tasks_[stream].size()));
  }
  const aclrtKernelArgs& args = tasks_[stream][task].args;
  if (addr_index >= args.numAddrs) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                fmt::format("{}: address {} out of range (the kernel task has {})", what, addr_index, args.numAddrs));
  }
  const_cast<void**>(args.addrs)[addr_index] = addr;  // the addrs live in arena_, owned here
  return ACL_SUCCESS;
}

// One model stream as a tight loop on the calling thread; kProfiled adds a steady_clock reading
// around every kernel task (the unprofiled instance has none of it).
template <bool kProfiled>
aclError Model::RunSingleStream() {
  using Clock = std::chrono::steady_clock;
  if (num_events_ > 0) std::fill_n(single_counts_.get(), num_events_, 0);
  for (const ModelTask& task : tasks_[0]) {
    switch (task.type) {
      case ModelTaskType::kKernel:
        if constexpr (kProfiled) {
          const auto start = Clock::now();
          RunKernel(*pool_, task.func, task.args);
          kernel_ns_[task.kernel_index] +=
              static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count());
        } else if (task.args.blockDim == 1) {
          task.func(&task.args);  // the hot path: no copy, no handoff
        } else {
          RunKernel(*pool_, task.func, task.args);
        }
        break;
      case ModelTaskType::kEventRecord: ++single_counts_[task.event]; break;
      case ModelTaskType::kEventWait:
        if (single_counts_[task.event] < task.required) {
          return Fail(ACL_ERROR_RT_INTERNAL_ERROR,
                      fmt::format("model execution cannot progress: model stream 0 waits on "
                                  "event {} recorded only later on the same stream",
                                  task.event));
        }
        break;
      default: RunComputeTask(*pool_, task); break;
    }
  }
  if constexpr (kProfiled) ++profiled_executions_;
  return ACL_SUCCESS;
}

// The single-stream loop while tracing: each task an event on the "stream 0" track.
aclError Model::RunSingleStreamTraced() {
  if (num_events_ > 0) std::fill_n(single_counts_.get(), num_events_, 0);
  for (const ModelTask& task : tasks_[0]) {
    switch (task.type) {
      case ModelTaskType::kEventRecord: ++single_counts_[task.event]; break;
      case ModelTaskType::kEventWait:
        if (single_counts_[task.event] < task.required) {
          return Fail(ACL_ERROR_RT_INTERNAL_ERROR,
                      fmt::format("model execution cannot progress: model stream 0 waits on "
                                  "event {} recorded only later on the same stream",
                                  task.event));
        }
        break;
      default: RunComputeTaskTraced(*pool_, task, trace::kStreamTrack, trace_info_); break;
    }
  }
  return ACL_SUCCESS;
}

aclError Model::SetProfiling(bool on) {
  std::lock_guard<std::mutex> lk(exec_mu_);
  if (!loaded_) return Fail(ACL_ERROR_RT_MODEL_CONTEXT, "aclmdlRISetProfiling: model is not loaded");
  if (on && tasks_.size() > 1) {
    return Fail(
        ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
        fmt::format("aclmdlRISetProfiling: the model has {} streams; per-task timing needs one", tasks_.size()));
  }
  if (on) {
    kernel_ns_.assign(kernel_names_.size(), 0);
    profiled_executions_ = 0;
  }
  profiling_.store(on, std::memory_order_relaxed);
  return ACL_SUCCESS;
}

aclError Model::TakeKernelTimes(uint64_t* ns, uint32_t count, uint32_t* executions) {
  std::lock_guard<std::mutex> lk(exec_mu_);
  const size_t n = std::min<size_t>(count, kernel_ns_.size());
  if (n > 0) std::copy_n(kernel_ns_.begin(), n, ns);
  if (count > n) std::fill_n(ns + n, count - n, 0);
  if (executions) *executions = profiled_executions_;
  std::fill(kernel_ns_.begin(), kernel_ns_.end(), 0);
  profiled_executions_ = 0;
  return ACL_SUCCESS;
}

aclError Model::Execute() {
  std::lock_guard<std::mutex> lk(exec_mu_);
  const aclError ret = scheduler_                                   ? scheduler_->Run()
                       : profiling_.load(std::memory_order_relaxed) ? RunSingleStream<true>()
                       : trace::Enabled()                           ? RunSingleStreamTraced()
                                                                    : RunSingleStream<false>();
  if (kernel_error_.failed()) {
    std::string msg;
    if (kernel_error_.Take(&msg)) return Fail(ACL_ERROR_RT_KERNEL_DATA, std::move(msg));
  }
  return ret;
}

void Model::BeginAsync() {
  std::lock_guard<std::mutex> lk(pending_mu_);
  ++pending_;
}

aclError Model::RunFromStream() {
  aclError ret = Execute();
  std::lock_guard<std::mutex> lk(pending_mu_);
  if (--pending_ == 0) pending_cv_.notify_all();
  return ret;
}

void Model::WaitIdle() {
  std::unique_lock<std::mutex> lk(pending_mu_);
  pending_cv_.wait(lk, [this] { return pending_ == 0; });
}

uint32_t Model::num_tasks() const {
  size_t n = 0;
  for (const auto& list : tasks_) n += list.size();
  return static_cast<uint32_t>(n);
}

}  // namespace ge::rt
