// The per-thread "most recent error" message behind aclGetRecentErrMsg(), shared by the aclrt*
// and aclnn* C APIs.
#ifndef GE_SRC_BASE_ERROR_MESSAGE_H_
#define GE_SRC_BASE_ERROR_MESSAGE_H_

#include <string>

namespace ge {
void SetRecentErrMsg(std::string msg);
const std::string& RecentErrMsg();
}  // namespace ge

#endif  // GE_SRC_BASE_ERROR_MESSAGE_H_
