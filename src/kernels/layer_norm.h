// Layer normalization over rows: the one implementation behind the LayerNormalization op and
// aclnnLayerNorm (so that an op's fallback path computes what its kernel computes).
#ifndef GE_SRC_KERNELS_LAYER_NORM_H_
#define GE_SRC_KERNELS_LAYER_NORM_H_

#include <cstdint>

namespace ge::kernels {

struct LayerNormParams {
  int64_t cols;         // elements per row (the normalized dims)
  int64_t scale_numel;  // scale is indexed modulo this; 0: no scale
  int64_t bias_numel;   // bias likewise; 0: no bias
  double eps;
};

// y = (x - mean) / sqrt(var + eps) * scale + bias for rows [row_begin, row_end); mean and rstd
// (1 / sqrt(var + eps)) per row when non-null. Statistics accumulate in double, except for float
// rows with a full-length scale (and bias), which use float loops the compiler vectorizes.
// Instantiated for T in {float, double, Half, BFloat16} with StatT float (the ONNX op) and for
// StatT = T in {float, double} (aclnn).
template <typename T, typename StatT>
void LayerNormRows(const LayerNormParams& p, const T* x, const T* scale, const T* bias, T* y, StatT* mean, StatT* rstd,
                   int64_t row_begin, int64_t row_end);

}  // namespace ge::kernels

#endif  // GE_SRC_KERNELS_LAYER_NORM_H_
