// The textual IR: print -> parse -> print is the identity; parse errors name the line.
#include "ge/graph_text.h"

#include <gtest/gtest.h>

#include "ge/onnx_loader.h"

namespace ge {
namespace {

std::string RoundTrip(const std::string& text) {
  std::shared_ptr<Graph> g;
  Status st = ParseGraphText(text, &g);
  EXPECT_TRUE(st.ok()) << st.message();
  return g ? GraphToText(*g) : "";
}

TEST(GraphTextTest, RoundTripsEveryPart) {
  const std::string text = R"(graph g
input x: float32[1, 2, -1]
input "odd name": int64[?]
const w: float32[2, 2] = [0.5, -1, 2.25, 1e-07]
const big: float32[4, 5] = opaque
const idx: int64[] = [3]
const flag: bool[2] = [1, 0]
node n0: y: float32[1, 2, -1] = Add(x, w)
node n1: z, _ = Custom@my.domain(y, _, big) {alpha=0.5, axes=[0, -1], mode="constant", names=["a", "b"], one=1.0, n=3, t=tensor int64[2] = [4, 5], empty=f[]}
node "n 2": s: sequence float32[?] = SequenceConstruct(z)
output z, s
)";
  std::shared_ptr<Graph> g;
  Status st = ParseGraphText(text, &g);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(g->num_nodes(), 3u);
  EXPECT_EQ(g->node(1).domain, "my.domain");
  EXPECT_EQ(*g->node(1).GetAttr<float>("one"), 1.0f);
  EXPECT_EQ(*g->node(1).GetAttr<int64_t>("n"), 3);
  EXPECT_EQ(g->node(1).outputs[1], kNoValue);
  EXPECT_EQ(g->node(1).inputs[1], kNoValue);
  EXPECT_EQ(g->value(g->FindValue("w")).constant->data_as<float>()[3], 1e-07f);
  EXPECT_EQ(g->value(g->FindValue("big")).constant->NumElements(), 20);
  EXPECT_TRUE(g->value(g->FindValue("x")).desc.shape == Shape({1, 2, -1}));
  EXPECT_TRUE(g->value(g->FindValue("odd name")).desc.shape.IsUnknownRank());
  // Attributes print sorted by key; constants after inputs; everything else as written.
  const std::string expected = R"(graph g
input x: float32[1, 2, -1]
input "odd name": int64[?]
const w: float32[2, 2] = [0.5, -1, 2.25, 1e-07]
const big: float32[4, 5] = opaque
const idx: int64[] = [3]
const flag: bool[2] = [1, 0]
node n0: y: float32[1, 2, -1] = Add(x, w)
node n1: z, _ = Custom@my.domain(y, _, big) {alpha=0.5, axes=[0, -1], empty=f[], mode="constant", n=3, names=["a", "b"], one=1.0, t=tensor int64[2] = [4, 5]}
node "n 2": s: sequence float32[?] = SequenceConstruct(z)
output z, s
)";
  // idx and flag are not used by any node: the printer leaves them out.
  std::string printed = GraphToText(*g);
  std::string used_only = expected;
  used_only.erase(used_only.find("const idx"), std::string("const idx: int64[] = [3]\n").size());
  used_only.erase(used_only.find("const flag"), std::string("const flag: bool[2] = [1, 0]\n").size());
  EXPECT_EQ(printed, used_only);
  EXPECT_EQ(RoundTrip(printed), printed);
}

TEST(GraphTextTest, PrintsNodesInTopologicalOrderAndLargeConstantsOpaque) {
  Graph g("t");
  ValueId x = g.AddInput("x", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({2})});
  ValueId b = g.AddValue("b", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({2})});
  ValueId a = g.AddValue("a", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({2})});
  ValueId c = g.AddConstant("c", HostTensor(DT_FLOAT, Shape({3, 7})));
  g.AddNode("second", "Neg", {a}, {b});
  g.AddNode("first", "Relu", {x}, {a});
  g.AddNode("third", "Mul", {b, c}, {g.AddValue("y")});
  g.AddOutput(g.FindValue("y"));
  EXPECT_EQ(GraphToText(g), R"(graph t
input x: float32[2]
const c: float32[3, 7] = opaque
node first: a: float32[2] = Relu(x)
node second: b: float32[2] = Neg(a)
node third: y = Mul(b, c)
output y
)");
  TextOptions wide;
  wide.max_literal_elements = 100;
  EXPECT_NE(GraphToText(g, wide).find("const c: float32[3, 7] = [0, 0, 0,"), std::string::npos);
}

TEST(GraphTextTest, RoundTripsTheBundledModels) {
  // ONNX names ("/c1/Conv", "onnx::Conv_12"), every attribute kind the exporter writes.
  for (const char* name : {"small_cnn", "mlp", "conv_bn_res", "layer_norm_mlp"}) {
    std::shared_ptr<Graph> g;
    Status st = LoadOnnxModel(std::string(GE_SOURCE_DIR) + "/models/" + name + ".onnx", &g);
    ASSERT_TRUE(st.ok()) << st.message();
    std::string text = GraphToText(*g);
    EXPECT_EQ(RoundTrip(text), text) << name;
  }
}

TEST(GraphTextTest, QuestionMarkIsAnUnknownDimOrAnUnknownRank) {
  // `?` reads as -1 in any position (the first too: `[?, 3]` was refused, "expected ']'"); `[?]`
  // alone is an unknown rank.
  EXPECT_EQ(RoundTrip("graph g\ninput x: float32[?, 3, ?]\ninput r: float32[?]\noutput x, r\n"),
            "graph g\ninput x: float32[-1, 3, -1]\ninput r: float32[?]\noutput x, r\n");
}

TEST(GraphTextTest, ErrorsNameTheLine) {
  auto error = [](const std::string& text) {
    std::shared_ptr<Graph> g;
    Status st = ParseGraphText(text, &g);
    EXPECT_FALSE(st.ok()) << text;
    return st.message();
  };
  EXPECT_NE(error("input x: float32[1]\n").find("line 1: expected 'graph NAME' first"), std::string::npos);
  EXPECT_NE(error("graph g\nnode n: y = Relu(x)\n").find("line 2: node 'n' reads 'x', which is not defined above"),
            std::string::npos);
  EXPECT_NE(error("graph g\ninput x: float33[1]\n").find("line 2: unknown dtype 'float33'"), std::string::npos);
  EXPECT_NE(error("graph g\nconst c: int64[2] = [1]\n").find("line 2: int64[2] has 2 elements, the literal 1"),
            std::string::npos);
  EXPECT_NE(error("graph g\ninput x: float32[1]\ninput x: float32[1]\n").find("line 3: value 'x' is defined twice"),
            std::string::npos);
  EXPECT_NE(error("graph g\ninput x: float32[1] junk\n").find("line 2: expected the end of the line, got 'junk'"),
            std::string::npos);
  EXPECT_NE(error("graph g\noutput y\n").find("line 2: output 'y' is not defined above"), std::string::npos);
  EXPECT_NE(error("graph g\ninput x: float32[1 $\n").find("line 2: unexpected character '$'"), std::string::npos);
}

}  // namespace
}  // namespace ge
