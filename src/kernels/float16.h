// 16-bit float storage types (IEEE half, bfloat16) that convert to and from float, so that
// kernels templated on their element type run on them, computing in float (ComputeT).
#ifndef GE_SRC_KERNELS_FLOAT16_H_
#define GE_SRC_KERNELS_FLOAT16_H_

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ge::kernels {

float HalfToFloat(uint16_t h);
uint16_t FloatToHalf(float f);  // round to nearest even, overflow to inf, subnormals kept
inline float Bf16ToFloat(uint16_t h) {
  uint32_t u = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint16_t FloatToBf16(float f);

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

}  // namespace ge::kernels

#endif  // GE_SRC_KERNELS_FLOAT16_H_
