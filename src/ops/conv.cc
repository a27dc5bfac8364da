// Conv (1-D, 2-D, 3-D; groups, dilations, strides, pads/auto_pad, optional bias).
// Tiling splits (batch, group, output-pixel chunk) units over the cores; each block builds the
// im2col slice of its chunk in its own workspace slot and runs one GEMM into the output
// columns. 1x1/stride-1/no-pad convolutions skip im2col and read the input directly.
#include <cstring>

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
};

bool KernelShape(const gert::RuntimeAttrs* attrs, const gert::Shape& wshape, int64_t* k, size_t* nk) {
  *nk = wshape.GetDimNum() - 2;
  auto* ks = attrs->GetListInt(kKernelShape);
  for (size_t i = 0; i < *nk; ++i) k[i] = (ks && ks->GetSize() == *nk) ? ks->GetData()[i] : wshape.GetDim(2 + i);
  return *nk >= 1 && *nk <= 3;
}

ge::graphStatus InferShape(gert::InferShapeContext* ctx) {
  const gert::Shape* x = ctx->GetInputShape(0);
  const gert::Shape* wt = ctx->GetInputShape(1);
  if (!x || !wt || x->GetDimNum() < 3 || x->GetDimNum() != wt->GetDimNum()) return ge::GRAPH_FAILED;
  int64_t k[3];
  size_t nk;
  Window3d w;
  if (!KernelShape(ctx->GetAttrs(), *wt, k, &nk) || !ComputeWindow(*x, k, nk, ctx->GetAttrs(), kWinIdx, &w))
    return ge::GRAPH_FAILED;
  int64_t group = *ctx->GetAttrs()->GetInt(kGroup);
  if (group <= 0 || (x->GetDim(1) >= 0 && x->GetDim(1) != wt->GetDim(1) * group)) return ge::GRAPH_FAILED;
  gert::Shape* out = ctx->GetOutputShape(0);
  *out = gert::Shape({x->GetDim(0), wt->GetDim(0)});
  for (size_t i = 0; i < nk; ++i) out->AppendDim(w.out[3 - nk + i]);
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus Tiling(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  const gert::Shape& wt = ctx->GetInputShape(1)->GetStorageShape();
  if (ctx->GetInputDesc(0)->GetDataType() != ge::DT_FLOAT) return ge::GRAPH_FAILED;
  ConvTiling t{};
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
  t.ck = t.cg * t.w.kernel[0] * t.w.kernel[1] * t.w.kernel[2];
  t.p = t.w.out[0] * t.w.out[1] * t.w.out[2];
  t.has_bias = ctx->GetInputShape(2) != nullptr;
  t.direct = 1;
  for (int d = 0; d < 3; ++d)
    if (t.w.kernel[d] != 1 || t.w.stride[d] != 1 || t.w.pad_begin[d] != 0 || t.w.pad_end[d] != 0) t.direct = 0;
  int64_t flops = t.n * t.m * t.p * t.ck;
  uint32_t blocks = ChooseBlockDim(ctx, flops, 1 << 18);
  int64_t units_ng = std::max<int64_t>(1, t.n * t.group);  // batch 0: no units, one empty block
  t.chunks = std::max<int64_t>(1, (blocks + units_ng - 1) / units_ng);
  t.chunk = std::max<int64_t>(1, (t.p + t.chunks - 1) / t.chunks);
  t.chunks = std::max<int64_t>(1, (t.p + t.chunk - 1) / t.chunk);
  blocks = static_cast<uint32_t>(std::max<int64_t>(1, std::min<int64_t>(blocks, units_ng * t.chunks)));
  ctx->SetBlockDim(blocks);
  ctx->GetWorkspaceSizes(1)[0] = t.direct ? 0 : static_cast<size_t>(blocks) * t.ck * t.chunk * sizeof(float);
  return SetTiling(ctx, t);
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

void Kernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<ConvTiling>(args);
  const auto* x = static_cast<const float*>(args->addrs[0]);
  const auto* wt = static_cast<const float*>(args->addrs[1]);
  const auto* bias = static_cast<const float*>(args->addrs[2]);
  auto* y = static_cast<float*>(args->addrs[3]);
  float* col = t.direct ? nullptr : static_cast<float*>(args->addrs[4]) + args->blockIdx * t.ck * t.chunk;
  int64_t in_pix = t.w.in[0] * t.w.in[1] * t.w.in[2];
  int64_t ub, ue;
  BlockRange(t.n * t.group * t.chunks, args->blockIdx, args->blockDim, &ub, &ue);
  for (int64_t u = ub; u < ue; ++u) {
    int64_t ng = u / t.chunks, chunk = u % t.chunks, n = ng / t.group, g = ng % t.group;
    int64_t p0 = chunk * t.chunk, len = std::min(t.chunk, t.p - p0);
    if (len <= 0) continue;
    const float* xg = x + (n * t.c + g * t.cg) * in_pix;
    float* yg = y + (n * t.m + g * t.mg) * t.p + p0;
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
    this->AICore().SetTiling(Tiling).SetKernel(Kernel).AddConfig("ascend910b");
  }
};
OP_ADD(Conv);
}  // namespace ops
