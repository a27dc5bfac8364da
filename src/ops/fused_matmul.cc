// FusedMatMul: Y = activation(A x B + bias + Z), made by the matmul-fusion pass from MatMul /
// Gemm (+ bias Add) (+ residual Add) (+ activation), never by a frontend. With layer_norm = 1
// (matmul-layer-norm-fusion) each row of that is then layer-normalized over its N columns, scaled
// by ln_scale [N] and shifted by ln_bias [N] (optional): every block holds whole rows and
// normalizes them right after writing them. A is [..., K] (its
// leading dims are rows), B is 2-D [K, N] or (packed_weights = 1) MatMulWeightPack's packing of
// a constant [K, N] B (weights_shape = [K, N]), bias [N], Z has Y's shape. Runs as oneDNN
// matmul primitives over row or column blocks (ops/dnnl_matmul.h); without oneDNN, one GEMM per
// row block and the epilogue as a loop (never packed: the pack op needs oneDNN).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "kernels/layer_norm.h"
#include "ops/dnnl_matmul.h"
#include "ops/gemm_util.h"
#include "ops/op_util.h"

namespace ge::ops_fused_matmul {
using namespace ge::ops_util;

enum Attr { kActivation, kActivationParams, kPackedWeights, kWeightsShape, kLayerNorm, kLayerNormEpsilon };

// [K, N] of B: its shape, or the weights_shape attribute when B is packed; false if neither.
bool WeightsKN(const gert::RuntimeAttrs* attrs, const gert::Shape& b, int64_t* k, int64_t* n) {
  if (AttrInt(attrs, kPackedWeights, 0) == 0) {
    if (b.GetDimNum() != 2) return false;
    *k = b.GetDim(0);
    *n = b.GetDim(1);
    return true;
  }
  std::vector<int64_t> kn = AttrInts(attrs, kWeightsShape);
  if (kn.size() != 2 || kn[0] <= 0 || kn[1] <= 0) return false;
  *k = kn[0];
  *n = kn[1];
  // The packed buffer must be the layout's size: the kernel reads it by that layout.
  return b.GetDimNum() == 1 && b.GetDim(0) == static_cast<int64_t>(PackedMatMulWeightsSize(*k, *n));
}

struct FusedMatMulTiling {
  DnnlMatMulParams p;
  const DnnlMatMulPlan* plan;  // process-wide cache: valid for the process; null = reference path
  int32_t y_index;             // Y follows the node's last input (Z, or ln_bias when padded)
  int32_t layer_norm, has_ln_bias;
  float ln_eps;
};

ge::graphStatus InferShape(gert::InferShapeContext* ctx) {
  const gert::Shape* a = ctx->GetInputShape(0);
  const gert::Shape* b = ctx->GetInputShape(1);
  int64_t bk, bn;
  if (!a || !b) return InferFail("missing input A or B");
  if (a->GetDimNum() < 1) return InferFail(fmt::format("expected A of rank >= 1, got A {}", ShapeToString(*a)));
  if (!WeightsKN(ctx->GetAttrs(), *b, &bk, &bn))
    return InferFail(fmt::format("expected a 2-D B or the packing of weights_shape, got B {}", ShapeToString(*b)));
  int64_t k = a->GetDim(a->GetDimNum() - 1);
  if (k >= 0 && bk >= 0 && k != bk)
    return InferFail(fmt::format("inner dims differ: A {} has K = {}, B {} has K = {}", ShapeToString(*a), k,
                                 ShapeToString(*b), bk));
  gert::Shape* y = ctx->GetOutputShape(0);
  *y = *a;
  y->SetDim(a->GetDimNum() - 1, bn);
  const gert::Shape* bias = ctx->GetInputShape(2);
  if (bias && bias->GetShapeSize() >= 0 && bn >= 0 && bias->GetShapeSize() != bn)
    return InferFail(fmt::format("expected a bias of N = {} elements, got {}", bn, ShapeToString(*bias)));
  const gert::Shape* z = ctx->GetInputShape(3);  // the residual is read element for element
  bool z_ok = z == nullptr || z->GetDimNum() == y->GetDimNum();
  for (size_t i = 0; z_ok && z && i < y->GetDimNum(); ++i)
    z_ok = z->GetDim(i) < 0 || y->GetDim(i) < 0 || z->GetDim(i) == y->GetDim(i);
  if (!z_ok)
    return InferFail(fmt::format("expected the residual Z to have the output's shape {}, got {}", ShapeToString(*y),
                                 ShapeToString(*z)));
  if (AttrInt(ctx->GetAttrs(), kLayerNorm, 0) != 0) {
    for (size_t i : {size_t{4}, size_t{5}}) {
      const gert::Shape* s = ctx->GetInputShape(i);
      if (i == 4 && s == nullptr) return InferFail("layer_norm = 1 needs ln_scale (input 4)");
      if (s != nullptr && (s->GetShapeSize() != bn || bn < 0))
        return InferFail(fmt::format("expected {} of N = {} elements, got {}", i == 4 ? "ln_scale" : "ln_bias", bn,
                                     ShapeToString(*s)));
    }
  }
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
  if (!WeightsKN(ctx->GetAttrs(), b, &t.p.k, &t.p.n)) return ge::GRAPH_FAILED;
  t.p.packed_b = AttrInt(ctx->GetAttrs(), kPackedWeights, 0) != 0;
  t.p.rows = 1;
  for (size_t i = 0; i + 1 < a.GetDimNum(); ++i) t.p.rows *= a.GetDim(i);
  t.p.has_bias = ctx->GetInputShape(2) != nullptr;
  t.p.has_z = ctx->GetInputShape(3) != nullptr;
  if (!ParseAct(ctx->GetAttrs(), &t.p)) return ge::GRAPH_FAILED;
  t.y_index = static_cast<int32_t>(ctx->GetComputeNodeInputNum());
  t.layer_norm = AttrInt(ctx->GetAttrs(), kLayerNorm, 0) != 0;
  if (t.layer_norm) {
    const gert::StorageShape* s = ctx->GetInputShape(4);
    if (s == nullptr || s->GetStorageShape().GetShapeSize() != t.p.n) return InferFail("ln_scale must have N elements");
    t.has_ln_bias = ctx->GetInputShape(5) != nullptr;
    t.ln_eps = AttrFloat(ctx->GetAttrs(), kLayerNormEpsilon, 1e-5f);
    t.p.full_rows = 1;
  }
  t.plan = t.p.rows > 0 ? GetDnnlMatMulPlan(t.p, OversplitBlocks(ctx->GetCoreNum())) : nullptr;
  if (t.p.packed_b && t.plan == nullptr && t.p.rows > 0) return ge::GRAPH_FAILED;  // packed B needs the plan
  // A plan's blocks may split the columns (more blocks than rows); the reference path splits rows.
  const uint32_t blocks =
      t.plan ? DnnlMatMulPlanBlocks(t.plan)
             : static_cast<uint32_t>(std::min<int64_t>(ChooseBlockDim(ctx, 2 * t.p.rows * t.p.k * t.p.n, 1 << 21),
                                                       std::max<int64_t>(t.p.rows, 1)));
  ctx->SetBlockDim(std::max<uint32_t>(1, blocks));
  return SetTiling(ctx, t);
}

void Kernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<FusedMatMulTiling>(args);
  const auto* a = static_cast<const float*>(args->addrs[0]);
  const auto* b = static_cast<const float*>(args->addrs[1]);
  const auto* bias = t.p.has_bias ? static_cast<const float*>(args->addrs[2]) : nullptr;
  const auto* z = t.p.has_z ? static_cast<const float*>(args->addrs[3]) : nullptr;
  auto* y = static_cast<float*>(args->addrs[t.y_index]);
  // The layer norm epilogue over this block's whole rows, in place.
  const auto layer_norm = [&](int64_t r0, int64_t r1) {
    if (!t.layer_norm || r1 <= r0) return;
    const kernels::LayerNormParams ln{t.p.n, t.p.n, t.has_ln_bias ? t.p.n : 0, t.ln_eps};
    kernels::LayerNormRows<float, float>(ln, y, static_cast<const float*>(args->addrs[4]),
                                         t.has_ln_bias ? static_cast<const float*>(args->addrs[5]) : nullptr, y,
                                         nullptr, nullptr, r0, r1);
  };
  if (t.plan) {
    RunDnnlMatMul(t.plan, args->blockIdx, a, b, bias, z, y);
    int64_t row0 = 0, rows = 0;
    DnnlMatMulBlockRows(t.plan, args->blockIdx, &row0, &rows);
    layer_norm(row0, row0 + rows);
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
  layer_norm(r0, r1);
}

// ---- MatMulWeightPack: a constant [K, N] B -> the packed layout FusedMatMul's plans read -----
// Inserted by the matmul-weight-packing pass and folded at compile time (its input is a constant).
ge::graphStatus PackInferShape(gert::InferShapeContext* ctx) {
  const gert::Shape* b = ctx->GetInputShape(0);
  if (!b || b->GetDimNum() != 2 || b->GetDim(0) <= 0 || b->GetDim(1) <= 0)
    return InferFail("MatMulWeightPack: expected a 2-D B of known shape");
  const size_t size = PackedMatMulWeightsSize(b->GetDim(0), b->GetDim(1));
  if (size == 0) return InferFail("MatMulWeightPack: oneDNN has no packed layout for this B");
  gert::Shape* y = ctx->GetOutputShape(0);
  *y = gert::Shape({static_cast<int64_t>(size)});
  return ge::GRAPH_SUCCESS;
}

struct PackTiling {
  int64_t k, n;
};

ge::graphStatus PackTilingFunc(gert::TilingContext* ctx) {
  const gert::Shape& b = ctx->GetInputShape(0)->GetStorageShape();
  ctx->SetBlockDim(1);
  return SetTiling(ctx, PackTiling{b.GetDim(0), b.GetDim(1)});
}

void PackKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<PackTiling>(args);
  PackMatMulWeights(t.k, t.n, static_cast<const float*>(args->addrs[0]), static_cast<float*>(args->addrs[1]));
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
    this->Input("ln_scale").ParamType(OPTIONAL).DataType({ge::DT_FLOAT});
    this->Input("ln_bias").ParamType(OPTIONAL).DataType({ge::DT_FLOAT});
    this->Output("Y").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Attr("activation").AttrType(OPTIONAL).String("");
    this->Attr("activation_params").AttrType(OPTIONAL).ListFloat();
    this->Attr("packed_weights").AttrType(OPTIONAL).Int(0);
    this->Attr("weights_shape").AttrType(OPTIONAL).ListInt();
    this->Attr("layer_norm").AttrType(OPTIONAL).Int(0);
    this->Attr("layer_norm_epsilon").AttrType(OPTIONAL).Float(1e-5f);
    // Z is oneDNN's sum post-op on Y: read element for element where Y is written.
    this->OutputInplace(0, 3);
    this->Macs(MacsRule::kMatMul);
    this->SetInferShape(InferShape);
    this->SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    this->AICore().SetTiling(Tiling).SetKernel(Kernel).AddConfig("ascend910b");
  }
};
OP_ADD(FusedMatMul);

#ifdef GE_HAVE_DNNL  // the packed layout is oneDNN's: without it the pass leaves B plain
class MatMulWeightPack : public OpDef {
 public:
  explicit MatMulWeightPack(const char* name) : OpDef(name) {
    using namespace ge::ops_fused_matmul;
    this->Input("B").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Output("packed").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->SetInferShape(PackInferShape);
    this->SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    this->AICore().SetTiling(PackTilingFunc).SetKernel(PackKernel).AddConfig("ascend910b");
  }
};
OP_ADD(MatMulWeightPack);
#endif
}  // namespace ops
