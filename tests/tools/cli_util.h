// Shared by the `ge` tool tests: the built binary, the bundled models, and running a command.
#ifndef GE_TESTS_TOOLS_CLI_UTIL_H_
#define GE_TESTS_TOOLS_CLI_UTIL_H_

#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace ge::testing {

inline const std::string kGe = std::string(GE_BINARY_DIR) + "/bin/ge";
inline const std::string kModels = std::string(GE_SOURCE_DIR) + "/models/";

// Runs `cmd` through the shell with stderr merged into stdout; returns the output, *code the exit
// status (-1 when the command did not exit normally).
inline std::string Shell(const std::string& cmd, int* code) {
  std::string out;
  *code = -1;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (p == nullptr) return out;
  char buf[512];
  while (fgets(buf, sizeof(buf), p)) out += buf;
  const int st = pclose(p);
  *code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return out;
}

}  // namespace ge::testing

#endif  // GE_TESTS_TOOLS_CLI_UTIL_H_
