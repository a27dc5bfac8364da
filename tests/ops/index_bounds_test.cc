// Index-reading kernels validate every index (ONNX: a negative index wraps once, anything else
// out of range is an error): the run fails with a one-line message naming the node, the input
// and the value, in sink and host mode, and never reads or writes out of bounds. Expected values
// of the in-range cases are computed by hand from the ONNX operator definitions.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "ops_test_util.h"

namespace ge::testing {
namespace {

// Runs in both modes; returns the outputs (expecting success) or checks the error.
void ExpectRuns(const OneNode& n, const std::vector<float>& want) {
  for (const char* mode : {"sink", "host"}) {
    Status st;
    auto m = Build(n, mode, &st);
    ASSERT_TRUE(st.ok()) << mode << ": " << st.message();
    std::vector<HostTensor> out;
    st = m->Run(n.inputs, &out);
    ASSERT_TRUE(st.ok()) << mode << ": " << st.message();
    EXPECT_EQ(Floats(out[0]), want) << mode;
  }
}

void ExpectIndexError(const OneNode& n, const std::string& what) {
  for (const char* mode : {"sink", "host"}) {
    Status st;
    auto m = Build(n, mode, &st);
    ASSERT_TRUE(st.ok()) << mode << ": " << st.message();
    for (int rep = 0; rep < 2; ++rep) {  // the error does not stick to the model
      std::vector<HostTensor> out;
      st = m->Run(n.inputs, &out);
      ASSERT_FALSE(st.ok()) << mode;
      EXPECT_EQ(st.code(), Status::kInvalidArgument) << mode;
      EXPECT_EQ(st.message(), "node 'n' (" + n.type + "): " + what) << mode;
    }
  }
}

const std::vector<float> k5x2 = {0, 1, 10, 11, 20, 21, 30, 31, 40, 41};

TEST(IndexBounds, GatherWrapsNegativeOnceAndRejectsTheRest) {
  OneNode n{"Gather", {F32({5, 2}, k5x2), I64({2}, {-1, 0})}, {{"axis", int64_t{0}}}, {2, 2}};
  ExpectRuns(n, {40, 41, 0, 1});
  n.inputs[1] = I64({2}, {1, 5});
  ExpectIndexError(n, "input 'indices' value 5 is out of range [-5, 4]");
  n.inputs[1] = I64({2}, {-6, 0});
  ExpectIndexError(n, "input 'indices' value -6 is out of range [-5, 4]");
  n.inputs[1] = I32({2}, {0, 1 << 30});
  ExpectIndexError(n, "input 'indices' value 1073741824 is out of range [-5, 4]");
}

TEST(IndexBounds, GatherOnItsFallbackPathNamesTheNode) {
  // prefer_fallback: the node runs through the single-op API (aclnn), which launches the kernel.
  OneNode n{"Gather", {F32({5, 2}, k5x2), I64({2}, {1, 5})}, {{"axis", int64_t{0}}}, {2, 2}};
  auto g = std::make_shared<Graph>("g");
  ValueId d = g->AddInput("in0", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({5, 2})});
  ValueId i = g->AddInput("in1", TensorDesc{DT_INT64, FORMAT_ND, Shape({2})});
  ValueId out = g->AddValue("out", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({2, 2})});
  g->AddNode("n", "Gather", {d, i}, {out}, n.attrs);
  g->AddOutput(out);
  ModelOptions opt;
  opt.mode = "host";
  opt.prefer_fallback = true;
  std::unique_ptr<Model> m;
  ASSERT_TRUE(Model::FromGraph(g, opt, &m).ok());
  std::vector<HostTensor> outs;
  Status st = m->Run(n.inputs, &outs);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), "node 'n' (Gather): input 'indices' value 5 is out of range [-5, 4]");
}

TEST(IndexBounds, GatherElements) {
  OneNode n{"GatherElements", {F32({2, 2}, {1, 2, 3, 4}), I64({2, 2}, {0, -1, 1, 0})}, {{"axis", int64_t{1}}}, {2, 2}};
  ExpectRuns(n, {1, 2, 4, 3});  // out[i][j] = data[i][idx[i][j]]
  n.inputs[1] = I64({2, 2}, {0, 0, 2, 0});
  ExpectIndexError(n, "input 'indices' value 2 is out of range [-2, 1]");
}

TEST(IndexBounds, GatherND) {
  OneNode n{"GatherND", {F32({2, 2}, {0, 1, 2, 3}), I64({2, 2}, {0, 0, -1, 1})}, {}, {2}};
  ExpectRuns(n, {0, 3});
  n.inputs[1] = I64({2, 2}, {0, 0, 1, 2});
  ExpectIndexError(n, "input 'indices' value 2 is out of range [-2, 1]");
}

TEST(IndexBounds, ScatterElementsNegativeSixtyIsAnErrorNotAWrite) {
  OneNode n{"ScatterElements",
            {F32({3, 3}, std::vector<float>(9, 0.f)), I64({1, 2}, {-1, 0}), F32({1, 2}, {5, 6})},
            {{"axis", int64_t{1}}},
            {3, 3}};
  ExpectRuns(n, {6, 0, 5, 0, 0, 0, 0, 0, 0});  // row 0: col 2 (= -1) gets 5, col 0 gets 6
  n.inputs[1] = I64({1, 2}, {-60, 0});
  ExpectIndexError(n, "input 'indices' value -60 is out of range [-3, 2]");
}

TEST(IndexBounds, ScatterND) {
  OneNode n{"ScatterND", {F32({4}, {1, 2, 3, 4}), I64({2, 1}, {-1, 0}), F32({2}, {9, 8})}, {}, {4}};
  ExpectRuns(n, {8, 2, 3, 9});
  n.inputs[1] = I64({2, 1}, {4, 0});
  ExpectIndexError(n, "input 'indices' value 4 is out of range [-4, 3]");
}

TEST(IndexBounds, RoiAlignBatchIndices) {
  // One 1x1x2x2 image of 1s, roi over the whole image: every sample is 1 (avg mode).
  OneNode n{"RoiAlign",
            {F32({1, 1, 2, 2}, {1, 1, 1, 1}), F32({1, 4}, {0, 0, 1, 1}), I64({1}, {0})},
            {{"output_height", int64_t{1}}, {"output_width", int64_t{1}}, {"sampling_ratio", int64_t{1}}},
            {1, 1, 1, 1}};
  ExpectRuns(n, {1});
  n.inputs[2] = I64({1}, {1});
  ExpectIndexError(n, "input 'batch_indices' value 1 is out of range [0, 0]");
  n.inputs[2] = I64({1}, {-1});
  ExpectIndexError(n, "input 'batch_indices' value -1 is out of range [0, 0]");
}

TEST(IndexBounds, MaxRoiPoolBatchIndex) {
  OneNode n{"MaxRoiPool",
            {F32({1, 1, 2, 2}, {1, 2, 3, 4}), F32({1, 5}, {0, 0, 0, 1, 1})},
            {{"pooled_shape", std::vector<int64_t>{1, 1}}},
            {1, 1, 1, 1}};
  ExpectRuns(n, {4});
  n.inputs[1] = F32({1, 5}, {3, 0, 0, 1, 1});
  ExpectIndexError(n, "input 'rois' row 0 batch index 3 is out of range [0, 0]");
}

TEST(IndexBounds, NegativeLogLikelihoodLossTarget) {
  // loss[n] = -input[n][target[n]] (reduction none); an ignored target contributes 0.
  OneNode n{"NegativeLogLikelihoodLoss",
            {F32({2, 3}, {-1, -2, -3, -4, -5, -6}), I64({2}, {0, 2})},
            {{"reduction", std::string("none")}},
            {2}};
  ExpectRuns(n, {1, 6});
  n.inputs[1] = I64({2}, {0, 3});
  ExpectIndexError(n, "input 'target' value 3 is out of range [0, 2]");
  n.attrs["ignore_index"] = int64_t{3};
  ExpectRuns(n, {1, 0});
  n.inputs[1] = I64({2}, {-1, 0});
  ExpectIndexError(n, "input 'target' value -1 is out of range [0, 2] and not ignore_index 3");
}

TEST(IndexBounds, GridSampleFarOutsideOrNaNCoordinatesReadZeros) {
  // padding_mode zeros: a sample outside the input is 0 (ONNX GridSample); NaN is defined as 0.
  OneNode n{"GridSample",
            {F32({1, 1, 2, 2}, {1, 2, 3, 4}), F32({1, 1, 3, 2}, {1e30f, 1e30f, -1e30f, 0.f, NAN, NAN})},
            {{"align_corners", int64_t{1}}},
            {1, 1, 1, 3}};
  ExpectRuns(n, {0, 0, 0});
  n.inputs[1] = F32({1, 1, 3, 2}, {-1, -1, 1, 1, 1, -1});  // corners: (0,0), (1,1), (x=1,y=0)
  ExpectRuns(n, {1, 4, 2});
}

TEST(IndexBounds, ConstantIndicesOutOfRangeFailTheCompile) {
  auto g = std::make_shared<Graph>("g");
  ValueId data = g->AddConstant("data", F32({2}, {1, 2}));
  ValueId idx = g->AddConstant("idx", I64({1}, {7}));
  ValueId out = g->AddValue("out", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({1})});
  g->AddNode("n", "Gather", {data, idx}, {out});
  g->AddOutput(out);
  std::unique_ptr<Model> m;
  Status st = Model::FromGraph(g, {}, &m);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), "node 'n' (Gather): input 'indices' value 7 is out of range [-2, 1]");
}

TEST(IndexBounds, ShapeRulesOfElementsAndNDOps) {
  Status st;
  Build({"GatherElements", {F32({2, 2}, {1, 2, 3, 4}), I64({3, 1}, {0, 0, 0})}, {{"axis", int64_t{1}}}, {3, 1}}, "host",
        &st);
  EXPECT_NE(st.message().find("'indices' dim 0 is 3, larger than 'data' dim 2"), std::string::npos) << st.message();
  Build({"GatherND", {F32({2, 2}, {1, 2, 3, 4}), I64({1, 3}, {0, 0, 0})}, {}, {1}}, "host", &st);
  EXPECT_NE(st.message().find("the last dim of 'indices' (3) must be in [1, 2]"), std::string::npos) << st.message();
  Build({"ScatterND", {F32({4}, {1, 2, 3, 4}), I64({2, 1}, {0, 1}), F32({1}, {9})}, {}, {4}}, "host", &st);
  EXPECT_NE(st.message().find("'updates' must have shape indices.shape[:-1] + data.shape[k:]"), std::string::npos)
      << st.message();
  Build({"ScatterElements", {F32({4}, {1, 2, 3, 4}), I64({2}, {0, 1}), F32({1}, {9})}, {}, {4}}, "host", &st);
  EXPECT_NE(st.message().find("'updates' must have the shape of 'indices'"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace ge::testing
