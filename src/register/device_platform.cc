// The CPU device described as an Ascend platform (fe::PlatFormInfos): what tiling functions
// read through platform_ascendc::PlatformAscendC. Per-core memories are configured sizes: the UB
// (the scratch a kernel tiles its data to fit) is GE_CORE_UB_SIZE bytes, default 192 KiB, the
// size of an Ascend 910B vector core's UB, so tilings written for it choose the same tiles.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "base/log.h"
#include "platform/platform_infos_def.h"

namespace ge {
namespace {

constexpr uint64_t kDefaultUbSize = 192 * 1024;

uint64_t UbSize() {
  const char* v = std::getenv("GE_CORE_UB_SIZE");
  if (v == nullptr || *v == '\0') return kDefaultUbSize;
  char* end = nullptr;
  unsigned long long n = std::strtoull(v, &end, 10);
  if (end == v || *end != '\0' || n == 0) {
    GELOGW("GE_CORE_UB_SIZE='{}' is not a positive byte count; using {}", v, kDefaultUbSize);
    return kDefaultUbSize;
  }
  return n;
}

// "Ascend910B" for GE_SOC_VERSION unset; its AddConfig spelling is the lower-case form.
std::string SocVersion() {
  const char* v = std::getenv("GE_SOC_VERSION");
  return v != nullptr && *v != '\0' ? std::string(v) : std::string("Ascend910B");
}

void Fill(fe::PlatFormInfos* p, uint32_t cores) {
  const std::string n = std::to_string(cores);
  p->SetCoreNum(cores);
  p->SetPlatformRes("SoCInfo", "ai_core_cnt", n);
  p->SetPlatformRes("SoCInfo", "cube_core_cnt", n);
  p->SetPlatformRes("SoCInfo", "vector_core_cnt", n);
  p->SetPlatformRes("SoCInfo", "lib_api_workspace_size", "0");
  p->SetPlatformRes("version", "SoC_version", SocVersion());
  p->SetPlatformRes("version", "Short_SoC_version", SocVersion());
  p->SetPlatformRes("AICoreSpec", "ub_size", std::to_string(UbSize()));
  p->SetPlatformRes("AICoreSpec", "l1_size", std::to_string(512 * 1024));
  p->SetPlatformRes("AICoreSpec", "l0_a_size", std::to_string(64 * 1024));
  p->SetPlatformRes("AICoreSpec", "l0_b_size", std::to_string(64 * 1024));
  p->SetPlatformRes("AICoreSpec", "l0_c_size", std::to_string(128 * 1024));
  p->SetPlatformRes("AICoreSpec", "l2_size", std::to_string(32 * 1024 * 1024));
}

}  // namespace

fe::PlatFormInfos* GetDevicePlatformInfos(uint32_t core_num) {
  if (core_num == 0) core_num = std::max(1u, std::thread::hardware_concurrency());
  static std::mutex mu;
  static std::map<uint32_t, std::unique_ptr<fe::PlatFormInfos>> infos;
  std::lock_guard<std::mutex> lock(mu);
  auto& p = infos[core_num];
  if (!p) {
    p = std::make_unique<fe::PlatFormInfos>();
    Fill(p.get(), core_num);
  }
  return p.get();
}

const char* GetDeviceSocName() {
  static const std::string name = [] {
    std::string s = SocVersion();
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }();
  return name.c_str();
}

}  // namespace ge
