#include "executor/run_control.h"

namespace ge {

namespace run_control_internal {

thread_local const RunControl* g_current = nullptr;

Status Check(const RunControl& control) {
  if (control.cancel != nullptr && control.cancel->load(std::memory_order_relaxed))
    return Error(Status::kCancelled, "run cancelled (RunOptions::cancel)");
  if (control.deadline != std::chrono::steady_clock::time_point::max() &&
      std::chrono::steady_clock::now() >= control.deadline)
    return Error(Status::kDeadlineExceeded, "run exceeded its time limit of {:g} s (RunOptions::timeout_s)",
                 control.timeout_s);
  return Status::Ok();
}

}  // namespace run_control_internal

ScopedRunControl::ScopedRunControl(const RunControl* control) : previous_(run_control_internal::g_current) {
  run_control_internal::g_current = control;
}

ScopedRunControl::~ScopedRunControl() { run_control_internal::g_current = previous_; }

}  // namespace ge
