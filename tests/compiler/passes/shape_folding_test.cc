// Shape-chain folding (inside static inference): before/after in the textual IR.

#include "pass_test_util.h"

namespace ge {
namespace {

StaticInferenceOptions WithShapeFolding(bool on) {
  StaticInferenceOptions o;
  o.fold_shapes = on;
  return o;
}

// The chain PyTorch exports for x.view(x.size(0), -1): Shape -> Gather -> Unsqueeze -> Concat
// -> Reshape.
const char* kFlattenChain = R"(graph flatten
input x: float32[2, 3, 4, 5]
const i0: int64[] = [0]
const ax: int64[1] = [0]
const minus1: int64[1] = [-1]
node shape: s = Shape(x)
node gather: n = Gather(s, i0) {axis=0}
node unsq: n1 = Unsqueeze(n, ax)
node concat: dims = Concat(n1, minus1) {axis=0}
node reshape: y = Reshape(x, dims)
output y
)";

TEST(ShapeFoldingTest, FoldsTheShapeChainToAConstantAndTheReshapeBecomesStatic) {
  StaticInferenceStats stats;
  EXPECT_EQ(test::Infer(kFlattenChain, WithShapeFolding(true), &stats), R"(graph flatten
input x: float32[2, 3, 4, 5]
const dims: int64[2] = [2, -1]
node reshape: y: float32[2, 60] = Reshape(x, dims)
output y
)");
  EXPECT_EQ(stats.folded, 4);
  EXPECT_EQ(stats.shapes_folded, 1);
  EXPECT_EQ(stats.static_nodes, 1);
}

TEST(ShapeFoldingTest, DoesNotFoldWhenOff) {
  StaticInferenceStats stats;
  std::string out = test::Infer(kFlattenChain, WithShapeFolding(false), &stats);
  EXPECT_EQ(stats.folded, 0);
  EXPECT_NE(out.find("node shape: s: int64[4] = Shape(x)"), std::string::npos) << out;
}

TEST(ShapeFoldingTest, HonoursStartAndEnd) {
  EXPECT_EQ(test::Infer(R"(graph g
input x: float32[2, 3, 4, 5]
node a: s1 = Shape(x) {start=1, end=-1}
node b: s2 = Shape(x) {start=-2}
node c: s3 = Shape(x) {start=3, end=1}
node d: n = Size(x)
output s1, s2, s3, n
)",
                        WithShapeFolding(true)),
            R"(graph g
input x: float32[2, 3, 4, 5]
const s1: int64[2] = [3, 4]
const s2: int64[2] = [4, 5]
const s3: int64[0] = []
const n: int64[] = [120]
output s1, s2, s3, n
)");
  auto g = test::Parse(R"(graph g
input x: float32[2, 3, 4, 5]
node a: s1 = Shape(x) {start=1, end=-1}
node b: s2 = Shape(x) {start=-2}
node c: s3 = Shape(x) {start=3, end=1}
node d: n = Size(x)
output s1, s2, s3, n
)");
  ASSERT_TRUE(RunStaticInference(g.get(), WithShapeFolding(true)).ok());
  auto values = [&](const char* name) { return g->value(g->FindValue(name)).constant->ToInt64Vector(); };
  EXPECT_EQ(values("s1"), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(values("s2"), (std::vector<int64_t>{4, 5}));
  EXPECT_EQ(values("s3"), (std::vector<int64_t>{}));
  EXPECT_EQ(values("n"), (std::vector<int64_t>{120}));
  EXPECT_TRUE(g->value(g->FindValue("n")).constant->shape() == Shape());
}

TEST(ShapeFoldingTest, FoldsOnlyTheKnownDimsOfADynamicShape) {
  // The batch dim is dynamic: Shape(x, start=1) folds, Shape(x) and Size(x) must not.
  EXPECT_EQ(test::Infer(R"(graph g
input x: float32[-1, 3, 4]
node a: tail = Shape(x) {start=1}
node b: all = Shape(x)
node c: n = Size(x)
output tail, all, n
)",
                        WithShapeFolding(true)),
            R"(graph g
input x: float32[-1, 3, 4]
const tail: int64[2] = [3, 4]
node b: all: int64[3] = Shape(x)
node c: n: int64[] = Size(x)
output tail, all, n
)");
}

TEST(ShapeFoldingTest, GatherOfAPartlyKnownShapeFoldsWhenItPicksKnownDims) {
  // x.size(1), x.size(-1) and x.shape[1:3] of a dynamic-batch x fold; x.size(0) must not.
  EXPECT_EQ(test::Infer(R"(graph g
input x: float32[-1, 3, 4]
const one: int64[] = [1]
const last: int64[] = [-1]
const pair: int64[2] = [1, 2]
const zero: int64[] = [0]
node s: sx = Shape(x)
node g1: d1 = Gather(sx, one) {axis=0}
node g2: d2 = Gather(sx, last)
node g3: d12 = Gather(sx, pair) {axis=0}
node g4: d0 = Gather(sx, zero) {axis=0}
output d1, d2, d12, d0
)",
                        WithShapeFolding(true)),
            R"(graph g
input x: float32[-1, 3, 4]
const zero: int64[] = [0]
const d1: int64[] = [3]
const d2: int64[] = [4]
const d12: int64[2] = [3, 4]
node s: sx: int64[3] = Shape(x)
node g4: d0: int64[] = Gather(sx, zero) {axis=0}
output d1, d2, d12, d0
)");
}

TEST(ShapeFoldingTest, UnknownRankDoesNotFold) {
  StaticInferenceStats stats;
  const std::string out = test::Infer("graph g\ninput x: float32[?]\nnode a: s = Shape(x)\noutput s\n", {}, &stats);
  EXPECT_NE(out.find("node a: s: int64[?] = Shape(x)"), std::string::npos) << out;
  EXPECT_EQ(stats.folded, 0);
}

// Partial values (compiler/partial_values.h) on a dynamic sequence length, as PyTorch's
// nn.MultiheadAttention exports its head split: Shape(x)[2] / 4 is the constant 192 although x
// is dynamic, and the Reshape to Concat(Shape(x)[0], 4, 192) gets rank 3 and two known dims. The
// sequence length itself stays a computed value. Range's output is 1-D.
TEST(ShapeFoldingTest, PartialValuesOfADynamicShape) {
  EXPECT_EQ(test::Infer(R"(graph g
input x: float32[-1, 1, 768]
input n: int64[]
const i0: int64[] = [0]
const i2: int64[] = [2]
const ax: int64[1] = [0]
const four: int64[] = [4]
const four1: int64[1] = [4]
const one: int64[] = [1]
node shape: s = Shape(x)
node g0: seq = Gather(s, i0) {axis=0}
node g2: e = Gather(s, i2) {axis=0}
node div: d = Div(e, four)
node u0: seq1 = Unsqueeze(seq, ax)
node u2: d1 = Unsqueeze(d, ax)
node concat: dims = Concat(seq1, four1, d1) {axis=0}
node reshape: y = Reshape(x, dims)
node range: r = Range(i0, n, one)
output y, r
)",
                        WithShapeFolding(true)),
            R"(graph g
input x: float32[-1, 1, 768]
input n: int64[]
const i0: int64[] = [0]
const ax: int64[1] = [0]
const four1: int64[1] = [4]
const one: int64[] = [1]
const d1: int64[1] = [192]
node shape: s: int64[3] = Shape(x)
node g0: seq: int64[] = Gather(s, i0) {axis=0}
node u0: seq1: int64[1] = Unsqueeze(seq, ax)
node concat: dims: int64[3] = Concat(seq1, four1, d1) {axis=0}
node reshape: y: float32[-1, 4, 192] = Reshape(x, dims)
node range: r: int64[-1] = Range(i0, n, one)
output y, r
)");
}

// PyTorch's x.expand(n, -1, -1) export on a dynamic batch: Reshape, Equal and Where of a
// partial value; Expand's output gets rank 3 and its known dims.
TEST(ShapeFoldingTest, PartialValuesThroughAnExpand) {
  EXPECT_NE(test::Infer(R"(graph g
input x: float32[-1, 196, 768]
const c: float32[1, 1, 768] = opaque
const i0: int64[] = [0]
const ax: int64[1] = [0]
const m1: int64[1] = [-1]
const m3: int64[3] = [-1, -1, -1]
const ones: int64[3] = [1, 1, 1]
node shape: s = Shape(x)
node g0: n = Gather(s, i0) {axis=0}
node u0: n1 = Unsqueeze(n, ax)
node concat: dims = Concat(n1, m1, m1) {axis=0}
node reshape: r = Reshape(dims, m1)
node equal: e = Equal(r, m3)
node where: w = Where(e, ones, r)
node expand: y = Expand(c, w)
output y
)",
                        WithShapeFolding(true))
                .find("node expand: y: float32[-1, 1, 768] = Expand(c, w)"),
            std::string::npos);
}

// Dim symbols: PyTorch's channel shuffle on a dynamic batch, x.view(b, 2, 58, h, w).transpose(1,
// 2).view(b, -1, h, w) with b = x.size(0). The second Reshape's input [b, 58, 2, 28, 28] and
// target [b, -1, 28, 28] hold the same symbol b, so its -1 is 116, and the channel count read
// back from its shape (x.chunk(2, 1) exports Shape -> Gather -> Div) folds to a constant.
const char* kChannelShuffle = R"(graph g
input x: float32[-1, 116, 28, 28]
input z: float32[-1, 116, 28, 28]
const i0: int64[] = [0]
const i1: int64[] = [1]
const ax: int64[1] = [0]
const two: int64[1] = [2]
const c58: int64[1] = [58]
const c28: int64[1] = [28]
const m1: int64[1] = [-1]
const half: int64[] = [2]
node shape: s = Shape(x)
node g0: b = Gather(s, i0) {axis=0}
node u0: b1 = Unsqueeze(b, ax)
node cat1: t1 = Concat(b1, two, c58, c28, c28) {axis=0}
node view1: v = Reshape(x, t1)
node tr: p = Transpose(v) {perm=[0, 2, 1, 3, 4]}
node cat2: t2 = Concat(BATCH, m1, c28, c28) {axis=0}
node view2: y = Reshape(p, t2)
node shape2: s2 = Shape(y)
node g1: c = Gather(s2, i1) {axis=0}
node div: h = Div(c, half)
output y, h
)";

std::string ChannelShuffle(const std::string& batch) {
  std::string text = kChannelShuffle;
  return text.replace(text.find("BATCH"), 5, batch);
}

TEST(ShapeFoldingTest, DimSymbolsResolveTheChannelShuffle) {
  const std::string out = test::Infer(ChannelShuffle("b1"), WithShapeFolding(true));
  EXPECT_NE(out.find("node view1: v: float32[-1, 2, 58, 28, 28] = Reshape(x, t1)"), std::string::npos) << out;
  EXPECT_NE(out.find("node tr: p: float32[-1, 58, 2, 28, 28] = Transpose(v)"), std::string::npos) << out;
  EXPECT_NE(out.find("node view2: y: float32[-1, 116, 28, 28] = Reshape(p, t2)"), std::string::npos) << out;
  EXPECT_NE(out.find("const h: int64[] = [58]"), std::string::npos) << out;
}

// Must not fire: the batch of another input (z) is another symbol, so the -1 stays unknown
// (it is 116 only if z's batch equals x's), and so does the channel count.
TEST(ShapeFoldingTest, DimSymbolsOfAnotherValueDoNotResolveTheReshape) {
  std::string text = ChannelShuffle("bz1");
  text.replace(text.find("node cat2"), 0,
               "node shapez: sz = Shape(z)\nnode gz: bz = Gather(sz, i0) {axis=0}\nnode uz: bz1 = Unsqueeze(bz, ax)\n");
  const std::string out = test::Infer(text, WithShapeFolding(true));
  EXPECT_NE(out.find("node view2: y: float32[-1, -1, 28, 28] = Reshape(p, t2)"), std::string::npos) << out;
  EXPECT_NE(out.find("node div: h: int64[] = Div(c, half)"), std::string::npos) << out;
}

}  // namespace
}  // namespace ge
