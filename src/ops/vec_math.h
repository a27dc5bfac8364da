// Vectorized float math over arrays (SLEEF, 1-ULP variants, AVX-512 or AVX2 as compiled for;
// a scalar loop without SLEEF): what the elementwise, activation and fused kernels share.
#ifndef GE_SRC_OPS_VEC_MATH_H_
#define GE_SRC_OPS_VEC_MATH_H_

#include <cstdint>

namespace ge::ops_util {

void VecExp(const float* x, float* y, int64_t n);
void VecSigmoid(const float* x, float* y, int64_t n);  // 1 / (1 + exp(-x))
void VecSilu(const float* x, float* y, int64_t n);     // x / (1 + exp(-x))
void VecTanh(const float* x, float* y, int64_t n);
void VecErf(const float* x, float* y, int64_t n);
void VecGelu(const float* x, float* y, int64_t n);  // 0.5 x (1 + erf(x / sqrt 2))
// y = softmax(x) over n elements (max-subtracted; y may be x).
void VecSoftmax(const float* x, float* y, int64_t n);

// VecSigmoid and VecSilu dividing by 1 + e^-x or multiplying by its reciprocal estimate
// (simd::DivisionIsFast chooses for the two above); both forms, for the tests.
void VecSigmoidForm(const float* x, float* y, int64_t n, bool divide);
void VecSiluForm(const float* x, float* y, int64_t n, bool divide);

}  // namespace ge::ops_util

#endif  // GE_SRC_OPS_VEC_MATH_H_
