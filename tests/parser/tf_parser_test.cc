// The TensorFlow frontend's parser: constant encodings, placeholders, multi-output references and
// control inputs (text GraphDefs written here), format detection, and truncated or corrupted
// binary files (a real frozen graph from tests/tf/data) that must give a clear error, never a crash.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ge/ge_api.h"
#include "ge/tensorflow_parser.h"
#include "ge/tf_loader.h"

namespace ge {
namespace {

namespace fs = std::filesystem;

const std::string kMlp = std::string(GE_SOURCE_DIR) + "/tests/tf/data/mlp_00/frozen_model.pb";

std::string ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The constant feeding the graph output named `out` (through its Identity).
const HostTensor* OutputConst(const Graph& g, const std::string& out) {
  for (ValueId o : g.outputs()) {
    if (g.value(o).name != out || g.value(o).producer < 0) continue;
    const Node& n = g.node(g.value(o).producer);
    if (n.inputs.empty()) return nullptr;
    const Value& v = g.value(n.inputs[0]);
    return v.constant ? &*v.constant : nullptr;
  }
  return nullptr;
}

TEST(TfParser, ConstantEncodings) {
  const std::string text = R"(
node { name: "splat" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 3 } } float_val: 2.5 } } } }
node { name: "content" op: "Const"
  attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { dim { size: 2 } }
    tensor_content: "\001\000\000\000\377\377\377\377" } } } }
node { name: "half" op: "Const"
  attr { key: "value" value { tensor { dtype: DT_HALF tensor_shape { dim { size: 2 } } half_val: 15360 half_val: 16384 } } } }
node { name: "flags" op: "Const"
  attr { key: "value" value { tensor { dtype: DT_BOOL tensor_shape { dim { size: 2 } } bool_val: true bool_val: false } } } }
node { name: "empty" op: "Const"
  attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 2 } dim { } } } } } }
node { name: "d" op: "Const"
  attr { key: "value" value { tensor { dtype: DT_DOUBLE tensor_shape { } double_val: 0.125 } } } }
node { name: "o_splat" op: "Identity" input: "splat" }
node { name: "o_content" op: "Identity" input: "content" }
node { name: "o_half" op: "Identity" input: "half" }
node { name: "o_flags" op: "Identity" input: "flags" }
node { name: "o_empty" op: "Identity" input: "empty" }
node { name: "o_d" op: "Identity" input: "d:0" }
)";
  std::shared_ptr<Graph> g;
  Status st = LoadTensorFlowModelFromBytes(text, true, &g);
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_EQ(g->outputs().size(), 6u);
  const HostTensor* t = OutputConst(*g, "o_splat");
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(t->NumElements(), 3);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(t->data_as<float>()[i], 2.5f);
  t = OutputConst(*g, "o_content");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->dtype(), DT_INT32);
  EXPECT_EQ(t->data_as<int32_t>()[0], 1);
  EXPECT_EQ(t->data_as<int32_t>()[1], -1);
  t = OutputConst(*g, "o_half");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->dtype(), DT_FLOAT16);
  EXPECT_EQ(t->data_as<uint16_t>()[0], 0x3c00);  // 1.0
  EXPECT_EQ(t->data_as<uint16_t>()[1], 0x4000);  // 2.0
  t = OutputConst(*g, "o_flags");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->dtype(), DT_BOOL);
  EXPECT_EQ(t->data_as<uint8_t>()[0], 1);
  EXPECT_EQ(t->data_as<uint8_t>()[1], 0);
  t = OutputConst(*g, "o_empty");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->NumElements(), 0);
  EXPECT_EQ(t->shape().GetDims(), (std::vector<int64_t>{2, 0}));
  t = OutputConst(*g, "o_d");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->dtype(), DT_DOUBLE);
  EXPECT_EQ(t->shape().GetDims().size(), 0u);
  EXPECT_EQ(t->data_as<double>()[0], 0.125);
}

TEST(TfParser, PlaceholdersMultiOutputsAndControlInputs) {
  const std::string text = R"(
node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "shape" value { shape { dim { size: -1 } dim { size: 6 } } } } }
node { name: "u" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "shape" value { shape { unknown_rank: true } } } }
node { name: "axis" op: "Const" attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { } int_val: 1 } } } }
node { name: "init" op: "NoOp" }
node { name: "split" op: "Split" input: "axis" input: "x" input: "^init" attr { key: "num_split" value { i: 2 } } }
node { name: "sum" op: "Add" input: "split:1" input: "u" }
)";
  std::shared_ptr<Graph> g;
  Status st = LoadTensorFlowModelFromBytes(text, true, &g);
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_EQ(g->inputs().size(), 2u);
  EXPECT_EQ(g->value(g->inputs()[0]).name, "x");
  EXPECT_EQ(g->value(g->inputs()[0]).desc.shape.GetDims(), (std::vector<int64_t>{-1, 6}));
  EXPECT_TRUE(g->value(g->inputs()[1]).desc.shape.IsUnknownRank());
  // Outputs: split:0 (unconsumed output of a consumed node is not a sink) ... only `sum`.
  ASSERT_EQ(g->outputs().size(), 1u);
  EXPECT_EQ(g->value(g->outputs()[0]).name, "sum");
  EXPECT_TRUE(g->Verify().ok());
}

TEST(TfParser, RequestedOutputs) {
  const std::string text = R"(
node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "shape" value { shape { dim { size: 2 } dim { size: 6 } } } } }
node { name: "axis" op: "Const" attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { } int_val: 1 } } } }
node { name: "split" op: "Split" input: "axis" input: "x" attr { key: "num_split" value { i: 2 } } }
node { name: "alias" op: "Identity" input: "split:1" }
node { name: "sum" op: "Add" input: "split" input: "alias" }
)";
  std::shared_ptr<Graph> g;
  Status st = LoadTensorFlowModelFromBytes(text, true, &g, {"alias", "split:1", "split:0"});
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_EQ(g->outputs().size(), 3u);
  EXPECT_EQ(g->value(g->outputs()[0]).name, "alias");
  EXPECT_EQ(g->value(g->outputs()[1]).name, "split:1");
  EXPECT_EQ(g->value(g->outputs()[2]).name, "split");
  EXPECT_TRUE(g->Verify().ok());
  st = LoadTensorFlowModelFromBytes(text, true, &g, {"split:2"});
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("2 output(s)"), std::string::npos) << st.message();
  st = LoadTensorFlowModelFromBytes(text, true, &g, {"nosuch"});
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("nosuch"), std::string::npos) << st.message();
}

TEST(TfParser, UnknownOpAndDanglingInputNameTheNode) {
  std::shared_ptr<Graph> g;
  Status st = LoadTensorFlowModelFromBytes(R"(node { name: "a" op: "NoSuchOp" })", true, &g);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("'a'"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("NoSuchOp"), std::string::npos) << st.message();
  st = LoadTensorFlowModelFromBytes(R"(node { name: "a" op: "Relu" input: "missing" })", true, &g);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("missing"), std::string::npos) << st.message();
  st = LoadTensorFlowModelFromBytes("node { name: ", true, &g);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("text format"), std::string::npos) << st.message();
}

TEST(TfParser, Detection) {
  EXPECT_TRUE(LooksLikeTensorFlowGraph(ReadFile(kMlp).substr(0, 64)));
  EXPECT_TRUE(LooksLikeTensorFlowGraph("# comment\nnode {\n name: \"x\" }"));
  EXPECT_FALSE(LooksLikeTensorFlowGraph(std::string("\x08\x08\x12\x04", 4)));  // ONNX: ir_version first
  EXPECT_FALSE(LooksLikeTensorFlowGraph(""));
  EXPECT_TRUE(IsTensorFlowFile(kMlp));
}

TEST(TfParser, RealGraphLoads) {
  std::shared_ptr<Graph> g;
  Status st = LoadTensorFlowModel(kMlp, &g);
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_EQ(g->inputs().size(), 1u);
  EXPECT_EQ(g->value(g->inputs()[0]).name, "input");
  ASSERT_EQ(g->outputs().size(), 1u);
  EXPECT_EQ(g->value(g->outputs()[0]).name, "output");
  EXPECT_TRUE(g->Verify().ok());
}

TEST(TfParser, SessionApiParse) {
  Graph g;
  ASSERT_EQ(aclgrphParseTensorFlow(kMlp.c_str(), g), GRAPH_SUCCESS) << GEGetErrorMsg();
  ASSERT_EQ(g.outputs().size(), 1u);
  EXPECT_EQ(g.value(g.outputs()[0]).name, "output");
  Graph h;
  std::map<AscendString, AscendString> params = {{"out_nodes", "l0Out;output:0"}};
  ASSERT_EQ(aclgrphParseTensorFlow(kMlp.c_str(), params, h), GRAPH_SUCCESS) << GEGetErrorMsg();
  ASSERT_EQ(h.outputs().size(), 2u);
  EXPECT_EQ(h.value(h.outputs()[0]).name, "l0Out");
  EXPECT_EQ(h.value(h.outputs()[1]).name, "output");
  Graph k;
  std::map<AscendString, AscendString> bad = {{"no_such_param", "1"}};
  EXPECT_NE(aclgrphParseTensorFlow(kMlp.c_str(), bad, k), GRAPH_SUCCESS);
  EXPECT_NE(aclgrphParseTensorFlow("/nonexistent/m.pb", k), GRAPH_SUCCESS);
  EXPECT_NE(GEGetErrorMsg().find("/nonexistent/m.pb"), std::string::npos);
  EXPECT_NE(aclgrphParseTensorFlow(nullptr, k), GRAPH_SUCCESS);
}

// Every prefix of a real .pb: a clear error (or, cut at a message boundary, a smaller graph that
// loads or fails naming a node), never a crash.
TEST(TfParser, TruncatedFilesGiveErrors) {
  const std::string bytes = ReadFile(kMlp);
  ASSERT_GT(bytes.size(), 100u);
  int errors = 0;
  for (size_t n = 0; n < bytes.size(); ++n) {
    std::shared_ptr<Graph> g;
    Status st = LoadTensorFlowModelFromBytes(bytes.substr(0, n), false, &g);
    if (!st.ok()) {
      ++errors;
      EXPECT_FALSE(st.message().empty());
    }
  }
  EXPECT_GT(errors, static_cast<int>(bytes.size()) / 2);
  // Through the file API: the message names the file and says what is wrong.
  fs::path dir = fs::temp_directory_path() / "ge_tf_parser_test";
  fs::create_directories(dir);
  fs::path cut = dir / "truncated.pb";
  {
    std::ofstream f(cut, std::ios::binary);
    f << bytes.substr(0, bytes.size() / 2 + 3);
  }
  std::shared_ptr<Graph> g;
  Status st = LoadTensorFlowModel(cut.string(), &g);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find(cut.string()), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("truncated or corrupted"), std::string::npos) << st.message();
  fs::remove_all(dir);
}

TEST(TfParser, CorruptedFilesGiveErrors) {
  const std::string bytes = ReadFile(kMlp);
  // A length prefix made huge: the parse fails.
  std::string bad = bytes;
  bad[1] = static_cast<char>(0xff);
  bad[2] = static_cast<char>(0xff);
  std::shared_ptr<Graph> g;
  Status st = LoadTensorFlowModelFromBytes(bad, false, &g);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("GraphDef"), std::string::npos) << st.message();
  // Every single byte overwritten in turn with a few patterns: no crash, any error has a message.
  for (size_t i = 0; i < bytes.size(); i += 3) {
    for (uint8_t b : {0x00, 0x7f, 0xff, 0x0a}) {
      std::string c = bytes;
      c[i] = static_cast<char>(b);
      Status s = LoadTensorFlowModelFromBytes(c, false, &g);
      if (!s.ok()) {
        EXPECT_FALSE(s.message().empty());
      }
    }
  }
}

// A TF1 while loop becomes a Loop whose body is a subgraph; malformed loop frames name the frame
// and the node.
constexpr const char* kCounterLoop = R"(
node { name: "x" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 1 } } } }
node { name: "n" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 10 } } } }
node { name: "w/Enter" op: "Enter" input: "x" attr { key: "frame_name" value { s: "w/ctx" } } }
node { name: "w/Merge" op: "Merge" input: "w/Enter" input: "w/NextIteration" }
node { name: "w/Less/Enter" op: "Enter" input: "n" attr { key: "frame_name" value { s: "w/ctx" } }
       attr { key: "is_constant" value { b: true } } }
node { name: "w/Less" op: "Less" input: "w/Merge" input: "w/Less/Enter" }
%s
node { name: "w/Switch" op: "Switch" input: "w/Merge" input: "%s" }
node { name: "w/Identity" op: "Identity" input: "w/Switch:1" }
node { name: "w/Add" op: "Add" input: "w/Identity" input: "w/Identity" }
node { name: "w/NextIteration" op: "NextIteration" input: "w/Add" }
node { name: "w/Exit" op: "Exit" input: "w/Switch" }
)";

TEST(TfParser, WhileLoopBecomesLoop) {
  std::shared_ptr<Graph> g;
  char text[8192];
  std::snprintf(text, sizeof text, kCounterLoop, R"(node { name: "w/LoopCond" op: "LoopCond" input: "w/Less" })",
                "w/LoopCond");
  Status st = LoadTensorFlowModelFromBytes(text, true, &g);
  ASSERT_TRUE(st.ok()) << st.message();
  const Node* loop = nullptr;
  for (NodeId n = 0; n < static_cast<NodeId>(g->num_nodes()); ++n)
    if (g->node(n).type == "Loop") loop = &g->node(n);
  ASSERT_NE(loop, nullptr);
  auto* body = loop->GetAttr<std::shared_ptr<Graph>>("body");
  ASSERT_NE(body, nullptr);
  // iteration, condition, one carried value; outputs: the next condition and the next value.
  EXPECT_EQ((*body)->inputs().size(), 3u);
  EXPECT_EQ((*body)->outputs().size(), 2u);
  ASSERT_EQ(g->outputs().size(), 1u);
  EXPECT_EQ(g->value(g->outputs()[0]).name, "w/Exit");
  // A node inside the loop is no graph output: it has a value per iteration.
  st = LoadTensorFlowModelFromBytes(text, true, &g, {"w/Add"});
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("inside while-loop frame 'w/ctx'"), std::string::npos) << st.message();
}

// A TensorArray the loop writes at a constant index (not at the iteration number): an error
// naming the write.
constexpr const char* kWriteAtZero = R"(
node { name: "w/LoopCond" op: "LoopCond" input: "w/Less" }
node { name: "size" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
       attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 3 } } } }
node { name: "ta" op: "TensorArrayV3" input: "size" attr { key: "dtype" value { type: DT_FLOAT } } }
node { name: "w/Enter_2" op: "Enter" input: "ta:1" attr { key: "frame_name" value { s: "w/ctx" } } }
node { name: "w/Merge_2" op: "Merge" input: "w/Enter_2" input: "w/NextIteration_2" }
node { name: "w/Switch_2" op: "Switch" input: "w/Merge_2" input: "w/LoopCond" }
node { name: "w/Identity_2" op: "Identity" input: "w/Switch_2:1" }
node { name: "w/ta" op: "Enter" input: "ta" attr { key: "frame_name" value { s: "w/ctx" } }
       attr { key: "is_constant" value { b: true } } }
node { name: "w/zero" op: "Const" input: "^w/Identity" attr { key: "dtype" value { type: DT_INT32 } }
       attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 0 } } } }
node { name: "w/Write" op: "TensorArrayWriteV3" input: "w/ta" input: "w/zero" input: "w/Add" input: "w/Identity_2" }
node { name: "w/NextIteration_2" op: "NextIteration" input: "w/Write" }
node { name: "w/Exit_2" op: "Exit" input: "w/Switch_2" }
)";

TEST(TfParser, TensorArrayWrittenOffTheIterationIsAnError) {
  std::shared_ptr<Graph> g;
  char text[8192];
  std::snprintf(text, sizeof text, kCounterLoop, kWriteAtZero, "w/LoopCond");
  Status st = LoadTensorFlowModelFromBytes(text, true, &g);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("w/ctx"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("'w/Write' writes its TensorArray at 'w/zero', not at the iteration number"),
            std::string::npos)
      << st.message();
}

TEST(TfParser, MalformedWhileLoopNamesTheFrameAndNode) {
  std::shared_ptr<Graph> g;
  char text[8192];
  std::snprintf(text, sizeof text, kCounterLoop, "", "w/Less");  // no LoopCond
  Status st = LoadTensorFlowModelFromBytes(text, true, &g);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("w/ctx"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("LoopCond"), std::string::npos) << st.message();
  // A cycle that is no while loop.
  st = LoadTensorFlowModelFromBytes(R"(node { name: "a" op: "Relu" input: "b" }
                                       node { name: "b" op: "Relu" input: "a" })",
                                    true, &g);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("cycle"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace ge
