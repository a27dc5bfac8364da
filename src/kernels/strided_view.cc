#include "kernels/strided_view.h"

#include <algorithm>
#include <cstring>

#include "kernels/block_range.h"
#include "kernels/dtype_dispatch.h"

namespace ge::kernels {

void ContiguousStrides(const int64_t* dims, int rank, int64_t* strides) {
  int64_t s = 1;
  for (int d = rank - 1; d >= 0; --d) {
    strides[d] = s;
    s *= dims[d];
  }
}

namespace {
// Copies out[begin, end) row by row over the innermost dim (a contiguous or fixed-stride loop
// per row), with the odometer only between rows.
template <typename T>
void CopyRows(const StridedView& v, const T* x, T* y, int64_t begin, int64_t end) {
  if (begin >= end) return;  // also every empty view (a dim of 0)
  if (v.rank == 0) {
    if (begin < end) y[0] = x[0];
    return;
  }
  const int last = v.rank - 1;
  const int64_t inner = v.dims[last], s = v.strides[last];
  int64_t idx[kMaxRank] = {};
  int64_t rem = begin, off = 0;
  for (int d = last; d >= 0; --d) {
    idx[d] = rem % v.dims[d];
    rem /= v.dims[d];
  }
  for (int d = 0; d <= last; ++d) off += idx[d] * v.strides[d];
  for (int64_t i = begin; i < end;) {
    int64_t n = std::min(end - i, inner - idx[last]);
    const T* src = x + off;
    T* dst = y + i;
    if (s == 1) {
      std::memcpy(dst, src, n * sizeof(T));
    } else {
      for (int64_t k = 0; k < n; ++k) dst[k] = src[k * s];
    }
    i += n;
    off += s * n;
    idx[last] += n;
    if (idx[last] < inner) break;
    off -= s * inner;
    idx[last] = 0;
    for (int d = last - 1; d >= 0; --d) {
      off += v.strides[d];
      if (++idx[d] < v.dims[d]) break;
      off -= v.strides[d] * v.dims[d];
      idx[d] = 0;
    }
  }
}

// Rows [r0, r1) of a transpose whose output rows have kD1 elements: y[i][j] = x[i + j * s1]. kD1
// streams read along i, one written along the rows; a compile-time row length lets the compiler
// unroll (and vectorize) the interleave (NCHW -> NHWC of an RGB image: 3).
template <typename T, int kD1>
void InterleaveRows(const T* __restrict x, T* __restrict y, int64_t r0, int64_t r1, int64_t s1) {
  const T* streams[kD1];
  for (int j = 0; j < kD1; ++j) streams[j] = x + j * s1;
  for (int64_t i = r0; i < r1; ++i)
    for (int j = 0; j < kD1; ++j) y[i * kD1 + j] = streams[j][i];
}

// A transpose of the two innermost dims with a contiguous read along the first of them
// (out[..][i][j] = x[.. + i + j * s], e.g. NCHW -> NHWC with few channels, or a channel
// shuffle): per outer index, tiles of 64 i, each read once along i and written with stride d1.
template <typename T>
void TransposeInner(const StridedView& v, const T* x, T* y, int64_t begin, int64_t end) {
  const int r = v.rank;
  const int64_t d0 = v.dims[r - 2], d1 = v.dims[r - 1], s1 = v.strides[r - 1], plane = d0 * d1;
  constexpr int64_t kTile = 64;
  for (int64_t outer = begin / plane; outer * plane < end; ++outer) {
    int64_t base = 0, rem = outer;  // the outer index's input offset
    for (int d = r - 3; d >= 0; --d) {
      base += (rem % v.dims[d]) * v.strides[d];
      rem /= v.dims[d];
    }
    const int64_t lo = std::max<int64_t>(begin - outer * plane, 0), hi = std::min<int64_t>(end - outer * plane, plane);
    T* yo = y + outer * plane;
    const T* xo = x + base;
    // Whole output rows [r0, r1) in one pass; the partial rows at the block's edges by element.
    const int64_t r0 = (lo + d1 - 1) / d1, r1 = std::max(r0, hi / d1);
    for (int64_t o = lo; o < std::min(hi, r0 * d1); ++o) yo[o] = xo[o / d1 + (o % d1) * s1];
    switch (d1) {
      case 2: InterleaveRows<T, 2>(xo, yo, r0, r1, s1); break;
      case 3: InterleaveRows<T, 3>(xo, yo, r0, r1, s1); break;
      case 4: InterleaveRows<T, 4>(xo, yo, r0, r1, s1); break;
      default:
        for (int64_t i0 = r0; i0 < r1; i0 += kTile) {  // tiles of 64 rows, each stream read along i
          const int64_t i1 = std::min(i0 + kTile, r1);
          for (int64_t j = 0; j < d1; ++j)
            for (int64_t i = i0; i < i1; ++i) yo[i * d1 + j] = xo[i + j * s1];
        }
    }
    for (int64_t o = std::max(lo, r1 * d1); o < hi; ++o) yo[o] = xo[o / d1 + (o % d1) * s1];
  }
}

}  // namespace

void StridedCopy(const StridedView& v, const void* in, void* out, int64_t begin, int64_t end) {
  // Nothing to copy: also an empty view, whose zero-length rows the transpose path divides by
  // (a [0, 3, 1] -> [1, 3, 0] Transpose raised SIGFPE, onnx_model fuzz harness).
  if (end <= begin) return;
  const bool transpose =
      v.rank >= 2 && v.strides[v.rank - 2] == 1 && v.dims[v.rank - 1] < 64 && v.strides[v.rank - 1] != 0;
  GE_DISPATCH(UInts, UIntOfSize(v.elem_size), {
    const scalar_t* x = static_cast<const scalar_t*>(in) + v.offset;
    if (transpose)
      TransposeInner<scalar_t>(v, x, static_cast<scalar_t*>(out), begin, end);
    else
      CopyRows<scalar_t>(v, x, static_cast<scalar_t*>(out), begin, end);
  });
}

void CoalesceView(StridedView* v) {
  int r = 0;
  for (int d = 0; d < v->rank; ++d) {
    if (v->dims[d] == 1) continue;
    if (r > 0 && v->strides[r - 1] == v->strides[d] * v->dims[d]) {
      v->dims[r - 1] *= v->dims[d];
      v->strides[r - 1] = v->strides[d];
      continue;
    }
    v->dims[r] = v->dims[d];
    v->strides[r++] = v->strides[d];
  }
  v->rank = r;
}

ge::graphStatus SetViewTiling(gert::TilingContext* ctx, StridedView v) {
  v.numel = 1;
  for (int d = 0; d < v.rank; ++d) v.numel *= v.dims[d];
  CoalesceView(&v);
  ctx->SetBlockDim(ChooseBlockDim(ctx, v.numel, 1 << 15));
  return SetTiling(ctx, v);
}

void StridedViewKernel(const aclrtKernelArgs* args) {
  const auto& v = GetTiling<StridedView>(args);
  int64_t b, e;
  BlockRange(v.numel, args->blockIdx, args->blockDim, &b, &e);
  StridedCopy(v, args->addrs[0], args->addrs[args->numAddrs - 1], b, e);
}

}  // namespace ge::kernels
