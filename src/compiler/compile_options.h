// What a compilation is asked for: scheduling mode, optimizer level, shape specialization and
// the sink segments' stream bound. One struct from the API down to placement and task generation.
#ifndef GE_SRC_COMPILER_COMPILE_OPTIONS_H_
#define GE_SRC_COMPILER_COMPILE_OPTIONS_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ge {

struct CompileOptions {
  std::string mode = "auto";     // auto | sink | host
  bool offline = false;          // compiling to a file: fallback never used
  bool prefer_fallback = false;  // tests: take the fallback path wherever one exists
  int max_streams = 0;           // sink stream assignment bound (0 = default)
  int opt_level = 2;             // graph optimizer level (passes/pass_manager.h)
  // Shape specialization: these inputs' dims are fixed before anything else runs.
  std::map<std::string, std::vector<int64_t>> input_shapes;
};

}  // namespace ge

#endif  // GE_SRC_COMPILER_COMPILE_OPTIONS_H_
