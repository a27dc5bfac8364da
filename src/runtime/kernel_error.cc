// Kernel error reports: the slot and aclrtReportKernelError.
#include "runtime/kernel_error.h"

#include "acl/acl_rt.h"
#include "base/log.h"

namespace ge::rt {

void KernelErrorSlot::Report(const char* name, const char* msg) {
  if (claimed_.exchange(true, std::memory_order_acquire)) return;  // an earlier report wins
  msg_ = name != nullptr && name[0] != '\0' ? std::string(name) + ": " + msg : std::string(msg);
  failed_.store(true, std::memory_order_release);
}

bool KernelErrorSlot::Take(std::string* msg) {
  if (!failed_.load(std::memory_order_acquire)) return false;
  *msg = std::move(msg_);
  msg_.clear();
  failed_.store(false, std::memory_order_relaxed);
  claimed_.store(false, std::memory_order_release);
  return true;
}

namespace {
thread_local const char* tls_launch_name = nullptr;
}  // namespace

void SetThreadLaunchName(const char* name) { tls_launch_name = name; }
const char* ThreadLaunchName() { return tls_launch_name; }

}  // namespace ge::rt

extern "C" void aclrtReportKernelError(const aclrtKernelArgs* args, const char* msg) {
  const auto* tag = args ? static_cast<const ge::rt::KernelErrorTag*>(args->errorSlot) : nullptr;
  if (msg == nullptr) msg = "(no message)";
  if (tag == nullptr || tag->slot == nullptr) {
    GELOGE("kernel error outside a stream or model: {}", msg);
    return;
  }
  tag->slot->Report(tag->name, msg);
}
