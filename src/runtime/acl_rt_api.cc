// The aclrt* C entry points: argument checks and handle lookup, then the device objects.
#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>

#include "acl/acl_rt.h"
#include "runtime/api_guard.h"
#include "runtime/device.h"

using ge::rt::Device;
using ge::rt::Guarded;
using ge::rt::InvalidParam;
using ge::rt::RawEnum;
using ge::rt::Stream;
using ge::rt::Task;
using ge::rt::TaskType;

namespace {

std::atomic<bool> g_initialized{false};

aclError CheckCopy(const char* api, void* dst, size_t dest_max, const void* src, size_t count,
                   const aclrtMemcpyKind& kind) {
  if (count > 0 && (dst == nullptr || src == nullptr)) {
    return InvalidParam(fmt::format("{}: null pointer (dst={}, src={})", api, dst, src));
  }
  if (count > dest_max) {
    return InvalidParam(fmt::format("{}: count {} exceeds destMax {}", api, count, dest_max));
  }
  const int raw_kind = RawEnum(kind);
  if (raw_kind < ACL_MEMCPY_HOST_TO_HOST || raw_kind > ACL_MEMCPY_DEVICE_TO_DEVICE) {
    return InvalidParam(fmt::format("{}: unknown memcpy kind {}", api, raw_kind));
  }
  return ACL_SUCCESS;
}

aclError CheckSet(const char* api, void* dst, size_t max_count, size_t count) {
  if (dst == nullptr && count > 0) return InvalidParam(fmt::format("{}: devPtr is null", api));
  if (count > max_count) {
    return InvalidParam(fmt::format("{}: count {} exceeds maxCount {}", api, count, max_count));
  }
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

// ---- device ----------------------------------------------------------------------------------
aclError aclInit(const char* configPath) {
  return Guarded("aclInit", [&]() -> aclError {
    if (configPath != nullptr && *configPath != '\0') {
      std::FILE* f = std::fopen(configPath, "r");
      if (f == nullptr) {
        ge::SetRecentErrMsg(fmt::format("aclInit: cannot open config file '{}'", configPath));
        return ACL_ERROR_INVALID_FILE;
      }
      std::fclose(f);
    }
    if (g_initialized.exchange(true)) {
      ge::SetRecentErrMsg("aclInit: already initialized");
      return ACL_ERROR_REPEAT_INITIALIZE;
    }
    Device::Get();
    return ACL_SUCCESS;
  });
}

aclError aclFinalize(void) {
  return Guarded("aclFinalize", [&]() -> aclError {
    if (!g_initialized.exchange(false)) {
      ge::SetRecentErrMsg("aclFinalize: aclInit was not called");
      return ACL_ERROR_UNINITIALIZE;
    }
    return Device::Get().Synchronize();
  });
}

aclError aclrtSetDevice(int32_t deviceId) {
  return Guarded("aclrtSetDevice", [&]() -> aclError {
    if (deviceId != 0) {
      return InvalidParam(fmt::format("aclrtSetDevice: device {} does not exist (1 device)", deviceId));
    }
    Device::Get();
    return ACL_SUCCESS;
  });
}

aclError aclrtResetDevice(int32_t deviceId) {
  return Guarded("aclrtResetDevice", [&]() -> aclError {
    if (deviceId != 0) {
      return InvalidParam(fmt::format("aclrtResetDevice: device {} does not exist", deviceId));
    }
    return Device::Get().Synchronize();
  });
}

aclError aclrtGetDeviceCount(uint32_t* count) {
  if (count == nullptr) return InvalidParam("aclrtGetDeviceCount: count is null");
  *count = 1;
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeDevice(void) {
  return Guarded("aclrtSynchronizeDevice", [&] { return Device::Get().Synchronize(); });
}

aclError aclrtSetDeviceCoreNum(uint32_t coreNum) {
  return Guarded("aclrtSetDeviceCoreNum", [&]() -> aclError {
    Device::Get().SetCoreNum(coreNum);
    return ACL_SUCCESS;
  });
}

aclError aclrtGetDeviceCoreNum(uint32_t* coreNum) {
  if (coreNum == nullptr) return InvalidParam("aclrtGetDeviceCoreNum: coreNum is null");
  return Guarded("aclrtGetDeviceCoreNum", [&]() -> aclError {
    *coreNum = Device::Get().pool().size();
    return ACL_SUCCESS;
  });
}

// ---- memory ----------------------------------------------------------------------------------
aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  return Guarded("aclrtMalloc", [&] { return Device::Get().memory().Malloc(size, devPtr); });
}

aclError aclrtFree(void* devPtr) {
  return Guarded("aclrtFree", [&] { return Device::Get().memory().Free(devPtr); });
}

aclError aclrtMallocHost(void** hostPtr, size_t size) {
  return Guarded("aclrtMallocHost", [&] { return Device::Get().memory().MallocHost(size, hostPtr); });
}

aclError aclrtFreeHost(void* hostPtr) {
  return Guarded("aclrtFreeHost", [&] { return Device::Get().memory().FreeHost(hostPtr); });
}

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind) {
  aclError ret = CheckCopy("aclrtMemcpy", dst, destMax, src, count, kind);
  if (ret == ACL_SUCCESS && count > 0) std::memmove(dst, src, count);
  return ret;
}

aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream) {
  return Guarded("aclrtMemcpyAsync", [&]() -> aclError {
    aclError ret = CheckCopy("aclrtMemcpyAsync", dst, destMax, src, count, kind);
    if (ret != ACL_SUCCESS) return ret;
    Stream* s = Device::Get().FindStream(stream, "aclrtMemcpyAsync");
    if (s == nullptr) return ACL_ERROR_RT_PARAM_INVALID;
    s->Enqueue([&](Task& t) {
      t.type = TaskType::kMemcpy;
      t.dst = dst;
      t.src = src;
      t.count = count;
    });
    return ACL_SUCCESS;
  });
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
  aclError ret = CheckSet("aclrtMemset", devPtr, maxCount, count);
  if (ret == ACL_SUCCESS && count > 0) std::memset(devPtr, value, count);
  return ret;
}

aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream) {
  return Guarded("aclrtMemsetAsync", [&]() -> aclError {
    aclError ret = CheckSet("aclrtMemsetAsync", devPtr, maxCount, count);
    if (ret != ACL_SUCCESS) return ret;
    Stream* s = Device::Get().FindStream(stream, "aclrtMemsetAsync");
    if (s == nullptr) return ACL_ERROR_RT_PARAM_INVALID;
    s->Enqueue([&](Task& t) {
      t.type = TaskType::kMemset;
      t.dst = devPtr;
      t.value = value;
      t.count = count;
    });
    return ACL_SUCCESS;
  });
}

aclError aclrtGetMemInfo(int32_t attr, size_t* free, size_t* total) {
  if (free == nullptr || total == nullptr) return InvalidParam("aclrtGetMemInfo: null output");
  return Guarded("aclrtGetMemInfo", [&]() -> aclError {
    auto& mem = Device::Get().memory();
    size_t limit = mem.limit();
    if (limit == 0) {
      limit = static_cast<size_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<size_t>(sysconf(_SC_PAGESIZE));
    }
    size_t used = mem.in_use();
    *total = limit;
    *free = used < limit ? limit - used : 0;
    return ACL_SUCCESS;
  });
}

aclError aclrtSetDeviceMemLimit(size_t bytes) {
  return Guarded("aclrtSetDeviceMemLimit", [&]() -> aclError {
    Device::Get().memory().SetLimit(bytes);
    return ACL_SUCCESS;
  });
}

}  // extern "C"
