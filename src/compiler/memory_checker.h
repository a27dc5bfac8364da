// Memory checker: proves a memory plan safe — no two buffers that may be live at the same time
// (under the stream assignment's happens-before relation) overlap, every buffer lies inside the
// arena and is aligned, and every planned value fits its buffer. Run by the tests on every
// compiled model, and by the sink compiler in debug builds.
#ifndef GE_SRC_COMPILER_MEMORY_CHECKER_H_
#define GE_SRC_COMPILER_MEMORY_CHECKER_H_

#include "base/status.h"
#include "compiler/memory_planner.h"

namespace ge {

// Fails naming the first offending pair of buffers (and a value in each, when `in` is given).
Status CheckMemoryPlan(const MemoryPlan& plan, const StreamAssignment& streams, const PlannerInput* in = nullptr);

}  // namespace ge

#endif  // GE_SRC_COMPILER_MEMORY_CHECKER_H_
