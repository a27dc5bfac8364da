// ConvTranspose (1-D, 2-D, 3-D; groups, strides, dilations, pads, output_padding, output_shape,
// auto_pad). define: OpDef. create: output dims and effective pads per the ONNX formulas
// (negative effective padding, i.e. an output larger than the full result, leaves zeros).
// run: per (batch, group) unit, one GEMM W^T * X into a column buffer, then col2im into Y.
#include <cstring>
#include <string>

#include "base/checked_math.h"
#include "ops/attr_choice.h"
#include "ops/gemm_util.h"
#include "ops/op_util.h"

namespace ge::ops_conv_transpose {
using namespace ge::ops_util;

enum Attr { kAutoPad, kDilations, kGroup, kKernelShape, kOutputPadding, kOutputShape, kPads, kStrides };

struct ConvTTiling {
  int64_t n, c, m, group, cg, mg;
  int64_t in[3], out[3], kernel[3], stride[3], dilation[3], pad_begin[3];
  int64_t k;   // kernel volume
  int64_t p;   // input pixels
  int64_t op;  // output pixels
  int32_t has_bias;
};

// Fills the window fields of t from x, w and the attributes; false on inconsistent input.
bool ComputeGeometry(const gert::Shape& x, const gert::Shape& w, const gert::RuntimeAttrs* a, ConvTTiling* t) {
  size_t nk = x.GetDimNum() - 2;
  if (x.GetDimNum() < 3 || nk > 3 || w.GetDimNum() != x.GetDimNum()) return false;
  std::vector<int64_t> ks = AttrInts(a, kKernelShape), dil = AttrInts(a, kDilations), st = AttrInts(a, kStrides);
  std::vector<int64_t> pads = AttrInts(a, kPads), opad = AttrInts(a, kOutputPadding),
                       oshape = AttrInts(a, kOutputShape);
  enum { kNotSet, kSameUpper, kSameLower, kValid };
  const int auto_pad = AttrChoice(a, kAutoPad, "auto_pad", {"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"});
  if (auto_pad < 0) return false;
  if (oshape.size() == nk + 2) oshape.erase(oshape.begin(), oshape.begin() + 2);
  int64_t group = AttrInt(a, kGroup, 1);
  if (group <= 0 || x.GetDim(1) != w.GetDim(0) || x.GetDim(1) % group != 0) return false;
  t->n = x.GetDim(0);
  t->c = x.GetDim(1);
  t->group = group;
  t->cg = t->c / group;
  t->mg = w.GetDim(1);
  if (!ge::CheckedMul<int64_t>(t->mg, group, &t->m)) return false;
  t->k = t->p = t->op = 1;
  for (int d = 0; d < 3; ++d) {
    int off = static_cast<int>(d) - static_cast<int>(3 - nk);  // spatial index, <0 for padding dims
    bool real = off >= 0;
    int64_t in = real ? x.GetDim(2 + off) : 1;
    int64_t k = real ? (ks.size() == nk ? ks[off] : w.GetDim(2 + off)) : 1;
    int64_t s = real && st.size() == nk ? st[off] : 1, dl = real && dil.size() == nk ? dil[off] : 1;
    int64_t op = real && opad.size() == nk ? opad[off] : 0;
    // Checked: strides, kernel, dilations and output padding come from the model.
    if (in <= 0 || k <= 0 || s <= 0 || dl <= 0 || op < 0) return false;
    int64_t full = 0, span = 0;
    if (!ge::CheckedMul(s, in - 1, &full) || !ge::CheckedAdd(full, op, &full) || !ge::CheckedMul(k - 1, dl, &span) ||
        !ge::CheckedAdd(full, span, &full) || !ge::CheckedAdd<int64_t>(full, 1, &full))
      return false;
    int64_t pb = 0, pe = 0, out;
    if (real && (oshape.size() == nk || auto_pad == kSameUpper || auto_pad == kSameLower)) {
      if (oshape.size() == nk)
        out = oshape[off];
      else if (!ge::CheckedMul(in, s, &out))
        return false;
      if (out <= 0) return false;
      int64_t total = std::max<int64_t>(0, full - out);
      pb = auto_pad == kSameUpper ? total / 2 : total - total / 2;
    } else {
      if (real && pads.size() == 2 * nk && auto_pad != kValid) {
        pb = pads[off];
        pe = pads[nk + off];
      }
      if (pb < 0 || pe < 0) return false;
      out = full - pb - pe;  // all non-negative: no overflow
    }
    if (out <= 0) return false;
    t->in[d] = in;
    t->out[d] = out;
    t->kernel[d] = k;
    t->stride[d] = s;
    t->dilation[d] = dl;
    t->pad_begin[d] = pb;
    if (!ge::CheckedMul(t->k, k, &t->k) || !ge::CheckedMul(t->p, in, &t->p) || !ge::CheckedMul(t->op, out, &t->op))
      return false;
  }
  return true;
}

ge::graphStatus InferShape(gert::InferShapeContext* ctx) {
  const gert::Shape* x = ctx->GetInputShape(0);
  const gert::Shape* w = ctx->GetInputShape(1);
  ConvTTiling t{};
  if (x == nullptr || w == nullptr || !ComputeGeometry(*x, *w, ctx->GetAttrs(), &t)) return ge::GRAPH_FAILED;
  size_t nk = x->GetDimNum() - 2;
  gert::Shape* y = ctx->GetOutputShape(0);
  *y = gert::Shape({t.n, t.m});
  for (size_t i = 0; i < nk; ++i) y->AppendDim(t.out[3 - nk + i]);
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus Tiling(gert::TilingContext* ctx) {
  if (ctx->GetInputDesc(0)->GetDataType() != ge::DT_FLOAT) return ge::GRAPH_FAILED;
  ConvTTiling t{};
  if (!ComputeGeometry(ctx->GetInputShape(0)->GetStorageShape(), ctx->GetInputShape(1)->GetStorageShape(),
                       ctx->GetAttrs(), &t))
    return ge::GRAPH_FAILED;
  t.has_bias = ctx->GetInputShape(2) != nullptr;
  // Checked: the model's dims may multiply past int64 (UBSan, onnx_model harness).
  int64_t units = 0, col = 0, work = 0, ws = 0;
  if (!ge::CheckedMul(t.n, t.group, &units) || !ge::CheckedMul(t.mg, t.k, &col) || !ge::CheckedMul(col, t.p, &col) ||
      !ge::CheckedMul(units, col, &work) || !ge::CheckedMul(work, t.cg, &work))
    return InferFail("the work of this ConvTranspose (N x C x M/group x kernel x input pixels) exceeds int64");
  uint32_t blocks = ChooseBlockDim(ctx, work, 1 << 16);
  blocks = static_cast<uint32_t>(std::min<int64_t>(blocks, std::max<int64_t>(1, units)));
  if (!ge::CheckedMul<int64_t>(col, static_cast<int64_t>(blocks) * static_cast<int64_t>(sizeof(float)), &ws))
    return InferFail("the column workspace of this ConvTranspose (M/group x kernel x input pixels) exceeds int64");
  ctx->SetBlockDim(blocks);
  ctx->GetWorkspaceSizes(1)[0] = static_cast<size_t>(ws);
  return SetTiling(ctx, t);
}

// Adds col[(m, kernel offset), input pixel] into y[m, output pixel] for one (n, g) unit.
void Col2Im(const ConvTTiling& t, const float* col, float* y) {
  for (int64_t r = 0; r < t.mg * t.k; ++r) {
    int64_t kw = r % t.kernel[2], kh = (r / t.kernel[2]) % t.kernel[1];
    int64_t kd = (r / (t.kernel[2] * t.kernel[1])) % t.kernel[0], m = r / t.k;
    float* ym = y + m * t.op;
    const float* src = col + r * t.p;
    for (int64_t id = 0; id < t.in[0]; ++id) {
      int64_t od = id * t.stride[0] - t.pad_begin[0] + kd * t.dilation[0];
      if (od < 0 || od >= t.out[0]) continue;
      for (int64_t ih = 0; ih < t.in[1]; ++ih) {
        int64_t oh = ih * t.stride[1] - t.pad_begin[1] + kh * t.dilation[1];
        if (oh < 0 || oh >= t.out[1]) continue;
        const float* s = src + (id * t.in[1] + ih) * t.in[2];
        float* dst = ym + (od * t.out[1] + oh) * t.out[2];
        for (int64_t iw = 0; iw < t.in[2]; ++iw) {
          int64_t ow = iw * t.stride[2] - t.pad_begin[2] + kw * t.dilation[2];
          if (ow >= 0 && ow < t.out[2]) dst[ow] += s[iw];
        }
      }
    }
  }
}

void Kernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<ConvTTiling>(args);
  const auto* x = static_cast<const float*>(args->addrs[0]);
  const auto* w = static_cast<const float*>(args->addrs[1]);
  const auto* bias = static_cast<const float*>(args->addrs[2]);
  auto* y = static_cast<float*>(args->addrs[3]);
  float* col = static_cast<float*>(args->addrs[4]) + args->blockIdx * t.mg * t.k * t.p;
  int64_t ub, ue;
  BlockRange(t.n * t.group, args->blockIdx, args->blockDim, &ub, &ue);
  for (int64_t u = ub; u < ue; ++u) {
    int64_t n = u / t.group, g = u % t.group;
    const float* xg = x + (n * t.c + g * t.cg) * t.p;
    const float* wg = w + g * t.cg * t.mg * t.k;  // [cg, mg * k]
    float* yg = y + (n * t.m + g * t.mg) * t.op;
    for (int64_t m = 0; m < t.mg; ++m) {
      float b = t.has_bias ? bias[g * t.mg + m] : 0.f;
      std::fill(yg + m * t.op, yg + (m + 1) * t.op, b);
    }
    Sgemm(true, false, t.mg * t.k, t.p, t.cg, 1.f, wg, t.mg * t.k, xg, t.p, 0.f, col, t.p);
    Col2Im(t, col, yg);
  }
}

}  // namespace ge::ops_conv_transpose

namespace ops {
using namespace ge::ops_conv_transpose;
class ConvTranspose : public OpDef {
 public:
  explicit ConvTranspose(const char* name) : OpDef(name) {
    this->Input("X").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Input("W").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Input("B").ParamType(OPTIONAL).DataType({ge::DT_FLOAT});
    this->Output("Y").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Attr("auto_pad").AttrType(OPTIONAL).String("NOTSET");
    this->Attr("dilations").AttrType(OPTIONAL).ListInt();
    this->Attr("group").AttrType(OPTIONAL).Int(1);
    this->Attr("kernel_shape").AttrType(OPTIONAL).ListInt();
    this->Attr("output_padding").AttrType(OPTIONAL).ListInt();
    this->Attr("output_shape").AttrType(OPTIONAL).ListInt();
    this->Attr("pads").AttrType(OPTIONAL).ListInt();
    this->Attr("strides").AttrType(OPTIONAL).ListInt();
    this->SetInferShape(InferShape);
    this->SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    this->AICore().SetTiling(Tiling).SetKernel(Kernel).AddConfig("ascend910b");
  }
};
OP_ADD(ConvTranspose);
}  // namespace ops
