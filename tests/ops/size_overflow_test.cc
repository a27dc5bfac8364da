// Shapes computed from data (ConstantOfShape, Expand, Tile, Range) whose byte size overflows are
// a clear error at shape inference, not a wrapped-around tiny allocation; a host tensor whose
// bytes do not match its shape is rejected by Run.
#include <gtest/gtest.h>

#include <limits>

#include "ops_test_util.h"

namespace ge::testing {
namespace {

// A graph computing `type`(x, shape_const) -> out, compiled (static inference folds or infers).
Status CompileWithConstant(const std::string& type, HostTensor x, HostTensor c, AttrMap attrs = {}) {
  auto g = std::make_shared<Graph>("g");
  ValueId in = g->AddInput("x", TensorDesc{x.dtype(), FORMAT_ND, x.shape()});
  ValueId k = g->AddConstant("c", std::move(c));
  ValueId out = g->AddValue("out");
  g->AddNode("n", type, {in, k}, {out}, std::move(attrs));
  g->AddOutput(out);
  std::unique_ptr<Model> m;
  return Model::FromGraph(g, {}, &m);
}

const int64_t kHuge = 4611686018427387905;  // * 4 bytes wraps to 4

TEST(SizeOverflow, ExpandToAHugeShape) {
  Status st = CompileWithConstant("Expand", F32({1}, {1}), I64({2}, {kHuge, 4}));
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(),
            "node 'n' (Expand): output 0 shape [4611686018427387905, 4] is too large (its byte size "
            "overflows 64 bits)");
}

TEST(SizeOverflow, TileRepeatsOverflow) {
  Status st = CompileWithConstant("Tile", F32({4}, {1, 2, 3, 4}), I64({1}, {kHuge}));
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("node 'n' (Tile): shape inference failed"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("dim 0 (4) times repeats 4611686018427387905 overflows"), std::string::npos)
      << st.message();
}

// Found by the offline-model mutation test under UBSan: a FusedMatMul whose packed weights claim a
// 2^60 x 64 matrix overflowed a signed multiply while oneDNN's packed layout was checked. Such
// weights have no packed layout: a shape error.
TEST(SizeOverflow, PackedMatMulWeightsOfAHugeMatrix) {
  auto g = std::make_shared<Graph>("g");
  ValueId a = g->AddInput("a", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({1, 4})});
  ValueId w = g->AddConstant("w", F32({4}, {1, 2, 3, 4}));
  ValueId out = g->AddValue("out");
  AttrMap attrs;
  attrs["packed_weights"] = int64_t{1};
  attrs["weights_shape"] = std::vector<int64_t>{int64_t{1} << 60, 64};
  g->AddNode("n", "FusedMatMul", {a, w}, {out}, std::move(attrs));
  g->AddOutput(out);
  std::unique_ptr<Model> m;
  Status st = Model::FromGraph(g, {}, &m);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("node 'n' (FusedMatMul)"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("expected a 2-D B or the packing of weights_shape"), std::string::npos) << st.message();
}

TEST(SizeOverflow, ConstantOfShapeHuge) {
  auto g = std::make_shared<Graph>("g");
  ValueId shape = g->AddInput("s", TensorDesc{DT_INT64, FORMAT_ND, Shape({2})});
  ValueId out = g->AddValue("out");
  g->AddNode("n", "ConstantOfShape", {shape}, {out});
  g->AddOutput(out);
  ModelOptions opt;
  opt.mode = "host";
  std::unique_ptr<Model> m;
  ASSERT_TRUE(Model::FromGraph(g, opt, &m).ok());
  std::vector<HostTensor> outs;
  Status st = m->Run({I64({2}, {kHuge, 2})}, &outs);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(),
            "node 'n' (ConstantOfShape): output 0 shape [4611686018427387905, 2] is too large (its "
            "byte size overflows 64 bits)");
  st = m->Run({I64({2}, {-5, 2})}, &outs);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("'input' value -5 is not a dimension (an integer >= 0)"), std::string::npos)
      << st.message();
}

TEST(SizeOverflow, HostTensorOfAnOverflowingShapeIsRejectedByRun) {
  HostTensor t(DT_FLOAT, Shape({kHuge}));
  EXPECT_EQ(t.NumBytes(), 0u);  // not 4 bytes
  auto g = std::make_shared<Graph>("g");
  ValueId x = g->AddInput("x", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({-1})});
  ValueId out = g->AddValue("out");
  g->AddNode("n", "Relu", {x}, {out});
  g->AddOutput(out);
  std::unique_ptr<Model> m;
  ASSERT_TRUE(Model::FromGraph(g, {}, &m).ok());
  std::vector<HostTensor> outs;
  Status st = m->Run({t}, &outs);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), "input 'x': shape [4611686018427387905] does not describe its 0 bytes of float32");
}

TEST(SizeOverflow, SplitSizesMustAddUpToTheAxis) {
  auto g = std::make_shared<Graph>("g");
  ValueId x = g->AddInput("x", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({4})});
  ValueId sizes = g->AddConstant("sizes", I64({2}, {3, 3}));
  ValueId a = g->AddValue("a"), b = g->AddValue("b");
  g->AddNode("n", "Split", {x, sizes}, {a, b});
  g->AddOutput(a);
  g->AddOutput(b);
  std::unique_ptr<Model> m;
  Status st = Model::FromGraph(g, {}, &m);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("node 'n' (Split): shape inference failed"), std::string::npos) << st.message();
}

TEST(SizeOverflow, PadsThatCropMoreThanTheDim) {
  Status st = CompileWithConstant("Pad", F32({4}, {1, 2, 3, 4}), I64({2}, {-5, 0}));
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("pads -5 and 0 do not fit dim 0 of size 4"), std::string::npos) << st.message();
  st = CompileWithConstant("Pad", F32({4}, {1, 2, 3, 4}), I64({2}, {int64_t{1} << 62, int64_t{1} << 62}));
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("do not fit dim 0 of size 4"), std::string::npos) << st.message();
}

TEST(SizeOverflow, AHugeButRepresentableTensorIsAnOutOfMemoryError) {
  // 2^52 bytes fit in 64 bits but not in memory: a clean error, in sink and host mode.
  auto g = std::make_shared<Graph>("g");
  ValueId shape = g->AddConstant("s", I64({1}, {int64_t{1} << 50}));
  ValueId out = g->AddValue("out");
  g->AddNode("n", "ConstantOfShape", {shape}, {out});
  g->AddOutput(out);
  for (const char* mode : {"auto", "host"}) {
    ModelOptions opt;
    opt.mode = mode;
    std::unique_ptr<Model> m;
    std::vector<HostTensor> outs;
    Status st = Model::FromGraph(g, opt, &m);
    if (st.ok()) st = m->Run({}, &outs);
    ASSERT_FALSE(st.ok()) << mode;
    EXPECT_EQ(st.code(), Status::kOutOfMemory) << mode << ": " << st.message();
    EXPECT_NE(st.message().find("4503599627370496"), std::string::npos) << mode << ": " << st.message();
  }
}

TEST(SizeOverflow, DepthToSpaceNeedsWholeBlocks) {
  Status st;
  Build({"DepthToSpace", {F32({1, 3, 1, 1}, {1, 2, 3})}, {{"blocksize", int64_t{2}}}, {1, 0, 2, 2}}, "host", &st);
  EXPECT_NE(st.message().find("channels 3 are not a multiple of blocksize^2 = 4"), std::string::npos) << st.message();
  Build({"SpaceToDepth", {F32({1, 1, 3, 2}, {1, 2, 3, 4, 5, 6})}, {{"blocksize", int64_t{2}}}, {1, 4, 1, 1}}, "host",
        &st);
  EXPECT_NE(st.message().find("height 3 and width 2 must be multiples of blocksize 2"), std::string::npos)
      << st.message();
  Build({"DepthToSpace", {F32({1, 4, 1, 1}, {1, 2, 3, 4})}, {{"blocksize", int64_t{1} << 32}}, {1, 1, 2, 2}}, "host",
        &st);
  EXPECT_NE(st.message().find("need a 4-D input and blocksize > 0"), std::string::npos) << st.message();
}

TEST(SizeOverflow, SliceWithExtremeSteps) {
  // ONNX Slice: starts/ends clamp to the dim; a step larger than the dim takes one element.
  const int64_t kMin = std::numeric_limits<int64_t>::min(), kMax = std::numeric_limits<int64_t>::max();
  struct Case {
    int64_t start, end, step;
    std::vector<float> want;
  };
  for (const Case& c :
       {Case{0, 4, kMax, {1}}, Case{-1, kMin, kMin, {4}}, Case{-1, kMin, -1, {4, 3, 2, 1}}, Case{1, kMax, 2, {2, 4}}}) {
    OneNode n{"Slice",
              {F32({4}, {1, 2, 3, 4}), I64({1}, {c.start}), I64({1}, {c.end}), I64({1}, {0}), I64({1}, {c.step})},
              {},
              {-1}};
    auto out = RunOne(n, "host");
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(Floats(out[0]), c.want) << c.start << ":" << c.end << ":" << c.step;
  }
}

TEST(SizeOverflow, RangeCountNotAnInteger) {
  auto g = std::make_shared<Graph>("g");
  ValueId a = g->AddConstant("a", F32({}, {0}));
  ValueId b = g->AddConstant("b", F32({}, {1e30f}));
  ValueId d = g->AddConstant("d", F32({}, {1e-30f}));
  ValueId out = g->AddValue("out");
  g->AddNode("n", "Range", {a, b, d}, {out});
  g->AddOutput(out);
  std::unique_ptr<Model> m;
  Status st = Model::FromGraph(g, {}, &m);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("'delta' must be nonzero and the element count an int64"), std::string::npos)
      << st.message();
}

}  // namespace
}  // namespace ge::testing
