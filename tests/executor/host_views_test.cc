// Host scheduling runs view ops (OpDef::OutputView: Reshape, Flatten, Squeeze, Unsqueeze,
// Identity) without a kernel: the output is the input's bytes. The bytes stay alive while any
// view of them has readers left, whether the viewed value is a graph input, a node output or a
// constant, through chains of views and as graph outputs; the values are the inputs' own, in the
// order the ONNX Reshape definition keeps them (row-major, unchanged).
#include <gtest/gtest.h>

#include <cstring>

#include "ge/graph.h"
#include "ge/model.h"

namespace ge {
namespace {

TensorDesc Dyn(std::vector<int64_t> dims) { return TensorDesc{DT_FLOAT, FORMAT_ND, Shape(dims)}; }

HostTensor I64(std::vector<int64_t> v) {
  HostTensor t(DT_INT64, Shape({static_cast<int64_t>(v.size())}));
  std::memcpy(t.mutable_data(), v.data(), t.NumBytes());
  return t;
}

std::vector<float> Floats(const HostTensor& t) {
  return std::vector<float>(t.data_as<float>(), t.data_as<float>() + t.NumElements());
}

TEST(HostViews, ViewsShareBytesAndKeepThemAlive) {
  // x [N, 4] (dynamic: host scheduled):
  //   r  = Reshape(x, [2, -1])        view of the graph input, also a graph output
  //   f  = Flatten(r)                 view of a view
  //   a  = Relu(x)                    another reader of x, after r's creation
  //   b  = Neg(f)                     reads the chain after x's other readers
  //   c  = Neg(Reshape(a, [-1]))      view of a node output that no one else reads
  //   k  = Reshape(K, [2, 2])         view of a constant, a graph output
  auto g = std::make_shared<Graph>("views");
  ValueId x = g->AddInput("x", Dyn({-1, 4}));
  ValueId s2 = g->AddConstant("s2", I64({2, -1}));
  ValueId s1 = g->AddConstant("s1", I64({-1}));
  ValueId s22 = g->AddConstant("s22", I64({2, 2}));
  HostTensor kdata(DT_FLOAT, Shape({4}));
  const float kv[4] = {7, 8, 9, 10};
  std::memcpy(kdata.mutable_data(), kv, sizeof kv);
  ValueId k0 = g->AddConstant("K", kdata);
  ValueId r = g->AddValue("r"), f = g->AddValue("f"), a = g->AddValue("a"), b = g->AddValue("b");
  ValueId ar = g->AddValue("ar"), c = g->AddValue("c"), k = g->AddValue("k");
  g->AddNode("reshape", "Reshape", {x, s2}, {r});
  g->AddNode("flatten", "Flatten", {r}, {f});
  g->AddNode("relu", "Relu", {x}, {a});
  g->AddNode("neg_f", "Neg", {f}, {b});
  g->AddNode("reshape_a", "Reshape", {a, s1}, {ar});
  g->AddNode("neg_ar", "Neg", {ar}, {c});
  g->AddNode("reshape_k", "Reshape", {k0, s22}, {k});
  for (ValueId v : {r, a, b, c, k}) g->AddOutput(v);
  std::unique_ptr<Model> m;
  ModelOptions opt;
  opt.mode = "host";
  Status st = Model::FromGraph(g, opt, &m);
  ASSERT_TRUE(st.ok()) << st.message();

  const std::vector<float> xv = {1, -2, 3, -4, 5, -6, 7, -8};
  HostTensor in(DT_FLOAT, Shape({2, 4}));
  std::memcpy(in.mutable_data(), xv.data(), in.NumBytes());
  for (int run = 0; run < 3; ++run) {  // later runs reuse the inferred shapes
    std::vector<HostTensor> out;
    st = m->Run({in}, &out);
    ASSERT_TRUE(st.ok()) << st.message();
    ASSERT_EQ(out.size(), 5u);
    EXPECT_EQ(out[0].shape(), Shape({2, 4}));
    EXPECT_EQ(Floats(out[0]), xv);
    EXPECT_EQ(Floats(out[1]), (std::vector<float>{1, 0, 3, 0, 5, 0, 7, 0}));
    EXPECT_EQ(out[2].shape(), Shape({2, 4}));
    EXPECT_EQ(Floats(out[2]), (std::vector<float>{-1, 2, -3, 4, -5, 6, -7, 8}));
    EXPECT_EQ(out[3].shape(), Shape({8}));
    EXPECT_EQ(Floats(out[3]), (std::vector<float>{-1, 0, -3, 0, -5, 0, -7, 0}));
    EXPECT_EQ(out[4].shape(), Shape({2, 2}));
    EXPECT_EQ(Floats(out[4]), (std::vector<float>{7, 8, 9, 10}));
  }
  // Another size: the views follow the new shapes.
  HostTensor in1(DT_FLOAT, Shape({1, 4}));
  std::memcpy(in1.mutable_data(), xv.data(), in1.NumBytes());
  std::vector<HostTensor> out;
  st = m->Run({in1}, &out);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(out[0].shape(), Shape({2, 2}));
  EXPECT_EQ(Floats(out[2]), (std::vector<float>{-1, 2, -3, 4}));
}

// The shape arithmetic between a dynamic Shape and the Reshape it feeds (a Gather of one dim, a
// Concat of the target shape: static, a few int64s) runs on the host with its readers instead of
// cutting the host run into sink segments; a static float node stays sunk.
TEST(HostPlacement, ShapeArithmeticReadOnlyByHostNodesStaysOnTheHost) {
  auto g = std::make_shared<Graph>("shape_chain");
  ValueId x = g->AddInput("x", Dyn({-1, 4}));
  ValueId c = g->AddInput("c", Dyn({2, 2}));
  ValueId idx = g->AddConstant("idx", I64({0}));  // the dynamic dim: not folded
  ValueId tail = g->AddConstant("tail", I64({-1}));
  ValueId shape = g->AddValue("shape"), dim = g->AddValue("dim"), target = g->AddValue("target");
  ValueId y = g->AddValue("y"), cr = g->AddValue("cr");
  g->AddNode("shape", "Shape", {x}, {shape});
  g->AddNode("dim", "Gather", {shape, idx}, {dim}, {{"axis", int64_t{0}}});
  g->AddNode("target", "Concat", {dim, tail}, {target}, {{"axis", int64_t{0}}});
  g->AddNode("reshape", "Reshape", {x, target}, {y});
  g->AddNode("relu_c", "Relu", {c}, {cr});
  g->AddOutput(y);
  g->AddOutput(cr);
  std::unique_ptr<Model> m;
  Status st = Model::FromGraph(g, {}, &m);
  ASSERT_TRUE(st.ok()) << st.message();
  int found = 0;
  for (const NodeReport& n : m->report().node_details) {
    if (n.name == "dim" || n.name == "target") {
      ++found;
      EXPECT_EQ(n.placement, "host kernel") << n.name;
      EXPECT_EQ(n.reason, "shape arithmetic read only by host nodes") << n.name;
    }
    if (n.name == "relu_c") {
      ++found;
      EXPECT_EQ(n.placement, "sink") << n.name;
    }
  }
  EXPECT_EQ(found, 3);
  const std::vector<float> xv = {1, 2, 3, 4, 5, 6, 7, 8};
  HostTensor in(DT_FLOAT, Shape({2, 4}));
  std::memcpy(in.mutable_data(), xv.data(), in.NumBytes());
  HostTensor cin(DT_FLOAT, Shape({2, 2}));
  const float cv[4] = {-1, 2, -3, 4};
  std::memcpy(cin.mutable_data(), cv, sizeof cv);
  std::vector<HostTensor> out;
  st = m->Run({in, cin}, &out);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(out[0].shape(), Shape({2, 4}));  // Reshape(x, [N, -1])
  EXPECT_EQ(Floats(out[0]), xv);
  EXPECT_EQ(Floats(out[1]), (std::vector<float>{0, 2, 0, 4}));
}

}  // namespace
}  // namespace ge
