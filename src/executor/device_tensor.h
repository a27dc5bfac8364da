// Moving tensors between host (HostTensor) and device (gert::Tensor on device memory), and
// starting the device once per process.
#ifndef GE_SRC_EXECUTOR_DEVICE_TENSOR_H_
#define GE_SRC_EXECUTOR_DEVICE_TENSOR_H_

#include "base/status.h"
#include "exe_graph/runtime/tensor.h"
#include "graph/tensor.h"
#include "runtime/device_init.h"

namespace ge {
namespace rt {
class CachingAllocator;
}

// Allocates device memory for a tensor (at least 1 byte, so empty tensors have an address).
Status AllocDeviceTensor(rt::CachingAllocator* alloc, DataType dt, const Shape& shape, gert::Tensor* t);
Status AllocDeviceTensor(rt::CachingAllocator* alloc, DataType dt, const gert::Shape& shape, gert::Tensor* t);
// Copies a constant to fresh device memory (aclrtMalloc); *dev is what to aclrtFree later.
Status UploadConstant(const HostTensor& h, void** dev, gert::Tensor* t);
HostTensor DownloadTensor(const gert::Tensor& t);

// A failed synchronize or model execution (`ret`, with aclGetRecentErrMsg()) as a Status: a
// kernel's data error (ACL_ERROR_RT_KERNEL_DATA, its message already naming the node) is an
// invalid argument with that message; anything else is "<context>: <message>".
Status DeviceError(int ret, const char* context);

}  // namespace ge

#endif  // GE_SRC_EXECUTOR_DEVICE_TENSOR_H_
