#include "base/guard_bytes.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>

#include "base/checked_math.h"

namespace ge {

namespace {
constexpr int64_t kMaxGuard = int64_t{1} << 20;
std::atomic<int64_t> g_override{-1};
}  // namespace

int64_t GuardBytes() {
  if (int64_t o = g_override.load(std::memory_order_relaxed); o >= 0) return o;
  static const int64_t bytes = [] {
    const char* env = std::getenv("GE_GUARD_BYTES");
    if (env == nullptr) return int64_t{0};
    auto v = ParseInt64(env);
    if (!v || *v < 0) return int64_t{0};
    return std::min(*v, kMaxGuard);
  }();
  return bytes;
}

void SetGuardBytesForTesting(int64_t bytes) {
  g_override.store(std::clamp<int64_t>(bytes, 0, kMaxGuard), std::memory_order_relaxed);
}

int64_t FirstBrokenGuardByte(const void* p, size_t n) {
  const auto* b = static_cast<const uint8_t*>(p);
  for (size_t i = 0; i < n; ++i)
    if (b[i] != kGuardByte) return static_cast<int64_t>(i);
  return -1;
}

}  // namespace ge
