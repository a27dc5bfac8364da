// Reading and writing NumPy .npy files (format 1.0/2.0, little-endian, C order) as HostTensors.
#ifndef GE_INCLUDE_GE_NPY_H_
#define GE_INCLUDE_GE_NPY_H_

#include <istream>
#include <string>

#include "ge/status.h"
#include "ge/tensor.h"

namespace ge {
Status ReadNpy(const std::string& path, HostTensor* out);
// The same from bytes in memory / a stream (`name` for error messages).
Status ReadNpyBytes(const std::string& bytes, HostTensor* out);
Status ReadNpyStream(std::istream& in, const std::string& name, HostTensor* out);
Status WriteNpy(const std::string& path, const HostTensor& t);
}  // namespace ge

#endif  // GE_INCLUDE_GE_NPY_H_
