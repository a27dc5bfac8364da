// What the compat projects' aclnn applications share: .npy files in and out, device tensors,
// the load of the operator library. Written as an Ascend single-op application is (C++11,
// acl + aclnn headers only).
#ifndef GE_TESTS_COMPAT_APP_APP_UTIL_H_
#define GE_TESTS_COMPAT_APP_APP_UTIL_H_

#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"

#define CHECK_RET(cond, what)                                              \
  do {                                                                     \
    if (!(cond)) {                                                         \
      std::fprintf(stderr, "%s failed: %s\n", what, aclGetRecentErrMsg()); \
      return 1;                                                            \
    }                                                                      \
  } while (0)

namespace compat_app {

struct HostArray {
  std::string descr;  // "<f4", "<f2", "<i8"
  std::vector<int64_t> shape;
  std::vector<char> bytes;
};

inline size_t ElemSize(const std::string& descr) { return descr == "<i8" ? 8 : descr == "<f2" ? 2 : 4; }
inline aclDataType AclType(const std::string& descr) {
  return descr == "<i8" ? ACL_INT64 : descr == "<f2" ? ACL_FLOAT16 : descr == "<i4" ? ACL_INT32 : ACL_FLOAT;
}

// Reads a version-1 .npy of a little-endian, C-ordered array.
inline bool LoadNpy(const std::string& path, HostArray* a) {
  std::ifstream f(path.c_str(), std::ios::binary);
  char magic[8];
  if (!f.read(magic, 8) || std::memcmp(magic, "\x93NUMPY", 6) != 0) return false;
  unsigned char len_bytes[2];
  f.read(reinterpret_cast<char*>(len_bytes), 2);
  std::string header(len_bytes[0] | (len_bytes[1] << 8), ' ');
  f.read(&header[0], header.size());
  size_t d = header.find("'descr': '");
  size_t s = header.find("'shape': (");
  if (d == std::string::npos || s == std::string::npos || header.find("'fortran_order': True") != std::string::npos)
    return false;
  a->descr = header.substr(d + 10, header.find('\'', d + 10) - d - 10);
  std::string dims = header.substr(s + 10, header.find(')', s) - s - 10);
  std::stringstream ss(dims);
  std::string item;
  int64_t n = 1;
  while (std::getline(ss, item, ','))
    if (item.find_first_not_of(' ') != std::string::npos) {
      a->shape.push_back(std::stoll(item));
      n *= a->shape.back();
    }
  a->bytes.resize(static_cast<size_t>(n) * ElemSize(a->descr));
  return static_cast<bool>(f.read(a->bytes.data(), a->bytes.size())) || a->bytes.empty();
}

inline bool SaveNpy(const std::string& path, const HostArray& a) {
  std::string dims;
  for (size_t i = 0; i < a.shape.size(); ++i)
    dims += std::to_string(a.shape[i]) + (a.shape.size() == 1 ? "," : i + 1 < a.shape.size() ? ", " : "");
  std::string header = "{'descr': '" + a.descr + "', 'fortran_order': False, 'shape': (" + dims + "), }";
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::ofstream f(path.c_str(), std::ios::binary);
  f.write("\x93NUMPY\x01\x00", 8);
  unsigned char len_bytes[2] = {static_cast<unsigned char>(header.size() & 0xff),
                                static_cast<unsigned char>(header.size() >> 8)};
  f.write(reinterpret_cast<const char*>(len_bytes), 2);
  f.write(header.data(), header.size());
  f.write(a.bytes.data(), a.bytes.size());
  return static_cast<bool>(f);
}

// A device copy of a host array and its aclTensor (contiguous, ND); the tensor is destroyed
// with it (the device memory goes with the device at exit).
struct DeviceTensor {
  void* addr = nullptr;
  aclTensor* tensor = nullptr;
  HostArray host;
  DeviceTensor() = default;
  DeviceTensor(const DeviceTensor&) = delete;
  DeviceTensor& operator=(const DeviceTensor&) = delete;
  ~DeviceTensor() {
    if (tensor != nullptr) aclDestroyTensor(tensor);
  }
};

inline bool ToDevice(const HostArray& h, DeviceTensor* t) {
  t->host = h;
  size_t bytes = h.bytes.empty() ? 1 : h.bytes.size();
  if (aclrtMalloc(&t->addr, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return false;
  if (!h.bytes.empty() &&
      aclrtMemcpy(t->addr, h.bytes.size(), h.bytes.data(), h.bytes.size(), ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS)
    return false;
  t->tensor = aclCreateTensor(h.shape.data(), h.shape.size(), AclType(h.descr), nullptr, 0, ACL_FORMAT_ND,
                              h.shape.data(), h.shape.size(), t->addr);
  return t->tensor != nullptr;
}

// An output of the given dtype and shape, zero-filled.
inline bool NewOutput(const std::string& descr, const std::vector<int64_t>& shape, DeviceTensor* t) {
  HostArray h;
  h.descr = descr;
  h.shape = shape;
  int64_t n = 1;
  for (size_t i = 0; i < shape.size(); ++i) n *= shape[i];
  h.bytes.assign(static_cast<size_t>(n) * ElemSize(descr), 0);
  return ToDevice(h, t);
}

inline bool SaveOutput(const std::string& path, DeviceTensor* t) {
  if (!t->host.bytes.empty() && aclrtMemcpy(&t->host.bytes[0], t->host.bytes.size(), t->addr, t->host.bytes.size(),
                                            ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS)
    return false;
  return SaveNpy(path, t->host);
}

// Loads the operator library (the project's op_host + kernels) and starts the device.
inline bool Init(const char* lib, aclrtStream* stream) {
  if (dlopen(lib, RTLD_NOW) == nullptr) {
    std::fprintf(stderr, "cannot load %s: %s\n", lib, dlerror());
    return false;
  }
  return aclInit(nullptr) == ACL_SUCCESS && aclrtSetDevice(0) == ACL_SUCCESS &&
         aclrtCreateStream(stream) == ACL_SUCCESS;
}

// Runs the second phase with a workspace of the size the first phase asked for.
inline int RunPhase2(aclnnStatus (*phase2)(void*, uint64_t, aclOpExecutor*, const aclrtStream), uint64_t ws_size,
                     aclOpExecutor* executor, aclrtStream stream) {
  void* ws = nullptr;
  if (ws_size > 0) CHECK_RET(aclrtMalloc(&ws, ws_size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
  CHECK_RET(phase2(ws, ws_size, executor, stream) == ACLNN_SUCCESS, "aclnn phase 2");
  CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");
  if (ws != nullptr) aclrtFree(ws);
  return 0;
}

}  // namespace compat_app

#endif  // GE_TESTS_COMPAT_APP_APP_UTIL_H_
