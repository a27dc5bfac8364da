// Numpy-style broadcasting for kernels: the output shape of two or N inputs, each input's
// per-output-dim strides (0 along a broadcast dim), and an iterator over output elements that
// keeps every input's element offset.
#ifndef GE_SRC_KERNELS_BROADCAST_H_
#define GE_SRC_KERNELS_BROADCAST_H_

#include <cstdint>
#include <vector>

#include "exe_graph/runtime/shape.h"

namespace ge::kernels {

constexpr int kMaxRank = 8;  // the rank tiling structs hold

// Broadcast of a and b into out; false if incompatible.
bool BroadcastShape(const gert::Shape& a, const gert::Shape& b, gert::Shape* out);
// Output shape of an N-ary broadcast (Max, Min, Sum, Mean, Where); false if incompatible.
bool BroadcastShapes(const std::vector<const gert::Shape*>& in, gert::Shape* out);

// Per-output-dim strides of an input broadcast to `out` (0 where the input dim is 1/missing).
void BroadcastStrides(const gert::Shape& in, const gert::Shape& out, int64_t* strides);

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

}  // namespace ge::kernels

#endif  // GE_SRC_KERNELS_BROADCAST_H_
