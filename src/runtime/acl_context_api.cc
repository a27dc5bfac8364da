// The aclrt*Context entry points: context handles over the single device, current per thread.
#include <fmt/format.h>

#include <memory>
#include <mutex>
#include <set>

#include "acl/acl_rt.h"
#include "runtime/api_guard.h"
#include "runtime/device.h"

using ge::rt::Device;
using ge::rt::Guarded;
using ge::rt::InvalidParam;

namespace {

struct ContextTag {
  char unused = 0;
};

class Contexts {
 public:
  static Contexts& Get() {
    static Contexts* c = new Contexts();  // never destroyed: threads may ask at exit
    return *c;
  }
  void* Create() {
    auto* c = new ContextTag();
    std::lock_guard<std::mutex> lk(mu_);
    live_.insert(c);
    return c;
  }
  bool Destroy(void* c) {
    std::lock_guard<std::mutex> lk(mu_);
    if (c == &default_ || live_.erase(static_cast<ContextTag*>(c)) == 0) return false;
    delete static_cast<ContextTag*>(c);
    return true;
  }
  bool Live(void* c) {
    std::lock_guard<std::mutex> lk(mu_);
    return c == &default_ || live_.count(static_cast<ContextTag*>(c)) > 0;
  }
  void* default_context() { return &default_; }

 private:
  std::mutex mu_;
  std::set<ContextTag*> live_;
  ContextTag default_;
};

thread_local void* t_current = nullptr;

aclError NotAContext(const char* api, void* c) {
  ge::SetRecentErrMsg(fmt::format("{}: {} is not a live context", api, c));
  return ACL_ERROR_RT_PARAM_INVALID;
}

}  // namespace

extern "C" {

aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
  if (context == nullptr) return InvalidParam("aclrtCreateContext: context is null");
  if (deviceId != 0)
    return InvalidParam(fmt::format("aclrtCreateContext: device {} does not exist (1 device)", deviceId));
  return Guarded("aclrtCreateContext", [&]() -> aclError {
    Device::Get();
    *context = Contexts::Get().Create();
    t_current = *context;
    return ACL_SUCCESS;
  });
}

aclError aclrtDestroyContext(aclrtContext context) {
  if (context == nullptr) return InvalidParam("aclrtDestroyContext: context is null");
  return Guarded("aclrtDestroyContext", [&]() -> aclError {
    if (!Contexts::Get().Destroy(context)) return NotAContext("aclrtDestroyContext", context);
    if (t_current == context) t_current = nullptr;
    return ACL_SUCCESS;
  });
}

aclError aclrtSetCurrentContext(aclrtContext context) {
  if (context == nullptr) return InvalidParam("aclrtSetCurrentContext: context is null");
  return Guarded("aclrtSetCurrentContext", [&]() -> aclError {
    if (!Contexts::Get().Live(context)) return NotAContext("aclrtSetCurrentContext", context);
    t_current = context;
    return ACL_SUCCESS;
  });
}

aclError aclrtGetCurrentContext(aclrtContext* context) {
  if (context == nullptr) return InvalidParam("aclrtGetCurrentContext: context is null");
  return Guarded("aclrtGetCurrentContext", [&]() -> aclError {
    if (t_current != nullptr && !Contexts::Get().Live(t_current)) t_current = nullptr;  // destroyed elsewhere
    *context = t_current != nullptr ? t_current : Contexts::Get().default_context();
    return ACL_SUCCESS;
  });
}

}  // extern "C"
