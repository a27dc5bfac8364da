// Regression tests for what the fuzzers (fuzz/) found, one per root cause; the crashing inputs
// themselves are kept in fuzz/regressions/<harness>/ and replayed by CTest (fuzz_replay_*).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "api/model.h"
#include "onnx/onnx_pb.h"
#include "../ops/ops_test_util.h"
#include "parser/onnx/onnx_parser.h"

namespace ge {
namespace {

using testing::F32;
using testing::I64;

void AddInput(onnx::GraphProto* g, const std::string& name, int elem_type, std::vector<int64_t> dims) {
  auto* v = g->add_input();
  v->set_name(name);
  auto* tt = v->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(elem_type);
  tt->mutable_shape();
  for (int64_t d : dims) {
    if (d < 0)
      tt->mutable_shape()->add_dim()->set_dim_param("N");
    else
      tt->mutable_shape()->add_dim()->set_dim_value(d);
  }
}

void AddOutput(onnx::GraphProto* g, const std::string& name, int elem_type, int rank = 0) {
  auto* v = g->add_output();
  v->set_name(name);
  auto* tt = v->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(elem_type);
  tt->mutable_shape();
  for (int d = 0; d < rank; ++d) tt->mutable_shape()->add_dim()->set_dim_param("D" + std::to_string(d));
}

onnx::NodeProto* AddNode(onnx::GraphProto* g, const std::string& op, std::vector<std::string> in,
                         std::vector<std::string> out) {
  auto* n = g->add_node();
  n->set_op_type(op);
  n->set_name(op + "_" + std::to_string(g->node_size()));
  for (auto& s : in) n->add_input(s);
  for (auto& s : out) n->add_output(s);
  return n;
}

std::unique_ptr<Model> Load(const onnx::ModelProto& m) {
  std::shared_ptr<Graph> graph;
  Status st = LoadOnnxModelFromBytes(m.SerializeAsString(), "/nonexistent", &graph);
  EXPECT_TRUE(st.ok()) << st.message();
  if (!st.ok()) return nullptr;
  std::unique_ptr<Model> model;
  st = Model::FromGraph(graph, ModelOptions{}, &model);
  EXPECT_TRUE(st.ok()) << st.message();
  return model;
}

onnx::ModelProto NewModel() {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(17);
  m.mutable_graph()->set_name("g");
  return m;
}

// SplitToSequence copied split sizes as given: negative sizes or sizes not summing to the axis
// length read and wrote past the tensors (SIGSEGV from the backend data's sequence_model8 with
// split values [-2, 1, 2]); a chunk size <= 0 looped forever.
TEST(FuzzRegression, SplitToSequenceChecksTheSplitSizes) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "X", onnx::TensorProto::FLOAT, {-1});
  AddInput(g, "S", onnx::TensorProto::INT64, {3});
  AddNode(g, "SplitToSequence", {"X", "S"}, {"seq"});
  AddNode(g, "SequenceLength", {"seq"}, {"len"});
  AddOutput(g, "len", onnx::TensorProto::INT64);
  auto model = Load(m);
  ASSERT_NE(model, nullptr);
  std::vector<HostTensor> out;
  ASSERT_TRUE(model->Run({F32({3}, {1, 2, 3}), I64({3}, {1, 1, 1})}, &out).ok());
  EXPECT_EQ(out[0].data_as<int64_t>()[0], 3);
  for (auto bad : {std::vector<int64_t>{-2, 1, 2}, {1, 1, 2}, {0, 0, 2}}) {
    Status st = model->Run({F32({3}, {1, 2, 3}), I64({3}, bad)}, &out);
    EXPECT_FALSE(st.ok());
    EXPECT_NE(st.message().find("split sizes"), std::string::npos) << st.message();
  }
}

TEST(FuzzRegression, SplitToSequenceRejectsANonPositiveChunk) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "X", onnx::TensorProto::FLOAT, {-1});
  AddInput(g, "S", onnx::TensorProto::INT64, {});
  AddNode(g, "SplitToSequence", {"X", "S"}, {"seq"});
  AddNode(g, "SequenceLength", {"seq"}, {"len"});
  AddOutput(g, "len", onnx::TensorProto::INT64);
  auto model = Load(m);
  ASSERT_NE(model, nullptr);
  std::vector<HostTensor> out;
  for (int64_t chunk : {0, -1}) {
    Status st = model->Run({F32({3}, {1, 2, 3}), I64({}, {chunk})}, &out);
    EXPECT_FALSE(st.ok());
    EXPECT_NE(st.message().find("positive chunk"), std::string::npos) << st.message();
  }
}

// ConcatFromSequence trusted its axis and the elements' shapes (the sequence's elements may
// differ in any dim).
TEST(FuzzRegression, ConcatFromSequenceChecksAxisAndShapes) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "A", onnx::TensorProto::FLOAT, {-1, -1});
  AddInput(g, "B", onnx::TensorProto::FLOAT, {-1, -1});
  AddNode(g, "SequenceConstruct", {"A", "B"}, {"seq"});
  auto* cat = AddNode(g, "ConcatFromSequence", {"seq"}, {"Y"});
  auto* axis = cat->add_attribute();
  axis->set_name("axis");
  axis->set_type(onnx::AttributeProto::INT);
  axis->set_i(1);
  AddOutput(g, "Y", onnx::TensorProto::FLOAT, 2);
  auto model = Load(m);
  ASSERT_NE(model, nullptr);
  std::vector<HostTensor> out;
  ASSERT_TRUE(model->Run({F32({1, 2}, {1, 2}), F32({1, 1}, {3})}, &out).ok());
  EXPECT_EQ(testing::Floats(out[0]), (std::vector<float>{1, 2, 3}));
  Status st = model->Run({F32({1, 2}, {1, 2}), F32({2, 1}, {3, 4})}, &out);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("cannot concatenate"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace ge
