// Starting the device: what both the compiler (the core count that tiling splits work over) and
// the executors need before they touch it.
#ifndef GE_SRC_RUNTIME_DEVICE_INIT_H_
#define GE_SRC_RUNTIME_DEVICE_INIT_H_

#include <cstdint>

#include "base/status.h"

namespace ge {

// aclInit + aclrtSetDevice(0) once; returns the device's core count.
Status EnsureDevice(uint32_t* core_num);

}  // namespace ge

#endif  // GE_SRC_RUNTIME_DEVICE_INIT_H_
