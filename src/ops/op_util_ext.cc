#include "ops/op_util_ext.h"

#include <fmt/format.h>

#include <cstring>

#include "base/error_message.h"

namespace ge::ops_util {

bool ReportBadIndex(const aclrtKernelArgs* args, const char* input, int64_t value, int64_t dim) {
  std::string msg = dim > 0 ? fmt::format("input '{}' value {} is out of range [{}, {}]", input, value, -dim, dim - 1)
                            : fmt::format("input '{}' value {} indexes an empty axis", input, value);
  aclrtReportKernelError(args, msg.c_str());
  return false;
}

bool ReportBadData(const aclrtKernelArgs* args, const std::string& msg) {
  aclrtReportKernelError(args, msg.c_str());
  return false;
}

ge::graphStatus InferFail(const std::string& why) {
  ge::SetRecentErrMsg(why);
  return ge::GRAPH_FAILED;
}

float HalfToFloat(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ffu, u;
  if (exp == 0) {
    if (mant == 0) {
      u = sign;
    } else {  // subnormal: normalize
      exp = 127 - 15 + 1;
      while ((mant & 0x400u) == 0) {
        mant <<= 1;
        --exp;
      }
      u = sign | (exp << 23) | ((mant & 0x3ffu) << 13);
    }
  } else if (exp == 31) {
    u = sign | 0x7f800000u | (mant << 13);
  } else {
    u = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// Round-to-nearest-even, with overflow to inf and subnormals.
uint16_t FloatToHalf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  uint16_t sign = (u >> 16) & 0x8000u;
  uint32_t abs = u & 0x7fffffffu;
  if (abs >= 0x7f800000u) return sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0);
  if (abs >= 0x477ff000u) return sign | 0x7c00u;  // rounds past 65504
  if (abs < 0x38800000u) {                        // subnormal half or zero
    if (abs < 0x33000000u) return sign;
    uint32_t exp = abs >> 23, mant = (abs & 0x7fffffu) | 0x800000u;
    uint32_t shift = 126 - exp;  // value / 2^-24 = mant * 2^(exp - 126)
    uint32_t q = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1), halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (q & 1))) ++q;
    return sign | static_cast<uint16_t>(q);
  }
  uint32_t e = ((abs >> 23) - 127 + 15), mant = abs & 0x7fffffu;
  uint32_t h = (e << 10) | (mant >> 13), rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) ++h;
  return sign | static_cast<uint16_t>(h);
}

uint16_t FloatToBf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<uint16_t>(u >> 16);
}

ge::DataType FromOnnxDtype(int64_t d) {
  switch (d) {
    case 1: return ge::DT_FLOAT;
    case 2: return ge::DT_UINT8;
    case 3: return ge::DT_INT8;
    case 4: return ge::DT_UINT16;
    case 5: return ge::DT_INT16;
    case 6: return ge::DT_INT32;
    case 7: return ge::DT_INT64;
    case 8: return ge::DT_STRING;
    case 9: return ge::DT_BOOL;
    case 10: return ge::DT_FLOAT16;
    case 11: return ge::DT_DOUBLE;
    case 12: return ge::DT_UINT32;
    case 13: return ge::DT_UINT64;
    case 16: return ge::DT_BF16;
    default: return ge::DT_UNDEFINED;
  }
}

void ContiguousStrides(const int64_t* dims, int rank, int64_t* strides) {
  int64_t s = 1;
  for (int d = rank - 1; d >= 0; --d) {
    strides[d] = s;
    s *= dims[d];
  }
}

std::vector<int64_t> DimsOf(const gert::Shape& s) { return {s.GetDims(), s.GetDims() + s.GetDimNum()}; }

void SetDims(gert::Shape* s, const std::vector<int64_t>& dims) {
  s->SetDimNum(0);
  for (int64_t d : dims) s->AppendDim(d);
}

int64_t AttrInt(const gert::RuntimeAttrs* a, size_t i, int64_t dflt) {
  const int64_t* v = a ? a->GetInt(i) : nullptr;
  return v ? *v : dflt;
}
float AttrFloat(const gert::RuntimeAttrs* a, size_t i, float dflt) {
  const float* v = a ? a->GetFloat(i) : nullptr;
  return v ? *v : dflt;
}
std::string AttrStr(const gert::RuntimeAttrs* a, size_t i, const char* dflt) {
  const char* v = a ? a->GetStr(i) : nullptr;
  return v ? v : dflt;
}
std::vector<int64_t> AttrInts(const gert::RuntimeAttrs* a, size_t i) {
  auto* l = a ? a->GetListInt(i) : nullptr;
  if (l == nullptr) return {};
  return {l->GetData(), l->GetData() + l->GetSize()};
}
std::vector<float> AttrFloats(const gert::RuntimeAttrs* a, size_t i) {
  auto* l = a ? a->GetListFloat(i) : nullptr;
  if (l == nullptr) return {};
  return {l->GetData(), l->GetData() + l->GetSize()};
}

bool BroadcastShapes(const std::vector<const gert::Shape*>& in, gert::Shape* out) {
  if (in.empty() || in[0] == nullptr) return false;
  gert::Shape acc = *in[0];
  for (size_t i = 1; i < in.size(); ++i) {
    gert::Shape next;
    if (in[i] == nullptr || !BroadcastShape(acc, *in[i], &next)) return false;
    acc = next;
  }
  *out = acc;
  return true;
}

}  // namespace ge::ops_util

namespace ge::ops_util {

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
    for (int64_t i0 = lo / d1; i0 * d1 < hi; i0 += kTile) {
      int64_t i1 = std::min<int64_t>(i0 + kTile, (hi + d1 - 1) / d1);
      for (int64_t j = 0; j < d1; ++j)
        for (int64_t i = i0; i < i1; ++i) {
          int64_t o = i * d1 + j;
          if (o >= lo && o < hi) yo[o] = xo[i + j * s1];
        }
    }
  }
}

}  // namespace

void StridedCopy(const StridedView& v, const void* in, void* out, int64_t begin, int64_t end) {
  const bool transpose =
      v.rank >= 2 && v.strides[v.rank - 2] == 1 && v.dims[v.rank - 1] < 64 && v.strides[v.rank - 1] != 0;
  GE_DISPATCH_BYTES(v.elem_size, {
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

}  // namespace ge::ops_util
