// The per-thread "most recent error" message behind aclGetRecentErrMsg(), shared by the aclrt*
// and aclnn* C APIs.
#ifndef GE_SRC_BASE_ERROR_MESSAGE_H_
#define GE_SRC_BASE_ERROR_MESSAGE_H_

#include <string>

namespace ge {
void SetRecentErrMsg(std::string msg);
const std::string& RecentErrMsg();
// Empties the message without logging (the per-node hot path clears it before calling an op
// function that may set it).
void ClearRecentErrMsg();
}  // namespace ge

#endif  // GE_SRC_BASE_ERROR_MESSAGE_H_
