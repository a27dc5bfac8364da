#include "executor/device_tensor.h"

#include <cstring>
#include <mutex>

#include "acl/acl_rt.h"
#include "runtime/caching_allocator.h"

namespace ge {

Status AllocDeviceTensor(rt::CachingAllocator* alloc, DataType dt, const gert::Shape& shape, gert::Tensor* t) {
  int64_t n = shape.GetShapeSize();
  size_t bytes = n > 0 ? static_cast<size_t>(n) * GetSizeByDataType(dt) : 0;
  void* p = alloc->Malloc(bytes == 0 ? 1 : bytes);
  if (p == nullptr)
    return Error(Status::kOutOfMemory, "out of device memory allocating {} bytes: {}", bytes, aclGetRecentErrMsg());
  gert::StorageShape ss;
  ss.SetShape(shape);
  *t = gert::Tensor(ss, dt, FORMAT_ND, p);
  return Status::Ok();
}

Status AllocDeviceTensor(rt::CachingAllocator* alloc, DataType dt, const Shape& shape, gert::Tensor* t) {
  return AllocDeviceTensor(alloc, dt, ToGertShape(shape), t);
}

Status UploadConstant(const HostTensor& h, void** dev, gert::Tensor* t) {
  size_t bytes = h.NumBytes();
  *dev = nullptr;
  if (aclrtMalloc(dev, bytes == 0 ? 1 : bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
    return Error(Status::kOutOfMemory, "out of device memory for a {}-byte constant: {}", bytes, aclGetRecentErrMsg());
  if (bytes > 0) aclrtMemcpy(*dev, bytes, h.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  gert::StorageShape ss;
  ss.SetShape(ToGertShape(h.shape()));
  *t = gert::Tensor(ss, h.dtype(), FORMAT_ND, *dev);
  return Status::Ok();
}

HostTensor DownloadTensor(const gert::Tensor& t) {
  HostTensor h(t.GetDataType(), FromGertShape(t.GetStorageShape()));
  if (h.NumBytes() > 0)
    aclrtMemcpy(h.mutable_data(), h.NumBytes(), t.GetAddr(), h.NumBytes(), ACL_MEMCPY_DEVICE_TO_HOST);
  return h;
}

Status DeviceError(int ret, const char* context) {
  if (ret == ACL_ERROR_RT_KERNEL_DATA) return InvalidArgument("{}", aclGetRecentErrMsg());
  return Internal("{}: {}", context, aclGetRecentErrMsg());
}

}  // namespace ge
