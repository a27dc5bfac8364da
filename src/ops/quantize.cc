// Linear quantization ops: QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, and the
// integer compute ops MatMulInteger, QLinearMatMul, ConvInteger, QLinearConv. Quantized values
// are int8/uint8 (int32 for DequantizeLinear input); rounding is half-to-even, saturating.
// define: OpDefs. create: shapes, and per-axis/broadcast geometry as tiling. run: kernels that
// widen the 8-bit operands (minus zero points) to int32 and accumulate exactly.
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "ops/op_util.h"
#include "ops/spatial_util.h"

namespace ge::ops_quant {
using namespace ge::ops_util;

// Reads element i of an integer tensor of dtype dt as int32 (0 for another dtype).
using QuantInts =
    DtypeSet<DtypeEntry<ge::DT_INT8, int8_t>, DtypeEntry<ge::DT_UINT8, uint8_t>, DtypeEntry<ge::DT_INT32, int32_t>,
             DtypeEntry<ge::DT_INT16, int16_t>, DtypeEntry<ge::DT_UINT16, uint16_t>>;
int32_t LoadInt(const void* p, int32_t dt, int64_t i) {
  int32_t v = 0;
  Dispatch<QuantInts>(dt, [&](auto tag) { v = static_cast<const TypeOf<decltype(tag)>*>(p)[i]; });
  return v;
}

// Rounds half to even and saturates to dt's range, then stores at out[i]. NaN (x / 0 with
// x = 0, or a NaN input) stores 0: ONNX leaves it open, and a NaN cast to an integer is undefined.
void StoreQuant(void* out, int32_t dt, int64_t i, double v) {
  double r = std::isnan(v) ? 0.0 : std::nearbyint(v);
  if (dt == ge::DT_INT8) {
    static_cast<int8_t*>(out)[i] = static_cast<int8_t>(std::clamp(r, -128.0, 127.0));
  } else if (dt == ge::DT_UINT8) {
    static_cast<uint8_t*>(out)[i] = static_cast<uint8_t>(std::clamp(r, 0.0, 255.0));
  } else if (dt == ge::DT_INT32) {
    static_cast<int32_t*>(out)[i] = static_cast<int32_t>(std::clamp(r, -2147483648.0, 2147483647.0));
  }
}

using QuantFloats =
    DtypeSet<DtypeEntry<ge::DT_FLOAT, float>, DtypeEntry<ge::DT_FLOAT16, Half>, DtypeEntry<ge::DT_BF16, BFloat16>>;
float LoadFloat(const void* p, int32_t dt, int64_t i) {
  float v = 0;
  if (Dispatch<QuantFloats>(dt, [&](auto tag) { v = static_cast<const TypeOf<decltype(tag)>*>(p)[i]; })) return v;
  return static_cast<float>(LoadInt(p, dt, i));
}

// ---- QuantizeLinear / DequantizeLinear -------------------------------------------------------
// y[i] = quant(x[i] / scale[c] + zp[c]) or (x[i] - zp[c]) * scale[c], c = (i / inner) % axis_len.
struct AxisTiling {
  int32_t x_dtype, y_dtype, zp_dtype, has_zp, scale_dtype;
  int64_t numel, inner, axis_len;  // axis_len 1 = per-tensor
};

ge::graphStatus AxisTilingFn(gert::TilingContext* ctx, int32_t y_dtype) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  const gert::Shape& s = ctx->GetInputShape(1)->GetStorageShape();
  AxisTiling t{};
  t.x_dtype = ctx->GetInputDesc(0)->GetDataType();
  t.scale_dtype = ctx->GetInputDesc(1)->GetDataType();
  t.has_zp = ctx->GetInputShape(2) != nullptr;
  t.zp_dtype = t.has_zp ? ctx->GetInputDesc(2)->GetDataType() : ge::DT_UINT8;
  t.y_dtype = y_dtype;
  t.numel = x.GetShapeSize();
  t.inner = 1;
  t.axis_len = s.GetShapeSize();
  if (t.axis_len > 1) {
    int64_t axis;
    if (!NormalizeAxis(AttrInt(ctx->GetAttrs(), 0, 1), x.GetDimNum(), &axis) || x.GetDim(axis) != t.axis_len)
      return ge::GRAPH_FAILED;
    for (size_t d = axis + 1; d < x.GetDimNum(); ++d) t.inner *= x.GetDim(d);
  }
  ctx->SetBlockDim(ChooseBlockDim(ctx, t.numel, 1 << 14));
  return SetTiling(ctx, t);
}

ge::graphStatus QuantizeTiling(gert::TilingContext* ctx) {
  return AxisTilingFn(ctx, ctx->GetOutputDesc(0)->GetDataType());
}
ge::graphStatus DequantizeTiling(gert::TilingContext* ctx) { return AxisTilingFn(ctx, ge::DT_FLOAT); }

template <bool kQuantize>
void AxisKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<AxisTiling>(args);
  const void* x = args->addrs[0];
  const void* scale = args->addrs[1];
  const void* zp = args->addrs[2];
  void* y = args->addrs[3];
  int64_t b, e;
  BlockRange(t.numel, args->blockIdx, args->blockDim, &b, &e);
  for (int64_t i = b; i < e; ++i) {
    int64_t c = t.axis_len > 1 ? (i / t.inner) % t.axis_len : 0;
    float s = LoadFloat(scale, t.scale_dtype, c);
    int32_t z = t.has_zp ? LoadInt(zp, t.zp_dtype, c) : 0;
    if constexpr (kQuantize) {
      StoreQuant(y, t.y_dtype, i, std::nearbyint(static_cast<double>(LoadFloat(x, t.x_dtype, i) / s)) + z);
    } else {
      static_cast<float*>(y)[i] = static_cast<float>(LoadInt(x, t.x_dtype, i) - z) * s;
    }
  }
}

ge::graphStatus QuantizeDtype(gert::InferDataTypeContext* ctx) {
  ge::DataType zp = ctx->GetInputDataType(2);
  return ctx->SetOutputDataType(0, zp == ge::DT_UNDEFINED ? ge::DT_UINT8 : zp);
}
ge::graphStatus FloatDtype(gert::InferDataTypeContext* ctx) { return ctx->SetOutputDataType(0, ge::DT_FLOAT); }
ge::graphStatus Int32Dtype(gert::InferDataTypeContext* ctx) { return ctx->SetOutputDataType(0, ge::DT_INT32); }

// ---- DynamicQuantizeLinear ---------------------------------------------------------------------
ge::graphStatus DynamicShape(gert::InferShapeContext* ctx) {
  *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
  ctx->GetOutputShape(1)->SetDimNum(0);
  ctx->GetOutputShape(2)->SetDimNum(0);
  return ge::GRAPH_SUCCESS;
}
ge::graphStatus DynamicDtype(gert::InferDataTypeContext* ctx) {
  ctx->SetOutputDataType(0, ge::DT_UINT8);
  ctx->SetOutputDataType(1, ge::DT_FLOAT);
  return ctx->SetOutputDataType(2, ge::DT_UINT8);
}
struct NumelTiling {
  int64_t numel;
};
ge::graphStatus DynamicTiling(gert::TilingContext* ctx) {
  ctx->SetBlockDim(1);  // the range is a reduction over the whole tensor
  return SetTiling(ctx, NumelTiling{ctx->GetInputShape(0)->GetStorageShape().GetShapeSize()});
}
void DynamicKernel(const aclrtKernelArgs* args) {
  int64_t n = GetTiling<NumelTiling>(args).numel;
  const auto* x = static_cast<const float*>(args->addrs[0]);
  float lo = 0.f, hi = 0.f;
  for (int64_t i = 0; i < n; ++i) {
    lo = std::min(lo, x[i]);
    hi = std::max(hi, x[i]);
  }
  float scale = (hi - lo) / 255.f;
  double zp = scale == 0 ? 0 : std::clamp(std::nearbyint(0.0 - lo / scale), 0.0, 255.0);
  if (std::isnan(zp)) zp = 0;  // lo = -inf, hi = +inf: inf / inf
  *static_cast<float*>(args->addrs[2]) = scale;
  *static_cast<uint8_t*>(args->addrs[3]) = static_cast<uint8_t>(zp);
  for (int64_t i = 0; i < n; ++i)
    StoreQuant(args->addrs[1], ge::DT_UINT8, i, scale == 0 ? zp : std::nearbyint(x[i] / scale) + zp);
}

// ---- MatMulInteger / QLinearMatMul ------------------------------------------------------------
// Batched [M,K] x [K,N] with numpy batch broadcasting. Zero points: per-tensor, or per row of A
// (length M) / per column of B (length N).
struct QMatMulTiling {
  int32_t a_dtype, b_dtype, y_dtype, azp_dtype, bzp_dtype, has_azp, has_bzp, requant, sdtype;
  int32_t batch_rank;
  int64_t m, n, k, azp_len, bzp_len, batches;
  int64_t out_batch[kMaxRank], a_bstride[kMaxRank], b_bstride[kMaxRank];
};

// Inputs: MatMulInteger (A, B, azp, bzp); QLinearMatMul (a, as, azp, b, bs, bzp, ys, yzp).
struct QMatMulIdx {
  int a, b, azp, bzp;
};
constexpr QMatMulIdx kMatMulIntegerIdx = {0, 1, 2, 3};
constexpr QMatMulIdx kQLinearMatMulIdx = {0, 3, 2, 5};

bool MatMulDims(const gert::Shape& a, const gert::Shape& b, std::vector<int64_t>* out, int64_t* m, int64_t* n,
                int64_t* k) {
  if (a.GetDimNum() < 1 || b.GetDimNum() < 1) return false;
  gert::Shape a2 = a, b2 = b;
  if (a.GetDimNum() == 1) a2 = gert::Shape({1, a.GetDim(0)});
  if (b.GetDimNum() == 1) b2 = gert::Shape({b.GetDim(0), 1});
  size_t ra = a2.GetDimNum(), rb = b2.GetDimNum();
  *m = a2.GetDim(ra - 2);
  *k = a2.GetDim(ra - 1);
  *n = b2.GetDim(rb - 1);
  if (b2.GetDim(rb - 2) != *k) return false;
  gert::Shape ab, bb, ob;
  for (size_t d = 0; d + 2 < ra; ++d) ab.AppendDim(a2.GetDim(d));
  for (size_t d = 0; d + 2 < rb; ++d) bb.AppendDim(b2.GetDim(d));
  if (!BroadcastShape(ab, bb, &ob)) return false;
  *out = DimsOf(ob);
  if (a.GetDimNum() > 1) out->push_back(*m);
  if (b.GetDimNum() > 1) out->push_back(*n);
  return true;
}

template <QMatMulIdx kIdx>
ge::graphStatus QMatMulShape(gert::InferShapeContext* ctx) {
  std::vector<int64_t> out;
  int64_t m, n, k;
  if (!MatMulDims(*ctx->GetInputShape(kIdx.a), *ctx->GetInputShape(kIdx.b), &out, &m, &n, &k)) return ge::GRAPH_FAILED;
  SetDims(ctx->GetOutputShape(0), out);
  return ge::GRAPH_SUCCESS;
}

template <QMatMulIdx kIdx, bool kRequant>
ge::graphStatus QMatMulTilingFn(gert::TilingContext* ctx) {
  const gert::Shape& a = ctx->GetInputShape(kIdx.a)->GetStorageShape();
  const gert::Shape& b = ctx->GetInputShape(kIdx.b)->GetStorageShape();
  QMatMulTiling t{};
  std::vector<int64_t> out;
  if (!MatMulDims(a, b, &out, &t.m, &t.n, &t.k)) return ge::GRAPH_FAILED;
  t.a_dtype = ctx->GetInputDesc(kIdx.a)->GetDataType();
  t.b_dtype = ctx->GetInputDesc(kIdx.b)->GetDataType();
  t.y_dtype = ctx->GetOutputDesc(0)->GetDataType();
  t.requant = kRequant;
  t.has_azp = ctx->GetInputShape(kIdx.azp) != nullptr;
  t.has_bzp = ctx->GetInputShape(kIdx.bzp) != nullptr;
  t.azp_dtype = t.has_azp ? ctx->GetInputDesc(kIdx.azp)->GetDataType() : ge::DT_UINT8;
  t.bzp_dtype = t.has_bzp ? ctx->GetInputDesc(kIdx.bzp)->GetDataType() : ge::DT_UINT8;
  t.azp_len = t.has_azp ? ctx->GetInputShape(kIdx.azp)->GetStorageShape().GetShapeSize() : 1;
  t.bzp_len = t.has_bzp ? ctx->GetInputShape(kIdx.bzp)->GetStorageShape().GetShapeSize() : 1;
  if (kRequant) t.sdtype = ctx->GetInputDesc(1)->GetDataType();
  // Batch dims: broadcast strides (in matrices) of A and B over the output batch.
  gert::Shape ab, bb, ob;
  for (size_t d = 0; a.GetDimNum() > 2 && d + 2 < a.GetDimNum(); ++d) ab.AppendDim(a.GetDim(d));
  for (size_t d = 0; b.GetDimNum() > 2 && d + 2 < b.GetDimNum(); ++d) bb.AppendDim(b.GetDim(d));
  BroadcastShape(ab, bb, &ob);
  t.batch_rank = static_cast<int32_t>(ob.GetDimNum());
  if (t.batch_rank > kMaxRank) return ge::GRAPH_FAILED;
  BroadcastStrides(ab, ob, t.a_bstride);
  BroadcastStrides(bb, ob, t.b_bstride);
  t.batches = 1;
  for (int d = 0; d < t.batch_rank; ++d) {
    t.out_batch[d] = ob.GetDim(d);
    t.batches *= ob.GetDim(d);
  }
  uint32_t blocks = ChooseBlockDim(ctx, t.batches * t.m * t.n * t.k, 1 << 16);
  ctx->SetBlockDim(static_cast<uint32_t>(std::min<int64_t>(blocks, std::max<int64_t>(1, t.batches * t.m))));
  return SetTiling(ctx, t);
}

template <QMatMulIdx kIdx>
void QMatMulKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<QMatMulTiling>(args);
  const void* a = args->addrs[kIdx.a];
  const void* b = args->addrs[kIdx.b];
  const void* azp = args->addrs[kIdx.azp];
  const void* bzp = args->addrs[kIdx.bzp];
  int n_in = t.requant ? 8 : 4;
  void* y = args->addrs[n_in];
  double mult = 1;
  int32_t yzp = 0;
  if (t.requant) {
    mult = static_cast<double>(LoadFloat(args->addrs[1], t.sdtype, 0)) * LoadFloat(args->addrs[4], t.sdtype, 0) /
           LoadFloat(args->addrs[6], t.sdtype, 0);
    yzp = args->addrs[7] ? LoadInt(args->addrs[7], t.y_dtype, 0) : 0;
  }
  int64_t rb, re;
  BlockRange(t.batches * t.m, args->blockIdx, args->blockDim, &rb, &re);
  for (int64_t r = rb; r < re; ++r) {
    int64_t bi = r / t.m, i = r % t.m, rem = bi, aoff = 0, boff = 0;
    for (int d = t.batch_rank - 1; d >= 0; --d) {
      int64_t idx = rem % t.out_batch[d];
      rem /= t.out_batch[d];
      aoff += idx * t.a_bstride[d];
      boff += idx * t.b_bstride[d];
    }
    aoff *= t.m * t.k;
    boff *= t.k * t.n;
    int32_t za = t.has_azp ? LoadInt(azp, t.azp_dtype, t.azp_len > 1 ? i : 0) : 0;
    for (int64_t j = 0; j < t.n; ++j) {
      int32_t zb = t.has_bzp ? LoadInt(bzp, t.bzp_dtype, t.bzp_len > 1 ? j : 0) : 0;
      int32_t acc = 0;
      for (int64_t q = 0; q < t.k; ++q)
        acc += (LoadInt(a, t.a_dtype, aoff + i * t.k + q) - za) * (LoadInt(b, t.b_dtype, boff + q * t.n + j) - zb);
      int64_t o = r * t.n + j;
      if (t.requant) {
        StoreQuant(y, t.y_dtype, o, std::nearbyint(acc * mult) + yzp);
      } else {
        static_cast<int32_t*>(y)[o] = acc;
      }
    }
  }
}

ge::graphStatus QLinearDtype(gert::InferDataTypeContext* ctx) {
  ge::DataType zp = ctx->GetInputDataType(7);
  return ctx->SetOutputDataType(0, zp == ge::DT_UNDEFINED ? ge::DT_UINT8 : zp);
}

// ---- ConvInteger / QLinearConv ----------------------------------------------------------------
enum ConvAttr { kAutoPad, kDilations, kGroup, kKernelShape, kPads, kStrides };
constexpr WindowAttrIdx kWinIdx = {kAutoPad, kDilations, kPads, kStrides, -1};

struct QConvTiling {
  Window3d w;
  int64_t n, c, m, group, cg, mg, kvol;
  int32_t x_dtype, w_dtype, y_dtype, xzp_dtype, wzp_dtype, sdtype;
  int32_t has_xzp, has_wzp, has_bias, requant;
  int64_t wzp_len, ws_len;
};
// Inputs: ConvInteger (x, w, xzp, wzp); QLinearConv (x, xs, xzp, w, ws, wzp, ys, yzp, B).
struct QConvIdx {
  int x, w, xzp, wzp, num_in;
};
constexpr QConvIdx kConvIntegerIdx = {0, 1, 2, 3, 4};
constexpr QConvIdx kQLinearConvIdx = {0, 3, 2, 5, 9};

bool ConvGeometry(const gert::Shape& x, const gert::Shape& wt, const gert::RuntimeAttrs* a, Window3d* w) {
  if (x.GetDimNum() < 3 || x.GetDimNum() != wt.GetDimNum()) return false;
  size_t nk = wt.GetDimNum() - 2;
  std::vector<int64_t> ks = AttrInts(a, kKernelShape);
  int64_t k[3];
  for (size_t i = 0; i < nk && i < 3; ++i) k[i] = ks.size() == nk ? ks[i] : wt.GetDim(2 + i);
  return ComputeWindow(x, k, nk, a, kWinIdx, w);
}

template <QConvIdx kIdx>
ge::graphStatus QConvShape(gert::InferShapeContext* ctx) {
  const gert::Shape* x = ctx->GetInputShape(kIdx.x);
  const gert::Shape* wt = ctx->GetInputShape(kIdx.w);
  Window3d w;
  if (!x || !wt || !ConvGeometry(*x, *wt, ctx->GetAttrs(), &w)) return ge::GRAPH_FAILED;
  size_t nk = x->GetDimNum() - 2;
  gert::Shape* y = ctx->GetOutputShape(0);
  *y = gert::Shape({x->GetDim(0), wt->GetDim(0)});
  for (size_t i = 0; i < nk; ++i) y->AppendDim(w.out[3 - nk + i]);
  return ge::GRAPH_SUCCESS;
}

template <QConvIdx kIdx, bool kRequant>
ge::graphStatus QConvTilingFn(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(kIdx.x)->GetStorageShape();
  const gert::Shape& wt = ctx->GetInputShape(kIdx.w)->GetStorageShape();
  QConvTiling t{};
  if (!ConvGeometry(x, wt, ctx->GetAttrs(), &t.w)) return ge::GRAPH_FAILED;
  t.n = x.GetDim(0);
  t.c = x.GetDim(1);
  t.m = wt.GetDim(0);
  t.group = AttrInt(ctx->GetAttrs(), kGroup, 1);
  if (t.group <= 0 || t.c != wt.GetDim(1) * t.group || t.m % t.group != 0) return ge::GRAPH_FAILED;
  t.cg = t.c / t.group;
  t.mg = t.m / t.group;
  t.kvol = t.w.kernel[0] * t.w.kernel[1] * t.w.kernel[2];
  t.x_dtype = ctx->GetInputDesc(kIdx.x)->GetDataType();
  t.w_dtype = ctx->GetInputDesc(kIdx.w)->GetDataType();
  t.y_dtype = ctx->GetOutputDesc(0)->GetDataType();
  t.has_xzp = ctx->GetInputShape(kIdx.xzp) != nullptr;
  t.has_wzp = ctx->GetInputShape(kIdx.wzp) != nullptr;
  t.xzp_dtype = t.has_xzp ? ctx->GetInputDesc(kIdx.xzp)->GetDataType() : ge::DT_UINT8;
  t.wzp_dtype = t.has_wzp ? ctx->GetInputDesc(kIdx.wzp)->GetDataType() : ge::DT_UINT8;
  t.wzp_len = t.has_wzp ? ctx->GetInputShape(kIdx.wzp)->GetStorageShape().GetShapeSize() : 1;
  t.requant = kRequant;
  if (kRequant) {
    t.sdtype = ctx->GetInputDesc(1)->GetDataType();
    t.ws_len = ctx->GetInputShape(4)->GetStorageShape().GetShapeSize();
    t.has_bias = ctx->GetInputShape(8) != nullptr;
  }
  ctx->SetBlockDim(static_cast<uint32_t>(std::min<int64_t>(ctx->GetCoreNum(), std::max<int64_t>(1, t.n * t.m))));
  return SetTiling(ctx, t);
}

template <QConvIdx kIdx>
void QConvKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<QConvTiling>(args);
  const Window3d& w = t.w;
  const void* x = args->addrs[kIdx.x];
  const void* wt = args->addrs[kIdx.w];
  void* y = args->addrs[kIdx.num_in];
  int32_t xzp = t.has_xzp ? LoadInt(args->addrs[kIdx.xzp], t.xzp_dtype, 0) : 0;
  int64_t in_pix = w.in[0] * w.in[1] * w.in[2], out_pix = w.out[0] * w.out[1] * w.out[2];
  int64_t ub, ue;
  BlockRange(t.n * t.m, args->blockIdx, args->blockDim, &ub, &ue);
  for (int64_t u = ub; u < ue; ++u) {
    int64_t n = u / t.m, oc = u % t.m, g = oc / t.mg;
    int32_t wzp = t.has_wzp ? LoadInt(args->addrs[kIdx.wzp], t.wzp_dtype, t.wzp_len > 1 ? oc : 0) : 0;
    double mult = 1;
    int32_t yzp = 0, bias = 0;
    if (t.requant) {
      mult = static_cast<double>(LoadFloat(args->addrs[1], t.sdtype, 0)) *
             LoadFloat(args->addrs[4], t.sdtype, t.ws_len > 1 ? oc : 0) / LoadFloat(args->addrs[6], t.sdtype, 0);
      yzp = args->addrs[7] ? LoadInt(args->addrs[7], t.y_dtype, 0) : 0;
      bias = t.has_bias ? static_cast<const int32_t*>(args->addrs[8])[oc] : 0;
    }
    for (int64_t p = 0; p < out_pix; ++p) {
      const int64_t opos[3] = {p / (w.out[2] * w.out[1]), (p / w.out[2]) % w.out[1], p % w.out[2]};
      // Per dim, the kernel taps inside the input: [klo, khi) (the padding taps contribute
      // nothing; stepping through them ran large pads past libFuzzer's 30 s).
      int64_t base[3], klo[3], khi[3];
      for (int d = 0; d < 3; ++d) {
        base[d] = opos[d] * w.stride[d] - w.pad_begin[d];
        TapsInside(w, d, base[d], &klo[d], &khi[d]);
      }
      int32_t acc = bias;
      for (int64_t ci = 0; ci < t.cg; ++ci) {
        int64_t xbase = (n * t.c + g * t.cg + ci) * in_pix, wbase = (oc * t.cg + ci) * t.kvol;
        for (int64_t kd = klo[0]; kd < khi[0]; ++kd)
          for (int64_t kh = klo[1]; kh < khi[1]; ++kh)
            for (int64_t kw = klo[2]; kw < khi[2]; ++kw) {
              const int64_t id = base[0] + kd * w.dilation[0], ih = base[1] + kh * w.dilation[1],
                            iw = base[2] + kw * w.dilation[2];
              const int64_t r = (kd * w.kernel[1] + kh) * w.kernel[2] + kw;
              int32_t xv = LoadInt(x, t.x_dtype, xbase + (id * w.in[1] + ih) * w.in[2] + iw) - xzp;
              acc += xv * (LoadInt(wt, t.w_dtype, wbase + r) - wzp);
            }
      }
      int64_t o = u * out_pix + p;
      if (t.requant) {
        StoreQuant(y, t.y_dtype, o, std::nearbyint(acc * mult) + yzp);
      } else {
        static_cast<int32_t*>(y)[o] = acc;
      }
    }
  }
}

void ConvAttrs(::ops::OpDef* op) {
  using ::ops::OPTIONAL;
  op->Attr("auto_pad").AttrType(OPTIONAL).String("NOTSET");
  op->Attr("dilations").AttrType(OPTIONAL).ListInt();
  op->Attr("group").AttrType(OPTIONAL).Int(1);
  op->Attr("kernel_shape").AttrType(OPTIONAL).ListInt();
  op->Attr("pads").AttrType(OPTIONAL).ListInt();
  op->Attr("strides").AttrType(OPTIONAL).ListInt();
}

const std::vector<ge::DataType> kQ8 = {ge::DT_INT8, ge::DT_UINT8};

}  // namespace ge::ops_quant

namespace ops {
using namespace ge::ops_quant;

class QuantizeLinear : public OpDef {
 public:
  explicit QuantizeLinear(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16, ge::DT_INT32});
    this->Input("y_scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16});
    this->Input("y_zero_point").ParamType(OPTIONAL).DataType({ge::DT_INT8, ge::DT_UINT8});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_INT8, ge::DT_UINT8});
    this->Attr("axis").AttrType(OPTIONAL).Int(1);
    this->SetInferShape(ge::ops_util::InferShapeSameAsInput0);
    this->SetInferDataType(QuantizeDtype);
    this->AICore().SetTiling(QuantizeTiling).SetKernel(AxisKernel<true>).AddConfig("ascend910b");
  }
};
OP_ADD(QuantizeLinear);

class DequantizeLinear : public OpDef {
 public:
  explicit DequantizeLinear(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_INT8, ge::DT_UINT8, ge::DT_INT32});
    this->Input("x_scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16});
    this->Input("x_zero_point").ParamType(OPTIONAL).DataType({ge::DT_INT8, ge::DT_UINT8, ge::DT_INT32});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Attr("axis").AttrType(OPTIONAL).Int(1);
    this->SetInferShape(ge::ops_util::InferShapeSameAsInput0);
    this->SetInferDataType(FloatDtype);
    this->AICore().SetTiling(DequantizeTiling).SetKernel(AxisKernel<false>).AddConfig("ascend910b");
  }
};
OP_ADD(DequantizeLinear);

class DynamicQuantizeLinear : public OpDef {
 public:
  explicit DynamicQuantizeLinear(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_UINT8});
    this->Output("y_scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Output("y_zero_point").ParamType(REQUIRED).DataType({ge::DT_UINT8});
    this->SetInferShape(DynamicShape);
    this->SetInferDataType(DynamicDtype);
    this->AICore().SetTiling(DynamicTiling).SetKernel(DynamicKernel).AddConfig("ascend910b");
  }
};
OP_ADD(DynamicQuantizeLinear);

class MatMulInteger : public OpDef {
 public:
  explicit MatMulInteger(const char* name) : OpDef(name) {
    this->Input("A").ParamType(REQUIRED).DataType(kQ8);
    this->Input("B").ParamType(REQUIRED).DataType(kQ8);
    this->Input("a_zero_point").ParamType(OPTIONAL).DataType(kQ8);
    this->Input("b_zero_point").ParamType(OPTIONAL).DataType(kQ8);
    this->Output("Y").ParamType(REQUIRED).DataType({ge::DT_INT32});
    this->SetInferShape(QMatMulShape<kMatMulIntegerIdx>);
    this->SetInferDataType(Int32Dtype);
    this->AICore()
        .SetTiling(QMatMulTilingFn<kMatMulIntegerIdx, false>)
        .SetKernel(QMatMulKernel<kMatMulIntegerIdx>)
        .AddConfig("ascend910b");
  }
};
OP_ADD(MatMulInteger);

class QLinearMatMul : public OpDef {
 public:
  explicit QLinearMatMul(const char* name) : OpDef(name) {
    this->Input("a").ParamType(REQUIRED).DataType(kQ8);
    this->Input("a_scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Input("a_zero_point").ParamType(REQUIRED).DataType(kQ8);
    this->Input("b").ParamType(REQUIRED).DataType(kQ8);
    this->Input("b_scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Input("b_zero_point").ParamType(REQUIRED).DataType(kQ8);
    this->Input("y_scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Input("y_zero_point").ParamType(REQUIRED).DataType(kQ8);
    this->Output("y").ParamType(REQUIRED).DataType(kQ8);
    this->SetInferShape(QMatMulShape<kQLinearMatMulIdx>);
    this->SetInferDataType(QLinearDtype);
    this->AICore()
        .SetTiling(QMatMulTilingFn<kQLinearMatMulIdx, true>)
        .SetKernel(QMatMulKernel<kQLinearMatMulIdx>)
        .AddConfig("ascend910b");
  }
};
OP_ADD(QLinearMatMul);

class ConvInteger : public OpDef {
 public:
  explicit ConvInteger(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType(kQ8);
    this->Input("w").ParamType(REQUIRED).DataType(kQ8);
    this->Input("x_zero_point").ParamType(OPTIONAL).DataType(kQ8);
    this->Input("w_zero_point").ParamType(OPTIONAL).DataType(kQ8);
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_INT32});
    ConvAttrs(this);
    this->SetInferShape(QConvShape<kConvIntegerIdx>);
    this->SetInferDataType(Int32Dtype);
    this->AICore()
        .SetTiling(QConvTilingFn<kConvIntegerIdx, false>)
        .SetKernel(QConvKernel<kConvIntegerIdx>)
        .AddConfig("ascend910b");
  }
};
OP_ADD(ConvInteger);

class QLinearConv : public OpDef {
 public:
  explicit QLinearConv(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType(kQ8);
    this->Input("x_scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Input("x_zero_point").ParamType(REQUIRED).DataType(kQ8);
    this->Input("w").ParamType(REQUIRED).DataType(kQ8);
    this->Input("w_scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Input("w_zero_point").ParamType(REQUIRED).DataType(kQ8);
    this->Input("y_scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Input("y_zero_point").ParamType(REQUIRED).DataType(kQ8);
    this->Input("B").ParamType(OPTIONAL).DataType({ge::DT_INT32});
    this->Output("y").ParamType(REQUIRED).DataType(kQ8);
    ConvAttrs(this);
    this->SetInferShape(QConvShape<kQLinearConvIdx>);
    this->SetInferDataType(QLinearDtype);
    this->AICore()
        .SetTiling(QConvTilingFn<kQLinearConvIdx, true>)
        .SetKernel(QConvKernel<kQLinearConvIdx>)
        .AddConfig("ascend910b");
  }
};
OP_ADD(QLinearConv);
}  // namespace ops
