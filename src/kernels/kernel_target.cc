#include "kernels/kernel_target.h"

#include <fmt/format.h>
#include <unistd.h>

#ifdef GE_HAVE_DNNL
#include <dnnl.h>
#endif

namespace ge::kernels {
namespace {

std::string OneDnnTarget() {
#ifdef GE_HAVE_DNNL
  const dnnl_version_t* v = dnnl_version();
  const auto code = static_cast<int>(dnnl_get_effective_cpu_isa());
  const char* isa = nullptr;
  switch (code) {
    case dnnl_cpu_isa_all: isa = "all"; break;
    case dnnl_cpu_isa_sse41: isa = "sse41"; break;
    case dnnl_cpu_isa_avx: isa = "avx"; break;
    case dnnl_cpu_isa_avx2: isa = "avx2"; break;
    case dnnl_cpu_isa_avx2_vnni: isa = "avx2_vnni"; break;
    case dnnl_cpu_isa_avx512_core: isa = "avx512_core"; break;
    case dnnl_cpu_isa_avx512_core_vnni: isa = "avx512_core_vnni"; break;
    case dnnl_cpu_isa_avx512_core_bf16: isa = "avx512_core_bf16"; break;
    case dnnl_cpu_isa_avx512_core_amx: isa = "avx512_core_amx"; break;
    default: break;
  }
  return fmt::format("oneDNN {}.{}.{} {}", v->major, v->minor, v->patch,
                     isa != nullptr ? std::string(isa) : fmt::format("isa {:#x}", code));
#else
  return "no oneDNN";
#endif
}

long KiB(int name) {
  const long bytes = ::sysconf(name);
  return bytes > 0 ? bytes / 1024 : 0;
}

}  // namespace

const std::string& KernelTarget() {
  static const std::string target = [] {
#if defined(__AVX512F__)
    const char* own = "avx512";
#elif defined(__AVX2__) && defined(__FMA__)
    const char* own = "avx2";
#else
    const char* own = "generic";
#endif
    return fmt::format("GE kernels {}; {}; L1d {} KiB, L2 {} KiB", own, OneDnnTarget(), KiB(_SC_LEVEL1_DCACHE_SIZE),
                       KiB(_SC_LEVEL2_CACHE_SIZE));
  }();
  return target;
}

}  // namespace ge::kernels
