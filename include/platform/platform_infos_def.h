// fe::PlatFormInfos: the device description a tiling function queries (through
// platform_ascendc::PlatformAscendC or GetPlatformRes). On GE it describes the CPU device: the
// core count is the device's core threads, every core is both "cube" and "vector", and the
// per-core memories are configured sizes (GE_CORE_UB_SIZE sets the UB, default 192 KiB).
// Compiles at C++11.
#ifndef GE_INCLUDE_PLATFORM_PLATFORM_INFOS_DEF_H_
#define GE_INCLUDE_PLATFORM_PLATFORM_INFOS_DEF_H_

#include <cstdint>
#include <map>
#include <string>

namespace fe {

class PlatFormInfos {
 public:
  // label -> key -> value, as in Ascend's platform .ini files ("SoCInfo"/"ai_core_cnt",
  // "AICoreSpec"/"ub_size", "version"/"Short_SoC_version").
  bool GetPlatformRes(const std::string& label, const std::string& key, std::string& val) const {
    std::map<std::string, std::map<std::string, std::string> >::const_iterator l = res_.find(label);
    if (l == res_.end()) return false;
    std::map<std::string, std::string>::const_iterator k = l->second.find(key);
    if (k == l->second.end()) return false;
    val = k->second;
    return true;
  }
  bool GetPlatformResWithLock(const std::string& label, const std::string& key, std::string& val) const {
    return GetPlatformRes(label, key, val);
  }
  void SetPlatformRes(const std::string& label, const std::string& key, const std::string& val) {
    res_[label][key] = val;
  }
  uint32_t GetCoreNum() const { return core_num_; }
  void SetCoreNum(uint32_t n) { core_num_ = n; }
  // Ascend selects "AiCore" or "VectorCore" counts; both are the device's cores here.
  void SetCoreNumByCoreType(const std::string&) {}

 private:
  uint32_t core_num_ = 1;
  std::map<std::string, std::map<std::string, std::string> > res_;
};

}  // namespace fe

namespace ge {
// The CPU device's platform description for `core_num` cores (one object per core count, alive
// for the process). The SoC version is GE_SOC_VERSION's value (default Ascend910B).
fe::PlatFormInfos* GetDevicePlatformInfos(uint32_t core_num);
// The SoC whose AddConfig entries apply ("ascend910b": lower case, the AddConfig spelling).
const char* GetDeviceSocName();
}  // namespace ge

#endif  // GE_INCLUDE_PLATFORM_PLATFORM_INFOS_DEF_H_
