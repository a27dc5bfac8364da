#include "ge/profiler.h"

#include "base/trace.h"

namespace ge {

void StartProfiling() { trace::Start(); }

Status StopProfiling(const std::string& path) {
  std::string error;
  if (!trace::StopAndWrite(path, &error)) return InvalidArgument("{}", error);
  return Status::Ok();
}

}  // namespace ge
