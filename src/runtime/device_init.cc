// Starting the device once per process.
#include "runtime/device_init.h"

#include <mutex>

#include "acl/acl_rt.h"

namespace ge {

Status EnsureDevice(uint32_t* core_num) {
  static std::once_flag once;
  static aclError init_err = ACL_SUCCESS;
  std::call_once(once, [] {
    aclError e = aclInit(nullptr);
    if (e != ACL_SUCCESS && e != ACL_ERROR_REPEAT_INITIALIZE)
      init_err = e;
    else
      init_err = aclrtSetDevice(0);
  });
  if (init_err != ACL_SUCCESS) return Internal("cannot start the device: {}", aclGetRecentErrMsg());
  if (core_num) aclrtGetDeviceCoreNum(core_num);
  return Status::Ok();
}

}  // namespace ge
