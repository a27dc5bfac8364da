// Graph IR: construction, topological order, verifier errors by node name, DOT output.
#include <gtest/gtest.h>

#include "ge/graph.h"
#include "ge/npy.h"

namespace ge {
namespace {

TensorDesc F32(std::vector<int64_t> dims) { return TensorDesc{DT_FLOAT, FORMAT_ND, Shape(dims)}; }

TEST(Graph, TopologicalOrderFollowsEdgesNotInsertion) {
  Graph g("t");
  ValueId x = g.AddInput("x", F32({2}));
  ValueId a = g.AddValue("a"), b = g.AddValue("b");
  g.AddNode("second", "Relu", {a}, {b});  // inserted first, consumes a
  g.AddNode("first", "Relu", {x}, {a});
  g.AddOutput(b);
  std::vector<NodeId> order;
  ASSERT_TRUE(g.TopologicalOrder(&order).ok());
  ASSERT_EQ(order.size(), 2u);
  EXPECT_EQ(g.node(order[0]).name, "first");
  EXPECT_EQ(g.node(order[1]).name, "second");
}

TEST(GraphVerifier, ReportsCycleByNodeName) {
  Graph g("cyc");
  ValueId a = g.AddValue("a"), b = g.AddValue("b");
  g.AddNode("n1", "Relu", {b}, {a});
  g.AddNode("n2", "Relu", {a}, {b});
  g.AddOutput(b);
  Status st = g.Verify();
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("cycle"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("'n1'"), std::string::npos) << st.message();
}

TEST(GraphVerifier, ReportsDanglingEdge) {
  Graph g("d");
  ValueId ghost = g.AddValue("ghost");  // no producer, not an input, not a constant
  ValueId y = g.AddValue("y");
  g.AddNode("relu_1", "Relu", {ghost}, {y});
  g.AddOutput(y);
  Status st = g.Verify();
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), "node 'relu_1' (Relu) input 0 'ghost' has no producer (dangling edge)");
}

TEST(GraphVerifier, ReportsOutOfRangeInput) {
  Graph g("d");
  ValueId y = g.AddValue("y");
  g.AddNode("bad", "Relu", {42}, {y});
  Status st = g.Verify();
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("node 'bad' (Relu) input 0 refers to no value"), std::string::npos);
}

TEST(GraphVerifier, ReportsValueProducedTwice) {
  Graph g("p");
  ValueId x = g.AddInput("x", F32({1}));
  ValueId y = g.AddValue("y");
  g.AddNode("a", "Relu", {x}, {y});
  g.AddNode("b", "Relu", {x}, {y});
  Status st = g.Verify();
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("value 'y' is produced twice (second producer: node 'b' (Relu))"), std::string::npos)
      << st.message();
}

TEST(GraphPrinter, DotHasNodesAndEdges) {
  Graph g("dot");
  ValueId x = g.AddInput("x", F32({1, 3}));
  ValueId y = g.AddValue("y", F32({1, 3}));
  g.AddNode("act", "Relu", {x}, {y});
  g.AddOutput(y);
  std::string dot = g.ToDot();
  EXPECT_NE(dot.find("digraph \"dot\""), std::string::npos);
  EXPECT_NE(dot.find("n0 [shape=box,label=\"act\\nRelu\"]"), std::string::npos) << dot;
  EXPECT_NE(dot.find("v0 -> n0 [label=\"float32[1, 3]\"]"), std::string::npos) << dot;
}

TEST(Shape, UnknownDimsAndRank) {
  EXPECT_TRUE(Shape({1, 3}).IsStatic());
  EXPECT_FALSE(Shape({-1, 3}).IsStatic());
  EXPECT_EQ(Shape({-1, 3}).GetShapeSize(), -1);
  EXPECT_FALSE(Shape::UnknownRank().IsStatic());
  EXPECT_EQ(Shape::UnknownRank().ToString(), "[?]");
  EXPECT_EQ(Shape({2, 3}).GetShapeSize(), 6);
  EXPECT_EQ(Shape().GetShapeSize(), 1);                 // scalar
  EXPECT_EQ(Shape({INT64_MAX, 4}).GetShapeSize(), -1);  // overflow saturates
}

TEST(DataType, SizesCoverOnnxTypes) {
  EXPECT_EQ(GetSizeByDataType(DT_FLOAT16), 2u);
  EXPECT_EQ(GetSizeByDataType(DT_BF16), 2u);
  EXPECT_EQ(GetSizeByDataType(DT_BOOL), 1u);
  EXPECT_EQ(GetSizeByDataType(DT_UINT64), 8u);
  EXPECT_EQ(GetSizeByDataType(DT_COMPLEX128), 16u);
  EXPECT_STREQ(DataTypeName(DT_INT8), "int8");
  EXPECT_STREQ(FormatName(FORMAT_NCHW), "NCHW");
}

TEST(Npy, ReadsNumpyWrittenReference) {
  // Written by numpy (models/make_models.py), not by us.
  HostTensor t;
  ASSERT_TRUE(ReadNpy(std::string(GE_SOURCE_DIR) + "/models/mlp_input.npy", &t).ok());
  EXPECT_EQ(t.dtype(), DT_FLOAT);
  EXPECT_EQ(t.shape(), Shape({4, 64}));
}

TEST(Npy, RoundTripAndTruncation) {
  HostTensor t(DT_INT64, Shape({3}));
  for (int i = 0; i < 3; ++i) t.mutable_data_as<int64_t>()[i] = i * 10;
  std::string path = ::testing::TempDir() + "/rt.npy";
  ASSERT_TRUE(WriteNpy(path, t).ok());
  HostTensor r;
  ASSERT_TRUE(ReadNpy(path, &r).ok());
  EXPECT_EQ(r.shape(), Shape({3}));
  EXPECT_EQ(r.data_as<int64_t>()[2], 20);
  std::string bad = ::testing::TempDir() + "/bad.npy";
  FILE* f = fopen(bad.c_str(), "wb");
  fputs("hello", f);
  fclose(f);
  Status st = ReadNpy(bad, &r);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("not a .npy file"), std::string::npos);
}

}  // namespace
}  // namespace ge
