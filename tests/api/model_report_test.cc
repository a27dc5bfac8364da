// ModelReport's per-node facts (what `ge info` and `ge dump` print): every compiled node with its
// segment, placement, the reason it is not sunk and its model stream; the graph's inputs and
// outputs; fallback decisions with their reason (and the trace's fallback step).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "ge/model.h"
#include "ge/profiler.h"

namespace ge {
namespace {

const std::string kModels = std::string(GE_SOURCE_DIR) + "/models/";
constexpr const char* kOnnxNodeData = "/usr/share/libonnx-testdata/data/node";

ModelReport Report(const std::string& name, const ModelOptions& o) {
  std::unique_ptr<Model> m;
  Status st = Model::Load(kModels + name, o, &m);
  EXPECT_TRUE(st.ok()) << st.message();
  return m ? m->report() : ModelReport();
}

TEST(ModelReport, SinkNodesHaveStreamsAndNoReason) {
  const ModelReport r = Report("small_cnn.onnx", ModelOptions());
  ASSERT_EQ(r.inputs.size(), 1u);
  EXPECT_EQ(r.inputs[0].desc, "float32[1, 3, 32, 32]");
  ASSERT_EQ(r.outputs.size(), 1u);
  EXPECT_EQ(static_cast<int>(r.node_details.size()), r.nodes);
  int tasks = 0;
  for (const NodeReport& n : r.node_details) {
    EXPECT_EQ(n.segment, 0);
    EXPECT_EQ(n.placement, "sink");
    EXPECT_TRUE(n.reason.empty()) << n.name;
    tasks += n.stream >= 0;
    EXPECT_FALSE(n.outputs.empty()) << n.name;
  }
  EXPECT_EQ(tasks, r.segment_details[0].kernel_tasks);  // views (Flatten) have no task
}

TEST(ModelReport, HostModeAndFallbackReasons) {
  ModelOptions o;
  o.mode = "host";
  ModelReport r = Report("mlp.onnx", o);
  ASSERT_FALSE(r.node_details.empty());
  for (const NodeReport& n : r.node_details) {
    EXPECT_EQ(n.placement, "host kernel") << n.name;
    EXPECT_EQ(n.reason, "--mode host") << n.name;
    EXPECT_EQ(n.stream, -1);
  }
}

// Softmax has an op-execute (fallback) function: with prefer_fallback its node takes it, the
// report says why, and a trace shows the node's "fallback" step on the host track.
TEST(ModelReport, FallbackDecisionAndItsTraceStep) {
  const std::string model = std::string(kOnnxNodeData) + "/test_softmax_example/model.onnx";
  if (!std::filesystem::exists(model)) GTEST_SKIP() << model << " is not installed";
  ModelOptions o;
  o.prefer_fallback = true;
  o.opt_level = 0;  // the node stays a Softmax
  StartProfiling();
  std::unique_ptr<Model> m;
  ASSERT_TRUE(Model::Load(model, o, &m).ok());
  std::vector<HostTensor> inputs, outputs;
  for (const TensorInfo& in : m->inputs()) inputs.emplace_back(in.desc.dtype, in.desc.shape);
  ASSERT_TRUE(m->Run(inputs, &outputs).ok());
  const std::string trace = ::testing::TempDir() + "/fallback_trace.json";
  ASSERT_TRUE(StopProfiling(trace).ok());
  const ModelReport r = m->report();
  ASSERT_EQ(r.node_details.size(), 1u);
  EXPECT_EQ(r.node_details[0].op, "Softmax");
  EXPECT_EQ(r.node_details[0].placement, "host fallback");
  EXPECT_EQ(r.node_details[0].reason, "fallback: prefer_fallback");
  std::ifstream f(trace);
  const auto doc = nlohmann::json::parse(f);
  bool fallback_step = false;
  for (const auto& e : doc["traceEvents"])
    if (e["ph"] == "X" && e["name"] == "fallback") fallback_step = e["args"]["op"] == "Softmax";
  EXPECT_TRUE(fallback_step);
}

}  // namespace
}  // namespace ge
