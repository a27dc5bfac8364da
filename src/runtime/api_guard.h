// Keeps C++ exceptions (allocation failure, thread creation failure) from crossing the C API:
// every aclrt*/aclmdlRI* entry point runs its body through Guarded().
#ifndef GE_SRC_RUNTIME_API_GUARD_H_
#define GE_SRC_RUNTIME_API_GUARD_H_

#include <fmt/format.h>

#include <cstring>
#include <exception>
#include <new>

#include "acl/acl_base.h"
#include "base/error_message.h"

namespace ge::rt {

template <typename Body>
aclError Guarded(const char* api, Body&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    SetRecentErrMsg(fmt::format("{}: out of host memory", api));
    return ACL_ERROR_BAD_ALLOC;
  } catch (const std::exception& e) {
    SetRecentErrMsg(fmt::format("{}: internal error: {}", api, e.what()));
    return ACL_ERROR_RT_INTERNAL_ERROR;
  } catch (...) {
    SetRecentErrMsg(fmt::format("{}: internal error", api));
    return ACL_ERROR_RT_INTERNAL_ERROR;
  }
}

// The integer a C caller passed for an enum parameter. C may pass values outside the enum's
// range; reading the bytes (not the enum) keeps the range check itself well-defined.
template <typename Enum>
int RawEnum(const Enum& value) {
  int raw = 0;
  std::memcpy(&raw, &value, sizeof(raw) < sizeof(value) ? sizeof(raw) : sizeof(value));
  return raw;
}

inline aclError InvalidParam(std::string msg) {
  SetRecentErrMsg(std::move(msg));
  return ACL_ERROR_INVALID_PARAM;
}

}  // namespace ge::rt

#endif  // GE_SRC_RUNTIME_API_GUARD_H_
