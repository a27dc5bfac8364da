// The compile pipeline (compiler/compile.h): what a CompiledGraph holds for each scheduling mode,
// and that loading it is all the executors do (two loads of one CompiledGraph run independently).
#include "compiler/compile.h"

#include <gtest/gtest.h>

#include "executor/compiled_model.h"
#include "ge/graph_text.h"

namespace ge {
namespace {

// y = Relu(x + x): static, so sinkable.
constexpr const char* kText = R"(graph g
input x: float32[2, 3]
node add: a: float32[2, 3] = Add(x, x)
node relu: y: float32[2, 3] = Relu(a)
output y
)";

std::shared_ptr<Graph> Parse(const std::string& text) {
  std::shared_ptr<Graph> g;
  Status st = ParseGraphText(text, &g);
  EXPECT_TRUE(st.ok()) << st.message();
  return g;
}

std::unique_ptr<CompiledGraph> CompileText(const std::string& text, const std::string& mode) {
  CompileOptions o;
  o.mode = mode;
  std::unique_ptr<CompiledGraph> c;
  Status st = Compile(Parse(text), o, &c);
  EXPECT_TRUE(st.ok()) << st.message();
  return c;
}

TEST(CompileTest, StaticGraphIsOneSinkSegmentWithItsProgram) {
  auto c = CompileText(kText, "auto");
  ASSERT_EQ(c->segments.size(), 1u);
  const CompiledSegment& s = c->segments[0];
  EXPECT_TRUE(s.sink);
  EXPECT_TRUE(c->whole_graph);
  ASSERT_NE(s.program, nullptr);
  EXPECT_EQ(s.program->tasks.size(), 2u);
  EXPECT_GT(s.program->memory.arena_bytes, 0);
  EXPECT_EQ(c->mode(), "sink");
  EXPECT_EQ(c->DescribeSegments(), "sink[2 nodes]");
  EXPECT_GT(c->memory_report().num_tensors, 0);
}

TEST(CompileTest, HostModeIsOneHostSegmentOverTheGraphItself) {
  auto c = CompileText(kText, "host");
  ASSERT_EQ(c->segments.size(), 1u);
  const CompiledSegment& s = c->segments[0];
  EXPECT_FALSE(s.sink);
  EXPECT_EQ(s.program, nullptr);
  EXPECT_EQ(s.graph, c->graph);  // no copy
  ASSERT_NE(s.host_plan, nullptr);
  EXPECT_EQ(s.host_plan->placement.size(), c->graph->num_nodes());
  EXPECT_EQ(s.host_plan->bindings.size(), c->graph->num_nodes());
  EXPECT_EQ(c->mode(), "host");
  EXPECT_EQ(c->DescribeSegments(), "host[2 nodes]");
  EXPECT_EQ(c->memory_report().num_tensors, 0);
}

TEST(CompileTest, ReportsTheOptimizerAndOpCounts) {
  auto c = CompileText(kText, "auto");
  EXPECT_EQ(c->op_counts_before.at("Add"), 1);
  EXPECT_FALSE(c->optimizer_report.empty());
}

TEST(CompileTest, ErrorsComeFromThePipeline) {
  CompileOptions o;
  o.mode = "fast";
  std::unique_ptr<CompiledGraph> c;
  Status st = Compile(Parse(kText), o, &c);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), "unknown mode 'fast' (expected auto, sink or host)");
  o.mode = "auto";
  o.input_shapes["nope"] = {1};
  st = Compile(Parse(kText), o, &c);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("the model has no such input (inputs: x)"), std::string::npos) << st.message();
}

TEST(CompileTest, TwoLoadsOfOneCompiledGraphRunIndependently) {
  for (const char* mode : {"sink", "host"}) {
    std::shared_ptr<const CompiledGraph> c = CompileText(kText, mode);
    std::unique_ptr<CompiledModel> a, b;
    ASSERT_TRUE(CompiledModel::Load(c, &a).ok());
    ASSERT_TRUE(CompiledModel::Load(c, &b).ok());
    std::vector<float> xa = {-1, 2, -3, 4, -5, 6}, xb = {1, 1, 1, -1, -1, -1};
    std::vector<HostTensor> oa, ob;
    ASSERT_TRUE(a->Run({HostTensor::FromBytes(DT_FLOAT, Shape({2, 3}), xa.data(), 24)}, &oa).ok());
    ASSERT_TRUE(b->Run({HostTensor::FromBytes(DT_FLOAT, Shape({2, 3}), xb.data(), 24)}, &ob).ok());
    const std::vector<float> wa = {0, 4, 0, 8, 0, 12}, wb = {2, 2, 2, 0, 0, 0};
    for (int i = 0; i < 6; ++i) {
      EXPECT_EQ(oa[0].data_as<float>()[i], wa[i]) << mode;
      EXPECT_EQ(ob[0].data_as<float>()[i], wb[i]) << mode;
    }
  }
}

}  // namespace
}  // namespace ge
