// Fuzz harness: the single-op API (include/aclnn/*.h). The input bytes choose an operator
// (aclnnAdd, Mul, Cat, Softmax, Matmul, LayerNorm, Convolution, or the generic aclnnOp with a
// registered op type and attributes), then every tensor's rank, dims, dtype, strides and
// contents, null arguments and the output tensors' shapes. Tensors are views on device memory the
// harness allocates to exactly their storage (so any read or write past it is the library's).
// Phase 1 must either fail with a message or give an executor; phase 2 then runs on a stream.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "aclnn/aclnn_add.h"
#include "aclnn/aclnn_base.h"
#include "aclnn/aclnn_cat.h"
#include "aclnn/aclnn_convolution.h"
#include "aclnn/aclnn_layer_norm.h"
#include "aclnn/aclnn_matmul.h"
#include "aclnn/aclnn_mul.h"
#include "aclnn/aclnn_softmax.h"
#include "runtime/device_init.h"

namespace {

constexpr int64_t kMaxStorageElements = 1 << 14;
constexpr uint64_t kMaxWorkspace = 64ull << 20;

class Bytes {
 public:
  Bytes(const uint8_t* d, size_t n) : d_(d), n_(n) {}
  uint8_t Byte() { return i_ < n_ ? d_[i_++] : 0; }
  int64_t Range(int64_t lo, int64_t hi) {  // inclusive, hi - lo < 2^16
    uint16_t v = static_cast<uint16_t>(Byte() | (Byte() << 8));
    return lo + static_cast<int64_t>(v % static_cast<uint64_t>(hi - lo + 1));
  }
  bool OneIn(int n) { return Byte() % n == 0; }
  int64_t Int64() {
    uint64_t v = 0;
    for (int b = 0; b < 8; ++b) v |= static_cast<uint64_t>(Byte()) << (8 * b);
    return static_cast<int64_t>(v);
  }
  int64_t Dim() {
    switch (Byte() % 16) {
      case 0: return 0;
      case 1: return -1;
      case 2: return Int64();
      case 3: return int64_t{1} << (32 + Byte() % 30);
      default: return 1 + Byte() % 5;
    }
  }
  int64_t SmallInt() {  // an axis, a stride, a pad, a group count
    switch (Byte() % 12) {
      case 0: return Int64();
      case 1: return -1 - Byte() % 4;
      default: return Byte() % 5;
    }
  }
  const uint8_t* Rest(size_t* n) {
    *n = n_ - i_;
    return d_ + i_;
  }

 private:
  const uint8_t* d_;
  size_t n_;
  size_t i_ = 0;
};

const aclDataType kTypes[] = {ACL_FLOAT,
                              ACL_FLOAT,
                              ACL_FLOAT,
                              ACL_FLOAT16,
                              ACL_INT8,
                              ACL_INT32,
                              ACL_UINT8,
                              ACL_INT16,
                              ACL_UINT16,
                              ACL_UINT32,
                              ACL_INT64,
                              ACL_UINT64,
                              ACL_DOUBLE,
                              ACL_BOOL,
                              static_cast<aclDataType>(5),
                              static_cast<aclDataType>(15)};  // two invalid

size_t ElemSize(aclDataType dt) {
  switch (dt) {
    case ACL_FLOAT:
    case ACL_INT32:
    case ACL_UINT32: return 4;
    case ACL_FLOAT16:
    case ACL_INT16:
    case ACL_UINT16: return 2;
    case ACL_INT64:
    case ACL_UINT64:
    case ACL_DOUBLE: return 8;
    default: return 1;
  }
}

bool NoMessage() {
  const char* m = aclGetRecentErrMsg();
  return m == nullptr || m[0] == '\0';
}

// Everything one call allocates; freed at the end of the input.
struct Arena {
  std::vector<void*> buffers;
  std::vector<aclTensor*> tensors;
  std::vector<aclIntArray*> arrays;
  std::vector<aclTensorList*> lists;
  std::vector<aclScalar*> scalars;
  aclOpAttrs* attrs = nullptr;
  ~Arena() {
    if (attrs) aclDestroyOpAttrs(attrs);
    for (auto* l : lists) aclDestroyTensorList(l);
    for (auto* t : tensors) aclDestroyTensor(t);
    for (auto* a : arrays) aclDestroyIntArray(a);
    for (auto* s : scalars) aclDestroyScalar(s);
    for (void* b : buffers) aclrtFree(b);
  }
};

// A tensor of random rank, dims, dtype and (sometimes) strides and offset; null one time in 16.
aclTensor* MakeTensor(Bytes& in, Arena& arena, int fixed_rank = -1) {
  if (in.OneIn(16)) return nullptr;
  const int rank = fixed_rank >= 0 ? fixed_rank : static_cast<int>(in.Range(0, 4));
  std::vector<int64_t> dims(rank);
  for (auto& d : dims) d = in.Dim();
  const aclDataType dt = kTypes[in.Byte() % (sizeof kTypes / sizeof kTypes[0])];
  std::vector<int64_t> strides;
  int64_t offset = 0;
  // Storage: contiguous dims, or a flat storage holding a strided view.
  int64_t elements = 1;
  bool small = true;
  for (int64_t d : dims) {
    if (d < 0 || d > kMaxStorageElements || (elements *= d) > kMaxStorageElements) small = false;
    if (!small) break;
  }
  std::vector<int64_t> storage = dims;
  if (small && rank > 0 && in.OneIn(4)) {
    strides.resize(rank);
    offset = in.Byte() % 4;
    int64_t last = offset;
    for (int i = 0; i < rank; ++i) {
      strides[i] = in.Byte() % 4;
      if (dims[i] > 0) last += (dims[i] - 1) * strides[i];
    }
    storage = {last + 1};
    elements = last + 1;
  }
  void* data = nullptr;
  if (small) {
    const size_t bytes = static_cast<size_t>(elements) * ElemSize(dt);
    if (aclrtMalloc(&data, bytes == 0 ? 1 : bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return nullptr;
    arena.buffers.push_back(data);
    size_t n = 0;
    const uint8_t* src = in.Rest(&n);
    std::vector<uint8_t> host(bytes);
    for (size_t i = 0; i < bytes; ++i) host[i] = n ? src[i % n] : 0;
    // Bool tensors get any byte: the API copies them as 0 / 1 before a kernel reads them.
    if (bytes) aclrtMemcpy(data, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  }
  aclTensor* t = aclCreateTensor(dims.data(), dims.size(), dt, strides.empty() ? nullptr : strides.data(), offset,
                                 ACL_FORMAT_ND, storage.data(), storage.size(), data);
  if (t == nullptr && NoMessage()) std::abort();  // a failure says why
  if (t != nullptr) arena.tensors.push_back(t);
  return t;
}

aclIntArray* MakeIntArray(Bytes& in, Arena& arena, int max_len = 4) {
  if (in.OneIn(16)) return nullptr;
  std::vector<int64_t> v(in.Range(0, max_len));
  for (auto& x : v) x = in.SmallInt();
  aclIntArray* a = aclCreateIntArray(v.data(), v.size());
  if (a) arena.arrays.push_back(a);
  return a;
}

aclTensorList* MakeTensorList(Bytes& in, Arena& arena, int max_len = 4) {
  std::vector<const aclTensor*> v(in.Range(0, max_len));
  for (auto& t : v) t = MakeTensor(in, arena);
  aclTensorList* l = aclCreateTensorList(v.data(), v.size());
  if (l) arena.lists.push_back(l);
  return l;
}

const char* kGenericOps[] = {
    "Relu",    "Gather",  "GatherElements", "ScatterElements", "Transpose", "ReduceSum", "Concat",
    "Slice",   "Where",   "Reshape",        "Expand",          "Pad",       "TopK",      "Cast",
    "Tile",    "Split",   "Softmax",        "MatMul",          "Conv",      "MaxPool",   "AveragePool",
    "Flatten", "Squeeze", "Unsqueeze",      "ArgMax",          "CumSum",    "OneHot",    "Range",
    "Resize",  "Einsum",  "GatherND",       "ScatterND",       "Div",       "Mod",       "Pow",
    "Clip"};
const char* kAttrNames[] = {"axis",    "axes",    "perm",         "keepdims",  "to",        "k",
                            "pads",    "strides", "kernel_shape", "dilations", "group",     "mode",
                            "largest", "sorted",  "exclusive",    "reverse",   "batch_dims"};

using Phase2 = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);

void RunPhase2(Phase2 phase2, uint64_t ws_size, aclOpExecutor* ex, aclrtStream stream) {
  if (ws_size > kMaxWorkspace) {
    aclDestroyAclOpExecutor(ex);
    return;
  }
  void* ws = nullptr;
  if (ws_size > 0 && aclrtMalloc(&ws, ws_size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
    aclDestroyAclOpExecutor(ex);
    return;
  }
  (void)phase2(ws, ws_size, ex, stream);
  (void)aclrtSynchronizeStream(stream);
  if (ws) aclrtFree(ws);
}

aclrtStream g_stream = nullptr;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  setenv("GE_LOG_LEVEL", "off", 0);
  // Big allocations fail as GE's clean out-of-memory errors, well below libFuzzer's malloc limit.
  setenv("GE_HOST_MEMORY_LIMIT", "1073741824", 0);
  uint32_t cores = 0;
  if (!ge::EnsureDevice(&cores).ok()) std::abort();
  aclrtSetDeviceMemLimit(size_t{1} << 30);
  if (aclrtCreateStream(&g_stream) != ACL_SUCCESS) std::abort();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (g_stream == nullptr) LLVMFuzzerInitialize(nullptr, nullptr);
  Bytes in(data, size);
  Arena arena;
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclnnStatus rc = ACLNN_ERR_PARAM_INVALID;
  Phase2 phase2 = nullptr;
  switch (in.Byte() % 8) {
    case 0: {
      aclTensor* a = MakeTensor(in, arena);
      aclTensor* b = MakeTensor(in, arena);
      aclTensor* out = MakeTensor(in, arena);
      float alpha_f = in.OneIn(2) ? 1.f : -2.5f;
      int64_t alpha_i = in.SmallInt();
      aclScalar* alpha = in.OneIn(8)   ? nullptr
                         : in.OneIn(2) ? aclCreateScalar(&alpha_f, ACL_FLOAT)
                                       : aclCreateScalar(&alpha_i, ACL_INT64);
      if (alpha) arena.scalars.push_back(alpha);
      rc = aclnnAddGetWorkspaceSize(a, b, alpha, out, &ws, &ex);
      phase2 = aclnnAdd;
      break;
    }
    case 1: {
      aclTensor* a = MakeTensor(in, arena);
      aclTensor* b = MakeTensor(in, arena);
      aclTensor* out = MakeTensor(in, arena);
      rc = aclnnMulGetWorkspaceSize(a, b, out, &ws, &ex);
      phase2 = aclnnMul;
      break;
    }
    case 2: {
      aclTensorList* list = MakeTensorList(in, arena);
      int64_t dim = in.SmallInt();
      aclTensor* out = MakeTensor(in, arena);
      rc = aclnnCatGetWorkspaceSize(in.OneIn(16) ? nullptr : list, dim, out, &ws, &ex);
      phase2 = aclnnCat;
      break;
    }
    case 3: {
      aclTensor* a = MakeTensor(in, arena);
      int64_t dim = in.SmallInt();
      aclTensor* out = MakeTensor(in, arena);
      rc = aclnnSoftmaxGetWorkspaceSize(a, dim, out, &ws, &ex);
      phase2 = aclnnSoftmax;
      break;
    }
    case 4: {
      aclTensor* a = MakeTensor(in, arena);
      aclTensor* b = MakeTensor(in, arena);
      aclTensor* out = MakeTensor(in, arena);
      rc = aclnnMatmulGetWorkspaceSize(a, b, out, static_cast<int8_t>(in.Byte() % 3), &ws, &ex);
      phase2 = aclnnMatmul;
      break;
    }
    case 5: {
      aclTensor* x = MakeTensor(in, arena);
      aclIntArray* norm = MakeIntArray(in, arena, 3);
      aclTensor* w = in.OneIn(2) ? MakeTensor(in, arena) : nullptr;
      aclTensor* b = in.OneIn(2) ? MakeTensor(in, arena) : nullptr;
      aclTensor* out = MakeTensor(in, arena);
      aclTensor* mean = in.OneIn(2) ? MakeTensor(in, arena) : nullptr;
      aclTensor* rstd = in.OneIn(2) ? MakeTensor(in, arena) : nullptr;
      double eps = in.OneIn(8) ? -1.0 : 1e-5;
      rc = aclnnLayerNormGetWorkspaceSize(x, norm, w, b, eps, out, mean, rstd, &ws, &ex);
      phase2 = aclnnLayerNorm;
      break;
    }
    case 6: {
      const int rank = static_cast<int>(in.Range(2, 5));
      aclTensor* x = MakeTensor(in, arena, rank);
      aclTensor* w = MakeTensor(in, arena, rank);
      aclTensor* bias = in.OneIn(2) ? MakeTensor(in, arena, 1) : nullptr;
      aclIntArray* stride = MakeIntArray(in, arena);
      aclIntArray* pad = MakeIntArray(in, arena);
      aclIntArray* dil = MakeIntArray(in, arena);
      bool transposed = in.OneIn(4);
      aclIntArray* out_pad = MakeIntArray(in, arena);
      int64_t groups = in.SmallInt();
      aclTensor* out = MakeTensor(in, arena, rank);
      rc = aclnnConvolutionGetWorkspaceSize(x, w, bias, stride, pad, dil, transposed, out_pad, groups, out,
                                            static_cast<int8_t>(in.Byte() % 3), &ws, &ex);
      phase2 = aclnnConvolution;
      break;
    }
    default: {
      const char* op = kGenericOps[in.Byte() % (sizeof kGenericOps / sizeof kGenericOps[0])];
      aclTensorList* inputs = MakeTensorList(in, arena, 3);
      aclTensorList* outputs = MakeTensorList(in, arena, 2);
      aclOpAttrs* attrs = in.OneIn(4) ? nullptr : aclCreateOpAttrs();
      arena.attrs = attrs;
      if (attrs) {
        const int n = static_cast<int>(in.Range(0, 3));
        for (int i = 0; i < n; ++i) {
          const char* name = kAttrNames[in.Byte() % (sizeof kAttrNames / sizeof kAttrNames[0])];
          if (in.OneIn(2)) {
            aclOpAttrsSetInt(attrs, name, in.SmallInt());
          } else {
            aclIntArray* a = MakeIntArray(in, arena);
            if (a) aclOpAttrsSetIntArray(attrs, name, a);
          }
        }
      }
      rc = aclnnOpGetWorkspaceSize(op, inputs, outputs, attrs, &ws, &ex);
      phase2 = aclnnOp;
    }
  }
  if (rc != ACLNN_SUCCESS) {
    if (NoMessage()) std::abort();  // every failure says why
    return 0;
  }
  if (ex == nullptr) std::abort();
  RunPhase2(phase2, ws, ex, g_stream);
  return 0;
}
