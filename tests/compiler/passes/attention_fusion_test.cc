// Multi-head attention fusion: before/after in the textual IR.

#include "pass_test_util.h"

namespace ge {
namespace {

// PyTorch's nn.MultiheadAttention export (sequence-first [S=3, B=2, E=4], 2 heads of 2): one
// packed QKV projection sliced in three, heads split by Reshape + Transpose, q scaled by Div,
// an additive [S, S] mask, heads merged by Transpose (and Reshape, left alone).
const char* kSeqFirst = R"(graph g
input qkv: float32[3, 2, 12]
input mask: float32[3, 3]
const s0: int64[1] = [0]
const s4: int64[1] = [4]
const s8: int64[1] = [8]
const s12: int64[1] = [12]
const ax: int64[1] = [-1]
const heads: int64[3] = [3, 4, 2]
const merged: int64[2] = [6, 4]
const c: float32[] = [1.4142135]
node sq: q: float32[3, 2, 4] = Slice(qkv, s0, s4, ax)
node sk: k: float32[3, 2, 4] = Slice(qkv, s4, s8, ax)
node sv: v: float32[3, 2, 4] = Slice(qkv, s8, s12, ax)
node rq: qr: float32[3, 4, 2] = Reshape(q, heads)
node rk: kr: float32[3, 4, 2] = Reshape(k, heads)
node rv: vr: float32[3, 4, 2] = Reshape(v, heads)
node tq: qh: float32[4, 3, 2] = Transpose(qr) {perm=[1, 0, 2]}
node tk: kt: float32[4, 2, 3] = Transpose(kr) {perm=[1, 2, 0]}
node tv: vh: float32[4, 3, 2] = Transpose(vr) {perm=[1, 0, 2]}
node scale: qs: float32[4, 3, 2] = Div(qh, c)
node mm1: s: float32[4, 3, 3] = MatMul(qs, kt)
node add: sm: float32[4, 3, 3] = Add(s, mask)
node softmax: p: float32[4, 3, 3] = Softmax(sm) {axis=-1}
node mm2: o: float32[4, 3, 2] = MatMul(p, vh)
node merge: om: float32[3, 4, 2] = Transpose(o) {perm=[1, 0, 2]}
node out: y: float32[6, 4] = Reshape(om, merged)
output y
)";

TEST(AttentionFusionTest, SequenceFirstPackedQkvWithMask) {
  // The head-split nodes stay for dead-code elimination (which runs last in the pass manager).
  EXPECT_EQ(test::RunPass("attention-fusion", kSeqFirst), R"(graph g
input qkv: float32[3, 2, 12]
input mask: float32[3, 3]
const s0: int64[1] = [0]
const s4: int64[1] = [4]
const s8: int64[1] = [8]
const s12: int64[1] = [12]
const ax: int64[1] = [-1]
const heads: int64[3] = [3, 4, 2]
const merged: int64[2] = [6, 4]
const merge/merge_shape: int64[3] = [3, 4, 2]
node sq: q: float32[3, 2, 4] = Slice(qkv, s0, s4, ax)
node sk: k: float32[3, 2, 4] = Slice(qkv, s4, s8, ax)
node sv: v: float32[3, 2, 4] = Slice(qkv, s8, s12, ax)
node rq: qr: float32[3, 4, 2] = Reshape(q, heads)
node rk: kr: float32[3, 4, 2] = Reshape(k, heads)
node rv: vr: float32[3, 4, 2] = Reshape(v, heads)
node tq: qh: float32[4, 3, 2] = Transpose(qr) {perm=[1, 0, 2]}
node tk: kt: float32[4, 2, 3] = Transpose(kr) {perm=[1, 2, 0]}
node tv: vh: float32[4, 3, 2] = Transpose(vr) {perm=[1, 0, 2]}
node merge: om/attention: float32[3, 2, 4] = FusedAttention(qkv, qkv, qkv, mask) {head_dim=2, k_offset=4, num_heads=2, q_offset=0, scale=0.70710677, seq_first=1, v_offset=8}
node merge/merge: om: float32[3, 4, 2] = Reshape(om/attention, merge/merge_shape)
node out: y: float32[6, 4] = Reshape(om, merged)
output y
)");
}

// A BERT-style block (batch-first [B=1, S=2, E=4], separate Q/K/V inputs, 2 heads of 2),
// scale by Mul after the MatMul, no mask.
TEST(AttentionFusionTest, BatchFirstSeparateInputs) {
  EXPECT_EQ(test::RunPass("attention-fusion", R"(graph g
input xq: float32[1, 2, 4]
input xk: float32[1, 2, 4]
input xv: float32[1, 2, 4]
const heads: int64[4] = [1, 2, 2, 2]
const c: float32[] = [0.5]
node rq: qr: float32[1, 2, 2, 2] = Reshape(xq, heads)
node rk: kr: float32[1, 2, 2, 2] = Reshape(xk, heads)
node rv: vr: float32[1, 2, 2, 2] = Reshape(xv, heads)
node tq: qh: float32[1, 2, 2, 2] = Transpose(qr) {perm=[0, 2, 1, 3]}
node tk: kt: float32[1, 2, 2, 2] = Transpose(kr) {perm=[0, 2, 3, 1]}
node tv: vh: float32[1, 2, 2, 2] = Transpose(vr) {perm=[0, 2, 1, 3]}
node mm1: s: float32[1, 2, 2, 2] = MatMul(qh, kt)
node scale: ss: float32[1, 2, 2, 2] = Mul(s, c)
node softmax: p: float32[1, 2, 2, 2] = Softmax(ss) {axis=3}
node mm2: o: float32[1, 2, 2, 2] = MatMul(p, vh)
node merge: y: float32[1, 2, 2, 2] = Transpose(o) {perm=[0, 2, 1, 3]}
output y
)"),
            R"(graph g
input xq: float32[1, 2, 4]
input xk: float32[1, 2, 4]
input xv: float32[1, 2, 4]
const heads: int64[4] = [1, 2, 2, 2]
const merge/merge_shape: int64[4] = [1, 2, 2, 2]
node rq: qr: float32[1, 2, 2, 2] = Reshape(xq, heads)
node rk: kr: float32[1, 2, 2, 2] = Reshape(xk, heads)
node rv: vr: float32[1, 2, 2, 2] = Reshape(xv, heads)
node tq: qh: float32[1, 2, 2, 2] = Transpose(qr) {perm=[0, 2, 1, 3]}
node tk: kt: float32[1, 2, 2, 2] = Transpose(kr) {perm=[0, 2, 3, 1]}
node tv: vh: float32[1, 2, 2, 2] = Transpose(vr) {perm=[0, 2, 1, 3]}
node merge: y/attention: float32[1, 2, 4] = FusedAttention(xq, xk, xv) {head_dim=2, k_offset=0, num_heads=2, q_offset=0, scale=0.5, seq_first=0, v_offset=0}
node merge/merge: y: float32[1, 2, 2, 2] = Reshape(y/attention, merge/merge_shape)
output y
)");
}

TEST(AttentionFusionTest, MustNotFire) {
  auto unchanged = [](const std::string& text) { test::ExpectUnchanged("attention-fusion", text); };
  auto with = [](const std::string& from, const std::string& to) { return test::Replaced(kSeqFirst, from, to); };
  // K not transposed for Q K^T (a plain head split); the scores also a graph output; a mask per
  // batch and head ([4, 3, 3]); a scale that is no constant; softmax over another axis; the
  // head merge not the inverse of the split; the probabilities read twice.
  unchanged(with("kt: float32[4, 2, 3] = Transpose(kr) {perm=[1, 2, 0]}",
                 "kt: float32[4, 2, 3] = Transpose(kr) {perm=[1, 0, 2]}"));
  unchanged(with("output y", "output y, s"));
  unchanged(with("input mask: float32[3, 3]", "input mask: float32[4, 3, 3]"));
  std::string runtime_scale = with("const c: float32[] = [1.4142135]\n", "");
  runtime_scale.replace(runtime_scale.find("const s0"), 0, "input c: float32[]\n");
  unchanged(runtime_scale);
  unchanged(with("Softmax(sm) {axis=-1}", "Softmax(sm) {axis=1}"));
  unchanged(with("Transpose(o) {perm=[1, 0, 2]}", "Transpose(o) {perm=[0, 1, 2]}"));
  unchanged(with("output y", "output y, p"));
}

// The same block with a dynamic batch (-1; the head-split targets computed at run time, as a
// dynamic-batch export's Shape -> Concat chains are): [S, B, W] -> [S, -1, D] with S and D known
// is still the head split (the element count forces ? = B * W / D), and Q, K and V are slices of
// one tensor, so of one batch.
const char* kSeqFirstDynamicBatch = R"(graph g
input qkv: float32[3, -1, 12]
input mask: float32[3, 3]
input heads: int64[3]
const s0: int64[1] = [0]
const s4: int64[1] = [4]
const s8: int64[1] = [8]
const s12: int64[1] = [12]
const ax: int64[1] = [-1]
const c: float32[] = [1.4142135]
node sq: q: float32[3, -1, 4] = Slice(qkv, s0, s4, ax)
node sk: k: float32[3, -1, 4] = Slice(qkv, s4, s8, ax)
node sv: v: float32[3, -1, 4] = Slice(qkv, s8, s12, ax)
node rq: qr: float32[3, -1, 2] = Reshape(q, heads)
node rk: kr: float32[3, -1, 2] = Reshape(k, heads)
node rv: vr: float32[3, -1, 2] = Reshape(v, heads)
node tq: qh: float32[-1, 3, 2] = Transpose(qr) {perm=[1, 0, 2]}
node tk: kt: float32[-1, 2, 3] = Transpose(kr) {perm=[1, 2, 0]}
node tv: vh: float32[-1, 3, 2] = Transpose(vr) {perm=[1, 0, 2]}
node scale: qs: float32[-1, 3, 2] = Div(qh, c)
node mm1: s: float32[-1, 3, 3] = MatMul(qs, kt)
node add: sm: float32[-1, 3, 3] = Add(s, mask)
node softmax: p: float32[-1, 3, 3] = Softmax(sm) {axis=-1}
node mm2: o: float32[-1, 3, 2] = MatMul(p, vh)
node merge: y: float32[3, -1, 2] = Transpose(o) {perm=[1, 0, 2]}
output y
)";

TEST(AttentionFusionTest, SequenceFirstDynamicBatch) {
  EXPECT_EQ(test::RunPass("attention-fusion", kSeqFirstDynamicBatch), R"(graph g
input qkv: float32[3, -1, 12]
input mask: float32[3, 3]
input heads: int64[3]
const s0: int64[1] = [0]
const s4: int64[1] = [4]
const s8: int64[1] = [8]
const s12: int64[1] = [12]
const ax: int64[1] = [-1]
const merge/merge_shape: int64[3] = [3, -1, 2]
node sq: q: float32[3, -1, 4] = Slice(qkv, s0, s4, ax)
node sk: k: float32[3, -1, 4] = Slice(qkv, s4, s8, ax)
node sv: v: float32[3, -1, 4] = Slice(qkv, s8, s12, ax)
node rq: qr: float32[3, -1, 2] = Reshape(q, heads)
node rk: kr: float32[3, -1, 2] = Reshape(k, heads)
node rv: vr: float32[3, -1, 2] = Reshape(v, heads)
node tq: qh: float32[-1, 3, 2] = Transpose(qr) {perm=[1, 0, 2]}
node tk: kt: float32[-1, 2, 3] = Transpose(kr) {perm=[1, 2, 0]}
node tv: vh: float32[-1, 3, 2] = Transpose(vr) {perm=[1, 0, 2]}
node merge: y/attention: float32[3, -1, 4] = FusedAttention(qkv, qkv, qkv, mask) {head_dim=2, k_offset=4, num_heads=2, q_offset=0, scale=0.70710677, seq_first=1, v_offset=8}
node merge/merge: y: float32[3, -1, 2] = Reshape(y/attention, merge/merge_shape)
output y
)");
}

TEST(AttentionFusionTest, DynamicBatchMustNotFire) {
  auto unchanged = [](const std::string& text) { test::ExpectUnchanged("attention-fusion", text); };
  auto with = [](const std::string& s, const std::string& from, const std::string& to) {
    return test::Replaced(s, from, to);
  };
  const std::string base = kSeqFirstDynamicBatch;
  // K from another tensor of unknown batch: Q and K need not be of one batch.
  std::string other_k = with(base, "node sk: k: float32[3, -1, 4] = Slice(qkv, s4, s8, ax)\n", "");
  other_k = with(other_k, "input heads: int64[3]\n", "input heads: int64[3]\ninput k: float32[3, -1, 4]\n");
  unchanged(other_k);
  // The split's middle dim known while the batch is not (B * H fixed: no head split proven); the
  // split's sequence dim unknown (the element count no longer forces the middle dim).
  unchanged(with(base, "qr: float32[3, -1, 2] = Reshape", "qr: float32[3, 4, 2] = Reshape"));
  unchanged(with(base, "qr: float32[3, -1, 2] = Reshape", "qr: float32[-1, -1, 2] = Reshape"));
}

}  // namespace
}  // namespace ge
