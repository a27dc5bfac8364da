// FusedMatMul: Y = activation(A x B + bias + Z), made by the matmul-fusion pass from MatMul /
// Gemm (+ bias Add) (+ residual Add) (+ activation), never by a frontend. A is [..., K] (its
// leading dims are rows), B is 2-D [K, N], bias [N], Z has Y's shape. Runs as oneDNN matmul
// primitives over row blocks (ops/dnnl_matmul.h); without oneDNN, one GEMM per row block and the
// epilogue as a loop.
#include <cstring>

#include <fmt/format.h>

#include "ops/dnnl_matmul.h"
#include "ops/gemm_util.h"
#include "ops/op_util.h"

namespace ge::ops_fused_matmul {
using namespace ge::ops_util;

enum Attr { kActivation, kActivationParams };

struct FusedMatMulTiling {
  DnnlMatMulParams p;
  const DnnlMatMulPlan* plan;  // process-wide cache: valid for the process; null = reference path
};

ge::graphStatus InferShape(gert::InferShapeContext* ctx) {
  const gert::Shape* a = ctx->GetInputShape(0);
  const gert::Shape* b = ctx->GetInputShape(1);
  if (!a || !b) return InferFail("missing input A or B");
  if (a->GetDimNum() < 1 || b->GetDimNum() != 2)
    return InferFail(
        fmt::format("expected A of rank >= 1 and a 2-D B, got A {} and B {}", ShapeToString(*a), ShapeToString(*b)));
  int64_t k = a->GetDim(a->GetDimNum() - 1);
  if (k >= 0 && b->GetDim(0) >= 0 && k != b->GetDim(0))
    return InferFail(fmt::format("inner dims differ: A {} has K = {}, B {} has K = {}", ShapeToString(*a), k,
                                 ShapeToString(*b), b->GetDim(0)));
  gert::Shape* y = ctx->GetOutputShape(0);
  *y = *a;
  y->SetDim(a->GetDimNum() - 1, b->GetDim(1));
  const gert::Shape* bias = ctx->GetInputShape(2);
  if (bias && bias->GetShapeSize() >= 0 && b->GetDim(1) >= 0 && bias->GetShapeSize() != b->GetDim(1))
    return InferFail(fmt::format("expected a bias of N = {} elements, got {}", b->GetDim(1), ShapeToString(*bias)));
  const gert::Shape* z = ctx->GetInputShape(3);  // the residual is read element for element
  bool z_ok = z == nullptr || z->GetDimNum() == y->GetDimNum();
  for (size_t i = 0; z_ok && z && i < y->GetDimNum(); ++i)
    z_ok = z->GetDim(i) < 0 || y->GetDim(i) < 0 || z->GetDim(i) == y->GetDim(i);
  if (!z_ok)
    return InferFail(fmt::format("expected the residual Z to have the output's shape {}, got {}", ShapeToString(*y),
                                 ShapeToString(*z)));
  return ge::GRAPH_SUCCESS;
}

bool ParseAct(const gert::RuntimeAttrs* a, DnnlMatMulParams* p) {
  ConvAct act;
  if (!ParseActivation(AttrStr(a, kActivation, ""), AttrFloats(a, kActivationParams), &act, &p->a0, &p->a1))
    return false;
  p->act = static_cast<int32_t>(act);
  return true;
}

ge::graphStatus Tiling(gert::TilingContext* ctx) {
  const gert::Shape& a = ctx->GetInputShape(0)->GetStorageShape();
  const gert::Shape& b = ctx->GetInputShape(1)->GetStorageShape();
  FusedMatMulTiling t{};
  t.p.k = b.GetDim(0);
  t.p.n = b.GetDim(1);
  t.p.rows = 1;
  for (size_t i = 0; i + 1 < a.GetDimNum(); ++i) t.p.rows *= a.GetDim(i);
  t.p.has_bias = ctx->GetInputShape(2) != nullptr;
  t.p.has_z = ctx->GetInputShape(3) != nullptr;
  if (!ParseAct(ctx->GetAttrs(), &t.p)) return ge::GRAPH_FAILED;
  t.plan = t.p.rows > 0 ? GetDnnlMatMulPlan(t.p, OversplitBlocks(ctx->GetCoreNum())) : nullptr;
  uint32_t blocks = t.plan ? DnnlMatMulPlanBlocks(t.plan) : ChooseBlockDim(ctx, 2 * t.p.rows * t.p.k * t.p.n, 1 << 21);
  ctx->SetBlockDim(std::max<uint32_t>(1, std::min<int64_t>(blocks, std::max<int64_t>(t.p.rows, 1))));
  return SetTiling(ctx, t);
}

void Kernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<FusedMatMulTiling>(args);
  const auto* a = static_cast<const float*>(args->addrs[0]);
  const auto* b = static_cast<const float*>(args->addrs[1]);
  const auto* bias = t.p.has_bias ? static_cast<const float*>(args->addrs[2]) : nullptr;
  const auto* z = t.p.has_z ? static_cast<const float*>(args->addrs[3]) : nullptr;
  auto* y = static_cast<float*>(args->addrs[4]);
  if (t.plan) {
    RunDnnlMatMul(t.plan, args->blockIdx, a, b, bias, z, y);
    return;
  }
  int64_t r0, r1;
  BlockRange(t.p.rows, args->blockIdx, args->blockDim, &r0, &r1);
  if (r1 <= r0) return;
  const int64_t n = t.p.n;
  // Z first (Y may be Z's buffer: the planner lets Y overwrite the residual), then Y += A x B.
  if (z && z != y) std::memcpy(y + r0 * n, z + r0 * n, (r1 - r0) * n * sizeof(float));
  Sgemm(false, false, r1 - r0, n, t.p.k, 1.f, a + r0 * t.p.k, t.p.k, b, n, z ? 1.f : 0.f, y + r0 * n, n);
  auto act = static_cast<ConvAct>(t.p.act);
  for (int64_t r = r0; r < r1; ++r)
    for (int64_t j = 0; j < n; ++j) {
      float v = y[r * n + j] + (bias ? bias[j] : 0.f);
      y[r * n + j] = ApplyConvAct(act, t.p.a0, t.p.a1, v);
    }
}

}  // namespace ge::ops_fused_matmul

namespace ops {
class FusedMatMul : public OpDef {
 public:
  explicit FusedMatMul(const char* name) : OpDef(name) {
    using namespace ge::ops_fused_matmul;
    this->Input("A").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Input("B").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Input("bias").ParamType(OPTIONAL).DataType({ge::DT_FLOAT});
    this->Input("Z").ParamType(OPTIONAL).DataType({ge::DT_FLOAT});
    this->Output("Y").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Attr("activation").AttrType(OPTIONAL).String("");
    this->Attr("activation_params").AttrType(OPTIONAL).ListFloat();
    this->SetInferShape(InferShape);
    this->SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    this->AICore().SetTiling(Tiling).SetKernel(Kernel).AddConfig("ascend910b");
  }
};
OP_ADD(FusedMatMul);
}  // namespace ops
