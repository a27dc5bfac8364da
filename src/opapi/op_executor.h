// aclOpExecutor: what phase 1 (aclnnXxxGetWorkspaceSize) builds and phase 2 (aclnnXxx) runs —
// an ordered list of kernel launches whose arguments are either fixed device addresses (the
// caller's tensors) or offsets into the workspace that phase 2 supplies. Multi-kernel operators
// are just executors with several launches; the count may depend on the shapes.
#ifndef GE_SRC_OPAPI_OP_EXECUTOR_H_
#define GE_SRC_OPAPI_OP_EXECUTOR_H_

#include <cstdint>
#include <string>
#include <vector>

#include "aclnn/aclnn_base.h"
#include "base/status.h"

namespace ge::opapi {

// A kernel argument: a device address, or `ws_offset` bytes into the workspace.
struct ArgRef {
  void* addr = nullptr;
  int64_t ws_offset = -1;
  static ArgRef Addr(void* a) { return ArgRef{a, -1}; }
  static ArgRef Workspace(int64_t off) { return ArgRef{nullptr, off}; }
  bool in_workspace() const { return ws_offset >= 0; }
};

struct KernelLaunch {
  std::string name;  // for tests and messages: "pack", "MatMul", "reduce_sum", ...
  aclrtKernelFunc func = nullptr;
  uint32_t block_dim = 1;
  std::vector<uint8_t> tiling;
  std::vector<ArgRef> args;
};

// The device's core count (the natural block-dim bound for tiling).
uint32_t DeviceCoreNum();

}  // namespace ge::opapi

struct aclOpExecutor {
  std::string api;  // "aclnnMatmul": prefix of phase-2 errors
  std::vector<ge::opapi::KernelLaunch> launches;
  uint64_t workspace_size = 0;
  bool repeatable = false;
  uint64_t launched = 0;  // kernels launched by the last run

  // Reserves `bytes` (64-byte aligned) of workspace.
  ge::opapi::ArgRef AllocWorkspace(uint64_t bytes);
  template <typename T>
  void AddKernel(std::string name, aclrtKernelFunc func, uint32_t block_dim, const T& tiling,
                 std::vector<ge::opapi::ArgRef> args) {
    const auto* p = reinterpret_cast<const uint8_t*>(&tiling);
    AddKernelRaw(std::move(name), func, block_dim, std::vector<uint8_t>(p, p + sizeof(T)), std::move(args));
  }
  void AddKernelRaw(std::string name, aclrtKernelFunc func, uint32_t block_dim, std::vector<uint8_t> tiling,
                    std::vector<ge::opapi::ArgRef> args);
  // Phase 2: checks the workspace and enqueues every launch on `stream`.
  ge::Status Run(void* workspace, uint64_t workspace_size, aclrtStream stream);
  std::string KernelNames() const;
};

namespace ge::opapi {
// Phase 2 shared by every aclnnXxx: runs the executor and destroys it unless repeatable.
aclnnStatus RunExecutor(const char* api, void* workspace, uint64_t workspace_size, aclOpExecutor* executor,
                        aclrtStream stream);
}  // namespace ge::opapi

#include <memory>

#include "opapi/api_guard.h"

namespace ge::opapi {
// Phase 1 shared by every aclnnXxxGetWorkspaceSize: checks the out-pointers, lets `build` fill
// a fresh executor, and hands it out only when everything succeeded.
template <typename F>
aclnnStatus Phase1(const char* api, uint64_t* workspace_size, aclOpExecutor** executor, F&& build) {
  std::unique_ptr<aclOpExecutor> ex;
  aclnnStatus rc = Guard(api, [&]() -> Status {
    if (workspace_size == nullptr) return NullArg(api, "workspaceSize");
    if (executor == nullptr) return NullArg(api, "executor");
    *executor = nullptr;
    ex = std::make_unique<aclOpExecutor>();
    ex->api = api;
    return build(ex.get());
  });
  if (rc != ACLNN_SUCCESS) return rc;
  *workspace_size = ex->workspace_size;
  *executor = ex.release();
  return ACLNN_SUCCESS;
}
}  // namespace ge::opapi

// Phase 2 of a typed entry: aclnn<Name>(workspace, size, executor, stream).
#define GE_ACLNN_PHASE2(Name)                                                                          \
  extern "C" aclnnStatus aclnn##Name(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, \
                                     aclrtStream stream) {                                             \
    return ::ge::opapi::RunExecutor("aclnn" #Name, workspace, workspaceSize, executor, stream);        \
  }

#endif  // GE_SRC_OPAPI_OP_EXECUTOR_H_
