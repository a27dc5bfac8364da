// The value types of the Session API (ge/ge_api.h), named as in Ascend's GE: AscendString (the
// option maps' key and value type), ge::Tensor (a host tensor with Ascend's accessors) and the
// option keys.
#ifndef GE_INCLUDE_GE_GE_API_TYPES_H_
#define GE_INCLUDE_GE_GE_API_TYPES_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "ge/tensor.h"
#include "graph/ascend_string.h"

namespace ge {

inline std::map<AscendString, AscendString> ToAscendStringMap(const std::map<std::string, std::string>& m) {
  std::map<AscendString, AscendString> r;
  for (const auto& [k, v] : m) r.emplace(AscendString(k), AscendString(v));
  return r;
}

// A graph input or output in host memory: a HostTensor (the engine's tensor) with Ascend's
// ge::Tensor accessors. Copies share their bytes, as HostTensor's do.
class Tensor : public HostTensor {
 public:
  Tensor() = default;
  Tensor(HostTensor t) : HostTensor(std::move(t)) {}  // NOLINT(runtime/explicit)
  // Zero-filled; the desc's shape must be static.
  explicit Tensor(const TensorDesc& desc) : HostTensor(desc.dtype, desc.shape) {}
  // A copy of the first `size` bytes of `data` (at most the tensor's bytes; the rest is zero).
  Tensor(const TensorDesc& desc, const uint8_t* data, size_t size)
      : HostTensor(HostTensor::FromBytes(desc.dtype, desc.shape, data, size)) {}
  const TensorDesc& GetTensorDesc() const { return desc(); }
  const uint8_t* GetData() const { return static_cast<const uint8_t*>(data()); }
  uint8_t* GetData() { return static_cast<uint8_t*>(mutable_data()); }
  size_t GetSize() const { return NumBytes(); }
};

// ---- options --------------------------------------------------------------------------------
// Given to GEInitialize (defaults for every session), Session (defaults for its graphs) or
// AddGraph (that graph). A key not listed here is an error naming it. Process-wide options
// (threads, memory limit, custom-op libraries, log level) apply when given.
//
// Scheduling mode: "auto" (default: static parts sink, dynamic parts on the host), "sink", "host".
inline constexpr const char* kOptionMode = "ge.exec.mode";
// Graph optimization level: "0" none, "1" basic, "2" (default) with fusions.
inline constexpr const char* kOptionOptimizationLevel = "ge.optimizationLevel";
// Streams of a sink segment: "0" (default: the stream assignment decides), "1" one stream, N.
inline constexpr const char* kOptionStreamNum = "ge.streamNum";
// Device core threads ("AI cores"): "0" = the machine's cores. GEInitialize only (process-wide;
// resizes the device's core pool, so give it before anything runs).
inline constexpr const char* kOptionThreadNum = "ge.threadNum";
// Device memory limit in bytes ("0" = unlimited): allocations past it are clean errors.
// GEInitialize only.
inline constexpr const char* kOptionMemoryLimit = "ge.memoryLimit";
// ':'-separated custom operator libraries (built with cmake/GeCustomOp.cmake), loaded at once.
inline constexpr const char* kOptionCustomOpLib = "ge.customOpLib";
// Log level: "debug", "info", "warn" (default), "error", "off" (as GE_LOG_LEVEL).
inline constexpr const char* kOptionLogLevel = "ge.logLevel";
// Prefer each node's fallback (single-op API) path where it has one: "0" (default) or "1".
inline constexpr const char* kOptionPreferFallback = "ge.preferFallback";

}  // namespace ge

#endif  // GE_INCLUDE_GE_GE_API_TYPES_H_
