// Logging through spdlog. The level comes from GE_LOG_LEVEL=debug|info|warn|error (default warn).
#ifndef GE_SRC_BASE_LOG_H_
#define GE_SRC_BASE_LOG_H_

#include <spdlog/spdlog.h>

namespace ge {
// The GE logger, created on first use with the level from GE_LOG_LEVEL; writes to stderr.
spdlog::logger& Logger();
}  // namespace ge

#define GELOGD(...) ::ge::Logger().debug(__VA_ARGS__)
#define GELOGI(...) ::ge::Logger().info(__VA_ARGS__)
#define GELOGW(...) ::ge::Logger().warn(__VA_ARGS__)
#define GELOGE(...) ::ge::Logger().error(__VA_ARGS__)

#endif  // GE_SRC_BASE_LOG_H_
