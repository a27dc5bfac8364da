// The error slot behind aclrtReportKernelError: a kernel that finds its input data invalid
// reports it here (first report wins), and the stream or model that ran it takes the report once
// the kernel has finished and turns it into ACL_ERROR_RT_KERNEL_DATA. Checking for a report is
// one relaxed load.
#ifndef GE_SRC_RUNTIME_KERNEL_ERROR_H_
#define GE_SRC_RUNTIME_KERNEL_ERROR_H_

#include <atomic>
#include <string>

namespace ge::rt {

class KernelErrorSlot {
 public:
  // From any block of a running kernel; `name` (may be null) prefixes the message.
  void Report(const char* name, const char* msg);
  bool failed() const { return failed_.load(std::memory_order_relaxed); }
  // After the reporting kernel finished: moves the report into *msg and clears the slot;
  // false when there is none.
  bool Take(std::string* msg);

 private:
  std::atomic<bool> claimed_{false};
  std::atomic<bool> failed_{false};
  std::string msg_;
};

// What aclrtKernelArgs::errorSlot points to: the slot and the launch's name.
struct KernelErrorTag {
  KernelErrorSlot* slot = nullptr;
  const char* name = nullptr;
};

// The name given to this thread's unnamed kernel launches (aclrtLaunchKernel), e.g. the node
// whose fallback function is running; null for none. The string must outlive those launches.
void SetThreadLaunchName(const char* name);
const char* ThreadLaunchName();

// Names this thread's unnamed launches for the scope.
class ScopedLaunchName {
 public:
  explicit ScopedLaunchName(const char* name) : saved_(ThreadLaunchName()) { SetThreadLaunchName(name); }
  ~ScopedLaunchName() { SetThreadLaunchName(saved_); }
  ScopedLaunchName(const ScopedLaunchName&) = delete;
  ScopedLaunchName& operator=(const ScopedLaunchName&) = delete;

 private:
  const char* saved_;
};

}  // namespace ge::rt

#endif  // GE_SRC_RUNTIME_KERNEL_ERROR_H_
