// Run control: the time limit and cancellation flag of the run on the calling thread
// (ge::RunOptions, include/ge/model.h). Model::Run installs them for the run's duration; the
// host executor checks them before every node and the control-flow operators before every
// iteration (their bodies run on the same thread), so a Loop that never ends stops with an error
// instead of hanging. A sink segment is a fixed task list that always ends: it is checked before
// it starts, not inside.
#ifndef GE_SRC_EXECUTOR_RUN_CONTROL_H_
#define GE_SRC_EXECUTOR_RUN_CONTROL_H_

#include <atomic>
#include <chrono>
#include <string>

#include "base/status.h"

namespace ge {

struct RunControl {
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  double timeout_s = 0;  // for the message
  const std::atomic<bool>* cancel = nullptr;
};

// Installs `control` on this thread until destroyed (restoring the previous one: runs nest when
// a control-flow body runs a model's subgraph). Null or unlimited controls cost nothing to check.
class ScopedRunControl {
 public:
  explicit ScopedRunControl(const RunControl* control);
  ~ScopedRunControl();
  ScopedRunControl(const ScopedRunControl&) = delete;
  ScopedRunControl& operator=(const ScopedRunControl&) = delete;

 private:
  const RunControl* previous_;
};

namespace run_control_internal {
extern thread_local const RunControl* g_current;
Status Check(const RunControl& control);  // without the place
}  // namespace run_control_internal

// Ok, or kCancelled / kDeadlineExceeded naming the place `where()` returns (the node or iteration
// about to run; only called on failure). One thread-local load when the run has no control.
template <typename Where>
Status CheckRunControl(Where&& where) {
  const RunControl* c = run_control_internal::g_current;
  if (c == nullptr) return Status::Ok();
  Status st = run_control_internal::Check(*c);
  if (!st.ok()) st = Status(st.code(), st.message() + " before " + std::string(where()));
  return st;
}

}  // namespace ge

#endif  // GE_SRC_EXECUTOR_RUN_CONTROL_H_
