// ModelOptions::input_shapes (`--input-shape`): dims fixed at compile time make a model with a
// symbolic batch dim static (one sink segment); wrong specializations are clear errors.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <fstream>

#include "ge/graph.h"
#include "ge/model.h"

namespace ge {
namespace {

// y = Relu(x) with x of shape [N, 4] (N symbolic).
std::string WriteDynamicReluModel() {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(17);
  auto* g = m.mutable_graph();
  g->set_name("g");
  for (const char* name : {"x", "y"}) {
    auto* v = name[0] == 'x' ? g->add_input() : g->add_output();
    v->set_name(name);
    auto* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(onnx::TensorProto::FLOAT);
    t->mutable_shape()->add_dim()->set_dim_param("N");
    t->mutable_shape()->add_dim()->set_dim_value(4);
  }
  auto* n = g->add_node();
  n->set_name("relu");
  n->set_op_type("Relu");
  n->add_input("x");
  n->add_output("y");
  // One file per test: CTest runs the tests of this file in parallel processes.
  std::string path =
      ::testing::TempDir() + "/dyn_relu_" + ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".onnx";
  std::ofstream(path, std::ios::binary) << m.SerializeAsString();
  return path;
}

Status Load(const std::map<std::string, std::vector<int64_t>>& shapes, const std::string& mode,
            std::unique_ptr<Model>* model) {
  ModelOptions opt;
  opt.mode = mode;
  opt.input_shapes = shapes;
  return Model::Load(WriteDynamicReluModel(), opt, model);
}

TEST(ShapeSpecialization, SymbolicBatchBecomesOneSinkSegment) {
  std::unique_ptr<Model> model;
  ASSERT_FALSE(Load({}, "sink", &model).ok());  // dynamic without specialization
  Status st = Load({{"x", {2, 4}}}, "auto", &model);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(model->mode(), "sink");
  EXPECT_EQ(model->DescribeSegments(), "sink[1 node]");
  HostTensor x(DT_FLOAT, Shape({2, 4}));
  const float in[8] = {-1.f, 2.f, -3.f, 4.f, 0.5f, -0.5f, 0.f, 7.f};
  std::copy(in, in + 8, x.mutable_data_as<float>());
  std::vector<HostTensor> out;
  st = model->Run({x}, &out);
  ASSERT_TRUE(st.ok()) << st.message();
  const float want[8] = {0.f, 2.f, 0.f, 4.f, 0.5f, 0.f, 0.f, 7.f};  // Relu by hand
  ASSERT_EQ(out[0].shape(), Shape({2, 4}));
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out[0].data_as<float>()[i], want[i]) << i;
  // The specialized model takes exactly the given shape.
  st = model->Run({HostTensor(DT_FLOAT, Shape({3, 4}))}, &out);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("expected float32[2, 4], got float32[3, 4]"), std::string::npos) << st.message();
}

TEST(ShapeSpecialization, BadSpecializationsAreClearErrors) {
  std::unique_ptr<Model> model;
  Status st = Load({{"z", {2, 4}}}, "auto", &model);
  EXPECT_NE(st.message().find("input shape given for 'z': the model has no such input (inputs: x)"), std::string::npos)
      << st.message();
  st = Load({{"x", {2, 4, 1}}}, "auto", &model);
  EXPECT_NE(st.message().find("input shape for 'x': [2, 4, 1] does not fit the declared [-1, 4]"), std::string::npos)
      << st.message();
  st = Load({{"x", {2, 5}}}, "auto", &model);
  EXPECT_NE(st.message().find("[2, 5] does not fit the declared [-1, 4]"), std::string::npos) << st.message();
  st = Load({{"x", {-2, 4}}}, "auto", &model);
  EXPECT_NE(st.message().find("input shape for 'x': [-2, 4] has a negative dim"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace ge
