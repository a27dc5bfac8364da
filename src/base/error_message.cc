#include "base/error_message.h"

#include "acl/acl_base.h"
#include "base/log.h"

namespace ge {
namespace {
thread_local std::string recent_err_msg;
}
void SetRecentErrMsg(std::string msg) {
  GELOGD("error: {}", msg);
  recent_err_msg = std::move(msg);
}
const std::string& RecentErrMsg() { return recent_err_msg; }
void ClearRecentErrMsg() {
  if (!recent_err_msg.empty()) recent_err_msg.clear();
}
}  // namespace ge

extern "C" const char* aclGetRecentErrMsg(void) { return ge::RecentErrMsg().c_str(); }
