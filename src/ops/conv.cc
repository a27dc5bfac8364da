// Conv (1-D, 2-D, 3-D; groups, dilations, strides, pads/auto_pad, optional bias) and FusedConv
// (Conv + bias + residual Z + activation, made by the optimizer's fusion passes).
// NCHW path: tiling splits (batch, group, output-pixel chunk) units over the cores; each block
// builds the im2col slice of its chunk in its own workspace slot and runs one GEMM into the
// output columns, then the fused epilogue on them. 1x1/stride-1/no-pad convolutions skip im2col
// and read the input directly; depthwise ones (one channel in and out per group) run a direct loop.
// NHWC path (FusedConv with layout "NHWC", set by the layout pass with weights packed at compile
// time): oneDNN primitives per row block (ops/dnnl_conv.h).
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "base/checked_math.h"
#include "ops/dnnl_conv.h"
#include "ops/gemm_util.h"
#include "ops/op_util.h"
#include "ops/spatial_util.h"

namespace ge::ops_conv {
using namespace ge::ops_util;

enum Attr { kAutoPad, kDilations, kGroup, kKernelShape, kPads, kStrides };
constexpr WindowAttrIdx kWinIdx = {kAutoPad, kDilations, kPads, kStrides, -1};

struct ConvTiling {
  Window3d w;
  int64_t n, c, m, group;
  int64_t cg, mg;  // channels / out-channels per group
  int64_t ck;      // cg * kernel volume
  int64_t p;       // output pixels
  int64_t chunk;   // output pixels per unit
  int64_t chunks;  // units per (n, g)
  int32_t has_bias;
  int32_t direct;  // 1x1, stride 1, no pad: no im2col
  // FusedConv epilogue: Y = act(conv + B + Z).
  int32_t has_z;
  int32_t act;  // ConvAct
  float a0, a1;
  int32_t y_index;    // argument index of Y: the node's input count (3 for Conv, 4 or 5 for FusedConv)
  int32_t depthwise;  // 1-D/2-D, one input and one output channel per group: direct loop, no im2col
};

// FusedConv attributes after Conv's six.
enum FusedAttr { kActivation = kStrides + 1, kActivationParams, kLayout, kOutChannels, kPackedWeights };

bool KernelShape(const gert::RuntimeAttrs* attrs, const gert::Shape& wshape, int64_t* k, size_t* nk) {
  if (wshape.GetDimNum() < 3 || wshape.GetDimNum() > 5) return false;  // k holds at most 3 dims
  *nk = wshape.GetDimNum() - 2;
  auto* ks = attrs->GetListInt(kKernelShape);
  for (size_t i = 0; i < *nk; ++i) {
    k[i] = (ks && ks->GetSize() == *nk) ? ks->GetData()[i] : wshape.GetDim(2 + i);
    // The kernels read W by these dims: a kernel_shape that contradicts W is a bad model.
    if (wshape.GetDim(2 + i) >= 0 && k[i] != wshape.GetDim(2 + i)) return false;
  }
  return *nk >= 1 && *nk <= 3;
}

ge::graphStatus InferShape(gert::InferShapeContext* ctx) {
  const gert::Shape* x = ctx->GetInputShape(0);
  const gert::Shape* wt = ctx->GetInputShape(1);
  if (!x || !wt) return InferFail("missing input X or W");
  if (x->GetDimNum() < 3 || x->GetDimNum() > 5 || x->GetDimNum() != wt->GetDimNum())
    return InferFail(fmt::format("expected 3-D to 5-D X and W of the same rank, got X {} and W {}", ShapeToString(*x),
                                 ShapeToString(*wt)));
  int64_t k[3];
  size_t nk;
  Window3d w;
  if (!KernelShape(ctx->GetAttrs(), *wt, k, &nk))
    return InferFail(fmt::format("kernel_shape does not match W {}", ShapeToString(*wt)));
  std::string why;
  if (!ComputeWindow(*x, k, nk, ctx->GetAttrs(), kWinIdx, &w, &why))
    return InferFail(fmt::format("invalid window for X {} and W {}: {}", ShapeToString(*x), ShapeToString(*wt), why));
  int64_t group = *ctx->GetAttrs()->GetInt(kGroup);
  int64_t in_channels = 0;  // W's channels times group, checked (both come from the model)
  if (group <= 0 || !ge::CheckedMul<int64_t>(wt->GetDim(1), group, &in_channels) ||
      (x->GetDim(1) >= 0 && x->GetDim(1) != in_channels))
    return InferFail(fmt::format("expected X channels = W dim 1 ({}) * group ({}), got X {}", wt->GetDim(1), group,
                                 ShapeToString(*x)));
  // The output channels split into the groups too (group 2^31 over 20 output channels made a
  // loop of 20 * 2^31 empty units: past 100 s, onnx_model harness).
  if (wt->GetDim(0) >= 0 && wt->GetDim(0) % group != 0)
    return InferFail(fmt::format("expected W dim 0 ({}) divisible by group ({})", wt->GetDim(0), group));
  gert::Shape* out = ctx->GetOutputShape(0);
  *out = gert::Shape({x->GetDim(0), wt->GetDim(0)});
  for (size_t i = 0; i < nk; ++i) out->AppendDim(w.out[3 - nk + i]);
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus TilingNchw(gert::TilingContext* ctx, ConvTiling t) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  const gert::Shape& wt = ctx->GetInputShape(1)->GetStorageShape();
  if (ctx->GetInputDesc(0)->GetDataType() != ge::DT_FLOAT) return ge::GRAPH_FAILED;
  int64_t k[3];
  size_t nk;
  if (!KernelShape(ctx->GetAttrs(), wt, k, &nk) || !ComputeWindow(x, k, nk, ctx->GetAttrs(), kWinIdx, &t.w))
    return ge::GRAPH_FAILED;
  t.n = x.GetDim(0);
  t.c = x.GetDim(1);
  t.m = wt.GetDim(0);
  t.group = *ctx->GetAttrs()->GetInt(kGroup);
  if (t.group <= 0) return ge::GRAPH_FAILED;
  t.cg = t.c / t.group;
  t.mg = t.m / t.group;
  // Sizes from the model: products checked (a [1, 1, 3, 3, 2^31 - 1] input overflowed the FLOP
  // count, UBSan, onnx_model harness).
  int64_t flops = 0;
  if (!CheckedMul(t.cg, t.w.kernel[0], &t.ck) || !CheckedMul(t.ck, t.w.kernel[1], &t.ck) ||
      !CheckedMul(t.ck, t.w.kernel[2], &t.ck) || !CheckedMul(t.w.out[0], t.w.out[1], &t.p) ||
      !CheckedMul(t.p, t.w.out[2], &t.p) || !CheckedMul(t.n, t.m, &flops) || !CheckedMul(flops, t.p, &flops) ||
      !CheckedMul(flops, t.ck, &flops) || !CheckedMul(t.ck, t.p, &t.chunk))
    return InferFail(fmt::format("the convolution of {} by {} is too large (its sizes overflow 64 bits)",
                                 ShapeToString(x), ShapeToString(wt)));
  t.has_bias = ctx->GetInputShape(2) != nullptr;
  t.direct = 1;
  for (int d = 0; d < 3; ++d)
    if (t.w.kernel[d] != 1 || t.w.stride[d] != 1 || t.w.pad_begin[d] != 0 || t.w.pad_end[d] != 0) t.direct = 0;
  t.depthwise = t.cg == 1 && t.mg == 1 && t.w.kernel[0] == 1 && t.w.in[0] == 1 && t.w.out[0] == 1;
  uint32_t blocks = ChooseBlockDim(ctx, flops, 1 << 18);
  int64_t units_ng = std::max<int64_t>(1, t.n * t.group);  // batch 0: no units, one empty block
  t.chunks = std::max<int64_t>(1, (blocks + units_ng - 1) / units_ng);
  t.chunk = std::max<int64_t>(1, (t.p + t.chunks - 1) / t.chunks);
  t.chunks = std::max<int64_t>(1, (t.p + t.chunk - 1) / t.chunk);
  blocks = static_cast<uint32_t>(std::max<int64_t>(1, std::min<int64_t>(blocks, units_ng * t.chunks)));
  ctx->SetBlockDim(blocks);
  ctx->GetWorkspaceSizes(1)[0] =
      t.direct || t.depthwise ? 0 : static_cast<size_t>(blocks) * t.ck * t.chunk * sizeof(float);
  return SetTiling(ctx, t);
}

ge::graphStatus Tiling(gert::TilingContext* ctx) {
  ConvTiling t{};
  t.y_index = 3;
  return TilingNchw(ctx, t);
}

// col[r, j] for r in [0, ck), output pixel p0 + j.
void Im2Col(const ConvTiling& t, const float* x, int64_t p0, int64_t len, float* col) {
  const Window3d& w = t.w;
  for (int64_t r = 0; r < t.ck; ++r) {
    int64_t kw = r % w.kernel[2], kh = (r / w.kernel[2]) % w.kernel[1];
    int64_t kd = (r / (w.kernel[2] * w.kernel[1])) % w.kernel[0], c = r / (w.kernel[2] * w.kernel[1] * w.kernel[0]);
    const float* xc = x + c * w.in[0] * w.in[1] * w.in[2];
    float* dst = col + r * len;
    for (int64_t j = 0; j < len; ++j) {
      int64_t p = p0 + j;
      int64_t ow = p % w.out[2], oh = (p / w.out[2]) % w.out[1], od = p / (w.out[2] * w.out[1]);
      int64_t id = od * w.stride[0] - w.pad_begin[0] + kd * w.dilation[0];
      int64_t ih = oh * w.stride[1] - w.pad_begin[1] + kh * w.dilation[1];
      int64_t iw = ow * w.stride[2] - w.pad_begin[2] + kw * w.dilation[2];
      bool in = id >= 0 && id < w.in[0] && ih >= 0 && ih < w.in[1] && iw >= 0 && iw < w.in[2];
      dst[j] = in ? xc[(id * w.in[1] + ih) * w.in[2] + iw] : 0.f;
    }
  }
}

// Depthwise: output pixels [p0, p0 + len) of one channel plane xg (weights wg, KH x KW), row
// segment by row segment; per tap, the output columns whose input column is inside are one
// contiguous run (vectorized for stride 1). An im2col with one GEMM row per channel ran
// shufflenet_v2's 58x28x28 3x3 depthwise convolutions in 2.7 ms.
void DepthwiseChunk(const ConvTiling& t, const float* xg, const float* wg, float bias, int64_t p0, int64_t len,
                    float* yg) {
  const Window3d& w = t.w;
  const int64_t out_w = w.out[2], in_h = w.in[1], in_w = w.in[2], sw = w.stride[2];
  for (int64_t j = 0; j < len; ++j) yg[j] = bias;
  for (int64_t p = p0; p < p0 + len;) {
    const int64_t oh = p / out_w, ow0 = p % out_w, ow1 = std::min(out_w, ow0 + (p0 + len - p));
    float* yr = yg + (p - p0);  // yr[ow - ow0]
    for (int64_t kh = 0; kh < w.kernel[1]; ++kh) {
      const int64_t ih = oh * w.stride[1] - w.pad_begin[1] + kh * w.dilation[1];
      if (ih < 0 || ih >= in_h) continue;
      const float* xr = xg + ih * in_w;
      for (int64_t kw = 0; kw < w.kernel[2]; ++kw) {
        const int64_t off = kw * w.dilation[2] - w.pad_begin[2];  // input column ow * sw + off
        const int64_t lo = std::max(ow0, off >= 0 ? 0 : (-off + sw - 1) / sw);
        const int64_t hi = std::min(ow1, in_w - off <= 0 ? 0 : (in_w - off - 1) / sw + 1);
        const float wv = wg[kh * w.kernel[2] + kw];
        if (sw == 1) {
          for (int64_t ow = lo; ow < hi; ++ow) yr[ow - ow0] += wv * xr[ow + off];
        } else {
          for (int64_t ow = lo; ow < hi; ++ow) yr[ow - ow0] += wv * xr[ow * sw + off];
        }
      }
    }
    p += ow1 - ow0;
  }
}

void Kernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<ConvTiling>(args);
  const auto* x = static_cast<const float*>(args->addrs[0]);
  const auto* wt = static_cast<const float*>(args->addrs[1]);
  const auto* bias = static_cast<const float*>(args->addrs[2]);
  const auto* z = t.has_z ? static_cast<const float*>(args->addrs[3]) : nullptr;
  auto* y = static_cast<float*>(args->addrs[t.y_index]);
  float* col = t.direct || t.depthwise
                   ? nullptr
                   : static_cast<float*>(args->addrs[t.y_index + 1]) + args->blockIdx * t.ck * t.chunk;
  auto act = static_cast<ConvAct>(t.act);
  int64_t in_pix = t.w.in[0] * t.w.in[1] * t.w.in[2];
  int64_t ub, ue;
  BlockRange(t.n * t.group * t.chunks, args->blockIdx, args->blockDim, &ub, &ue);
  for (int64_t u = ub; u < ue; ++u) {
    int64_t ng = u / t.chunks, chunk = u % t.chunks, n = ng / t.group, g = ng % t.group;
    int64_t p0 = chunk * t.chunk, len = std::min(t.chunk, t.p - p0);
    if (len <= 0) continue;
    const float* xg = x + (n * t.c + g * t.cg) * in_pix;
    float* yg = y + (n * t.m + g * t.mg) * t.p + p0;
    if (t.depthwise) {
      DepthwiseChunk(t, xg, wt + g * t.ck, t.has_bias ? bias[g] : 0.f, p0, len, yg);
    } else {
      const float* b = xg + p0;
      int64_t ldb = t.p;
      if (!t.direct) {
        Im2Col(t, xg, p0, len, col);
        b = col;
        ldb = len;
      }
      for (int64_t oc = 0; oc < t.mg; ++oc) {
        float v = t.has_bias ? bias[g * t.mg + oc] : 0.f;
        for (int64_t j = 0; j < len; ++j) yg[oc * t.p + j] = v;
      }
      Sgemm(false, false, t.mg, len, t.ck, 1.f, wt + g * t.mg * t.ck, t.ck, b, ldb, 1.f, yg, t.p);
    }
    if (!z && act == ConvAct::kNone) continue;
    const float* zg = z ? z + (yg - y) : nullptr;
    for (int64_t oc = 0; oc < t.mg; ++oc)
      for (int64_t j = 0; j < len; ++j) {
        float v = yg[oc * t.p + j] + (zg ? zg[oc * t.p + j] : 0.f);
        yg[oc * t.p + j] = ApplyConvAct(act, t.a0, t.a1, v);
      }
  }
}

// ---- FusedConv -------------------------------------------------------------------------------

bool IsNhwc(const gert::RuntimeAttrs* a) { return AttrStr(a, kLayout, "NCHW") == "NHWC"; }

// NCHW view of an NHWC shape.
gert::Shape NhwcToNchw(const gert::Shape& s) {
  if (s.GetDimNum() != 4) return s;
  return gert::Shape({s.GetDim(0), s.GetDim(3), s.GetDim(1), s.GetDim(2)});
}

// The logical OIHW weight shape: W's own shape, or (packed weights) out_channels and kernel_shape.
bool LogicalWeightShape(const gert::RuntimeAttrs* a, const gert::Shape& w, int64_t c, gert::Shape* out) {
  if (AttrInt(a, kPackedWeights, 0) == 0) {
    *out = w;
    return true;
  }
  std::vector<int64_t> k = AttrInts(a, kKernelShape);
  int64_t m = AttrInt(a, kOutChannels, 0), group = AttrInt(a, kGroup, 1);
  if (k.size() != 2 || m <= 0 || group <= 0 || c % group != 0) return false;
  *out = gert::Shape({m, c / group, k[0], k[1]});
  return true;
}

bool ParseAct(const gert::RuntimeAttrs* a, ConvTiling* t) {
  ConvAct act;
  if (!ParseActivation(AttrStr(a, kActivation, ""), AttrFloats(a, kActivationParams), &act, &t->a0, &t->a1))
    return false;
  t->act = static_cast<int32_t>(act);
  return true;
}

ge::graphStatus FusedInferShape(gert::InferShapeContext* ctx) {
  const auto* a = ctx->GetAttrs();
  const gert::Shape* x = ctx->GetInputShape(0);
  const gert::Shape* wt = ctx->GetInputShape(1);
  if (!x || !wt) return InferFail("missing input X or W");
  bool nhwc = IsNhwc(a);
  gert::Shape xs = nhwc ? NhwcToNchw(*x) : *x, ws;
  if (xs.GetDimNum() < 3 || !LogicalWeightShape(a, *wt, xs.GetDim(1), &ws) || xs.GetDimNum() != ws.GetDimNum())
    return ge::GRAPH_FAILED;
  int64_t k[3];
  size_t nk;
  Window3d w;
  if (!KernelShape(a, ws, k, &nk) || !ComputeWindow(xs, k, nk, a, kWinIdx, &w)) return ge::GRAPH_FAILED;
  int64_t group = *a->GetInt(kGroup);
  int64_t in_channels = 0;
  if (group <= 0 || !ge::CheckedMul<int64_t>(ws.GetDim(1), group, &in_channels) ||
      (xs.GetDim(1) >= 0 && xs.GetDim(1) != in_channels) || (ws.GetDim(0) >= 0 && ws.GetDim(0) % group != 0))
    return ge::GRAPH_FAILED;
  gert::Shape* out = ctx->GetOutputShape(0);
  *out = gert::Shape({xs.GetDim(0), ws.GetDim(0)});
  for (size_t i = 0; i < nk; ++i) out->AppendDim(w.out[3 - nk + i]);
  if (nhwc) *out = gert::Shape({out->GetDim(0), out->GetDim(2), out->GetDim(3), out->GetDim(1)});
  if (const gert::Shape* sc = ctx->GetInputShape(4)) {  // X's per-channel scale (NHWC only)
    const int64_t c = xs.GetDim(1);
    if (!nhwc || sc->GetDimNum() != 4 || sc->GetDim(1) != 1 || sc->GetDim(2) != 1 ||
        (c >= 0 && sc->GetDim(3) >= 0 && sc->GetDim(3) != c))
      return InferFail(fmt::format("expected the input scale S to be [N or 1, 1, 1, {}] on an NHWC FusedConv, got {}",
                                   c, ShapeToString(*sc)));
  }
  if (ctx->GetComputeNodeOutputNum() > 1) {  // R: Y's row means (FusedConvRowMeans, NHWC only)
    if (!nhwc) return InferFail("the row means R are only for the NHWC layout");
    *ctx->GetOutputShape(1) = gert::Shape({out->GetDim(0), out->GetDim(1), 1, out->GetDim(3)});
  }
  const gert::Shape* z = ctx->GetInputShape(3);  // the residual is read element for element
  bool z_ok = z == nullptr || z->GetDimNum() == out->GetDimNum();
  for (size_t i = 0; z_ok && z && i < out->GetDimNum(); ++i)
    z_ok = z->GetDim(i) < 0 || out->GetDim(i) < 0 || z->GetDim(i) == out->GetDim(i);
  if (!z_ok)
    return InferFail(fmt::format("expected the residual Z to have the output's shape {}, got {}", ShapeToString(*out),
                                 ShapeToString(*z)));
  return ge::GRAPH_SUCCESS;
}

struct NhwcTiling {
  int32_t nhwc;  // 1: first member, shared with ConvTiling's layout check in the kernel
  int32_t has_bias, has_z;
  int32_t has_s, s_per_image;  // input S (X's per-channel scale) present; one per image
  int32_t y_index;             // Y's argument index: the node's input count (absent optional inputs included)
  int32_t has_r;               // output R (Y's row means) present, at y_index + 1
  int64_t images;
  const DnnlConvPlan* plan;  // process-wide cache (ops/dnnl_conv.h): valid for the process
};

// The oneDNN parameters of an NHWC FusedConv from its attributes, its NHWC input shape and its
// logical OIHW weight shape (false when not 2-D or inconsistent).
bool NhwcParams(const gert::RuntimeAttrs* a, const gert::Shape& x, const gert::Shape& ws, bool has_bias, bool has_z,
                DnnlConvParams* p) {
  gert::Shape xs = NhwcToNchw(x);
  int64_t k[3];
  size_t nk;
  Window3d w;
  if (x.GetDimNum() != 4 || ws.GetDimNum() != 4) return false;
  if (!KernelShape(a, ws, k, &nk) || nk != 2 || !ComputeWindow(xs, k, nk, a, kWinIdx, &w)) return false;
  ConvTiling act{};
  if (!ParseAct(a, &act)) return false;
  *p = DnnlConvParams{};
  p->n = x.GetDim(0), p->h = x.GetDim(1), p->w = x.GetDim(2), p->c = x.GetDim(3);
  p->m = ws.GetDim(0), p->group = AttrInt(a, kGroup, 1);
  p->kh = k[0], p->kw = k[1], p->sh = w.stride[1], p->sw = w.stride[2], p->dh = w.dilation[1], p->dw = w.dilation[2];
  p->pt = w.pad_begin[1], p->pl = w.pad_begin[2], p->pb = w.pad_end[1], p->pr = w.pad_end[2];
  p->oh = w.out[1], p->ow = w.out[2];
  p->act = act.act, p->a0 = act.a0, p->a1 = act.a1;
  p->has_bias = has_bias;
  p->has_z = has_z;
  // A batch of 0 is fine (plans are per image); empty spatial dims have no primitive.
  int64_t in_channels = 0;
  return p->n >= 0 && p->oh > 0 && p->ow > 0 && p->group > 0 &&
         ge::CheckedMul<int64_t>(ws.GetDim(1), p->group, &in_channels) && p->c == in_channels;
}

ge::graphStatus FusedTiling(gert::TilingContext* ctx) {
  const auto* a = ctx->GetAttrs();
  if (!IsNhwc(a)) {
    if (ctx->GetInputShape(4) != nullptr) return InferFail("the input scale S is only for the NHWC layout");
    if (ctx->GetComputeNodeOutputNum() > 1) return InferFail("the row means R are only for the NHWC layout");
    ConvTiling t{};
    t.y_index = static_cast<int32_t>(ctx->GetComputeNodeInputNum());  // Y follows the last input (Z, or S when padded)
    t.has_z = ctx->GetInputShape(3) != nullptr;
    if (!ParseAct(a, &t)) return ge::GRAPH_FAILED;
    return TilingNchw(ctx, t);
  }
  DnnlConvParams p;
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  gert::Shape ws;
  if (AttrInt(a, kPackedWeights, 0) == 0 || x.GetDimNum() != 4 ||
      !LogicalWeightShape(a, ctx->GetInputShape(1)->GetStorageShape(), x.GetDim(3), &ws) ||
      !NhwcParams(a, x, ws, ctx->GetInputShape(2) != nullptr, ctx->GetInputShape(3) != nullptr, &p))
    return ge::GRAPH_FAILED;
  NhwcTiling t{};
  t.nhwc = 1;
  t.plan = GetDnnlConvPlan(p, OversplitBlocks(ctx->GetCoreNum()));
  if (t.plan == nullptr) return InferFail("no convolution kernel: " + DnnlConvRefusal(p));
  // The packed weights must be exactly what the plan's primitives read.
  const int64_t packed = ctx->GetInputShape(1)->GetStorageShape().GetShapeSize();
  if (packed != static_cast<int64_t>(PackedConvWeightsSize(p)))
    return InferFail(fmt::format("expected the packed weights W to hold {} floats for this convolution, got {}",
                                 PackedConvWeightsSize(p), packed));
  t.has_bias = p.has_bias;
  t.has_z = p.has_z;
  t.images = p.n;
  t.y_index = static_cast<int32_t>(ctx->GetComputeNodeInputNum());
  t.has_r = ctx->GetComputeNodeOutputNum() > 1;
  if (const gert::StorageShape* sc = ctx->GetInputShape(4)) {
    const gert::Shape& ss = sc->GetStorageShape();
    if (ss.GetDimNum() != 4 || ss.GetDim(1) != 1 || ss.GetDim(2) != 1 || ss.GetDim(3) != p.c ||
        (ss.GetDim(0) != 1 && ss.GetDim(0) != p.n))
      return InferFail(
          fmt::format("expected the input scale S to be [{} or 1, 1, 1, {}], got {}", p.n, p.c, ShapeToString(ss)));
    t.has_s = 1;
    t.s_per_image = ss.GetDim(0) == p.n && p.n > 1;
  }
  ctx->SetBlockDim(DnnlConvPlanBlocks(t.plan));
  ctx->GetWorkspaceSizes(1)[0] = 0;
  return SetTiling(ctx, t);
}

// ---- ConvWeightPack: OIHW weights -> the packed layout of an NHWC FusedConv's primitive ------
// Attributes: FusedConv's, then x_shape (the conv's NHWC input shape), has_bias, has_z. Its
// input is a constant, so constant folding runs it once at compile time.
enum PackAttr { kXShape = kPackedWeights + 1, kHasBias, kHasZ };

bool PackParams(const gert::RuntimeAttrs* a, const gert::Shape& w, DnnlConvParams* p) {
  std::vector<int64_t> xs = AttrInts(a, kXShape);
  if (xs.size() != 4) return false;
  gert::Shape x({xs[0], xs[1], xs[2], xs[3]});
  return NhwcParams(a, x, w, AttrInt(a, kHasBias, 0) != 0, AttrInt(a, kHasZ, 0) != 0, p);
}

ge::graphStatus PackInferShape(gert::InferShapeContext* ctx) {
  DnnlConvParams p;
  const gert::Shape* w = ctx->GetInputShape(0);
  if (!w || !PackParams(ctx->GetAttrs(), *w, &p)) return ge::GRAPH_FAILED;
  size_t n = PackedConvWeightsSize(p);
  if (n == 0) return ge::GRAPH_FAILED;
  *ctx->GetOutputShape(0) = gert::Shape({static_cast<int64_t>(n)});
  return ge::GRAPH_SUCCESS;
}

struct PackTiling {
  DnnlConvParams p;
};

ge::graphStatus PackTilingFunc(gert::TilingContext* ctx) {
  PackTiling t{};
  if (!PackParams(ctx->GetAttrs(), ctx->GetInputShape(0)->GetStorageShape(), &t.p)) return ge::GRAPH_FAILED;
  ctx->SetBlockDim(1);
  return SetTiling(ctx, t);
}

void PackKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<PackTiling>(args);
  PackConvWeights(t.p, static_cast<const float*>(args->addrs[0]), static_cast<float*>(args->addrs[1]));
}

void FusedKernel(const aclrtKernelArgs* args) {
  if (args->tilingSize == sizeof(NhwcTiling) && GetTiling<NhwcTiling>(args).nhwc == 1) {
    const auto& t = GetTiling<NhwcTiling>(args);
    // X, W, B, Z, [S,] Y: Y follows the node's last input.
    RunDnnlConv(t.plan, args->blockIdx, t.images, static_cast<const float*>(args->addrs[0]),
                static_cast<const float*>(args->addrs[1]), static_cast<const float*>(args->addrs[2]),
                t.has_z ? static_cast<const float*>(args->addrs[3]) : nullptr,
                static_cast<float*>(args->addrs[t.y_index]),
                t.has_s ? static_cast<const float*>(args->addrs[4]) : nullptr, t.s_per_image != 0,
                t.has_r ? static_cast<float*>(args->addrs[t.y_index + 1]) : nullptr);
    return;
  }
  Kernel(args);
}

}  // namespace ge::ops_conv

namespace ops {
using namespace ge::ops_conv;
class Conv : public OpDef {
 public:
  explicit Conv(const char* name) : OpDef(name) {
    this->Input("X").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_NCHW});
    this->Input("W").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Input("B").ParamType(OPTIONAL).DataType({ge::DT_FLOAT});
    this->Output("Y").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Attr("auto_pad").AttrType(OPTIONAL).String("NOTSET");
    this->Attr("dilations").AttrType(OPTIONAL).ListInt();
    this->Attr("group").AttrType(OPTIONAL).Int(1);
    this->Attr("kernel_shape").AttrType(OPTIONAL).ListInt();
    this->Attr("pads").AttrType(OPTIONAL).ListInt();
    this->Attr("strides").AttrType(OPTIONAL).ListInt();
    this->SetInferShape(InferShape);
    this->SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    this->Macs(MacsRule::kConvolution);
    this->AICore().SetTiling(Tiling).SetKernel(Kernel).AddConfig("ascend910b");
  }
};
OP_ADD(Conv);

// FusedConv's attributes (Conv's six, then the fused ones), shared by ConvWeightPack so that
// both read them at the same indices.
void AddFusedConvAttrs(OpDef* op, const char* layout) {
  op->Attr("auto_pad").AttrType(OPTIONAL).String("NOTSET");
  op->Attr("dilations").AttrType(OPTIONAL).ListInt();
  op->Attr("group").AttrType(OPTIONAL).Int(1);
  op->Attr("kernel_shape").AttrType(OPTIONAL).ListInt();
  op->Attr("pads").AttrType(OPTIONAL).ListInt();
  op->Attr("strides").AttrType(OPTIONAL).ListInt();
  op->Attr("activation").AttrType(OPTIONAL).String("");
  op->Attr("activation_params").AttrType(OPTIONAL).ListFloat();
  op->Attr("layout").AttrType(OPTIONAL).String(layout);
  op->Attr("out_channels").AttrType(OPTIONAL).Int(0);
  op->Attr("packed_weights").AttrType(OPTIONAL).Int(0);
}

// FusedConv and FusedConvRowMeans: the same inputs, attributes and functions; the second adds R.
void DefineFusedConv(OpDef* op, const char* layout, bool row_means) {
  op->Input("X").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
  op->Input("W").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
  op->Input("B").ParamType(OPTIONAL).DataType({ge::DT_FLOAT});
  op->Input("Z").ParamType(OPTIONAL).DataType({ge::DT_FLOAT});
  // NHWC only: X's per-channel scale, [N or 1, 1, 1, C] (conv-input-scale-fusion: Y = conv(X * S)).
  op->Input("S").ParamType(OPTIONAL).DataType({ge::DT_FLOAT});
  op->Output("Y").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
  if (row_means) op->Output("R").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
  AddFusedConvAttrs(op, layout);
  // NHWC: Z is oneDNN's sum post-op on Y, read element for element where Y is written. NCHW
  // (the generic kernel) adds Z after the convolution has written Y.
  op->OutputInplace(0, 3, "layout", "NHWC");
  op->Macs(OpDef::MacsRule::kConvolution);
  op->SetInferShape(FusedInferShape);
  op->SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
  op->AICore().SetTiling(FusedTiling).SetKernel(FusedKernel).AddConfig("ascend910b");
}

// Conv + bias + residual Z + activation: Y = activation(conv(X, W) + B + Z). Made by the fusion
// passes, never by a frontend. layout "NHWC" (set by the layout pass): X, Z and Y are NHWC and W
// holds weights packed for the oneDNN primitive (packed_weights = 1; out_channels and
// kernel_shape then give the logical weight shape).
class FusedConv : public OpDef {
 public:
  explicit FusedConv(const char* name) : OpDef(name) { DefineFusedConv(this, "NCHW", false); }
};
OP_ADD(FusedConv);

// An NHWC FusedConv that also gives the mean of each of Y's rows, R [N, OH, 1, M], computed by
// each block over the rows it has just written (conv-row-mean-fusion: a global average pool of Y
// then reads these OH x M floats instead of Y). R is not an optional output of FusedConv so that
// the passes that match a FusedConv by its single output never see a padded second one.
class FusedConvRowMeans : public OpDef {
 public:
  explicit FusedConvRowMeans(const char* name) : OpDef(name) { DefineFusedConv(this, "NHWC", true); }
};
OP_ADD(FusedConvRowMeans);

#ifdef GE_HAVE_DNNL
// Registered only where the NHWC path exists: the layout pass converts convolutions only then.
class ConvWeightPack : public OpDef {
 public:
  explicit ConvWeightPack(const char* name) : OpDef(name) {
    this->Input("W").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Output("packed").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    AddFusedConvAttrs(this, "NHWC");
    this->Attr("x_shape").AttrType(REQUIRED).ListInt();
    this->Attr("has_bias").AttrType(OPTIONAL).Int(0);
    this->Attr("has_z").AttrType(OPTIONAL).Int(0);
    this->SetInferShape(PackInferShape);
    this->SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    this->AICore().SetTiling(PackTilingFunc).SetKernel(PackKernel).AddConfig("ascend910b");
  }
};
OP_ADD(ConvWeightPack);
#endif
}  // namespace ops
