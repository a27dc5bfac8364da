// dlopen of custom operator libraries (see custom_op_loader.h).
#include "register/custom_op_loader.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <set>
#include <sstream>

#include "base/log.h"

namespace ge {

Status LoadCustomOpLibs(const std::string& paths) {
  static std::mutex mu;
  static std::set<std::string> loaded;
  std::lock_guard<std::mutex> lock(mu);
  std::stringstream ss(paths);
  std::string path;
  while (std::getline(ss, path, ':')) {
    if (path.empty() || loaded.count(path)) continue;
    if (dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL) == nullptr)
      return InvalidArgument("cannot load custom operator library '{}': {}", path, dlerror());
    loaded.insert(path);
    GELOGI("loaded custom operator library {}", path);
  }
  return Status::Ok();
}

Status LoadCustomOpLibsFromEnv() {
  static Status result = [] {
    const char* env = std::getenv("GE_CUSTOM_OP_LIB");
    return env ? LoadCustomOpLibs(env).Prepend("GE_CUSTOM_OP_LIB: ") : Status::Ok();
  }();
  return result;
}

}  // namespace ge
