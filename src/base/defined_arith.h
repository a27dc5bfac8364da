// Arithmetic whose C++ form would be undefined for some inputs (UBSan traps it), defined as
// numpy / x86 do, for the kernels' scalar (non-SIMD) paths.
//
// FloatToInt: a floating value to an integer type without undefined behaviour (a plain static_cast of an
// out-of-range value is UB; UBSan traps it): through int64 (C++20 integer conversions wrap),
// which gives what x86 does for values within int64 (-1.0 -> uint32 is 4294967295, as numpy);
// NaN and values beyond int64 give INT64_MIN's bits (x86's "integer indefinite"); uint64 takes
// [2^63, 2^64) directly.
#ifndef GE_SRC_BASE_DEFINED_ARITH_H_
#define GE_SRC_BASE_DEFINED_ARITH_H_

#include <cstdint>
#include <type_traits>

namespace ge {

template <typename D, typename V>
inline D FloatToInt(V v) {
  static_assert(std::is_integral_v<D> && std::is_floating_point_v<V>);
  constexpr V kTwo63 = static_cast<V>(9223372036854775808.0);
  if (v >= -kTwo63 && v < kTwo63) return static_cast<D>(static_cast<int64_t>(v));
  if constexpr (std::is_same_v<D, uint64_t>)
    if (v >= kTwo63 && v < 2 * kTwo63) return static_cast<uint64_t>(v);
  return static_cast<D>(INT64_MIN);
}

// FloatToInt for integer T, a plain conversion otherwise.
template <typename T, typename V>
inline T FromDouble(V v) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
    return FloatToInt<T>(v);
  else
    return static_cast<T>(v);
}

// Integer x * y wrapping (in an unsigned type at least as wide as int: signed overflow is UB,
// and so is uint16 * uint16 promoted to int); a plain product for other types.
template <typename T>
inline T WrapMul(T x, T y) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    using W = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
    return static_cast<T>(static_cast<W>(x) * static_cast<W>(y));
  } else {
    return x * y;
  }
}

template <typename T>
inline T WrapAdd(T x, T y) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    using W = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
    return static_cast<T>(static_cast<W>(x) + static_cast<W>(y));
  } else {
    return x + y;
  }
}

template <typename T>
inline T WrapSub(T x, T y) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    using W = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
    return static_cast<T>(static_cast<W>(x) - static_cast<W>(y));
  } else {
    return x - y;
  }
}

// x << z and x >> z for integers: a shift by a negative amount or by the type's width or more
// gives 0 (numpy's result for unsigned types) instead of undefined behaviour.
template <typename T>
inline T ShiftLeft(T x, T z) {
  if (z < T(0) || static_cast<uint64_t>(z) >= sizeof(T) * 8) return T(0);
  using W = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
  return static_cast<T>(static_cast<W>(x) << z);
}
template <typename T>
inline T ShiftRight(T x, T z) {
  if (z < T(0) || static_cast<uint64_t>(z) >= sizeof(T) * 8) return T(0);
  return static_cast<T>(x >> z);
}

}  // namespace ge

#endif  // GE_SRC_BASE_DEFINED_ARITH_H_
