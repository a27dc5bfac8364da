// Reading and writing NumPy .npy files (format 1.0/2.0, little-endian, C order) as HostTensors.
#ifndef GE_INCLUDE_GE_NPY_H_
#define GE_INCLUDE_GE_NPY_H_

#include <istream>
#include <string>
#include <utility>
#include <vector>

#include "ge/status.h"
#include "ge/tensor.h"

namespace ge {
Status ReadNpy(const std::string& path, HostTensor* out);
// The same from bytes in memory / a stream (`name` for error messages).
Status ReadNpyBytes(const std::string& bytes, HostTensor* out);
Status ReadNpyStream(std::istream& in, const std::string& name, HostTensor* out);
// DT_STRING tensors read from numpy's '<U' (UTF-32) and '|S' (bytes) arrays and are written as
// '<U' (the longest element's width); each element must fit a string slot (kStringSlotBytes - 1
// bytes of UTF-8).
Status WriteNpy(const std::string& path, const HostTensor& t);
// The .npy file's bytes (`name` for error messages).
Status NpyBytes(const HostTensor& t, const std::string& name, std::string* out);
// .npz archives (zip of NAME.npy): np.savez (stored) and np.savez_compressed (deflated), zip64
// included; entries in archive order, names without ".npy". WriteNpz writes stored entries.
Status ReadNpz(const std::string& path, std::vector<std::pair<std::string, HostTensor>>* out);
Status WriteNpz(const std::string& path, const std::vector<std::pair<std::string, HostTensor>>& tensors);
}  // namespace ge

#endif  // GE_INCLUDE_GE_NPY_H_
