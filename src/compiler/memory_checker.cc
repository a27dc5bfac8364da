// Pairwise check of a memory plan: O(buffers^2) happens-before queries, fine for the graph
// sizes GE compiles (it runs in tests and debug builds only).
#include "compiler/memory_checker.h"

#include <algorithm>

namespace ge {
namespace {

// A value stored in buffer b, for messages.
std::string ValueIn(const MemoryPlan& plan, int b) {
  for (size_t v = 0; v < plan.value_buffer.size(); ++v)
    if (plan.value_buffer[v] == b) return fmt::format(" (holds v{})", v);
  return plan.buffers[b].is_workspace ? " (a workspace)" : "";
}

}  // namespace

Status CheckMemoryPlan(const MemoryPlan& plan, const StreamAssignment& streams, const PlannerInput* in) {
  const auto& bufs = plan.buffers;
  for (size_t i = 0; i < bufs.size(); ++i) {
    const PlannedBuffer& b = bufs[i];
    if (b.offset < 0 || b.offset % kArenaAlign != 0 || b.offset + b.size > plan.arena_bytes)
      return Internal("memory plan: buffer {}{} at [{}, {}) is unaligned or outside the {}-byte arena", i,
                      ValueIn(plan, static_cast<int>(i)), b.offset, b.offset + b.size, plan.arena_bytes);
  }
  if (in != nullptr) {
    for (size_t v = 0; v < plan.value_buffer.size() && v < in->value_bytes.size(); ++v) {
      int b = plan.value_buffer[v];
      if (b >= 0 && in->value_bytes[v] > bufs[b].size)
        return Internal("memory plan: v{} needs {} bytes but buffer {} has {}", v, in->value_bytes[v], b, bufs[b].size);
    }
  }
  // Overlap check in offset order: only buffers whose ranges intersect need the liveness query.
  std::vector<int> idx(bufs.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<int>(i);
  std::sort(idx.begin(), idx.end(), [&](int a, int b) { return bufs[a].offset < bufs[b].offset; });
  for (size_t x = 0; x < idx.size(); ++x) {
    const PlannedBuffer& a = bufs[idx[x]];
    for (size_t y = x + 1; y < idx.size() && bufs[idx[y]].offset < a.offset + a.size; ++y) {
      const PlannedBuffer& b = bufs[idx[y]];
      if (BuffersConflict(a, b, streams))
        return Internal("memory plan: buffers {}{} [{}, {}) and {}{} [{}, {}) overlap while both are live", idx[x],
                        ValueIn(plan, idx[x]), a.offset, a.offset + a.size, idx[y], ValueIn(plan, idx[y]), b.offset,
                        b.offset + b.size);
    }
  }
  return Status::Ok();
}

}  // namespace ge
