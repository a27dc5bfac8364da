// Output sizes and padding of windowed ops (Conv, pooling) per ONNX: explicit pads or auto_pad
// (SAME_UPPER, SAME_LOWER, VALID), strides, dilations, ceil_mode. Spatial dims are padded to 3
// (D, H, W) so that 1-D, 2-D and 3-D ops share one kernel.
#ifndef GE_SRC_OPS_SPATIAL_UTIL_H_
#define GE_SRC_OPS_SPATIAL_UTIL_H_

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>

#include "exe_graph/runtime/runtime_attrs.h"
#include "exe_graph/runtime/shape.h"

namespace ge::ops_util {

struct Window3d {
  int64_t in[3];
  int64_t out[3];
  int64_t kernel[3];
  int64_t stride[3];
  int64_t dilation[3];
  int64_t pad_begin[3];
  int64_t pad_end[3];
};

// `x` is N, C, spatial...; `kernel` has one entry per spatial dim. Attribute indices of
// auto_pad, dilations, pads, strides in the op's RuntimeAttrs (-1 when the op lacks one).
struct WindowAttrIdx {
  int auto_pad, dilations, pads, strides, ceil_mode;
};
// False, with the reason in *why when given, for a window that ONNX does not define: list
// attributes of the wrong length (strides and dilations one per spatial dim, pads two), kernel,
// stride or dilation below 1, negative pads, no output position, or sizes past int64.
bool ComputeWindow(const gert::Shape& x, const int64_t* kernel, size_t nk, const gert::RuntimeAttrs* attrs,
                   WindowAttrIdx idx, Window3d* w, std::string* why = nullptr);

// A windowed op's work estimate, the product of non-negative factors (sizes, kernel extents),
// saturating at INT64_MAX: a model's 2^40 kernel over 1024 planes overflowed the plain product
// (UBSan, onnx_model harness). Only block counts are chosen from it.
inline int64_t WorkProduct(std::initializer_list<int64_t> factors) {
  int64_t w = 1;
  for (int64_t f : factors) {
    if (f <= 0) return 0;
    if (__builtin_mul_overflow(w, f, &w)) return INT64_MAX;
  }
  return w;
}

// The kernel taps along dim d of a window that starts at input position `start` (negative: in
// the padding) which fall inside the input: [*lo, *hi), tap k reading position start + k *
// dilation. Window loops go through these only: stepping through the padding taps of a 2^40-wide
// kernel over a 32-wide input never ended (onnx_model fuzz harness). ComputeWindow bounds
// |start| by the padded extent, so nothing here overflows.
inline void TapsInside(const Window3d& w, int d, int64_t start, int64_t* lo, int64_t* hi) {
  const int64_t dil = w.dilation[d];
  *lo = start < 0 ? (-start + dil - 1) / dil : 0;
  const int64_t room = w.in[d] - start;
  *hi = room <= 0 ? 0 : std::min(w.kernel[d], (room + dil - 1) / dil);
}

}  // namespace ge::ops_util

#endif  // GE_SRC_OPS_SPATIAL_UTIL_H_
