// The GE logger: stderr sink, level from GE_LOG_LEVEL, and the applications' callbacks (ge/log.h).
#include "base/log.h"

#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

#include "ge/log.h"

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

LogLevel FromSpdlog(spdlog::level::level_enum l) {
  switch (l) {
    case spdlog::level::trace:
    case spdlog::level::debug: return LogLevel::kDebug;
    case spdlog::level::info: return LogLevel::kInfo;
    case spdlog::level::warn: return LogLevel::kWarn;
    case spdlog::level::err:
    case spdlog::level::critical: return LogLevel::kError;
    default: return LogLevel::kOff;
  }
}

spdlog::level::level_enum ToSpdlog(LogLevel l) {
  switch (l) {
    case LogLevel::kDebug: return spdlog::level::debug;
    case LogLevel::kInfo: return spdlog::level::info;
    case LogLevel::kWarn: return spdlog::level::warn;
    case LogLevel::kError: return spdlog::level::err;
    default: return spdlog::level::off;
  }
}

// Hands each message to the registered callbacks. base_sink's mutex serializes sink_it_ with
// Add/Remove (which take it too), so a removed callback is never running once Remove returns.
class CallbackSink : public spdlog::sinks::base_sink<std::mutex> {
 public:
  int Add(LogCallback cb) {
    std::lock_guard<std::mutex> lock(mutex_);
    callbacks_.emplace(++last_id_, std::move(cb));
    return last_id_;
  }
  void Remove(int id) {
    std::lock_guard<std::mutex> lock(mutex_);
    callbacks_.erase(id);
  }

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    if (callbacks_.empty()) return;
    const std::string text(msg.payload.data(), msg.payload.size());
    for (auto& [id, cb] : callbacks_) cb(FromSpdlog(msg.level), text);
  }
  void flush_() override {}

 private:
  std::map<int, LogCallback> callbacks_;
  int last_id_ = 0;
};

CallbackSink& Callbacks() {
  static auto* sink = new CallbackSink;  // outlives the logger (static destruction order)
  return *sink;
}

}  // namespace

spdlog::logger& Logger() {
  static std::shared_ptr<spdlog::logger> logger = [] {
    auto l = spdlog::stderr_color_mt("ge");
    l->sinks().push_back(std::shared_ptr<CallbackSink>(&Callbacks(), [](CallbackSink*) {}));
    l->set_level(LevelFromEnv());
    l->set_pattern("[%H:%M:%S.%e] [ge] [%l] %v");
    return l;
  }();
  return *logger;
}

void SetLogLevel(LogLevel level) { Logger().set_level(ToSpdlog(level)); }
LogLevel GetLogLevel() { return FromSpdlog(Logger().level()); }
int AddLogCallback(LogCallback callback) { return Callbacks().Add(std::move(callback)); }
void RemoveLogCallback(int id) { Callbacks().Remove(id); }

}  // namespace ge
