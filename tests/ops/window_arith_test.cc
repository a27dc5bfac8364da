// Window arithmetic of Conv and pooling with sizes from the model: pads of 2^41 or 2^62 are a
// clear error (the output's byte size overflows, or its dims do), never a wrapped multiply; a Conv
// with batch 0 compiles and gives an empty output (no division by zero).
#include <gtest/gtest.h>

#include "ops_test_util.h"

namespace ge::testing {
namespace {

Status CompileConv(int64_t batch, int64_t pad, std::vector<HostTensor>* out) {
  auto g = std::make_shared<Graph>("g");
  ValueId x = g->AddInput("x", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({batch, 1, 3, 3})});
  ValueId w = g->AddConstant("w", F32({1, 1, 1, 1}, {2}));
  ValueId y = g->AddValue("y");
  g->AddNode("n", "Conv", {x, w}, {y}, {{"pads", std::vector<int64_t>{pad, pad, pad, pad}}});
  g->AddOutput(y);
  std::unique_ptr<Model> m;
  GE_RETURN_IF_ERROR(Model::FromGraph(g, {}, &m));
  return m->Run({HostTensor(DT_FLOAT, Shape({batch, 1, 3, 3}))}, out);
}

TEST(WindowArith, ConvHugePadsAreAnError) {
  std::vector<HostTensor> out;
  for (int64_t pad : {int64_t{1} << 41, int64_t{1} << 62}) {
    Status st = CompileConv(1, pad, &out);
    ASSERT_FALSE(st.ok()) << pad;
    EXPECT_NE(st.message().find("node 'n' (Conv)"), std::string::npos) << st.message();
  }
}

TEST(WindowArith, MaxPoolHugePadsAreAnError) {
  for (int64_t pad : {int64_t{1} << 41, int64_t{1} << 62}) {
    Status st;
    Build({"MaxPool",
           {F32({1, 1, 2, 2}, {1, 2, 3, 4})},
           {{"kernel_shape", std::vector<int64_t>{1, 1}}, {"pads", std::vector<int64_t>{pad, pad, pad, pad}}},
           {1, 1, 1, 1}},
          "host", &st);
    ASSERT_FALSE(st.ok()) << pad;
    EXPECT_NE(st.message().find("node 'n' (MaxPool)"), std::string::npos) << st.message();
  }
}

TEST(WindowArith, ConvWithBatchZero) {
  std::vector<HostTensor> out;
  Status st = CompileConv(0, 0, &out);
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].shape(), Shape({0, 1, 3, 3}));
}

}  // namespace
}  // namespace ge::testing
