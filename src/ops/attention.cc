// FusedAttention: multi-head scaled dot-product attention, made by the attention-fusion pass
// from the MatMul -> (scale) -> (mask Add) -> Softmax -> MatMul core of a transformer's
// attention block together with the head split (Slice / Reshape / Transpose) and head merge
// (Transpose) around it, never by a frontend.
//
// Q, K and V are 3-D token-major tensors, [S, B, W] (seq_first = 1, PyTorch's
// nn.MultiheadAttention) or [B, S, W] (seq_first = 0); head h of input X reads columns
// [X_offset + h * head_dim, X_offset + (h + 1) * head_dim) of the last axis, so one packed QKV
// projection output can be passed three times with three offsets and no slice is copied. K and
// V have the same sequence length (Sk), which may differ from Q's (Sq). mask (optional) is
// added to the scores before the Softmax; its shape is [Sq, Sk], [1, Sk] or [Sk] after dropping
// leading 1s (one mask for every batch and head). Y is [S, B, num_heads * head_dim] or
// [B, S, ...]: the heads concatenated, the layout the head-merge Transpose produced.
//
// Per (batch, head, block of query rows): scores = scale * Q K^T (+ mask), a row softmax, then
// Y = P V written straight into Y's strided rows; the score block stays in a per-thread buffer.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "base/checked_math.h"
#include "ops/gemm_util.h"
#include "ops/op_util.h"
#include "ops/simd.h"
#include "ops/vec_math.h"

namespace ge::ops_fused_attention {
using namespace ge::ops_util;

enum Attr { kNumHeads, kHeadDim, kScale, kQOffset, kKOffset, kVOffset, kSeqFirst };

constexpr int64_t kQueryRowsPerBlock = 64;

struct AttentionTiling {
  int64_t batch, heads, head_dim, sq, sk;
  int64_t q_width, k_width, v_width;  // last-axis widths of Q, K, V
  int64_t q_offset, k_offset, v_offset;
  int32_t seq_first, has_mask;
  int64_t mask_q_stride, mask_k_stride;  // 0 where the mask broadcasts
  int64_t q_blocks;                      // query-row blocks per (batch, head)
  float scale;
};

// The mask's [q, k] strides; false if it is not one mask for every batch and head.
bool MaskStrides(const gert::Shape& m, int64_t sq, int64_t sk, int64_t* q_stride, int64_t* k_stride) {
  const int64_t rank = m.GetDimNum();
  for (int64_t i = 0; i + 2 < rank; ++i)
    if (m.GetDim(i) != 1) return false;
  const int64_t mk = rank >= 1 ? m.GetDim(rank - 1) : 1;
  const int64_t mq = rank >= 2 ? m.GetDim(rank - 2) : 1;
  if ((mk != 1 && mk != sk) || (mq != 1 && mq != sq)) return false;
  *k_stride = mk == 1 ? 0 : 1;
  *q_stride = mq == 1 ? 0 : mk;
  return true;
}

ge::graphStatus InferShape(gert::InferShapeContext* ctx) {
  const gert::Shape* q = ctx->GetInputShape(0);
  const gert::Shape* k = ctx->GetInputShape(1);
  const gert::Shape* v = ctx->GetInputShape(2);
  const auto* attrs = ctx->GetAttrs();
  if (!q || !k || !v) return InferFail("FusedAttention: Q, K and V are required");
  for (const gert::Shape* s : {q, k, v})
    if (s->GetDimNum() != 3)
      return InferFail(fmt::format("FusedAttention: expected 3-D Q, K and V, got ranks {}, {}, {}", q->GetDimNum(),
                                   k->GetDimNum(), v->GetDimNum()));
  const int64_t heads = AttrInt(attrs, kNumHeads, 0), dim = AttrInt(attrs, kHeadDim, 0);
  int64_t hidden = 0;  // the attributes may come from a model: checked
  if (heads <= 0 || dim <= 0 || !ge::CheckedMul(heads, dim, &hidden))
    return InferFail(fmt::format(
        "FusedAttention: num_heads {} and head_dim {} must be positive, their product an int64", heads, dim));
  const bool seq_first = AttrInt(attrs, kSeqFirst, 1) != 0;
  const int64_t offsets[3] = {AttrInt(attrs, kQOffset, 0), AttrInt(attrs, kKOffset, 0), AttrInt(attrs, kVOffset, 0)};
  const gert::Shape* in[3] = {q, k, v};
  for (int i = 0; i < 3; ++i) {
    const int64_t w = in[i]->GetDim(2);
    int64_t end = 0;
    if (offsets[i] < 0 || !ge::CheckedAdd(offsets[i], hidden, &end) || (w >= 0 && end > w))
      return InferFail(fmt::format("FusedAttention: input {} has {} columns, heads read {} from column {}", i, w,
                                   hidden, offsets[i]));
  }
  const int bdim = seq_first ? 1 : 0, sdim = seq_first ? 0 : 1;
  auto known_ne = [](int64_t a, int64_t b) { return a >= 0 && b >= 0 && a != b; };
  if (known_ne(q->GetDim(bdim), k->GetDim(bdim)) || known_ne(q->GetDim(bdim), v->GetDim(bdim)) ||
      known_ne(k->GetDim(sdim), v->GetDim(sdim)))
    return InferFail("FusedAttention: Q, K and V disagree on the batch, or K and V on the sequence length");
  gert::Shape* y = ctx->GetOutputShape(0);
  *y = *q;
  y->SetDim(2, hidden);
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus Tiling(gert::TilingContext* ctx) {
  const gert::Shape& q = ctx->GetInputShape(0)->GetStorageShape();
  const gert::Shape& k = ctx->GetInputShape(1)->GetStorageShape();
  const gert::Shape& v = ctx->GetInputShape(2)->GetStorageShape();
  const auto* attrs = ctx->GetAttrs();
  AttentionTiling t{};
  t.seq_first = AttrInt(attrs, kSeqFirst, 1) != 0;
  const int bdim = t.seq_first ? 1 : 0, sdim = t.seq_first ? 0 : 1;
  t.batch = q.GetDim(bdim);
  t.sq = q.GetDim(sdim);
  t.sk = k.GetDim(sdim);
  if (v.GetDim(sdim) != t.sk || k.GetDim(bdim) != t.batch || v.GetDim(bdim) != t.batch) return ge::GRAPH_FAILED;
  t.heads = AttrInt(attrs, kNumHeads, 0);
  t.head_dim = AttrInt(attrs, kHeadDim, 0);
  t.scale = AttrFloat(attrs, kScale, 1.f);
  t.q_offset = AttrInt(attrs, kQOffset, 0);
  t.k_offset = AttrInt(attrs, kKOffset, 0);
  t.v_offset = AttrInt(attrs, kVOffset, 0);
  t.q_width = q.GetDim(2);
  t.k_width = k.GetDim(2);
  t.v_width = v.GetDim(2);
  if (const auto* m = ctx->GetInputShape(3)) {
    t.has_mask = 1;
    if (!MaskStrides(m->GetStorageShape(), t.sq, t.sk, &t.mask_q_stride, &t.mask_k_stride)) return ge::GRAPH_FAILED;
  }
  t.q_blocks = std::max<int64_t>(1, (t.sq + kQueryRowsPerBlock - 1) / kQueryRowsPerBlock);
  const int64_t units = t.batch * t.heads * t.q_blocks;
  const int64_t flops = 4 * t.batch * t.heads * t.sq * t.sk * t.head_dim;
  uint32_t blocks = ChooseBlockDim(ctx, flops, 1 << 20);
  ctx->SetBlockDim(static_cast<uint32_t>(std::max<int64_t>(1, std::min<int64_t>(blocks, units))));
  return SetTiling(ctx, t);
}

#if defined(__AVX512F__) || (defined(__AVX2__) && defined(__FMA__))
// The two products of a unit as GE's own register-tiled GEMM: C[m, n] = alpha A[m, k] x B[k, n],
// all row-major, n a multiple of the vector width. For K, the head's [sk, d] rows are first
// transposed into a [d, sk] buffer (once per batch and head, kept while a thread's units stay on
// it). dnnl_sgemm packs both operands on every call: tinybert's 64 x 128 x 64 and 64 x 64 x 128
// products took 7.5-8.3 and 8.5-9.2 us through it, 7.1 and 6.4 us here (one core, non-zero data).
using namespace ge::simd;  // NOLINT: the vector primitives

constexpr int kTileRows = kLanes == 16 ? 6 : 4;  // MR x NV accumulators: 24 of 32 (AVX-512), 12 of 16
constexpr int kTileVecs = kLanes == 16 ? 4 : 3;

template <int MR, int NV>
void Tile(int64_t k, float alpha, const float* a, int64_t lda, const float* b, int64_t ldb, float* c, int64_t ldc) {
  Vec acc[MR][NV];  // the loops unrolled so that the accumulators live in registers
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i)
#pragma GCC unroll 8
    for (int j = 0; j < NV; ++j) acc[i][j] = Zero();
  for (int64_t p = 0; p < k; ++p) {
    Vec bv[NV];
#pragma GCC unroll 8
    for (int j = 0; j < NV; ++j) bv[j] = Load(b + p * ldb + j * kLanes);
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) {
      const Vec av = Set1(a[i * lda + p]);
#pragma GCC unroll 8
      for (int j = 0; j < NV; ++j) acc[i][j] = Fma(av, bv[j], acc[i][j]);
    }
  }
  const Vec s = Set1(alpha);
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i)
#pragma GCC unroll 8
    for (int j = 0; j < NV; ++j) Store(c + i * ldc + j * kLanes, Mul(acc[i][j], s));
}

template <int NV>
void RowTiles(int64_t m, int64_t k, float alpha, const float* a, int64_t lda, const float* b, int64_t ldb, float* c,
              int64_t ldc) {
  int64_t i = 0;
  for (; i + kTileRows <= m; i += kTileRows) Tile<kTileRows, NV>(k, alpha, a + i * lda, lda, b, ldb, c + i * ldc, ldc);
  switch (m - i) {  // the remaining rows, fewer than kTileRows
    case 5:
      if constexpr (kTileRows > 5) Tile<5, NV>(k, alpha, a + i * lda, lda, b, ldb, c + i * ldc, ldc);
      break;
    case 4:
      if constexpr (kTileRows > 4) Tile<4, NV>(k, alpha, a + i * lda, lda, b, ldb, c + i * ldc, ldc);
      break;
    case 3: Tile<3, NV>(k, alpha, a + i * lda, lda, b, ldb, c + i * ldc, ldc); break;
    case 2: Tile<2, NV>(k, alpha, a + i * lda, lda, b, ldb, c + i * ldc, ldc); break;
    case 1: Tile<1, NV>(k, alpha, a + i * lda, lda, b, ldb, c + i * ldc, ldc); break;
    default: break;
  }
}

void SmallGemm(int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda, const float* b, int64_t ldb,
               float* c, int64_t ldc) {
  int64_t j = 0;
  for (; j + kTileVecs * kLanes <= n; j += kTileVecs * kLanes)
    RowTiles<kTileVecs>(m, k, alpha, a, lda, b + j, ldb, c + j, ldc);
  for (; j + kLanes <= n; j += kLanes) RowTiles<1>(m, k, alpha, a, lda, b + j, ldb, c + j, ldc);
}
// kt[c * sk + j] = k[j * ldk + c] for j < sk, c < d (both multiples of 8), in 8x8 blocks
// transposed in registers: the scalar loop's 8192 strided stores a head took 1.4% of tinybert's
// run at one thread.
void TransposeK(const float* k, int64_t ldk, int64_t sk, int64_t d, float* kt) {
  for (int64_t j = 0; j < sk; j += 8)
    for (int64_t c = 0; c < d; c += 8) {
      __m256 r[8], t[8];
      for (int i = 0; i < 8; ++i) r[i] = _mm256_loadu_ps(k + (j + i) * ldk + c);
      for (int i = 0; i < 8; i += 2) {
        t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
      }
      for (int i = 0; i < 8; i += 4) {
        r[i] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(1, 0, 1, 0));
        r[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(3, 2, 3, 2));
        r[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(1, 0, 1, 0));
        r[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(3, 2, 3, 2));
      }
      for (int i = 0; i < 4; ++i) {
        _mm256_storeu_ps(kt + (c + i) * sk + j, _mm256_permute2f128_ps(r[i], r[i + 4], 0x20));
        _mm256_storeu_ps(kt + (c + i + 4) * sk + j, _mm256_permute2f128_ps(r[i], r[i + 4], 0x31));
      }
    }
}
constexpr bool kOwnGemm = true;
#else
void TransposeK(const float*, int64_t, int64_t, int64_t, float*) {}
void SmallGemm(int64_t, int64_t, int64_t, float, const float*, int64_t, const float*, int64_t, float*, int64_t) {}
constexpr bool kOwnGemm = false;
constexpr int64_t kLanes = 1;
#endif

void Kernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<AttentionTiling>(args);
  const auto* q = static_cast<const float*>(args->addrs[0]);
  const auto* k = static_cast<const float*>(args->addrs[1]);
  const auto* v = static_cast<const float*>(args->addrs[2]);
  const auto* mask = t.has_mask ? static_cast<const float*>(args->addrs[3]) : nullptr;
  auto* y = static_cast<float*>(args->addrs[4]);
  const int64_t d = t.head_dim, sk = t.sk, y_width = t.heads * d;
  // Row strides along the sequence and the start of batch b's first row, per tensor.
  const int64_t ldq = t.seq_first ? t.batch * t.q_width : t.q_width;
  const int64_t ldk = t.seq_first ? t.batch * t.k_width : t.k_width;
  const int64_t ldv = t.seq_first ? t.batch * t.v_width : t.v_width;
  const int64_t ldy = t.seq_first ? t.batch * y_width : y_width;
  auto batch_base = [&](int64_t b, int64_t width, int64_t seq) { return t.seq_first ? b * width : b * seq * width; };
  int64_t u0, u1;
  BlockRange(t.batch * t.heads * t.q_blocks, args->blockIdx, args->blockDim, &u0, &u1);
  thread_local std::vector<float> scores, kt;
  scores.resize(static_cast<size_t>(std::min(t.sq, kQueryRowsPerBlock) * sk));
  const bool own = kOwnGemm && sk % kLanes == 0 && d % kLanes == 0;
  if (own) kt.resize(static_cast<size_t>(d * sk));
  int64_t kt_bh = -1;  // the (batch, head) whose K is in kt
  for (int64_t u = u0; u < u1; ++u) {
    const int64_t qb = u % t.q_blocks, bh = u / t.q_blocks, h = bh % t.heads, b = bh / t.heads;
    const int64_t r0 = qb * kQueryRowsPerBlock, rows = std::min(kQueryRowsPerBlock, t.sq - r0);
    if (rows <= 0) continue;
    const float* qp = q + batch_base(b, t.q_width, t.sq) + r0 * ldq + t.q_offset + h * d;
    const float* kp = k + batch_base(b, t.k_width, sk) + t.k_offset + h * d;
    const float* vp = v + batch_base(b, t.v_width, sk) + t.v_offset + h * d;
    float* yp = y + batch_base(b, y_width, t.sq) + r0 * ldy + h * d;
    float* s = scores.data();
    if (own && kt_bh != bh) {
      TransposeK(kp, ldk, sk, d, kt.data());
      kt_bh = bh;
    }
    if (own) {
      SmallGemm(rows, sk, d, t.scale, qp, ldq, kt.data(), sk, s, sk);
    } else {
      Sgemm(false, true, rows, sk, d, t.scale, qp, ldq, kp, ldk, 0.f, s, sk);
    }
    for (int64_t r = 0; r < rows; ++r) {
      float* row = s + r * sk;
      if (mask) {
        const float* mrow = mask + (r0 + r) * t.mask_q_stride;
        for (int64_t j = 0; j < sk; ++j) row[j] += mrow[j * t.mask_k_stride];
      }
      VecSoftmax(row, row, sk);
    }
    if (own) {
      SmallGemm(rows, d, sk, 1.f, s, sk, vp, ldv, yp, ldy);
    } else {
      Sgemm(false, false, rows, d, sk, 1.f, s, sk, vp, ldv, 0.f, yp, ldy);
    }
  }
}

}  // namespace ge::ops_fused_attention

namespace ops {
class FusedAttention : public OpDef {
 public:
  explicit FusedAttention(const char* name) : OpDef(name) {
    using namespace ge::ops_fused_attention;
    this->Input("Q").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Input("K").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Input("V").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Input("mask").ParamType(OPTIONAL).DataType({ge::DT_FLOAT});
    this->Output("Y").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Attr("num_heads").AttrType(REQUIRED).Int(0);
    this->Attr("head_dim").AttrType(REQUIRED).Int(0);
    this->Attr("scale").AttrType(OPTIONAL).Float(1.f);
    this->Attr("q_offset").AttrType(OPTIONAL).Int(0);
    this->Attr("k_offset").AttrType(OPTIONAL).Int(0);
    this->Attr("v_offset").AttrType(OPTIONAL).Int(0);
    this->Attr("seq_first").AttrType(OPTIONAL).Int(1);
    this->SetInferShape(InferShape);
    this->SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    this->AICore().SetTiling(Tiling).SetKernel(Kernel).AddConfig("ascend910b");
  }
};
OP_ADD(FusedAttention);
}  // namespace ops
