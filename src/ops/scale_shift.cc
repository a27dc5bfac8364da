// ScaleShift: Y = activation(X * scale + shift) with scale and shift per channel, the channel
// being X's last dim (NHWC). Made by the layout pass from an inference BatchNormalization (with
// a following Relu fused) whose input is NHWC: one vectorized pass instead of a Transpose pair.
#include "ops/dnnl_conv.h"
#include "ops/op_util.h"

namespace ge::ops_scale_shift {
using namespace ge::ops_util;

enum Attr { kActivation };

struct ScaleShiftTiling {
  int64_t rows, c;
  int32_t act;
};

ge::graphStatus InferShape(gert::InferShapeContext* ctx) {
  const gert::Shape* x = ctx->GetInputShape(0);
  const gert::Shape* s = ctx->GetInputShape(1);
  const gert::Shape* b = ctx->GetInputShape(2);
  if (!x || !s || !b || x->GetDimNum() < 1) return ge::GRAPH_FAILED;
  int64_t c = x->GetDim(x->GetDimNum() - 1);
  if (c >= 0 && (s->GetShapeSize() != c || b->GetShapeSize() != c)) return ge::GRAPH_FAILED;
  *ctx->GetOutputShape(0) = *x;
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus Tiling(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  ScaleShiftTiling t{};
  t.c = x.GetDim(x.GetDimNum() - 1);
  t.rows = t.c > 0 ? x.GetShapeSize() / t.c : 0;
  ConvAct act;
  std::string name = AttrStr(ctx->GetAttrs(), kActivation, "");
  if (!ParseConvAct(name, &act) || (act != ConvAct::kNone && act != ConvAct::kRelu)) return ge::GRAPH_FAILED;
  t.act = static_cast<int32_t>(act);
  ctx->SetBlockDim(ChooseBlockDim(ctx, t.rows * t.c, 1 << 15));
  return SetTiling(ctx, t);
}

void Kernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<ScaleShiftTiling>(args);
  const auto* x = static_cast<const float*>(args->addrs[0]);
  const auto* s = static_cast<const float*>(args->addrs[1]);
  const auto* b = static_cast<const float*>(args->addrs[2]);
  auto* y = static_cast<float*>(args->addrs[3]);
  int64_t r0, r1;
  BlockRange(t.rows, args->blockIdx, args->blockDim, &r0, &r1);
  const int64_t c = t.c;
  for (int64_t r = r0; r < r1; ++r) {
    const float* xr = x + r * c;
    float* yr = y + r * c;
    if (t.act == static_cast<int32_t>(ConvAct::kRelu)) {
      for (int64_t j = 0; j < c; ++j) yr[j] = std::max(xr[j] * s[j] + b[j], 0.f);
    } else {
      for (int64_t j = 0; j < c; ++j) yr[j] = xr[j] * s[j] + b[j];
    }
  }
}

}  // namespace ge::ops_scale_shift

namespace ops {
class ScaleShift : public OpDef {
 public:
  explicit ScaleShift(const char* name) : OpDef(name) {
    using namespace ge::ops_scale_shift;
    this->Input("X").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Input("scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Input("shift").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Output("Y").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Attr("activation").AttrType(OPTIONAL).String("");  // "" or "Relu"
    this->SetInferShape(InferShape);
    this->SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    this->AICore().SetTiling(Tiling).SetKernel(Kernel).AddConfig("ascend910b");
  }
};
OP_ADD(ScaleShift);
}  // namespace ops
