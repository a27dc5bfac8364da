// What the compat projects' CPU kernels share: IEEE half <-> float conversion and the block's
// share of a range (the SPMD split every Ascend C kernel does with GetBlockIdx/GetBlockNum).
#ifndef GE_TESTS_COMPAT_COMMON_CPU_KERNEL_UTIL_H_
#define GE_TESTS_COMPAT_COMMON_CPU_KERNEL_UTIL_H_

#include <cmath>
#include <cstdint>
#include <cstring>

namespace compat_kernel {

inline float HalfToFloat(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ffu, bits;
  if (exp == 0) {
    if (man == 0) {
      bits = sign;
    } else {  // subnormal: normalise
      exp = 127 - 15 + 1;
      while ((man & 0x400u) == 0) {
        man <<= 1;
        --exp;
      }
      bits = sign | (exp << 23) | ((man & 0x3ffu) << 13);
    }
  } else if (exp == 31) {
    bits = sign | 0x7f800000u | (man << 13);
  } else {
    bits = sign | ((exp + 127 - 15) << 23) | (man << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

// Round to nearest even.
inline uint16_t FloatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  int32_t exp = static_cast<int32_t>((x >> 23) & 0xff) - 127 + 15;
  uint32_t man = x & 0x7fffffu;
  if (((x >> 23) & 0xff) == 0xff) return static_cast<uint16_t>(sign | 0x7c00u | (man ? 0x200u : 0));
  if (exp >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
  if (exp <= 0) {
    if (exp < -10) return static_cast<uint16_t>(sign);
    man |= 0x800000u;
    uint32_t shift = static_cast<uint32_t>(14 - exp);
    uint32_t half = man >> shift, rem = man & ((1u << shift) - 1), mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = sign | (static_cast<uint32_t>(exp) << 10) | (man >> 13), rem = man & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1))) ++half;
  return static_cast<uint16_t>(half);
}

// [begin, end) of `total` items for block `idx` of `num`: equal shares, the first ones one larger.
inline void BlockRange(int64_t total, uint32_t idx, uint32_t num, int64_t* begin, int64_t* end) {
  int64_t per = total / num, rem = total % num, i = idx;
  *begin = i * per + (i < rem ? i : rem);
  *end = *begin + per + (i < rem ? 1 : 0);
}

}  // namespace compat_kernel

#endif  // GE_TESTS_COMPAT_COMMON_CPU_KERNEL_UTIL_H_
