// ge::Model end to end: the bundled PyTorch-exported models against PyTorch's own outputs, and
// every bad-input case giving a one-line error that names the problem.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <cmath>
#include <fstream>

#include "api/model.h"
#include "graph/npy.h"

namespace ge {
namespace {

const std::string kModels = std::string(GE_SOURCE_DIR) + "/models/";

void ExpectClose(const HostTensor& got, const HostTensor& want, double rtol, double atol) {
  ASSERT_EQ(got.dtype(), want.dtype());
  ASSERT_EQ(got.shape(), want.shape());
  for (int64_t i = 0; i < got.NumElements(); ++i) {
    float g = got.data_as<float>()[i], w = want.data_as<float>()[i];
    ASSERT_LE(std::fabs(g - w), atol + rtol * std::fabs(w)) << "element " << i;
  }
}

class BundledModel : public ::testing::TestWithParam<const char*> {};

TEST_P(BundledModel, MatchesPyTorchReference) {
  std::string name = GetParam();
  std::unique_ptr<Model> model;
  Status st = Model::Load(kModels + name + ".onnx", {}, &model);
  ASSERT_TRUE(st.ok()) << st.message();
  HostTensor in, ref;
  ASSERT_TRUE(ReadNpy(kModels + name + "_input.npy", &in).ok());
  ASSERT_TRUE(ReadNpy(kModels + name + "_output.npy", &ref).ok());
  std::vector<HostTensor> out;
  for (int run = 0; run < 3; ++run) {  // repeated runs reuse cached memory: same answer
    st = model->Run({in}, &out);
    ASSERT_TRUE(st.ok()) << st.message();
    ASSERT_EQ(out.size(), 1u);
    ExpectClose(out[0], ref, 1e-4, 1e-5);
  }
}

INSTANTIATE_TEST_SUITE_P(Models, BundledModel, ::testing::Values("small_cnn", "mlp"));

class BadInput : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(Model::Load(kModels + "mlp.onnx", {}, &model_).ok()); }
  std::string RunError(std::vector<HostTensor> inputs) {
    std::vector<HostTensor> out;
    Status st = model_->Run(inputs, &out);
    EXPECT_FALSE(st.ok());
    EXPECT_EQ(st.message().find('\n'), std::string::npos) << "one line: " << st.message();
    return st.message();
  }
  std::unique_ptr<Model> model_;
};

TEST_F(BadInput, MissingInput) { EXPECT_EQ(RunError({}), kModels + "mlp.onnx: expected 1 input(s), got 0"); }

TEST_F(BadInput, WrongShape) {
  EXPECT_EQ(RunError({HostTensor(DT_FLOAT, Shape({4, 65}))}),
            kModels + "mlp.onnx: input 'input': expected float32[4, 64], got float32[4, 65]");
}

TEST_F(BadInput, WrongDtype) {
  EXPECT_EQ(RunError({HostTensor(DT_INT64, Shape({4, 64}))}),
            kModels + "mlp.onnx: input 'input': expected float32[4, 64], got int64[4, 64]");
}

void SetOutput(onnx::GraphProto* g, const char* name, int elem_type) {
  auto* o = g->add_output();
  o->set_name(name);
  o->mutable_type()->mutable_tensor_type()->set_elem_type(elem_type);
  o->mutable_type()->mutable_tensor_type()->mutable_shape();
}

std::string WriteFile(const std::string& name, const std::string& bytes) {
  std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

TEST(BadModel, MalformedFile) {
  std::string path = WriteFile("garbage.onnx", "this is not a protobuf \xff\xff\xff\xff");
  std::unique_ptr<Model> model;
  Status st = Model::Load(path, {}, &model);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), path + ": not a valid ONNX model (protobuf parse failed; truncated or corrupted file?)");
}

TEST(BadModel, TruncatedFile) {
  std::string bytes = ReadFile(kModels + "small_cnn.onnx");
  ASSERT_GT(bytes.size(), 1000u);
  std::string path = WriteFile("truncated.onnx", bytes.substr(0, bytes.size() / 2));
  std::unique_ptr<Model> model;
  Status st = Model::Load(path, {}, &model);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find(path + ": "), std::string::npos) << st.message();
}

TEST(BadModel, MissingFile) {
  std::unique_ptr<Model> model;
  Status st = Model::Load("/nonexistent/m.onnx", {}, &model);
  EXPECT_EQ(st.message(), "/nonexistent/m.onnx: cannot open file");
}

// A two-node model with two unknown ops: both are listed before anything runs.
TEST(BadModel, UnsupportedOpsListedTogether) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(17);
  auto* g = m.mutable_graph();
  g->set_name("g");
  auto* in = g->add_input();
  in->set_name("x");
  in->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  in->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(2);
  auto* n1 = g->add_node();
  n1->set_name("first");
  n1->set_op_type("FancyOp");
  n1->set_domain("com.example");
  n1->add_input("x");
  n1->add_output("y");
  auto* n2 = g->add_node();
  n2->set_name("second");
  n2->set_op_type("OtherOp");
  n2->set_domain("com.example");
  n2->add_input("y");
  n2->add_output("z");
  SetOutput(g, "z", onnx::TensorProto::FLOAT);
  auto* dom = m.add_opset_import();
  dom->set_domain("com.example");
  dom->set_version(1);
  std::string path = WriteFile("unsupported.onnx", m.SerializeAsString());
  std::unique_ptr<Model> model;
  Status st = Model::Load(path, {}, &model);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), path + ": 2 unsupported node(s): node 'first' (FancyOp), node 'second' (OtherOp)");
}

// Add of [2] and [3]: not broadcastable; the op's inference rejects it, naming node and inputs.
TEST(BadModel, ShapeMismatchNamesNode) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(17);
  auto* g = m.mutable_graph();
  g->set_name("g");
  for (auto [name, dim] : {std::pair{"a", 2}, std::pair{"b", 3}}) {
    auto* in = g->add_input();
    in->set_name(name);
    in->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
    in->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(dim);
  }
  auto* n = g->add_node();
  n->set_name("adder");
  n->set_op_type("Add");
  n->add_input("a");
  n->add_input("b");
  n->add_output("c");
  SetOutput(g, "c", onnx::TensorProto::FLOAT);
  std::string path = WriteFile("mismatch.onnx", m.SerializeAsString());
  std::unique_ptr<Model> model;
  Status st = Model::Load(path, {ModelOptions{"host"}}, &model);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), path + ": node 'adder' (Add): shape inference failed for inputs (float32[2], float32[3])");
}

TEST(BadModel, InputDtypeNotInOpDef) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(17);
  auto* g = m.mutable_graph();
  g->set_name("g");
  auto* in = g->add_input();
  in->set_name("x");
  in->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::INT64);
  in->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(4);
  auto* n = g->add_node();
  n->set_name("sm");
  n->set_op_type("Softmax");
  n->add_input("x");
  n->add_output("y");
  SetOutput(g, "y", onnx::TensorProto::INT64);
  std::string path = WriteFile("dtype.onnx", m.SerializeAsString());
  std::unique_ptr<Model> model;
  Status st = Model::Load(path, {}, &model);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(
      st.message().find("node 'sm' (Softmax): input 'input' ('x') has dtype int64, expected one of float32, float64"),
      std::string::npos)
      << st.message();
}

}  // namespace
}  // namespace ge
