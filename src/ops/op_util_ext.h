// More helpers for operator files (beside op_util.h): float16/bfloat16 storage types that
// compute as float, an N-input broadcast iterator, attribute readers with defaults, ONNX dtype
// codes, and byte-size dispatch for data-movement ops.
#ifndef GE_SRC_OPS_OP_UTIL_EXT_H_
#define GE_SRC_OPS_OP_UTIL_EXT_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "ops/op_util.h"

namespace ge::ops_util {

float HalfToFloat(uint16_t h);
uint16_t FloatToHalf(float f);
inline float Bf16ToFloat(uint16_t h) {
  uint32_t u = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint16_t FloatToBf16(float f);

// 16-bit float storage that converts to and from float, so kernels templated on T work on it.
struct Half {
  uint16_t v;
  Half() = default;
  Half(float f) : v(FloatToHalf(f)) {}  // NOLINT: implicit on purpose
  operator float() const { return HalfToFloat(v); }
};
struct BFloat16 {
  uint16_t v;
  BFloat16() = default;
  BFloat16(float f) : v(FloatToBf16(f)) {}  // NOLINT
  operator float() const { return Bf16ToFloat(v); }
};

// The type arithmetic on T is done in: float for the 16-bit floats, T otherwise.
template <typename T>
using ComputeT = std::conditional_t<std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>, float, T>;

// ge::DataType for an ONNX TensorProto.DataType code; DT_UNDEFINED when unknown.
ge::DataType FromOnnxDtype(int64_t onnx_dtype);

// Row-major strides of dims[0..rank).
void ContiguousStrides(const int64_t* dims, int rank, int64_t* strides);
// Shape as a vector, and from a vector.
std::vector<int64_t> DimsOf(const gert::Shape& s);
void SetDims(gert::Shape* s, const std::vector<int64_t>& dims);

// Attributes by declaration index, with a default when absent.
int64_t AttrInt(const gert::RuntimeAttrs* a, size_t i, int64_t dflt);
float AttrFloat(const gert::RuntimeAttrs* a, size_t i, float dflt);
std::string AttrStr(const gert::RuntimeAttrs* a, size_t i, const char* dflt);
std::vector<int64_t> AttrInts(const gert::RuntimeAttrs* a, size_t i);
std::vector<float> AttrFloats(const gert::RuntimeAttrs* a, size_t i);

// ONNX index semantics: v in [-dim, dim), a negative index counted once from the end. Returns
// the index in [0, dim), or -1 when v is out of range.
inline int64_t WrapIndex(int64_t v, int64_t dim) {
  if (v < 0) v += dim;
  return v >= 0 && v < dim ? v : -1;
}
// Index element i of an int32 or int64 index tensor.
inline int64_t RawIndex(const void* p, int32_t dt, int64_t i) {
  return dt == ge::DT_INT32 ? static_cast<const int32_t*>(p)[i] : static_cast<const int64_t*>(p)[i];
}
// Reports an index out of range from a kernel: the run fails with "<node>: input '<input>' value
// <value> is out of range [-dim, dim-1]" (aclrtReportKernelError). Returns false.
bool ReportBadIndex(const aclrtKernelArgs* args, const char* input, int64_t value, int64_t dim);
// Reports any other invalid input data from a kernel ("<node>: <msg>"). Returns false.
bool ReportBadData(const aclrtKernelArgs* args, const std::string& msg);
// Shape inference failure with a reason (shown after "shape inference failed"): returns
// GRAPH_FAILED.
ge::graphStatus InferFail(const std::string& why);

// Broadcast iteration over `rank` output dims for N inputs with per-dim strides: calls
// f(i, offs) for output index i in [begin, end) with offs[k] the element offset of input k.
template <int N, typename F>
void ForEachBroadcast(int rank, const int64_t* out_dims, const int64_t (*strides)[kMaxRank], int64_t begin, int64_t end,
                      F&& f) {
  int64_t idx[kMaxRank] = {};
  int64_t offs[N] = {};
  int64_t rem = begin;
  for (int d = rank - 1; d >= 0; --d) {
    idx[d] = out_dims[d] == 0 ? 0 : rem % out_dims[d];
    rem = out_dims[d] == 0 ? 0 : rem / out_dims[d];
  }
  for (int k = 0; k < N; ++k)
    for (int d = 0; d < rank; ++d) offs[k] += idx[d] * strides[k][d];
  for (int64_t i = begin; i < end; ++i) {
    f(i, offs);
    for (int d = rank - 1; d >= 0; --d) {
      for (int k = 0; k < N; ++k) offs[k] += strides[k][d];
      if (++idx[d] < out_dims[d]) break;
      for (int k = 0; k < N; ++k) offs[k] -= strides[k][d] * out_dims[d];
      idx[d] = 0;
    }
  }
}

// Output shape of an N-ary broadcast (Max, Min, Sum, Mean, Where); false if incompatible.
bool BroadcastShapes(const std::vector<const gert::Shape*>& in, gert::Shape* out);

// Unsigned integer type of a byte size, for ops that only move elements.
#define GE_DISPATCH_BYTES(size, ...) \
  [&] {                              \
    switch (size) {                  \
      case 1: {                      \
        using scalar_t = uint8_t;    \
        __VA_ARGS__;                 \
      } break;                       \
      case 2: {                      \
        using scalar_t = uint16_t;   \
        __VA_ARGS__;                 \
      } break;                       \
      case 4: {                      \
        using scalar_t = uint32_t;   \
        __VA_ARGS__;                 \
      } break;                       \
      case 8: {                      \
        using scalar_t = uint64_t;   \
        __VA_ARGS__;                 \
      } break;                       \
      default: return false;         \
    }                                \
    return true;                     \
  }()

}  // namespace ge::ops_util

// Numeric types plus the 16-bit floats and bool (as uint8 arithmetic where needed).
#define GE_DISPATCH_ALL(dt, ...)                                  \
  [&] {                                                           \
    switch (dt) {                                                 \
      GE_DTYPE_CASE(DT_FLOAT, float, __VA_ARGS__)                 \
      GE_DTYPE_CASE(DT_DOUBLE, double, __VA_ARGS__)               \
      GE_DTYPE_CASE(DT_FLOAT16, ge::ops_util::Half, __VA_ARGS__)  \
      GE_DTYPE_CASE(DT_BF16, ge::ops_util::BFloat16, __VA_ARGS__) \
      GE_DTYPE_CASE(DT_INT8, int8_t, __VA_ARGS__)                 \
      GE_DTYPE_CASE(DT_INT16, int16_t, __VA_ARGS__)               \
      GE_DTYPE_CASE(DT_INT32, int32_t, __VA_ARGS__)               \
      GE_DTYPE_CASE(DT_INT64, int64_t, __VA_ARGS__)               \
      GE_DTYPE_CASE(DT_UINT8, uint8_t, __VA_ARGS__)               \
      GE_DTYPE_CASE(DT_UINT16, uint16_t, __VA_ARGS__)             \
      GE_DTYPE_CASE(DT_UINT32, uint32_t, __VA_ARGS__)             \
      GE_DTYPE_CASE(DT_UINT64, uint64_t, __VA_ARGS__)             \
      GE_DTYPE_CASE(DT_BOOL, bool, __VA_ARGS__)                   \
      default: return false;                                      \
    }                                                             \
    return true;                                                  \
  }()
// Floating types including the 16-bit ones.
#define GE_DISPATCH_FLOATS(dt, ...)                               \
  [&] {                                                           \
    switch (dt) {                                                 \
      GE_DTYPE_CASE(DT_FLOAT, float, __VA_ARGS__)                 \
      GE_DTYPE_CASE(DT_DOUBLE, double, __VA_ARGS__)               \
      GE_DTYPE_CASE(DT_FLOAT16, ge::ops_util::Half, __VA_ARGS__)  \
      GE_DTYPE_CASE(DT_BF16, ge::ops_util::BFloat16, __VA_ARGS__) \
      default: return false;                                      \
    }                                                             \
    return true;                                                  \
  }()

namespace ge::ops_util {
// Inline variables, so that they are initialized before the OpDefs that copy them (OP_ADD runs
// at static initialization; an `extern` list defined in another file could still be empty then,
// and an empty list means "any dtype").
inline const std::vector<ge::DataType> kAllTypes = {  // numeric + 16-bit floats + bool
    ge::DT_FLOAT, ge::DT_DOUBLE, ge::DT_FLOAT16, ge::DT_BF16,   ge::DT_INT8,   ge::DT_INT16, ge::DT_INT32,
    ge::DT_INT64, ge::DT_UINT8,  ge::DT_UINT16,  ge::DT_UINT32, ge::DT_UINT64, ge::DT_BOOL};
inline const std::vector<ge::DataType> kFloatTypes = {ge::DT_FLOAT, ge::DT_DOUBLE, ge::DT_FLOAT16, ge::DT_BF16};
}  // namespace ge::ops_util

namespace ge::ops_util {

// A strided view for data-movement kernels: out[i] = in[offset + sum(idx_d * strides_d)] where
// idx is i's row-major index in dims. Strides may be 0 (broadcast) or negative (reversal).
struct StridedView {
  int32_t elem_size;
  int32_t rank;
  int64_t numel;
  int64_t offset;
  int64_t dims[kMaxRank];
  int64_t strides[kMaxRank];
};

// Copies out[begin, end) from the view of `in`.
void StridedCopy(const StridedView& v, const void* in, void* out, int64_t begin, int64_t end);
// Merges adjacent dims that are contiguous in both the view and the output (fewer loops).
void CoalesceView(StridedView* v);
// The tiling + kernel of an op whose output is a StridedView of input 0 (Transpose, Slice,
// Expand, Tile, DepthToSpace, ...): writes the view as tiling data, sets the block dim.
ge::graphStatus SetViewTiling(gert::TilingContext* ctx, StridedView v);
void StridedViewKernel(const aclrtKernelArgs* args);

}  // namespace ge::ops_util
#endif  // GE_SRC_OPS_OP_UTIL_EXT_H_
