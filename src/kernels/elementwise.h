// The loop of the pointwise kernels (activations, unary math): y[i] = f(x[i]) over a block's
// range, computing in ComputeT<T> (float for the 16-bit floats). x and y may be the same buffer.
#ifndef GE_SRC_KERNELS_ELEMENTWISE_H_
#define GE_SRC_KERNELS_ELEMENTWISE_H_

#include <cstdint>

#include "kernels/float16.h"

namespace ge::kernels {

template <typename T, typename F>
void MapElements(const T* x, T* y, int64_t begin, int64_t end, F f) {
  for (int64_t i = begin; i < end; ++i) y[i] = static_cast<T>(f(static_cast<ComputeT<T>>(x[i])));
}

}  // namespace ge::kernels

#endif  // GE_SRC_KERNELS_ELEMENTWISE_H_
