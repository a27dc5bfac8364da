// aclOpExecutor: workspace layout, phase-2 launch, executor lifetime.
#include "opapi/op_executor.h"

#include <fmt/format.h>

#include <thread>

#include "opapi/api_guard.h"

namespace ge::opapi {

uint32_t DeviceCoreNum() {
  uint32_t n = 0;
  if (aclrtGetDeviceCoreNum(&n) != ACL_SUCCESS || n == 0) n = std::max(1u, std::thread::hardware_concurrency());
  return n;
}

aclnnStatus RunExecutor(const char* api, void* workspace, uint64_t workspace_size, aclOpExecutor* executor,
                        aclrtStream stream) {
  aclnnStatus rc = Guard(api, [&]() -> Status {
    if (executor == nullptr) return NullArg(api, "executor");
    if (!executor->api.empty() && executor->api != api && std::string(api) != "aclnnOp")
      return InvalidArgument("{}: the executor was built by {}GetWorkspaceSize", api, executor->api);
    return executor->Run(workspace, workspace_size, stream);
  });
  // An executor is consumed by its run (Ascend semantics), also when the run failed on a bad
  // workspace; a repeatable one lives until aclDestroyAclOpExecutor.
  if (executor != nullptr && !executor->repeatable) delete executor;
  return rc;
}

}  // namespace ge::opapi

using ge::opapi::ArgRef;

ArgRef aclOpExecutor::AllocWorkspace(uint64_t bytes) {
  uint64_t off = (workspace_size + 63) / 64 * 64;
  workspace_size = off + std::max<uint64_t>(bytes, 1);
  return ArgRef::Workspace(static_cast<int64_t>(off));
}

void aclOpExecutor::AddKernelRaw(std::string name, aclrtKernelFunc func, uint32_t block_dim,
                                 std::vector<uint8_t> tiling, std::vector<ArgRef> args) {
  launches.push_back({std::move(name), func, std::max(block_dim, 1u), std::move(tiling), std::move(args)});
}

ge::Status aclOpExecutor::Run(void* workspace, uint64_t size, aclrtStream stream) {
  if (size < workspace_size)
    return ge::InvalidArgument("{}: workspace of {} bytes is too small, {}GetWorkspaceSize asked for {}", api, size,
                               api, workspace_size);
  if (workspace_size > 0 && workspace == nullptr)
    return ge::InvalidArgument("{}: workspace is null but {} bytes are needed", api, workspace_size);
  launched = 0;
  std::vector<void*> addrs;
  for (const auto& l : launches) {
    addrs.clear();
    for (const ArgRef& a : l.args)
      addrs.push_back(a.in_workspace() ? static_cast<char*>(workspace) + a.ws_offset : a.addr);
    if (aclrtLaunchKernel(l.func, l.block_dim, addrs.data(), static_cast<uint32_t>(addrs.size()), l.tiling.data(),
                          static_cast<uint32_t>(l.tiling.size()), stream) != ACL_SUCCESS)
      return ge::Error(ge::Status::kInternal, "{}: launching kernel '{}' failed: {}", api, l.name,
                       aclGetRecentErrMsg());
    ++launched;
  }
  return ge::Status::Ok();
}

std::string aclOpExecutor::KernelNames() const {
  std::string s;
  for (const auto& l : launches) s += (s.empty() ? "" : ",") + l.name;
  return s;
}

extern "C" {

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor* executor) {
  if (executor == nullptr)
    return ge::opapi::Guard("aclSetAclOpExecutorRepeatable",
                            [] { return ge::opapi::NullArg("aclSetAclOpExecutorRepeatable", "executor"); });
  executor->repeatable = true;
  return ACLNN_SUCCESS;
}

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor) {
  delete executor;
  return ACLNN_SUCCESS;
}

aclnnStatus aclnnGetPlannedKernelCount(const aclOpExecutor* executor, uint64_t* count) {
  if (executor == nullptr || count == nullptr)
    return ge::opapi::Guard("aclnnGetPlannedKernelCount",
                            [] { return ge::opapi::NullArg("aclnnGetPlannedKernelCount", "argument"); });
  *count = executor->launches.size();
  return ACLNN_SUCCESS;
}

aclnnStatus aclnnGetLaunchedKernelCount(const aclOpExecutor* executor, uint64_t* count) {
  if (executor == nullptr || count == nullptr)
    return ge::opapi::Guard("aclnnGetLaunchedKernelCount",
                            [] { return ge::opapi::NullArg("aclnnGetLaunchedKernelCount", "argument"); });
  *count = executor->launched;
  return ACLNN_SUCCESS;
}

const char* aclnnGetKernelNames(const aclOpExecutor* executor) {
  thread_local std::string names;
  names = executor ? executor->KernelNames() : "";
  return names.c_str();
}

}  // extern "C"
