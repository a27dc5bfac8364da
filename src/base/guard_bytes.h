// Guard bytes (a debug/test option, GE_GUARD_BYTES=N): every kernel output and workspace buffer
// is followed by at least N bytes of kGuardByte that no kernel may write, checked after each
// node (host segments: the caching allocator's blocks) or after each run (sink segments: the
// memory plan then gives every buffer its own arena range, no reuse). A kernel that writes one
// element too far fails the run with an error naming the node. The ONNX backend runner turns
// it on (ggml's test-backend-ops idea). 0 (the default) costs nothing.
#ifndef GE_SRC_BASE_GUARD_BYTES_H_
#define GE_SRC_BASE_GUARD_BYTES_H_

#include <cstddef>
#include <cstdint>

namespace ge {

constexpr uint8_t kGuardByte = 0xA5;

// GE_GUARD_BYTES, read once per process, clamped to [0, 1 MiB]; 0 when unset or malformed.
// Caching allocators read it when made, the memory planner when it plans.
int64_t GuardBytes();
// Tests: overrides the environment from now on.
void SetGuardBytesForTesting(int64_t bytes);

// Index of the first byte of [p, p + n) that is not kGuardByte, or -1 when all are.
int64_t FirstBrokenGuardByte(const void* p, size_t n);

}  // namespace ge

#endif  // GE_SRC_BASE_GUARD_BYTES_H_
