// The GE logger: stderr sink, level from GE_LOG_LEVEL.
#include "base/log.h"

#include <spdlog/sinks/stdout_color_sinks.h>

#include <cstdlib>
#include <string>

namespace ge {

namespace {
spdlog::level::level_enum LevelFromEnv() {
  const char* env = std::getenv("GE_LOG_LEVEL");
  if (env == nullptr) return spdlog::level::warn;
  std::string v(env);
  if (v == "debug") return spdlog::level::debug;
  if (v == "info") return spdlog::level::info;
  if (v == "warn" || v == "warning") return spdlog::level::warn;
  if (v == "error") return spdlog::level::err;
  if (v == "off") return spdlog::level::off;
  return spdlog::level::warn;
}
}  // namespace

spdlog::logger& Logger() {
  static std::shared_ptr<spdlog::logger> logger = [] {
    auto l = spdlog::stderr_color_mt("ge");
    l->set_level(LevelFromEnv());
    l->set_pattern("[%H:%M:%S.%e] [ge] [%l] %v");
    return l;
  }();
  return *logger;
}

}  // namespace ge
