#include "base/host_memory.h"

#include <unistd.h>

#include <atomic>
#include <cstdlib>

#include <fmt/format.h>

#include "base/checked_math.h"

namespace ge {
namespace {

std::atomic<int64_t> g_in_use{0};
std::atomic<int64_t> g_override{0};

int64_t DefaultLimit() {
  static const int64_t limit = [] {
    if (const char* env = std::getenv("GE_HOST_MEMORY_LIMIT")) {
      auto v = ParseInt64(env);
      if (v && *v > 0) return *v;
    }
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page <= 0) return INT64_MAX;
    return static_cast<int64_t>(pages) / 4 * 3 * page;
  }();
  return limit;
}

}  // namespace

int64_t HostMemoryLimit() {
  const int64_t o = g_override.load(std::memory_order_relaxed);
  return o > 0 ? o : DefaultLimit();
}

int64_t HostMemoryInUse() { return g_in_use.load(std::memory_order_relaxed); }

namespace {

// The bytes in use before the reservation; `bytes` stays accounted only when *ok.
int64_t Reserve(int64_t bytes, int64_t limit, bool* ok) {
  const int64_t before = g_in_use.fetch_add(bytes, std::memory_order_relaxed);
  *ok = bytes <= limit && before <= limit - bytes;
  if (!*ok) g_in_use.fetch_sub(bytes, std::memory_order_relaxed);
  return before;
}

}  // namespace

void ReserveHostMemory(int64_t bytes) {
  if (bytes <= 0) return;
  const int64_t limit = HostMemoryLimit();
  bool ok = false;
  const int64_t before = Reserve(bytes, limit, &ok);
  if (!ok)
    throw HostMemoryLimitError(fmt::format(
        "a {}-byte host tensor would exceed the host memory limit of {} bytes ({} in use; GE_HOST_MEMORY_LIMIT)", bytes,
        limit, before));
}

bool TryReserveHostMemory(int64_t bytes) {
  if (bytes <= 0) return true;
  bool ok = false;
  Reserve(bytes, HostMemoryLimit(), &ok);
  return ok;
}

void ReleaseHostMemory(int64_t bytes) {
  if (bytes > 0) g_in_use.fetch_sub(bytes, std::memory_order_relaxed);
}

void SetHostMemoryLimitForTesting(int64_t bytes) { g_override.store(bytes > 0 ? bytes : 0); }

}  // namespace ge
