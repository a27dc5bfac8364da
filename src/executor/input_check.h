// Checking the tensors a caller passes against a graph's declared inputs: count, dtype, rank
// and every known dim. One message format for every executor.
#ifndef GE_SRC_EXECUTOR_INPUT_CHECK_H_
#define GE_SRC_EXECUTOR_INPUT_CHECK_H_

#include <string>
#include <vector>

#include "base/status.h"
#include "graph/graph.h"

namespace ge {

// "expected 2 input(s), got 1" / "input 'x': expected float32[4, 64], got int64[4, 64]".
// An undefined declared dtype (a subgraph's outer-scope input) or unknown rank matches anything;
// a -1 dim matches any size.
Status CheckGraphInputs(const Graph& graph, const std::vector<HostTensor>& inputs);

// Rewrites n bool bytes as 0 / 1 (a caller's HostTensor may hold any byte; kernels read C++
// bool, for which other bytes are undefined behaviour): graph inputs as they are copied in.
void NormalizeBoolBytes(void* data, size_t n);

// Device-buffer runs: "expected 1 input and 4 output buffers, got 1 and 3".
Status CheckBufferCounts(const Graph& graph, const std::vector<DeviceBuffer>& inputs,
                         const std::vector<DeviceBuffer>& outputs);
// "input 'x': expected a device buffer of 24 bytes (float32[2, 3]), got 20 bytes at 0x..." when
// `buffer` is smaller than `bytes` or null while bytes are needed. `role`: "input" / "output".
Status CheckDeviceBuffer(const char* role, const std::string& name, const TensorDesc& desc, size_t bytes,
                         const DeviceBuffer& buffer);

}  // namespace ge

#endif  // GE_SRC_EXECUTOR_INPUT_CHECK_H_
