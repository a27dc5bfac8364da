// The graph optimizer end to end: the bundled PyTorch-exported models at -O0, -O1 and -O2, in
// auto and host mode, against PyTorch's own outputs; and what -O2 leaves of conv_bn_res (made by
// models/make_models.py with its BatchNormalizations kept) and of layer_norm_mlp (opset 16, its
// LayerNorm decomposed).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "ge/graph_text.h"  // graphs written in the textual IR
#include "ge/model.h"
#include "ge/npy.h"

namespace ge {
namespace {

const std::string kModels = std::string(GE_SOURCE_DIR) + "/models/";

std::map<std::string, int> OpCounts(const Graph& g) {
  std::map<std::string, int> counts;
  for (size_t n = 0; n < g.num_nodes(); ++n) counts[g.node(static_cast<NodeId>(n)).type]++;
  return counts;
}

std::unique_ptr<Model> Load(const std::string& name, int opt_level, const std::string& mode = "auto") {
  ModelOptions o;
  o.opt_level = opt_level;
  o.mode = mode;
  std::unique_ptr<Model> m;
  Status st = Model::Load(kModels + name + ".onnx", o, &m);
  EXPECT_TRUE(st.ok()) << st.message();
  return m;
}

class OptimizedModel : public ::testing::TestWithParam<std::tuple<const char*, int, const char*>> {};

TEST_P(OptimizedModel, MatchesPyTorchReference) {
  auto [name, level, mode] = GetParam();
  auto model = Load(name, level, mode);
  ASSERT_TRUE(model);
  HostTensor in, ref;
  ASSERT_TRUE(ReadNpy(kModels + name + "_input.npy", &in).ok());
  ASSERT_TRUE(ReadNpy(kModels + name + "_output.npy", &ref).ok());
  std::vector<HostTensor> out;
  Status st = model->Run({in}, &out);
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out[0].shape(), ref.shape());
  double max_ref = 0;
  for (int64_t i = 0; i < ref.NumElements(); ++i)
    max_ref = std::max(max_ref, std::fabs(double(ref.data_as<float>()[i])));
  const double tol = 1e-4 * max_ref + 1e-5;  // the issue's bound
  for (int64_t i = 0; i < ref.NumElements(); ++i)
    ASSERT_LE(std::fabs(double(out[0].data_as<float>()[i]) - ref.data_as<float>()[i]), tol)
        << name << " -O" << level << " " << mode << " element " << i;
}

INSTANTIATE_TEST_SUITE_P(Levels, OptimizedModel,
                         ::testing::Combine(::testing::Values("small_cnn", "mlp", "conv_bn_res", "layer_norm_mlp",
                                                              "nhwc_ops", "attention"),
                                            ::testing::Values(0, 1, 2), ::testing::Values("auto", "host")));

TEST(OptimizerModelTest, O2FoldsBatchNormAndFusesConvActivationsAndGemm) {
  auto o0 = Load("conv_bn_res", 0), o2 = Load("conv_bn_res", 2);
  ASSERT_TRUE(o0 && o2);
  auto before = OpCounts(o0->graph()), after = OpCounts(o2->graph());
  // (the NHWC layout pass after the optimizer turns every Conv into a FusedConv at any level)
  EXPECT_EQ(before["BatchNormalization"], 4);
  EXPECT_EQ(before["Conv"] + before["FusedConv"], 4);
  EXPECT_EQ(before["Relu"], 3);
  EXPECT_EQ(after["BatchNormalization"], 0);
  EXPECT_EQ(after["Conv"], 0);
  EXPECT_EQ(after["FusedConv"], 4);  // Relu, residual + Relu, Swish, relu6 (exported as Relu then Clip)
  std::multiset<std::string> activations;
  int residual = 0;
  for (size_t n = 0; n < o2->graph().num_nodes(); ++n) {
    const Node& node = o2->graph().node(static_cast<NodeId>(n));
    if (node.type != "FusedConv") continue;
    activations.insert(*node.GetAttr<std::string>("activation"));
    residual += node.inputs.size() > 3 && node.inputs[3] != kNoValue;
  }
  EXPECT_EQ(activations, (std::multiset<std::string>{"Clip", "Relu", "Relu", "Swish"}));
  EXPECT_EQ(residual, 1);
  EXPECT_EQ(after["Sigmoid"] + after["Mul"] + after["Add"] + after["Relu"] + after["Clip"], 0);
  EXPECT_EQ(after["MatMul"] + after["Gemm"], 0);
  EXPECT_EQ(after["FusedMatMul"], 1);
  EXPECT_LT(o2->graph().num_nodes(), o0->graph().num_nodes());
  EXPECT_EQ(o2->op_counts_before().at("BatchNormalization"), 4);  // as parsed
  EXPECT_EQ(o2->op_counts_after(), OpCounts(o2->graph()));
  EXPECT_NE(o2->optimizer_report().find("-O2: "), std::string::npos);
  EXPECT_NE(o2->optimizer_report().find("conv-bn-folding"), std::string::npos);
  EXPECT_EQ(o2->mode(), "sink");
}

// The NHWC layout pass (-O2): every Conv in NHWC, the pools, the BatchNormalization+Relu after
// the Concat and the Concat itself follow, the three as one ConcatScaleShift; -O0 keeps the graph
// NCHW. (Outputs: OptimizedModel.)
TEST(OptimizerModelTest, O2RunsConvolutionsAndTheirNeighboursInNhwc) {
  auto o0 = Load("nhwc_ops", 0), o2 = Load("nhwc_ops", 2);
  ASSERT_TRUE(o0 && o2);
  auto before = OpCounts(o0->graph()), after = OpCounts(o2->graph());
  EXPECT_EQ(before["Transpose"] + before["PoolNhwc"] + before["ScaleShift"] + before["FusedConv"], 0);
  EXPECT_EQ(after["FusedConv"], 5);
  EXPECT_EQ(after["Conv"] + after["MaxPool"] + after["BatchNormalization"] + after["Relu"], 0);
  EXPECT_EQ(after["PoolNhwc"], 3);  // two MaxPools (ceil_mode) and the AveragePool without padding
  EXPECT_EQ(after["ConcatScaleShift"], 1);
  EXPECT_EQ(after["ScaleShift"] + after["Concat"], 0);
  int nhwc = 0;
  for (size_t n = 0; n < o2->graph().num_nodes(); ++n) {
    const Node& node = o2->graph().node(static_cast<NodeId>(n));
    if (node.type == "FusedConv") nhwc += *node.GetAttr<std::string>("layout") == "NHWC";
  }
  EXPECT_EQ(nhwc, 5);
}

// Both attention forms of the bundled attention model (PyTorch's nn.MultiheadAttention with a
// causal mask, a BERT-style block with a padding mask) become FusedAttention nodes at -O2; no
// Softmax, no MatMul of activations and no head-split Slice is left. (Outputs: OptimizedModel.)
TEST(OptimizerModelTest, O2FusesMultiHeadAttention) {
  auto o0 = Load("attention", 0), o2 = Load("attention", 2);
  ASSERT_TRUE(o0 && o2);
  auto before = OpCounts(o0->graph()), after = OpCounts(o2->graph());
  EXPECT_EQ(before["Softmax"], 2);
  EXPECT_EQ(before["FusedAttention"], 0);
  EXPECT_EQ(after["FusedAttention"], 2);
  EXPECT_EQ(after["Softmax"] + after["MatMul"] + after["Slice"] + after["Div"], 0);
  int masked = 0;
  for (size_t n = 0; n < o2->graph().num_nodes(); ++n) {
    const Node& node = o2->graph().node(static_cast<NodeId>(n));
    if (node.type == "FusedAttention") masked += node.inputs.size() > 3 && node.inputs[3] != kNoValue;
  }
  EXPECT_EQ(masked, 2);
  EXPECT_EQ(o2->mode(), "sink");
}

TEST(OptimizerModelTest, O2RecognizesTheDecomposedLayerNorm) {
  auto o0 = Load("layer_norm_mlp", 0), o2 = Load("layer_norm_mlp", 2);
  ASSERT_TRUE(o0 && o2);
  auto before = OpCounts(o0->graph()), after = OpCounts(o2->graph());
  EXPECT_EQ(before["LayerNormalization"], 0);
  EXPECT_EQ(before["ReduceMean"], 2);
  // The recognized LayerNormalization then runs in the first FusedMatMul's row blocks
  // (matmul-layer-norm-fusion); the outputs above match PyTorch's at -O2.
  EXPECT_EQ(after, (std::map<std::string, int>{{"FusedMatMul", 2}, {"Relu", 1}}));
  int normalized = 0;
  for (size_t n = 0; n < o2->graph().num_nodes(); ++n) {
    const int64_t* ln = o2->graph().node(static_cast<NodeId>(n)).GetAttr<int64_t>("layer_norm");
    normalized += ln != nullptr && *ln == 1;
  }
  EXPECT_EQ(normalized, 1);
}

TEST(OptimizerModelTest, WrittenOutSoftmaxMatchesTheFormulaAtEveryLevel) {
  const char* text = R"(graph g
input x: float32[2, 5]
const axis1: int64[1] = [1]
node max: m = ReduceMax(x) {axes=[1], keepdims=1}
node sub: d = Sub(x, m)
node exp: e = Exp(d)
node sum: s = ReduceSum(e, axis1) {keepdims=1}
node div: y = Div(e, s)
output y
)";
  const std::vector<float> x = {1, 2, 3, 4, 5, -1, 0, 0.5f, 30, -30};
  std::vector<float> want(10);
  for (int r = 0; r < 2; ++r) {  // exp(x_i) / sum_j exp(x_j), row by row
    double sum = 0;
    for (int c = 0; c < 5; ++c) sum += std::exp(double(x[r * 5 + c]));
    for (int c = 0; c < 5; ++c) want[r * 5 + c] = float(std::exp(double(x[r * 5 + c])) / sum);
  }
  for (int level : {0, 2}) {
    std::shared_ptr<Graph> g;
    ASSERT_TRUE(ParseGraphText(text, &g).ok());
    ModelOptions o;
    o.opt_level = level;
    std::unique_ptr<Model> m;
    Status st = Model::FromGraph(g, o, &m);
    ASSERT_TRUE(st.ok()) << st.message();
    EXPECT_EQ(m->op_counts_after().count("Softmax"), level == 2 ? 1u : 0u);
    std::vector<HostTensor> out;
    st = m->Run({HostTensor::FromBytes(DT_FLOAT, Shape({2, 5}), x.data(), x.size() * sizeof(float))}, &out);
    ASSERT_TRUE(st.ok()) << st.message();
    for (int i = 0; i < 10; ++i) EXPECT_NEAR(out[0].data_as<float>()[i], want[i], 1e-6) << "-O" << level << " " << i;
  }
}

TEST(OptimizerModelTest, RejectsAnUnknownLevel) {
  ModelOptions o;
  o.opt_level = 3;
  std::unique_ptr<Model> m;
  Status st = Model::Load(kModels + "mlp.onnx", o, &m);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("optimization level 3 is not one of 0, 1, 2"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace ge
