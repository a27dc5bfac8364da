// The C API boundary of the single-op API: every entry runs through Guard, which turns a Status
// into an aclnnStatus, records the message for aclGetRecentErrMsg(), and catches anything thrown
// (no exception crosses the C API).
#ifndef GE_SRC_OPAPI_API_GUARD_H_
#define GE_SRC_OPAPI_API_GUARD_H_

#include <exception>
#include <string>

#include "aclnn/acl_meta.h"
#include "base/error_message.h"
#include "base/status.h"

namespace ge::opapi {

inline aclnnStatus ToAclnnStatus(const Status& st) {
  switch (st.code()) {
    case Status::kOk: return ACLNN_SUCCESS;
    case Status::kInvalidArgument:
    case Status::kUnsupported:
    case Status::kNotFound:
    case Status::kFailedPrecondition: return ACLNN_ERR_PARAM_INVALID;
    case Status::kOutOfMemory: return ACLNN_ERR_RUNTIME_ERROR;
    default: return ACLNN_ERR_INNER;
  }
}

// A null-pointer argument: "aclnnAdd: self is null".
inline Status NullArg(const char* api, const char* name) {
  return Status(Status::kInvalidArgument, std::string(api) + ": " + name + " is null");
}

template <typename F>
aclnnStatus Guard(const char* api, F&& f) {
  try {
    Status st = f();
    if (st.ok()) return ACLNN_SUCCESS;
    SetRecentErrMsg(st.message().rfind(api, 0) == 0 ? st.message() : std::string(api) + ": " + st.message());
    const std::string& m = st.message();
    if (m.size() >= 8 && m.compare(m.size() - 8, 8, " is null") == 0) return ACLNN_ERR_PARAM_NULLPTR;
    return ToAclnnStatus(st);
  } catch (const std::exception& e) {
    SetRecentErrMsg(std::string(api) + ": internal error: " + e.what());
  } catch (...) {
    SetRecentErrMsg(std::string(api) + ": internal error");
  }
  return ACLNN_ERR_INNER;
}

}  // namespace ge::opapi

#endif  // GE_SRC_OPAPI_API_GUARD_H_
