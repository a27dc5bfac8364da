// Process-wide profiling (`ge run/bench --profile trace.json`): between StartProfiling and
// StopProfiling the engine records the compile steps, the per-node host steps, the model
// streams' tasks and the kernel blocks each core ran; StopProfiling writes them as a Chrome
// trace-event JSON file (open it in https://ui.perfetto.dev or chrome://tracing). Off, each
// probe costs one relaxed atomic load.
#ifndef GE_INCLUDE_GE_PROFILER_H_
#define GE_INCLUDE_GE_PROFILER_H_

#include <string>

#include "ge/status.h"

namespace ge {

void StartProfiling();
// Stops and writes the trace to `path` (an error when it cannot be written).
Status StopProfiling(const std::string& path);

}  // namespace ge

#endif  // GE_INCLUDE_GE_PROFILER_H_
