// Bad input shapes are an error that says what was expected and what was given
// ("expected 3-D to 5-D X ..., got X [2, 5]"), for the common ops, never a bare failure.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "ops_test_util.h"

namespace ge::testing {
namespace {

// Compiles one node whose inputs are graph inputs, plus constant inputs after them; returns the
// compile error's message ("" when it compiled).
std::string CompileError(const std::string& type, std::vector<HostTensor> inputs, AttrMap attrs = {},
                         std::vector<HostTensor> consts = {}) {
  auto g = std::make_shared<Graph>("g");
  std::vector<ValueId> ins;
  for (size_t i = 0; i < inputs.size(); ++i)
    ins.push_back(g->AddInput(fmt::format("in{}", i), TensorDesc{inputs[i].dtype(), FORMAT_ND, inputs[i].shape()}));
  for (size_t i = 0; i < consts.size(); ++i) ins.push_back(g->AddConstant(fmt::format("c{}", i), consts[i]));
  ValueId out = g->AddValue("out");
  g->AddNode("n", type, ins, {out}, std::move(attrs));
  g->AddOutput(out);
  std::unique_ptr<Model> m;
  Status st = Model::FromGraph(g, {}, &m);
  return st.ok() ? "" : st.message();
}

HostTensor Zeros(std::vector<int64_t> dims) { return HostTensor(DT_FLOAT, Shape(std::move(dims))); }

#define EXPECT_MESSAGE(msg, part) EXPECT_NE((msg).find(part), std::string::npos) << (msg)

TEST(ShapeErrors, Conv) {
  std::string msg = CompileError("Conv", {Zeros({2, 5}), Zeros({1, 1})});
  EXPECT_MESSAGE(msg, "node 'n' (Conv)");
  EXPECT_MESSAGE(msg, "expected 3-D to 5-D X and W of the same rank, got X [2, 5] and W [1, 1]");
  msg = CompileError("Conv", {Zeros({1, 3, 4, 4}), Zeros({2, 2, 1, 1})});
  EXPECT_MESSAGE(msg, "expected X channels = W dim 1 (2) * group (1), got X [1, 3, 4, 4]");
}

// Clip reads min and max as one element of X's type: another type or size is an error naming the
// node and the bound, at compile time (sink) or when the node runs (host), never a read of the
// bound's bytes as X's type.
TEST(ShapeErrors, ClipBoundsOfAnotherTypeOrSize) {
  const HostTensor x = F32({3}, {-3, 0.5f, 7});
  const HostTensor int8_min = Tensor<int8_t>(DT_INT8, {}, {1});
  const HostTensor two_max = F32({2}, {2, 9});
  const std::vector<std::pair<OneNode, std::string>> cases = {
      {OneNode{"Clip", {x, int8_min}, {}, {3}},
       "input 'min' must be one element of the input's type float32, got int8 []"},
      {OneNode{"Clip", {x, F32({}, {-1}), two_max}, {}, {3}},
       "input 'max' must be one element of the input's type float32, got float32 [2]"}};
  for (const auto& [node, want] : cases)
    for (const char* mode : {"sink", "host"}) {
      Status st;
      auto m = Build(node, mode, &st);
      if (st.ok()) {
        std::vector<HostTensor> out;
        st = m->Run(node.inputs, &out);
      }
      ASSERT_FALSE(st.ok()) << mode;
      EXPECT_MESSAGE(st.message(), "node 'n' (Clip)");
      EXPECT_MESSAGE(st.message(), want);
    }
}

TEST(ShapeErrors, MatMulAndGemm) {
  std::string msg = CompileError("MatMul", {Zeros({2, 3}), Zeros({4, 5})});
  EXPECT_MESSAGE(msg, "inner dims differ: A [2, 3] has K = 3, B [4, 5] has K = 4");
  msg = CompileError("Gemm", {Zeros({2, 3, 4}), Zeros({4, 5})});
  EXPECT_MESSAGE(msg, "expected 2-D A and B, got A [2, 3, 4] and B [4, 5]");
  msg = CompileError("FusedMatMul", {Zeros({2, 3}), Zeros({4, 5})});
  EXPECT_MESSAGE(msg, "inner dims differ: A [2, 3] has K = 3, B [4, 5] has K = 4");
}

TEST(ShapeErrors, Pools) {
  std::string msg = CompileError("MaxPool", {Zeros({2, 5})}, {{"kernel_shape", std::vector<int64_t>{1}}});
  EXPECT_MESSAGE(msg, "expected 3-D to 5-D input, got [2, 5]");
  msg = CompileError("GlobalAveragePool", {Zeros({5})});
  EXPECT_MESSAGE(msg, "expected input of rank >= 2, got [5]");
}

TEST(ShapeErrors, ConcatReshapeTransposeGather) {
  std::string msg = CompileError("Concat", {Zeros({2, 3}), Zeros({2, 3, 1})}, {{"axis", int64_t{0}}});
  EXPECT_MESSAGE(msg, "expected input 1 of rank 2 like input 0 [2, 3], got [2, 3, 1]");
  msg = CompileError("Concat", {Zeros({2, 3}), Zeros({2, 4})}, {{"axis", int64_t{0}}});
  EXPECT_MESSAGE(msg, "input 1 [2, 4] differs from input 0 [2, 3] in dim 1");
  msg = CompileError("Reshape", {Zeros({2, 3})}, {}, {I64({2}, {4, 2})});
  EXPECT_MESSAGE(msg, "cannot reshape input [2, 3] (6 elements) to [4, 2] (8 elements)");
  msg = CompileError("Transpose", {Zeros({2, 3})}, {{"perm", std::vector<int64_t>{0, 1, 2}}});
  EXPECT_MESSAGE(msg, "perm has 3 entries, the input [2, 3] has rank 2");
  msg = CompileError("Gather", {Zeros({2, 3})}, {{"axis", int64_t{2}}}, {I64({1}, {0})});
  EXPECT_MESSAGE(msg, "axis 2 is out of range for data [2, 3]");
}

TEST(ShapeErrors, SqueezeUnsqueezeTileSplit) {
  std::string msg = CompileError("Squeeze", {Zeros({1, 3})}, {}, {I64({1}, {2})});
  EXPECT_MESSAGE(msg, "axis 2 is out of range for the input [1, 3]");
  msg = CompileError("Unsqueeze", {Zeros({2, 3})}, {}, {I64({2}, {0, 0})});
  EXPECT_MESSAGE(msg, "axis 0 is out of range or repeated for an output of rank 4 (input [2, 3])");
  msg = CompileError("Tile", {Zeros({2, 3})}, {}, {I64({1}, {2})});
  EXPECT_MESSAGE(msg, "'repeats' has 1 entries, the input [2, 3] has rank 2");
}

TEST(ShapeErrors, AveragePoolReduceLayerNorm) {
  std::string msg = CompileError("AveragePool", {Zeros({2, 5})}, {{"kernel_shape", std::vector<int64_t>{1}}});
  EXPECT_MESSAGE(msg, "expected 3-D to 5-D input, got [2, 5]");
  msg = CompileError("GlobalMaxPool", {Zeros({5})});
  EXPECT_MESSAGE(msg, "expected 3-D to 5-D input, got [5]");
  msg = CompileError("ReduceSum", {Zeros({2, 3})}, {}, {I64({1}, {2})});
  EXPECT_MESSAGE(msg, "invalid axes for the input [2, 3]");
  msg = CompileError("LayerNormalization", {Zeros({2, 3}), Zeros({3})}, {{"axis", int64_t{2}}});
  EXPECT_MESSAGE(msg, "axis 2 is out of range for the input [2, 3]");
}

TEST(ShapeErrors, SoftmaxAxis) {
  std::string msg = CompileError("Softmax", {Zeros({2, 3})}, {{"axis", int64_t{3}}});
  EXPECT_MESSAGE(msg, "tiling failed");
  EXPECT_MESSAGE(msg, "axis 3 is out of range for the input [2, 3]");
}

TEST(ShapeErrors, ResizeAndFlatten) {
  std::string msg = CompileError("Resize", {Zeros({1, 1, 2, 2})}, {}, {F32({0}, {}), F32({2}, {2, 2})});
  EXPECT_MESSAGE(msg, "expected 'sizes' or 'scales' with 4 entries for the input [1, 1, 2, 2], got 2 scales");
  msg = CompileError("Flatten", {Zeros({2, 3})}, {{"axis", int64_t{3}}});
  EXPECT_MESSAGE(msg, "axis 3 is out of range [-2, 2] for the input [2, 3]");
}

TEST(ShapeErrors, ElementwiseBroadcast) {
  std::string msg = CompileError("Add", {Zeros({2, 3}), Zeros({4})});
  EXPECT_MESSAGE(msg, "node 'n' (Add)");
  EXPECT_MESSAGE(msg, "shapes [2, 3] and [4] do not broadcast");
}

// ScaleShift and ConcatScaleShift (made by the optimizer from BatchNormalization [+ Relu] in NHWC
// and from a Concat before it, but registered ops a graph may hold): bad shapes, a part count over
// the kernel's limit and an activation it does not compute are errors naming what was expected.
TEST(ShapeErrors, ScaleShiftAndConcatScaleShift) {
  std::string msg = CompileError("ScaleShift", {Zeros({2, 3}), Zeros({4}), Zeros({3})});
  EXPECT_MESSAGE(msg, "node 'n' (ScaleShift)");
  EXPECT_MESSAGE(msg, "expected scale and shift of 3 values (the last dim of X [2, 3]), got [4] and [3]");
  msg = CompileError("ScaleShift", {Zeros({2, 3}), Zeros({3}), Zeros({3})}, {{"activation", std::string("Sigmoid")}});
  EXPECT_MESSAGE(msg, "expected activation \"\" or \"Relu\", got \"Sigmoid\"");

  msg = CompileError("ConcatScaleShift", {Zeros({6}), Zeros({6}), Zeros({2, 3}), Zeros({3, 3})});
  EXPECT_MESSAGE(msg, "node 'n' (ConcatScaleShift)");
  EXPECT_MESSAGE(msg, "input 3 [3, 3] differs from the first [2, 3] in dim 0");
  msg = CompileError("ConcatScaleShift", {Zeros({6}), Zeros({6}), Zeros({2, 3}), Zeros({2, 3, 1})});
  EXPECT_MESSAGE(msg, "expected input 3 of rank 2 like the first");
  msg = CompileError("ConcatScaleShift", {Zeros({5}), Zeros({6}), Zeros({2, 3}), Zeros({2, 3})});
  EXPECT_MESSAGE(msg, "expected scale and shift of 6 values (the channels of the concatenation), got [5] and [6]");
  msg =
      CompileError("ConcatScaleShift", {Zeros({3}), Zeros({3}), Zeros({2, 3})}, {{"activation", std::string("Tanh")}});
  EXPECT_MESSAGE(msg, "expected activation \"\" or \"Relu\", got \"Tanh\"");
  std::vector<HostTensor> many = {Zeros({65}), Zeros({65})};
  for (int i = 0; i < 65; ++i) many.push_back(Zeros({2, 1}));
  msg = CompileError("ConcatScaleShift", many);
  EXPECT_MESSAGE(msg, "expected 1 to 64 inputs to concatenate, got 65");
}

}  // namespace
}  // namespace ge::testing
