// `ge run` robustness: --timeout stops a model whose Loop never ends (exit 124, an error line
// naming the Loop) instead of hanging; --output to a full device (/dev/full) is an error, not exit 0.
#include <gtest/gtest.h>

#include "cli_util.h"

#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

#include "onnx/onnx_pb.h"

namespace {

using ge::testing::Shell;

using ge::testing::kGe;
const std::string kMlp = std::string(GE_SOURCE_DIR) + "/models/mlp.onnx";

void ValueInfo(onnx::ValueInfoProto* v, const std::string& name, int elem, std::vector<int64_t> dims) {
  v->set_name(name);
  auto* tt = v->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(elem);
  tt->mutable_shape();
  for (int64_t d : dims) tt->mutable_shape()->add_dim()->set_dim_value(d);
}

// y = Loop(M absent, cond = true, x) whose body passes cond and x through: it never ends.
std::string WriteInfiniteLoopModel() {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(17);
  auto* g = m.mutable_graph();
  g->set_name("forever");
  ValueInfo(g->add_input(), "x", onnx::TensorProto::FLOAT, {1});
  ValueInfo(g->add_output(), "y", onnx::TensorProto::FLOAT, {1});
  auto* cond = g->add_initializer();
  cond->set_name("cond");
  cond->set_data_type(onnx::TensorProto::BOOL);
  cond->add_int32_data(1);
  auto* loop = g->add_node();
  loop->set_op_type("Loop");
  loop->set_name("forever");
  loop->add_input("");
  loop->add_input("cond");
  loop->add_input("x");
  loop->add_output("y");
  auto* attr = loop->add_attribute();
  attr->set_name("body");
  attr->set_type(onnx::AttributeProto::GRAPH);
  auto* body = attr->mutable_g();
  body->set_name("body");
  ValueInfo(body->add_input(), "i", onnx::TensorProto::INT64, {});
  ValueInfo(body->add_input(), "c_in", onnx::TensorProto::BOOL, {});
  ValueInfo(body->add_input(), "x_in", onnx::TensorProto::FLOAT, {1});
  ValueInfo(body->add_output(), "c_out", onnx::TensorProto::BOOL, {});
  ValueInfo(body->add_output(), "x_out", onnx::TensorProto::FLOAT, {1});
  for (auto [in, out] : {std::pair{"c_in", "c_out"}, std::pair{"x_in", "x_out"}}) {
    auto* n = body->add_node();
    n->set_op_type("Identity");
    n->add_input(in);
    n->add_output(out);
  }
  const std::string path = ::testing::TempDir() + "/ge_infinite_loop.onnx";
  std::ofstream(path, std::ios::binary) << m.SerializeAsString();
  return path;
}

TEST(CliRobustness, TimeoutEndsAnInfiniteLoop) {
  const std::string model = WriteInfiniteLoopModel();
  const auto start = std::chrono::steady_clock::now();
  int code = 0;
  const std::string out = Shell(kGe + " run " + model + " --timeout 1", &code);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(code, 124) << out;
  EXPECT_NE(out.find("timed out after 1 s"), std::string::npos) << out;
  // Stopped by the run itself (RunOptions::timeout_s), not the watchdog: the error names the Loop.
  EXPECT_NE(out.find("node 'forever' (Loop)"), std::string::npos) << out;
  EXPECT_LT(s, 30.0);
}

TEST(CliRobustness, TimeoutNotReachedChangesNothing) {
  int code = 0;
  const std::string out = Shell(kGe + " run " + kMlp + " --timeout 600", &code);
  EXPECT_EQ(code, 0) << out;
  EXPECT_NE(out.find("output 0"), std::string::npos) << out;
}

TEST(CliRobustness, OutputToAFullDeviceFails) {
  int code = 0;
  const std::string out = Shell(kGe + " run " + kMlp + " --output /dev/full", &code);
  EXPECT_NE(code, 0) << out;
  EXPECT_NE(out.find("write failed"), std::string::npos) << out;
}

}  // namespace
