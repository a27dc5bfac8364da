// PoolNhwc: 2-D max / average / global average pooling on NHWC float tensors, made by the
// layout pass from MaxPool (without Indices), AveragePool and GlobalAveragePool so that the activations between
// convolutions stay NHWC. The inner loops run over the contiguous channels (vectorized by the compiler). Tiling splits
// the N x OH output rows over the cores.
#include <algorithm>
#include <limits>

#include "ops/op_util.h"
#include "ops/spatial_util.h"

namespace ge::ops_pool_nhwc {
using namespace ge::ops_util;

enum Attr { kAutoPad, kCeilMode, kDilations, kKernelShape, kPads, kStrides, kMode, kCountIncludePad };
constexpr WindowAttrIdx kWinIdx = {kAutoPad, kDilations, kPads, kStrides, kCeilMode};

struct PoolNhwcTiling {
  Window3d w;
  int64_t n, c;
  int32_t is_max, include_pad;
};

bool MakeWindow(const gert::Shape& x, const gert::RuntimeAttrs* a, Window3d* w) {
  auto k = AttrInts(a, kKernelShape);
  if (AttrStr(a, kMode, "max") == "global_avg" && x.GetDimNum() == 4) k = {x.GetDim(1), x.GetDim(2)};
  if (x.GetDimNum() != 4 || k.size() != 2) return false;
  gert::Shape nchw({x.GetDim(0), x.GetDim(3), x.GetDim(1), x.GetDim(2)});
  return ComputeWindow(nchw, k.data(), k.size(), a, kWinIdx, w);
}

ge::graphStatus InferShape(gert::InferShapeContext* ctx) {
  const gert::Shape* x = ctx->GetInputShape(0);
  Window3d w;
  if (!x || !MakeWindow(*x, ctx->GetAttrs(), &w)) return ge::GRAPH_FAILED;
  *ctx->GetOutputShape(0) = gert::Shape({x->GetDim(0), w.out[1], w.out[2], x->GetDim(3)});
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus Tiling(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  PoolNhwcTiling t{};
  if (!MakeWindow(x, ctx->GetAttrs(), &t.w)) return ge::GRAPH_FAILED;
  t.n = x.GetDim(0);
  t.c = x.GetDim(3);
  std::string mode = AttrStr(ctx->GetAttrs(), kMode, "max");
  if (mode != "max" && mode != "avg" && mode != "global_avg") return ge::GRAPH_FAILED;
  t.is_max = mode == "max";
  t.include_pad = static_cast<int32_t>(AttrInt(ctx->GetAttrs(), kCountIncludePad, 0));
  int64_t rows = t.n * t.w.out[1];
  const int64_t work = WorkProduct({rows, t.w.out[2], t.c, t.w.kernel[1], t.w.kernel[2]});
  ctx->SetBlockDim(
      static_cast<uint32_t>(std::min<int64_t>(ChooseBlockDim(ctx, work, 1 << 15), std::max<int64_t>(rows, 1))));
  return SetTiling(ctx, t);
}

// One output pixel's channels [c0, c0 + kVecs * 16): the window accumulates in vector registers
// (GCC vector extensions; the output is stored once, not read and written per tap). Max keeps
// std::max's order: a NaN already in the accumulator stays.
using V16 = float __attribute__((vector_size(64)));

// Unaligned loads and stores (NHWC rows are only float-aligned).
inline V16 LoadV16(const float* p) {
  V16 v;
  __builtin_memcpy(&v, p, sizeof(v));
  return v;
}
inline void StoreV16(float* p, V16 v) { __builtin_memcpy(p, &v, sizeof(v)); }

template <bool kMax, int kVecs>
inline void PoolVecs(const float* xn, int64_t iw, int64_t c, int64_t y0, int64_t x0, int64_t ky0, int64_t ky1,
                     int64_t kx0, int64_t kx1, const Window3d& w, float* out) {
  V16 acc[kVecs];
  for (int v = 0; v < kVecs; ++v) acc[v] = V16{} + (kMax ? -std::numeric_limits<float>::infinity() : 0.f);
  for (int64_t ky = ky0; ky < ky1; ++ky)
    for (int64_t kx = kx0; kx < kx1; ++kx) {
      const float* in = xn + ((y0 + ky * w.dilation[1]) * iw + x0 + kx * w.dilation[2]) * c;
      for (int v = 0; v < kVecs; ++v) {
        const V16 x = LoadV16(in + 16 * v);
        if constexpr (kMax)
          acc[v] = acc[v] < x ? x : acc[v];
        else
          acc[v] += x;
      }
    }
  for (int v = 0; v < kVecs; ++v) StoreV16(out + 16 * v, acc[v]);
}

// Channels [c0, c0 + n), n < 16, one at a time.
template <bool kMax>
void PoolTail(const float* xn, int64_t iw, int64_t c, int64_t y0, int64_t x0, int64_t ky0, int64_t ky1, int64_t kx0,
              int64_t kx1, const Window3d& w, int64_t n, float* out) {
  for (int64_t j = 0; j < n; ++j) {
    float acc = kMax ? -std::numeric_limits<float>::infinity() : 0.f;
    for (int64_t ky = ky0; ky < ky1; ++ky)
      for (int64_t kx = kx0; kx < kx1; ++kx) {
        const float x = xn[((y0 + ky * w.dilation[1]) * iw + x0 + kx * w.dilation[2]) * c + j];
        acc = kMax ? std::max(acc, x) : acc + x;
      }
    out[j] = acc;
  }
}

template <bool kMax>
void PoolPixel(const float* xn, int64_t iw, int64_t c, int64_t y0, int64_t x0, int64_t ky0, int64_t ky1, int64_t kx0,
               int64_t kx1, const Window3d& w, float* out) {
  int64_t c0 = 0;
  for (; c0 + 64 <= c; c0 += 64) PoolVecs<kMax, 4>(xn + c0, iw, c, y0, x0, ky0, ky1, kx0, kx1, w, out + c0);
  for (; c0 + 16 <= c; c0 += 16) PoolVecs<kMax, 1>(xn + c0, iw, c, y0, x0, ky0, ky1, kx0, kx1, w, out + c0);
  if (c0 < c) PoolTail<kMax>(xn + c0, iw, c, y0, x0, ky0, ky1, kx0, kx1, w, c - c0, out + c0);
}

void Kernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<PoolNhwcTiling>(args);
  const Window3d& w = t.w;
  const auto* x = static_cast<const float*>(args->addrs[0]);
  auto* y = static_cast<float*>(args->addrs[1]);
  const int64_t ih = w.in[1], iw = w.in[2], oh = w.out[1], ow = w.out[2], c = t.c;
  int64_t rb, re;
  BlockRange(t.n * oh, args->blockIdx, args->blockDim, &rb, &re);
  for (int64_t r = rb; r < re; ++r) {
    int64_t n = r / oh, oy = r % oh;
    const float* xn = x + n * ih * iw * c;
    int64_t y0 = oy * w.stride[1] - w.pad_begin[1];
    int64_t ky0, ky1;
    TapsInside(w, 1, y0, &ky0, &ky1);
    for (int64_t ox = 0; ox < ow; ++ox) {
      float* out = y + ((n * oh + oy) * ow + ox) * c;
      int64_t x0 = ox * w.stride[2] - w.pad_begin[2];
      int64_t kx0, kx1;
      TapsInside(w, 2, x0, &kx0, &kx1);
      if (t.is_max)
        PoolPixel<true>(xn, iw, c, y0, x0, ky0, ky1, kx0, kx1, w, out);
      else
        PoolPixel<false>(xn, iw, c, y0, x0, ky0, ky1, kx0, kx1, w, out);
      if (t.is_max) continue;
      int64_t div = std::max<int64_t>(ky1 - ky0, 0) * std::max<int64_t>(kx1 - kx0, 0);  // taps inside
      if (t.include_pad) {  // the window clipped to the padded input, as ONNX counts it
        int64_t ye = std::min(y0 + (w.kernel[1] - 1) * w.dilation[1] + 1, ih + w.pad_end[1]);
        int64_t xe = std::min(x0 + (w.kernel[2] - 1) * w.dilation[2] + 1, iw + w.pad_end[2]);
        div = (ye - std::max(y0, -w.pad_begin[1])) * (xe - std::max(x0, -w.pad_begin[2]));
      }
      float inv = 1.f / static_cast<float>(std::max<int64_t>(div, 1));
      for (int64_t ch = 0; ch < c; ++ch) out[ch] *= inv;
    }
  }
}

}  // namespace ge::ops_pool_nhwc

namespace ops {
class PoolNhwc : public OpDef {
 public:
  explicit PoolNhwc(const char* name) : OpDef(name) {
    using namespace ge::ops_pool_nhwc;
    this->Input("X").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Output("Y").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Attr("auto_pad").AttrType(OPTIONAL).String("NOTSET");
    this->Attr("ceil_mode").AttrType(OPTIONAL).Int(0);
    this->Attr("dilations").AttrType(OPTIONAL).ListInt();
    this->Attr("kernel_shape").AttrType(OPTIONAL).ListInt();  // not for global_avg
    this->Attr("pads").AttrType(OPTIONAL).ListInt();
    this->Attr("strides").AttrType(OPTIONAL).ListInt();
    this->Attr("mode").AttrType(OPTIONAL).String("max");  // max | avg | global_avg
    this->Attr("count_include_pad").AttrType(OPTIONAL).Int(0);
    this->SetInferShape(InferShape);
    this->SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    this->AICore().SetTiling(Tiling).SetKernel(Kernel).AddConfig("ascend910b");
  }
};
OP_ADD(PoolNhwc);
}  // namespace ops
