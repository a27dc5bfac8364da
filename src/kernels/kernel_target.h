// What this process's kernels were built and tuned for: GE's own SIMD kernels (the ISA the
// library was compiled for), oneDNN's version and the ISA it dispatches to, and the core's L1d and
// L2 sizes (oneDNN's blocking heuristics read them; the shared L3, which a virtual machine reports
// as its host's, is left out). Packed weights layouts and kernel choices follow
// from these, so an offline model (.gem) records the string and is refused where it differs.
#ifndef GE_SRC_KERNELS_KERNEL_TARGET_H_
#define GE_SRC_KERNELS_KERNEL_TARGET_H_

#include <string>

namespace ge::kernels {

// e.g. "GE kernels avx512; oneDNN 2.6.3 avx512_core_amx; L1d 48 KiB, L2 2048 KiB".
// Computed once; thread-safe.
const std::string& KernelTarget();

}  // namespace ge::kernels

#endif  // GE_SRC_KERNELS_KERNEL_TARGET_H_
