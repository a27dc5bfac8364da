// Per-node profiling (ge bench --per-op): one entry per node run, positive device times, the
// right node names and op types, in sink and host mode; and the model's FLOPs.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <set>

#include "executor/compiled_model.h"  // the sink segment's task count (an executor detail)
#include "executor/sink_executor.h"
#include "ge/graph.h"
#include "ge/model.h"
#include "ge/npy.h"

namespace ge {
namespace {

const std::string kSmallCnn = std::string(GE_SOURCE_DIR) + "/models/small_cnn.onnx";

void CheckProfile(const std::string& mode) {
  ModelOptions options;
  options.mode = mode;
  options.max_streams = 1;
  std::unique_ptr<Model> model;
  Status st = Model::Load(kSmallCnn, options, &model);
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_EQ(model->mode(), mode);
  HostTensor in;
  ASSERT_TRUE(ReadNpy(std::string(GE_SOURCE_DIR) + "/models/small_cnn_input.npy", &in).ok());
  std::vector<HostTensor> out, reference;
  ASSERT_TRUE(model->Run({in}, &reference).ok());  // unprofiled
  ASSERT_TRUE(model->SetProfiling(true).ok());
  constexpr uint32_t kRuns = 3;
  for (uint32_t r = 0; r < kRuns; ++r) {
    st = model->Run({in}, &out);
    ASSERT_TRUE(st.ok()) << st.message();
  }
  OpProfile profile;
  st = model->TakeProfile(&profile);
  ASSERT_TRUE(st.ok()) << st.message();
  // Profiling does not change the answer.
  ASSERT_EQ(out.size(), reference.size());
  ASSERT_EQ(out[0].NumBytes(), reference[0].NumBytes());
  EXPECT_EQ(std::memcmp(out[0].data(), reference[0].data(), out[0].NumBytes()), 0);

  // The nodes that run: every node (host), every node with a kernel task (sink).
  std::map<std::string, std::string> expected;  // name -> type
  const Graph& g = model->graph();
  if (mode == "host") {
    for (size_t n = 0; n < g.num_nodes(); ++n)
      expected[g.node(static_cast<NodeId>(n)).name] = g.node(static_cast<NodeId>(n)).type;
  } else {
    const SinkExecutor* sink = model->compiled()->sink_executor(0);
    ASSERT_NE(sink, nullptr);
    const Graph& sg = sink->graph();  // the segment's graph: the tasks' node ids index it
    for (const SinkTask& t : sink->program().tasks) expected[sg.node(t.node).name] = sg.node(t.node).type;
  }
  ASSERT_FALSE(expected.empty());
  EXPECT_EQ(profile.size(), expected.size());
  std::set<std::string> seen;
  for (const OpTiming& t : profile) {
    ASSERT_TRUE(expected.count(t.node)) << t.node;
    EXPECT_EQ(t.type, expected[t.node]) << t.node;
    EXPECT_TRUE(seen.insert(t.node).second) << "twice: " << t.node;
    EXPECT_EQ(t.runs, kRuns) << t.node;
    EXPECT_GT(t.total_ns, 0u) << t.node;
    EXPECT_FALSE(t.input_shapes.empty()) << t.node;
  }
  // Taken: the totals start again; profiling off records nothing.
  ASSERT_TRUE(model->SetProfiling(false).ok());
  ASSERT_TRUE(model->Run({in}, &out).ok());
  ASSERT_TRUE(model->TakeProfile(&profile).ok());
  for (const OpTiming& t : profile) EXPECT_EQ(t.runs, 0u) << t.node;
}

TEST(OpProfile, SinkModeOneEntryPerKernelTask) { CheckProfile("sink"); }
TEST(OpProfile, HostModeOneEntryPerNode) { CheckProfile("host"); }

TEST(OpProfile, MultiStreamSinkSegmentIsRefusedNotMisattributed) {
  // The bench profiles a one-stream copy instead; a model whose sink segment has several streams
  // fails SetProfiling with a message, or (one stream chosen anyway) profiles normally.
  ModelOptions options;
  options.mode = "sink";
  options.max_streams = 2;
  std::unique_ptr<Model> model;
  ASSERT_TRUE(Model::Load(kSmallCnn, options, &model).ok());
  Status st = model->SetProfiling(true);
  if (!st.ok()) {
    EXPECT_NE(st.message().find("streams"), std::string::npos) << st.message();
  }
}

TEST(OpProfile, FlopsOfTheConvolutionsAndMatMuls) {
  std::unique_ptr<Model> model;
  ASSERT_TRUE(Model::Load(kSmallCnn, {}, &model).ok());
  EXPECT_GT(model->Flops(), 0.0);
}

// Conv x [1, 3, 8, 8] * W [4, 3, 3, 3] (pads 1) + Relu -> [1, 4, 8, 8]: 256 outputs x 27 MACs;
// then Flatten and Gemm [1, 256] x [256, 10]: 10 x 256 MACs. 2 flops per MAC, at -O0 (Conv, Gemm)
// and at -O2 (FusedConv, FusedMatMul, NHWC layout): the count follows the ops' MacsRule.
TEST(OpProfile, FlopsCountTheMacsOfConvAndGemmAtEveryLevel) {
  for (int level : {0, 2}) {
    auto g = std::make_shared<Graph>();
    const auto f32 = [](std::vector<int64_t> d) { return TensorDesc{DT_FLOAT, FORMAT_ND, Shape(std::move(d))}; };
    ValueId x = g->AddInput("x", f32({1, 3, 8, 8}));
    HostTensor w(DT_FLOAT, Shape({4, 3, 3, 3})), b(DT_FLOAT, Shape({256, 10}));
    for (int64_t i = 0; i < w.NumElements(); ++i) w.mutable_data_as<float>()[i] = 0.01f * static_cast<float>(i % 7);
    for (int64_t i = 0; i < b.NumElements(); ++i) b.mutable_data_as<float>()[i] = 0.02f * static_cast<float>(i % 5);
    ValueId wv = g->AddConstant("w", w), bv = g->AddConstant("b", b);
    ValueId c = g->AddValue("c", f32({1, 4, 8, 8})), r = g->AddValue("r", f32({1, 4, 8, 8}));
    ValueId fl = g->AddValue("f", f32({1, 256})), y = g->AddValue("y", f32({1, 10}));
    g->AddNode("conv", "Conv", {x, wv}, {c},
               {{"pads", std::vector<int64_t>{1, 1, 1, 1}}, {"kernel_shape", std::vector<int64_t>{3, 3}}});
    g->AddNode("relu", "Relu", {c}, {r});
    g->AddNode("flat", "Flatten", {r}, {fl});
    g->AddNode("gemm", "Gemm", {fl, bv}, {y});
    g->AddOutput(y);
    ModelOptions options;
    options.opt_level = level;
    std::unique_ptr<Model> model;
    Status st = Model::FromGraph(g, options, &model);
    ASSERT_TRUE(st.ok()) << st.message();
    EXPECT_DOUBLE_EQ(model->Flops(), 2.0 * (256 * 27 + 10 * 256)) << "-O" << level;
  }
}

}  // namespace
}  // namespace ge
