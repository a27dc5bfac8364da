// platform_ascendc::PlatformAscendC: the queries an Ascend C tiling function makes about the
// device (core counts, per-core memory sizes, SoC version), answered from the fe::PlatFormInfos
// GE hands to TilingContext::GetPlatformInfo() / TilingParseContext::GetPlatformInfo(): the CPU
// device's core threads are its cores (cube and vector alike), UB is the configured per-core
// scratch size. Header-only; compiles at C++11.
#ifndef GE_INCLUDE_TILING_PLATFORM_PLATFORM_ASCENDC_H_
#define GE_INCLUDE_TILING_PLATFORM_PLATFORM_ASCENDC_H_

#include <cstdint>
#include <cstdlib>
#include <string>

#include "platform/platform_infos_def.h"

namespace platform_ascendc {

enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, FB = 7, BT = 8, RESERVED };

enum class SocVersion {
  ASCEND910 = 0,
  ASCEND910B,
  ASCEND910_93,
  ASCEND310P,
  ASCEND310B,
  ASCEND610LITE,
  RESERVED_VERSION = 99999
};

class PlatformAscendC {
 public:
  PlatformAscendC() = delete;
  explicit PlatformAscendC(fe::PlatFormInfos* platform_info) : info_(platform_info) {}

  // Cores a vector kernel spreads over (Ascend: AIV cores on separated SoCs, AI cores otherwise).
  uint32_t GetCoreNum() const { return info_ == nullptr ? 1 : info_->GetCoreNum(); }
  uint32_t GetCoreNumAic() const { return ResUint("SoCInfo", "cube_core_cnt", GetCoreNum()); }
  uint32_t GetCoreNumAiv() const { return ResUint("SoCInfo", "vector_core_cnt", GetCoreNum()); }
  uint32_t GetCoreNumVector() const { return GetCoreNumAiv(); }
  void GetCoreMemSize(const CoreMemType& mem_type, uint64_t& size) const {
    static const char* const kKeys[] = {"l0_a_size", "l0_b_size", "l0_c_size", "l1_size", "l2_size",
                                        "ub_size",   "hbm_size",  "fb_size",   "bt_size"};
    size_t i = static_cast<size_t>(mem_type);
    size = i < sizeof(kKeys) / sizeof(kKeys[0]) ? ResUint64("AICoreSpec", kKeys[i], 0) : 0;
  }
  // Bytes per cycle; the CPU device reports 0 (no modelled bandwidth).
  void GetCoreMemBw(const CoreMemType&, uint64_t& bw_size) const { bw_size = 0; }
  SocVersion GetSocVersion() const {
    std::string v;
    if (info_ == nullptr || !info_->GetPlatformRes("version", "Short_SoC_version", v))
      return SocVersion::RESERVED_VERSION;
    if (v == "Ascend910") return SocVersion::ASCEND910;
    if (v == "Ascend910B") return SocVersion::ASCEND910B;
    if (v == "Ascend910_93") return SocVersion::ASCEND910_93;
    if (v == "Ascend310P") return SocVersion::ASCEND310P;
    if (v == "Ascend310B") return SocVersion::ASCEND310B;
    if (v == "Ascend610Lite") return SocVersion::ASCEND610LITE;
    return SocVersion::RESERVED_VERSION;
  }
  // Block dim of a mixed cube/vector kernel with `slice_num` slices: Ascend groups the vector
  // cores that share one cube core; with as many vector cores as cube cores it is slice_num.
  uint32_t CalcTschBlockDim(uint32_t slice_num, uint32_t aic_core_num, uint32_t aiv_core_num) const {
    if (aic_core_num == 0 || aiv_core_num == 0 || aic_core_num > aiv_core_num) return slice_num;
    uint32_t ratio = aiv_core_num / aic_core_num;
    return (slice_num + ratio - 1) / ratio;
  }
  // The system workspace Ascend's kernel library APIs need: none on the CPU device.
  uint32_t GetLibApiWorkSpaceSize() const { return ResUint("SoCInfo", "lib_api_workspace_size", 0); }
  fe::PlatFormInfos* GetPlatFormInfo() const { return info_; }

 private:
  uint64_t ResUint64(const char* label, const char* key, uint64_t dflt) const {
    std::string v;
    if (info_ == nullptr || !info_->GetPlatformRes(label, key, v) || v.empty()) return dflt;
    return std::strtoull(v.c_str(), nullptr, 10);
  }
  uint32_t ResUint(const char* label, const char* key, uint32_t dflt) const {
    return static_cast<uint32_t>(ResUint64(label, key, dflt));
  }
  fe::PlatFormInfos* info_;
};

// The platform of the device GE runs on, for code that has no context (host-side helpers).
class PlatformAscendCManager {
 public:
  static PlatformAscendC* GetInstance() {
    static PlatformAscendC p(ge::GetDevicePlatformInfos(0));
    return &p;
  }
  static PlatformAscendC* GetInstance(const char*) { return GetInstance(); }
};

}  // namespace platform_ascendc

#endif  // GE_INCLUDE_TILING_PLATFORM_PLATFORM_ASCENDC_H_
