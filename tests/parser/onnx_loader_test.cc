// Models a user did not write: the loader answers each with a one-line error instead of a crash
// (the version converter on a dangling graph output, exceptions from external-data fields),
// checks data sizes before allocating, and keeps external data inside the model directory.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <filesystem>
#include <fstream>

#include "ge/onnx_loader.h"

namespace ge {
namespace {

namespace fs = std::filesystem;

// y = x + w with w[2] an initializer; `opset` of ai.onnx.
onnx::ModelProto AddModel(int64_t opset) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(opset);
  auto* g = m.mutable_graph();
  g->set_name("g");
  auto* x = g->add_input();
  x->set_name("x");
  x->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  x->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(2);
  auto* w = g->add_initializer();
  w->set_name("w");
  w->set_data_type(onnx::TensorProto::FLOAT);
  w->add_dims(2);
  w->add_float_data(1);
  w->add_float_data(2);
  auto* n = g->add_node();
  n->set_name("add");
  n->set_op_type("Add");
  n->add_input("x");
  n->add_input("w");
  n->add_output("y");
  auto* y = g->add_output();
  y->set_name("y");
  y->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  y->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(2);
  return m;
}

// A fresh directory under the test temp dir.
fs::path Dir(const std::string& name) {
  fs::path d = fs::path(::testing::TempDir()) / ("loader_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::string LoadError(const onnx::ModelProto& m, const fs::path& dir) {
  const fs::path path = dir / "model.onnx";
  std::ofstream(path, std::ios::binary) << m.SerializeAsString();
  std::shared_ptr<Graph> g;
  Status st = LoadOnnxModel(path.string(), &g);
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.message().find('\n'), std::string::npos) << st.message();
  const std::string prefix = path.string() + ": ";
  return st.message().rfind(prefix, 0) == 0 ? st.message().substr(prefix.size()) : st.message();
}

TEST(OnnxLoader, ValidModelLoads) {
  auto m = AddModel(13);  // goes through the version converter
  const fs::path dir = Dir("ok");
  std::ofstream(dir / "model.onnx", std::ios::binary) << m.SerializeAsString();
  std::shared_ptr<Graph> g;
  Status st = LoadOnnxModel((dir / "model.onnx").string(), &g);
  EXPECT_TRUE(st.ok()) << st.message();
}

TEST(OnnxLoader, DanglingGraphOutputBeforeTheVersionConverter) {
  auto m = AddModel(13);
  m.mutable_graph()->mutable_output(0)->set_name("nobody");
  EXPECT_EQ(LoadError(m, Dir("dangling")),
            "graph output 'nobody' is not produced by any node, graph input or initializer");
}

TEST(OnnxLoader, InitializerWithTooFewValues) {
  auto m = AddModel(17);
  m.mutable_graph()->mutable_initializer(0)->mutable_float_data()->RemoveLast();
  EXPECT_EQ(LoadError(m, Dir("few")), "initializer 'w': tensor 'w': has 1 values, shape [2] needs 2");
}

TEST(OnnxLoader, HugeDeclaredTensorWithLittleDataAllocatesNothing) {
  auto m = AddModel(17);
  auto* w = m.mutable_graph()->mutable_initializer(0);
  w->clear_float_data();
  w->set_dims(0, int64_t{1} << 31);
  w->set_raw_data(std::string(4, '\0'));
  EXPECT_EQ(LoadError(m, Dir("huge")),
            "initializer 'w': tensor 'w': raw_data has 4 bytes, shape [2147483648] of float32 needs 8589934592");
}

// w's data in file `location` with the given offset / length fields.
onnx::ModelProto External(const std::string& location, const std::string& offset, const std::string& length) {
  auto m = AddModel(17);
  auto* w = m.mutable_graph()->mutable_initializer(0);
  w->clear_float_data();
  w->set_data_location(onnx::TensorProto::EXTERNAL);
  auto add = [&](const char* k, const std::string& v) {
    if (v.empty()) return;
    auto* e = w->add_external_data();
    e->set_key(k);
    e->set_value(v);
  };
  add("location", location);
  add("offset", offset);
  add("length", length);
  return m;
}

TEST(OnnxLoader, ExternalDataFieldsAndFiles) {
  const fs::path dir = Dir("external");
  std::ofstream(dir / "w.bin", std::ios::binary) << std::string(8, '\0');
  std::shared_ptr<Graph> g;
  {  // valid
    const fs::path path = dir / "model.onnx";
    std::ofstream(path, std::ios::binary) << External("w.bin", "0", "8").SerializeAsString();
    Status st = LoadOnnxModel(path.string(), &g);
    EXPECT_TRUE(st.ok()) << st.message();
  }
  EXPECT_EQ(LoadError(External("w.bin", "abc", ""), dir),
            "initializer 'w': tensor 'w': external data offset 'abc' is not an integer >= 0");
  EXPECT_EQ(LoadError(External("w.bin", "16", ""), dir),
            "initializer 'w': tensor 'w': external data [16, +-8) is past the end of '" + (dir / "w.bin").string() +
                "' (8 bytes)");
  EXPECT_EQ(
      LoadError(External("w.bin", "4611686018427387904", "4611686018427387904"), dir),
      "initializer 'w': tensor 'w': external data [4611686018427387904, +4611686018427387904) is past the end of '" +
          (dir / "w.bin").string() + "' (8 bytes)");
  fs::create_directories(dir / "sub");
  EXPECT_EQ(LoadError(External("sub", "", ""), dir),
            "initializer 'w': tensor 'w': external data file '" + (dir / "sub").string() + "' is not a regular file");
  const fs::path outside = Dir("outside") / "secret.bin";
  std::ofstream(outside, std::ios::binary) << std::string(8, 'x');
  fs::create_symlink(outside, dir / "link.bin");
  EXPECT_EQ(LoadError(External("link.bin", "", ""), dir), "initializer 'w': tensor 'w': external data file '" +
                                                              (dir / "link.bin").string() +
                                                              "' resolves outside the model directory");
}

TEST(OnnxLoader, DirectoryAsTheModel) {
  const fs::path dir = Dir("isdir");
  std::shared_ptr<Graph> g;
  Status st = LoadOnnxModel(dir.string(), &g);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), dir.string() + ": is a directory, not a model file");
}

}  // namespace
}  // namespace ge
