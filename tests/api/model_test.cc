// ge::Model end to end: the bundled PyTorch-exported models against PyTorch's own outputs, and
// every bad-input case giving a one-line error that names the problem.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <cmath>
#include <cstring>
#include <fstream>

#include "ge/graph.h"
#include "ge/model.h"
#include "ge/npy.h"

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

// An opset-17 model with named graph inputs of one dim each, built node by node below.
onnx::ModelProto NewModel(std::vector<std::pair<const char*, int64_t>> inputs, int elem_type) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(17);
  auto* g = m.mutable_graph();
  g->set_name("g");
  for (auto [name, dim] : inputs) {
    auto* in = g->add_input();
    in->set_name(name);
    in->mutable_type()->mutable_tensor_type()->set_elem_type(elem_type);
    in->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(dim);
  }
  return m;
}

void AddNode(onnx::ModelProto* m, const char* name, const char* type, std::vector<const char*> inputs,
             const char* output, const char* domain = "") {
  auto* n = m->mutable_graph()->add_node();
  n->set_name(name);
  n->set_op_type(type);
  n->set_domain(domain);
  for (const char* i : inputs) n->add_input(i);
  n->add_output(output);
}

Status LoadModelProto(const onnx::ModelProto& m, const char* file, const ModelOptions& options, std::string* path) {
  *path = WriteFile(file, m.SerializeAsString());
  std::unique_ptr<Model> model;
  return Model::Load(*path, options, &model);
}

// A two-node model with two unknown ops: both are listed before anything runs.
TEST(BadModel, UnsupportedOpsListedTogether) {
  onnx::ModelProto m = NewModel({{"x", 2}}, onnx::TensorProto::FLOAT);
  AddNode(&m, "first", "FancyOp", {"x"}, "y", "com.example");
  AddNode(&m, "second", "OtherOp", {"y"}, "z", "com.example");
  SetOutput(m.mutable_graph(), "z", onnx::TensorProto::FLOAT);
  auto* dom = m.add_opset_import();
  dom->set_domain("com.example");
  dom->set_version(1);
  std::string path;
  Status st = LoadModelProto(m, "unsupported.onnx", {}, &path);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), path + ": 2 unsupported node(s): node 'first' (FancyOp), node 'second' (OtherOp)");
}

// Add of [2] and [3]: not broadcastable; the op's inference rejects it, naming node and inputs.
TEST(BadModel, ShapeMismatchNamesNode) {
  onnx::ModelProto m = NewModel({{"a", 2}, {"b", 3}}, onnx::TensorProto::FLOAT);
  AddNode(&m, "adder", "Add", {"a", "b"}, "c");
  SetOutput(m.mutable_graph(), "c", onnx::TensorProto::FLOAT);
  std::string path;
  Status st = LoadModelProto(m, "mismatch.onnx", ModelOptions{"host"}, &path);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), path +
                              ": node 'adder' (Add): shape inference failed for inputs (float32[2], float32[3]): "
                              "shapes [2] and [3] do not broadcast");
}

TEST(BadModel, InputDtypeNotInOpDef) {
  onnx::ModelProto m = NewModel({{"x", 4}}, onnx::TensorProto::INT64);
  AddNode(&m, "sm", "Softmax", {"x"}, "y");
  SetOutput(m.mutable_graph(), "y", onnx::TensorProto::INT64);
  std::string path;
  Status st = LoadModelProto(m, "dtype.onnx", {}, &path);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(
      st.message().find("node 'sm' (Softmax): input 'input' ('x') has dtype int64, expected one of float32, float64"),
      std::string::npos)
      << st.message();
}

// A bool input's bytes other than 0 and 1 (a HostTensor filled by the caller) count as true:
// the runs copy bool inputs in as 0 / 1, since kernels read C++ bool. y = Not(x) and z = Cast(x).
class BoolInputBytes : public ::testing::TestWithParam<const char*> {};

TEST_P(BoolInputBytes, AnyNonzeroByteIsTrue) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(17);
  auto* g = m.mutable_graph();
  g->set_name("not");
  auto info = [](onnx::ValueInfoProto* v, const char* name, int elem) {
    v->set_name(name);
    auto* tt = v->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(elem);
    tt->mutable_shape()->add_dim()->set_dim_value(4);
  };
  info(g->add_input(), "x", onnx::TensorProto::BOOL);
  info(g->add_output(), "y", onnx::TensorProto::BOOL);
  info(g->add_output(), "z", onnx::TensorProto::FLOAT);
  auto* n = g->add_node();
  n->set_op_type("Not");
  n->add_input("x");
  n->add_output("y");
  auto* c = g->add_node();
  c->set_op_type("Cast");
  c->add_input("x");
  c->add_output("z");
  auto* to = c->add_attribute();
  to->set_name("to");
  to->set_type(onnx::AttributeProto::INT);
  to->set_i(onnx::TensorProto::FLOAT);
  const std::string bytes = m.SerializeAsString();
  ModelOptions options;
  options.mode = GetParam();
  std::unique_ptr<Model> model;
  ASSERT_TRUE(Model::LoadFromMemory(bytes.data(), bytes.size(), options, &model).ok());
  HostTensor x(DT_BOOL, Shape({4}));
  const uint8_t in[4] = {2, 0, 255, 1};
  std::memcpy(x.mutable_data(), in, 4);
  std::vector<HostTensor> out;
  Status st = model->Run({x}, &out);
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_EQ(out.size(), 2u);
  const auto* y = static_cast<const uint8_t*>(out[0].data());
  EXPECT_EQ(std::vector<uint8_t>(y, y + 4), (std::vector<uint8_t>{0, 1, 0, 0}));
  const auto* z = out[1].data_as<float>();
  EXPECT_EQ(std::vector<float>(z, z + 4), (std::vector<float>{1, 0, 1, 1}));
}

INSTANTIATE_TEST_SUITE_P(Modes, BoolInputBytes, ::testing::Values("sink", "host"));

}  // namespace
}  // namespace ge
