// The training-domain Gradient node expanded at load time: d = (a + b) * a differentiated by
// hand (dd/da = 2a + b, dd/db = a), an x that y does not depend on (zero), and an operator
// without a derivative (an error naming it).
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include "ge/model.h"

namespace ge {
namespace {

void Value(onnx::ValueInfoProto* v, const std::string& name) {
  v->set_name(name);
  v->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  v->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(3);
}

onnx::NodeProto* Node(onnx::GraphProto* g, const std::string& type, std::vector<std::string> in,
                      std::vector<std::string> out) {
  auto* n = g->add_node();
  n->set_name(type + "_" + out[0]);
  n->set_op_type(type);
  for (const auto& i : in) n->add_input(i);
  for (const auto& o : out) n->add_output(o);
  return n;
}

// c = a op b; d = c * a; Gradient(xs = a, b, e; y = d). e is an input d does not depend on.
onnx::ModelProto GradientModel(const std::string& op) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(17);
  auto* training = m.add_opset_import();
  training->set_domain("ai.onnx.preview.training");
  training->set_version(1);
  auto* g = m.mutable_graph();
  g->set_name("gradient");
  for (const char* x : {"a", "b", "e"}) Value(g->add_input(), x);
  Node(g, op, op == "Relu" ? std::vector<std::string>{"a"} : std::vector<std::string>{"a", "b"}, {"c"});
  Node(g, "Mul", {"c", "a"}, {"d"});
  auto* grad = Node(g, "Gradient", {"a", "b", "e"}, {"dd_da", "dd_db", "dd_de"});
  grad->set_domain("ai.onnx.preview.training");
  auto* xs = grad->add_attribute();
  xs->set_name("xs");
  xs->set_type(onnx::AttributeProto::STRINGS);
  for (const char* x : {"a", "b", "e"}) xs->add_strings(x);
  auto* y = grad->add_attribute();
  y->set_name("y");
  y->set_type(onnx::AttributeProto::STRING);
  y->set_s("d");
  for (const char* o : {"d", "dd_da", "dd_db", "dd_de"}) Value(g->add_output(), o);
  return m;
}

HostTensor Vec(std::vector<float> v) { return HostTensor::FromBytes(DT_FLOAT, Shape({3}), v.data(), 12); }

class GradientExpansion : public ::testing::TestWithParam<std::string> {};

TEST_P(GradientExpansion, MatchesTheDerivativeByHand) {
  const std::string bytes = GradientModel("Add").SerializeAsString();
  ModelOptions opt;
  opt.mode = GetParam();
  std::unique_ptr<Model> model;
  Status st = Model::LoadFromMemory(bytes.data(), bytes.size(), opt, &model);
  ASSERT_TRUE(st.ok()) << st.message();
  const std::vector<float> a = {1, -2, 3}, b = {0.5f, 4, -1};
  std::vector<HostTensor> out;
  st = model->Run({Vec(a), Vec(b), Vec({7, 8, 9})}, &out);
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_EQ(out.size(), 4u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_FLOAT_EQ(out[0].data_as<float>()[i], (a[i] + b[i]) * a[i]);
    EXPECT_FLOAT_EQ(out[1].data_as<float>()[i], 2 * a[i] + b[i]);
    EXPECT_FLOAT_EQ(out[2].data_as<float>()[i], a[i]);
    EXPECT_FLOAT_EQ(out[3].data_as<float>()[i], 0.f);
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, GradientExpansion, ::testing::Values("host", "sink"));

TEST(GradientExpansionError, NamesTheOperatorWithoutADerivative) {
  const std::string bytes = GradientModel("Relu").SerializeAsString();
  std::unique_ptr<Model> model;
  Status st = Model::LoadFromMemory(bytes.data(), bytes.size(), ModelOptions{}, &model);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("node 'Relu_c' (Relu) on the path to y has no derivative"), std::string::npos)
      << st.message();
}

}  // namespace
}  // namespace ge
