// Checked size arithmetic (like ONNX Runtime's SafeInt): every element count, byte size and
// offset computed from sizes a user supplied (shapes in model files, .npy headers, shape-valued
// inputs, the command line) goes through these, so a huge shape is a clear error instead of a
// wrapped-around tiny allocation.
#ifndef GE_SRC_BASE_CHECKED_MATH_H_
#define GE_SRC_BASE_CHECKED_MATH_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace ge {

// *out = a * b (a + b); false on overflow of T.
template <typename T>
[[nodiscard]] bool CheckedMul(T a, T b, T* out) {
  return !__builtin_mul_overflow(a, b, out);
}
template <typename T>
[[nodiscard]] bool CheckedAdd(T a, T b, T* out) {
  return !__builtin_add_overflow(a, b, out);
}

// Elements of a tensor of `dims`: nullopt when a dim is negative or the product overflows int64.
std::optional<int64_t> CheckedElementCount(const int64_t* dims, size_t rank);
inline std::optional<int64_t> CheckedElementCount(const std::vector<int64_t>& dims) {
  return CheckedElementCount(dims.data(), dims.size());
}
// Bytes of `elements` elements of `elem_size` bytes each: nullopt when elements is negative or
// the product exceeds int64 (no allocation or offset may be larger).
std::optional<size_t> CheckedByteSize(int64_t elements, size_t elem_size);
// Bytes of a tensor of `dims`: both checks above.
std::optional<size_t> CheckedTensorBytes(const std::vector<int64_t>& dims, size_t elem_size);

// A strict decimal integer: optional surrounding spaces, an optional '-', digits only, within
// int64 ("1.5", "1e3", "0x10", "" and "abc" are not integers).
std::optional<int64_t> ParseInt64(std::string_view s);

}  // namespace ge

#endif  // GE_SRC_BASE_CHECKED_MATH_H_
