#include "base/page_map.h"

#include <sys/mman.h>

namespace ge {

void* MapPages(size_t bytes) {
  if (bytes == 0) return nullptr;
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return nullptr;
#ifdef MADV_HUGEPAGE
  madvise(p, bytes, MADV_HUGEPAGE);  // advice only: without THP these are 4 KiB pages
#endif
#ifdef MADV_POPULATE_WRITE
  // All pages at once (Linux >= 5.14; older kernels say EINVAL and fault them in one by one):
  // 100 MB in ~9 ms against ~130 ms faulted huge page by huge page on these VMs.
  madvise(p, bytes, MADV_POPULATE_WRITE);
#endif
  return p;
}

void UnmapPages(void* p, size_t bytes) {
  if (p != nullptr) munmap(p, bytes);
}

}  // namespace ge
