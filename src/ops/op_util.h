// Helpers shared by operator files: block ranges for SPMD kernels, broadcasting, a compact
// tensor-meta record for tiling data, dtype dispatch. Keep operator files small by using these.
#ifndef GE_SRC_OPS_OP_UTIL_H_
#define GE_SRC_OPS_OP_UTIL_H_

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "acl/acl_rt.h"
#include "exe_graph/runtime/infer_shape_context.h"
#include "exe_graph/runtime/tiling_context.h"
#include "register/op_def_registry.h"

namespace ge::ops_util {

constexpr int kMaxRank = 8;

// Shape and dtype of one tensor as a POD, for tiling data.
struct TensorMeta {
  int32_t dtype;
  int32_t rank;
  int64_t dims[kMaxRank];
  int64_t Numel() const {
    int64_t n = 1;
    for (int i = 0; i < rank; ++i) n *= dims[i];
    return n;
  }
};

// Fills meta from a shape; false when the rank exceeds kMaxRank.
bool ToMeta(const gert::Shape& s, ge::DataType dt, TensorMeta* meta);

// [begin, end) of `total` items for block `idx` of `dim` blocks (contiguous, balanced).
inline void BlockRange(int64_t total, uint32_t idx, uint32_t dim, int64_t* begin, int64_t* end) {
  if (dim == 1) {  // the common launch: no 64-bit division on the per-kernel path
    *begin = 0;
    *end = total;
    return;
  }
  int64_t per = total / dim, rem = total % dim;
  *begin = idx * per + std::min<int64_t>(idx, rem);
  *end = *begin + per + (static_cast<int64_t>(idx) < rem ? 1 : 0);
}

// Blocks for `work` units of roughly `min_per_block` each, at most the core count.
uint32_t ChooseBlockDim(const gert::TilingContext* ctx, int64_t work, int64_t min_per_block);

// Numpy-style broadcast of a and b into out; false if incompatible.
bool BroadcastShape(const gert::Shape& a, const gert::Shape& b, gert::Shape* out);

// Per-output-dim strides of an input broadcast to `out` (0 where the input dim is 1/missing).
void BroadcastStrides(const gert::Shape& in, const gert::Shape& out, int64_t* strides);

// Normalizes a possibly negative axis into [0, rank); false if out of range.
bool NormalizeAxis(int64_t axis, int64_t rank, int64_t* out);

// Copies input shape `in` to output `out` (the default for same-shape ops).
ge::graphStatus InferShapeSameAsInput0(gert::InferShapeContext* ctx);
ge::graphStatus InferDataTypeSameAsInput0(gert::InferDataTypeContext* ctx);

// Writes a POD tiling struct; fails when it does not fit.
template <typename T>
ge::graphStatus SetTiling(gert::TilingContext* ctx, const T& t) {
  T* dst = ctx->GetTilingData<T>();
  if (dst == nullptr) return ge::GRAPH_FAILED;
  std::memcpy(dst, &t, sizeof(T));
  return ge::GRAPH_SUCCESS;
}
template <typename T>
const T& GetTiling(const aclrtKernelArgs* args) {
  return *static_cast<const T*>(args->tiling);
}

// Reads any integer tensor's values as int64 (for value-depend inputs); false if no data.
bool ReadInt64s(const gert::Tensor* t, std::vector<int64_t>* out);

}  // namespace ge::ops_util

// Calls F<T>(args...) with T the C++ type of dtype `dt`; returns false for unsupported types.
// GE_DISPATCH_FLOAT: float/double; GE_DISPATCH_NUMERIC: + all integers.
#define GE_DTYPE_CASE(DT, T, ...) \
  case ge::DT: {                  \
    using scalar_t = T;           \
    __VA_ARGS__;                  \
  } break;
#define GE_DISPATCH_FLOAT(dt, ...)                  \
  [&] {                                             \
    switch (dt) {                                   \
      GE_DTYPE_CASE(DT_FLOAT, float, __VA_ARGS__)   \
      GE_DTYPE_CASE(DT_DOUBLE, double, __VA_ARGS__) \
      default: return false;                        \
    }                                               \
    return true;                                    \
  }()
#define GE_DISPATCH_NUMERIC(dt, ...)                  \
  [&] {                                               \
    switch (dt) {                                     \
      GE_DTYPE_CASE(DT_FLOAT, float, __VA_ARGS__)     \
      GE_DTYPE_CASE(DT_DOUBLE, double, __VA_ARGS__)   \
      GE_DTYPE_CASE(DT_INT8, int8_t, __VA_ARGS__)     \
      GE_DTYPE_CASE(DT_INT16, int16_t, __VA_ARGS__)   \
      GE_DTYPE_CASE(DT_INT32, int32_t, __VA_ARGS__)   \
      GE_DTYPE_CASE(DT_INT64, int64_t, __VA_ARGS__)   \
      GE_DTYPE_CASE(DT_UINT8, uint8_t, __VA_ARGS__)   \
      GE_DTYPE_CASE(DT_UINT16, uint16_t, __VA_ARGS__) \
      GE_DTYPE_CASE(DT_UINT32, uint32_t, __VA_ARGS__) \
      GE_DTYPE_CASE(DT_UINT64, uint64_t, __VA_ARGS__) \
      default: return false;                          \
    }                                                 \
    return true;                                      \
  }()

#endif  // GE_SRC_OPS_OP_UTIL_H_
