// GE's log messages, for applications: the level (GE_LOG_LEVEL=debug|info|warn|error|off sets the
// starting one; default warn) and callbacks that receive each message GE logs at or above it, in
// addition to stderr.
#ifndef GE_INCLUDE_GE_LOG_H_
#define GE_INCLUDE_GE_LOG_H_

#include <functional>
#include <string>

namespace ge {

enum class LogLevel { kDebug, kInfo, kWarn, kError, kOff };

void SetLogLevel(LogLevel level);
LogLevel GetLogLevel();

// Called on the thread that logs, with the message text (no timestamp or level prefix), one call
// at a time. A callback must not call into GE (no logging, no Add/RemoveLogCallback).
using LogCallback = std::function<void(LogLevel level, const std::string& message)>;
// Registers `callback`; returns its id (> 0) for RemoveLogCallback.
int AddLogCallback(LogCallback callback);
// Unregisters it; once this returns the callback is not running and will not be called again.
void RemoveLogCallback(int id);

}  // namespace ge

#endif  // GE_INCLUDE_GE_LOG_H_
