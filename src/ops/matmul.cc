// MatMul (numpy semantics: batched, broadcast over batch dims, 1-D operands promoted) and Gemm
// (alpha * op(A) * op(B) + beta * C). Tiling splits the batch x rows space over the cores.
#include <fmt/format.h>

#include "base/checked_math.h"
#include "ops/gemm_util.h"
#include "ops/op_util.h"

namespace ge::ops_matmul {
using namespace ge::ops_util;

struct MatMulTiling {
  int32_t dtype;
  int32_t batch_rank;
  int64_t m, n, k;
  int64_t batch;                 // product of output batch dims
  int64_t batch_dims[kMaxRank];  // output batch dims
  int64_t a_bstride[kMaxRank];   // per batch dim, in matrices (0 = broadcast)
  int64_t b_bstride[kMaxRank];
  int64_t rows_per_block_unit;  // work units = batch * m_chunks
  int64_t m_chunks;
};

// Splits a shape into batch dims and the matrix; 1-D operands are promoted.
void MatrixDims(const gert::Shape& s, bool is_a, gert::Shape* batch, int64_t* rows, int64_t* cols) {
  size_t r = s.GetDimNum();
  batch->SetDimNum(0);
  if (r == 1) {
    *rows = is_a ? 1 : s.GetDim(0);
    *cols = is_a ? s.GetDim(0) : 1;
    return;
  }
  for (size_t i = 0; i + 2 < r; ++i) batch->AppendDim(s.GetDim(i));
  *rows = s.GetDim(r - 2);
  *cols = s.GetDim(r - 1);
}

ge::graphStatus InferShape(gert::InferShapeContext* ctx) {
  const gert::Shape* a = ctx->GetInputShape(0);
  const gert::Shape* b = ctx->GetInputShape(1);
  if (!a || !b) return InferFail("missing input A or B");
  if (a->GetDimNum() == 0 || b->GetDimNum() == 0)
    return InferFail(
        fmt::format("expected inputs of rank >= 1, got A {} and B {}", ShapeToString(*a), ShapeToString(*b)));
  gert::Shape ab, bb, ob;
  int64_t m, ka, kb, n;
  MatrixDims(*a, true, &ab, &m, &ka);
  MatrixDims(*b, false, &bb, &kb, &n);
  if (ka >= 0 && kb >= 0 && ka != kb)
    return InferFail(fmt::format("inner dims differ: A {} has K = {}, B {} has K = {}", ShapeToString(*a), ka,
                                 ShapeToString(*b), kb));
  if (!BroadcastShape(ab, bb, &ob))
    return InferFail(fmt::format("batch dims of A {} and B {} do not broadcast", ShapeToString(*a), ShapeToString(*b)));
  gert::Shape* out = ctx->GetOutputShape(0);
  *out = ob;
  if (a->GetDimNum() > 1) out->AppendDim(m);
  if (b->GetDimNum() > 1) out->AppendDim(n);
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus Tiling(gert::TilingContext* ctx) {
  const gert::Shape& a = ctx->GetInputShape(0)->GetStorageShape();
  const gert::Shape& b = ctx->GetInputShape(1)->GetStorageShape();
  gert::Shape ab, bb, ob;
  MatMulTiling t{};
  int64_t kb;
  MatrixDims(a, true, &ab, &t.m, &t.k);
  MatrixDims(b, false, &bb, &kb, &t.n);
  BroadcastShape(ab, bb, &ob);
  if (ob.GetDimNum() > static_cast<size_t>(kMaxRank))
    return InferFail(fmt::format("expected at most {} batch dims, got {}", kMaxRank, ShapeToString(ob)));
  t.dtype = ctx->GetInputDesc(0)->GetDataType();
  t.batch_rank = static_cast<int32_t>(ob.GetDimNum());
  t.batch = 1;
  for (int i = 0; i < t.batch_rank; ++i) {
    t.batch_dims[i] = ob.GetDim(i);
    t.batch *= ob.GetDim(i);
  }
  BroadcastStrides(ab, ob, t.a_bstride);
  BroadcastStrides(bb, ob, t.b_bstride);
  int64_t flops = 1;  // saturating: only sizes the split
  for (int64_t f : {t.batch, t.m, t.n, std::max<int64_t>(t.k, 1)})
    if (!ge::CheckedMul(flops, f, &flops)) flops = INT64_MAX;
  uint32_t blocks = ChooseBlockDim(ctx, flops, 1 << 18);
  const int64_t batch = std::max<int64_t>(t.batch, 1);  // an empty batch: one (empty) block
  t.m_chunks = std::min<int64_t>(std::max<int64_t>(1, (blocks + batch - 1) / batch), std::max<int64_t>(t.m, 1));
  ctx->SetBlockDim(static_cast<uint32_t>(std::min<int64_t>(blocks, batch * t.m_chunks)));
  return SetTiling(ctx, t);
}

template <typename T>
void RunMatMul(const MatMulTiling& t, const T* a, const T* b, T* c, int64_t begin, int64_t end) {
  for (int64_t u = begin; u < end; ++u) {
    int64_t bi = u / t.m_chunks, chunk = u % t.m_chunks;
    int64_t m0, m1;
    BlockRange(t.m, static_cast<uint32_t>(chunk), static_cast<uint32_t>(t.m_chunks), &m0, &m1);
    int64_t ao = 0, bo = 0, rem = bi;
    for (int d = t.batch_rank - 1; d >= 0; --d) {
      int64_t idx = rem % t.batch_dims[d];
      rem /= t.batch_dims[d];
      ao += idx * t.a_bstride[d];
      bo += idx * t.b_bstride[d];
    }
    const T* ap = a + ao * t.m * t.k + m0 * t.k;
    const T* bp = b + bo * t.k * t.n;
    T* cp = c + bi * t.m * t.n + m0 * t.n;
    if constexpr (std::is_same_v<T, float>)
      Sgemm(false, false, m1 - m0, t.n, t.k, 1.f, ap, t.k, bp, t.n, 0.f, cp, t.n);
    else
      GemmRef<T>(false, false, m1 - m0, t.n, t.k, T(1), ap, t.k, bp, t.n, T(0), cp, t.n);
  }
}

// The dtypes the MatMul kernel runs (its OpDef declares the same list).
using MatMulTypes = DtypeSet<DtypeEntry<ge::DT_FLOAT, float>, DtypeEntry<ge::DT_DOUBLE, double>,
                             DtypeEntry<ge::DT_INT32, int32_t>, DtypeEntry<ge::DT_INT64, int64_t>,
                             DtypeEntry<ge::DT_UINT32, uint32_t>, DtypeEntry<ge::DT_UINT64, uint64_t>>;

void Kernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<MatMulTiling>(args);
  int64_t begin, end;
  BlockRange(t.batch * t.m_chunks, args->blockIdx, args->blockDim, &begin, &end);
  auto* a = args->addrs[0];
  auto* b = args->addrs[1];
  auto* c = args->addrs[2];
  Dispatch<MatMulTypes>(t.dtype, [&](auto tag) {
    using T = TypeOf<decltype(tag)>;
    RunMatMul<T>(t, static_cast<const T*>(a), static_cast<const T*>(b), static_cast<T*>(c), begin, end);
  });
}

// ---- Gemm ------------------------------------------------------------------------------------
struct GemmTiling {
  int32_t dtype;
  int32_t trans_a, trans_b;
  int32_t has_c;
  int64_t m, n, k;
  float alpha, beta;
  int64_t c_rs, c_cs;  // C's broadcast strides over (m, n)
};

enum GemmAttr { kAlpha, kBeta, kTransA, kTransB };

ge::graphStatus GemmInferShape(gert::InferShapeContext* ctx) {
  const gert::Shape* a = ctx->GetInputShape(0);
  const gert::Shape* b = ctx->GetInputShape(1);
  if (!a || !b) return InferFail("missing input A or B");
  if (a->GetDimNum() != 2 || b->GetDimNum() != 2)
    return InferFail(fmt::format("expected 2-D A and B, got A {} and B {}", ShapeToString(*a), ShapeToString(*b)));
  const auto* attrs = ctx->GetAttrs();
  bool ta = *attrs->GetInt(kTransA) != 0, tb = *attrs->GetInt(kTransB) != 0;
  int64_t ka = ta ? a->GetDim(0) : a->GetDim(1), kb = tb ? b->GetDim(1) : b->GetDim(0);
  if (ka >= 0 && kb >= 0 && ka != kb)
    return InferFail(fmt::format("inner dims differ: A {} has K = {}, B {} has K = {} (transA {}, transB {})",
                                 ShapeToString(*a), ka, ShapeToString(*b), kb, ta, tb));
  *ctx->GetOutputShape(0) = gert::Shape({ta ? a->GetDim(1) : a->GetDim(0), tb ? b->GetDim(0) : b->GetDim(1)});
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus GemmTilingFunc(gert::TilingContext* ctx) {
  const gert::Shape& a = ctx->GetInputShape(0)->GetStorageShape();
  const auto* attrs = ctx->GetAttrs();
  GemmTiling t{};
  t.dtype = ctx->GetInputDesc(0)->GetDataType();
  t.trans_a = *attrs->GetInt(kTransA) != 0;
  t.trans_b = *attrs->GetInt(kTransB) != 0;
  t.alpha = *attrs->GetFloat(kAlpha);
  t.beta = *attrs->GetFloat(kBeta);
  const gert::Shape& out = ctx->GetOutputShape(0)->GetStorageShape();
  t.m = out.GetDim(0);
  t.n = out.GetDim(1);
  t.k = t.trans_a ? a.GetDim(0) : a.GetDim(1);
  const auto* c = ctx->GetInputShape(2);
  t.has_c = c != nullptr;
  if (c) {
    gert::Shape bc;
    if (!BroadcastShape(c->GetStorageShape(), out, &bc) || bc != out)
      return InferFail(fmt::format("C {} does not broadcast to the output {}", ShapeToString(c->GetStorageShape()),
                                   ShapeToString(out)));
    int64_t strides[kMaxRank];
    BroadcastStrides(c->GetStorageShape(), out, strides);
    t.c_rs = strides[0];
    t.c_cs = strides[1];
  }
  ctx->SetBlockDim(static_cast<uint32_t>(
      std::min<int64_t>(ChooseBlockDim(ctx, t.m * t.n * t.k, 1 << 18), std::max<int64_t>(t.m, 1))));
  return SetTiling(ctx, t);
}

template <typename T>
void RunGemm(const GemmTiling& t, const T* a, const T* b, const T* c, T* y, int64_t m0, int64_t m1) {
  for (int64_t i = m0; i < m1; ++i)
    for (int64_t j = 0; j < t.n; ++j) y[i * t.n + j] = t.has_c ? c[i * t.c_rs + j * t.c_cs] : T(0);
  const T* ap = t.trans_a ? a + m0 : a + m0 * t.k;
  int64_t lda = t.trans_a ? t.m : t.k, ldb = t.trans_b ? t.k : t.n;
  T beta = t.has_c ? T(t.beta) : T(0);
  if constexpr (std::is_same_v<T, float>)
    Sgemm(t.trans_a, t.trans_b, m1 - m0, t.n, t.k, t.alpha, ap, lda, b, ldb, beta, y + m0 * t.n, t.n);
  else
    GemmRef<T>(t.trans_a, t.trans_b, m1 - m0, t.n, t.k, T(t.alpha), ap, lda, b, ldb, beta, y + m0 * t.n, t.n);
}

using GemmTypes = DtypeSet<DtypeEntry<ge::DT_FLOAT, float>, DtypeEntry<ge::DT_DOUBLE, double>,
                           DtypeEntry<ge::DT_INT32, int32_t>, DtypeEntry<ge::DT_INT64, int64_t>>;

void GemmKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<GemmTiling>(args);
  int64_t m0, m1;
  BlockRange(t.m, args->blockIdx, args->blockDim, &m0, &m1);
  void* const* p = args->addrs;
  Dispatch<GemmTypes>(t.dtype, [&](auto tag) {
    using T = TypeOf<decltype(tag)>;
    RunGemm<T>(t, static_cast<const T*>(p[0]), static_cast<const T*>(p[1]), static_cast<const T*>(p[2]),
               static_cast<T*>(p[3]), m0, m1);
  });
}

const std::vector<ge::DataType> kTypes = MatMulTypes::List();

}  // namespace ge::ops_matmul

namespace ops {
using namespace ge::ops_matmul;

class MatMul : public OpDef {
 public:
  explicit MatMul(const char* name) : OpDef(name) {
    this->Input("A").ParamType(REQUIRED).DataType(kTypes);
    this->Input("B").ParamType(REQUIRED).DataType(kTypes);
    this->Output("Y").ParamType(REQUIRED).DataType(kTypes);
    this->SetInferShape(InferShape);
    this->SetInferDataType(ge::ops_util::InferDataTypeSameAsAB);
    this->Macs(MacsRule::kMatMul);
    this->AICore().SetTiling(Tiling).SetKernel(Kernel).AddConfig("ascend910b");
    this->EnableFallBack();
  }
};
OP_ADD(MatMul);

class Gemm : public OpDef {
 public:
  explicit Gemm(const char* name) : OpDef(name) {
    this->Input("A").ParamType(REQUIRED).DataType(kTypes);
    this->Input("B").ParamType(REQUIRED).DataType(kTypes);
    this->Input("C").ParamType(OPTIONAL).DataType(kTypes);
    this->Output("Y").ParamType(REQUIRED).DataType(kTypes);
    this->Attr("alpha").AttrType(OPTIONAL).Float(1.0f);
    this->Attr("beta").AttrType(OPTIONAL).Float(1.0f);
    this->Attr("transA").AttrType(OPTIONAL).Int(0);
    this->Attr("transB").AttrType(OPTIONAL).Int(0);
    this->SetInferShape(GemmInferShape);
    this->Macs(MacsRule::kMatMul);
    this->SetInferDataType(ge::ops_util::InferDataTypeSameAsAB);
    this->AICore().SetTiling(GemmTilingFunc).SetKernel(GemmKernel).AddConfig("ascend910b");
  }
};
OP_ADD(Gemm);
}  // namespace ops
