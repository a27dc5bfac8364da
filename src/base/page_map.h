// Large buffers in their own anonymous mappings, advised to use transparent huge pages.
//
// On these VMs a first touch of a 4 KiB page costs ~5 us (a 100 MB memset: 475 ms in 4 KiB
// pages, 53 ms in 2 MiB ones), and a model's weights are written several times while it loads
// (parsed, folded, packed, copied to device memory): perf on loading resnet50 put 36% of the time
// in page faults. Buffers of at least kPageMapMinBytes (host tensors, device allocations) are
// mapped here and populated in one call: the kernel hands them out zeroed (no memset needed) and,
// with THP in "madvise" or "always" mode, in 2 MiB pages, which also cuts TLB misses when
// kernels stream them. A 100 MB buffer: 345 ms to first-touch in 4 KiB pages, 9 ms this way.
#ifndef GE_SRC_BASE_PAGE_MAP_H_
#define GE_SRC_BASE_PAGE_MAP_H_

#include <cstddef>

namespace ge {

// Under AddressSanitizer nothing is mapped here (SIZE_MAX): malloc'd buffers keep their redzones,
// so a kernel writing past a large tensor is still caught.
#if defined(__SANITIZE_ADDRESS__)
#define GE_PAGE_MAP_OFF 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GE_PAGE_MAP_OFF 1
#endif
#endif
#ifdef GE_PAGE_MAP_OFF
inline constexpr size_t kPageMapMinBytes = ~size_t{0};
#else
inline constexpr size_t kPageMapMinBytes = size_t{2} << 20;
#endif

// A zeroed, 2 MiB-aligned mapping of `bytes`, or null when the system refuses it.
void* MapPages(size_t bytes);
// Unmaps what MapPages(bytes) returned (null: nothing).
void UnmapPages(void* p, size_t bytes);

}  // namespace ge

#endif  // GE_SRC_BASE_PAGE_MAP_H_
