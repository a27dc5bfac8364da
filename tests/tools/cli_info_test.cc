// `ge info MODEL` and `ge dump MODEL --format dot|svg|json [-o FILE]`: what the compiler made of a
// model, and its drawing. Runs the built `ge` binary (test models made by
// scripts/make_test_models.py with /usr/bin/python3's onnx).
#include <gtest/gtest.h>

#include "cli_util.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace {

using ge::testing::kGe;
using ge::testing::kModels;
const std::string kScripts = std::string(GE_SOURCE_DIR) + "/tests/tools/scripts/";

std::string Sh(const std::string& cmd, int* code) { return ge::testing::Shell(cmd, code); }

std::string Read(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

class CliInfo : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::string(GE_BINARY_DIR) + "/tools_info_test_" + std::to_string(getpid());
    std::string cmd = "mkdir -p " + dir_ + " && /usr/bin/python3 " + kScripts + "make_test_models.py " + dir_;
    int code = -1;
    std::string out = Sh(cmd, &code);
    ASSERT_EQ(code, 0) << out;
  }
  static void TearDownTestSuite() { std::system(("rm -rf " + dir_).c_str()); }
  static std::string dir_;
};
std::string CliInfo::dir_;

TEST_F(CliInfo, SinkModel) {
  int code = -1;
  const std::string out = Sh(kGe + " info " + kModels + "small_cnn.onnx", &code);
  ASSERT_EQ(code, 0) << out;
  for (const char* want : {"mode: sink", "inputs:\n  input: float32[", "outputs:\n", "optimizer: -O2", "ops before (",
                           "ops after  (", "Conv", "segments: sink[", "segment 0: sink, ", "kernel tasks",
                           "stream 0: ", "fallback decisions: none", "memory plan: naive ", "lower bound ", "arena "})
    EXPECT_NE(out.find(want), std::string::npos) << want << "\n" << out;
}

TEST_F(CliInfo, MixedModelSaysWhyNodesAreOnTheHost) {
  int code = -1;
  std::string out = Sh(kGe + " info " + dir_ + "/mixed.onnx", &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("mode: mixed"), std::string::npos) << out;
  EXPECT_NE(out.find("segments: sink[1 node] -> host[1 node]"), std::string::npos) << out;
  EXPECT_NE(out.find("segment 1: host, 1 nodes; not sunk because:"), std::string::npos) << out;
  EXPECT_NE(out.find("dynamic shape: 1 node(s): nonzero (NonZero)"), std::string::npos) << out;
  out = Sh(kGe + " info " + kModels + "mlp.onnx --mode host", &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("--mode host: "), std::string::npos) << out;
  EXPECT_NE(out.find("memory plan: no sink segment"), std::string::npos) << out;
}

TEST_F(CliInfo, DumpDotAndJson) {
  int code = -1;
  std::string out = Sh(kGe + " dump " + dir_ + "/mixed.onnx", &code);  // dot on stdout by default
  ASSERT_EQ(code, 0) << out;
  EXPECT_EQ(out.rfind("digraph ge {", 0), 0u) << out;
  EXPECT_NE(out.find("subgraph cluster_0"), std::string::npos) << out;
  EXPECT_NE(out.find("segment 1: host"), std::string::npos) << out;
  EXPECT_NE(out.find("stream 0"), std::string::npos) << out;
  EXPECT_NE(out.find("->"), std::string::npos) << out;
  const std::string json = dir_ + "/mixed.json";
  out = Sh(kGe + " dump " + dir_ + "/mixed.onnx --format json -o " + json, &code);
  ASSERT_EQ(code, 0) << out;
  out = Sh("/usr/bin/python3 -c \"import json,sys; d=json.load(open('" + json +
               "')); n={x['name']:x for x in d['nodes']}; "
               "assert n['relu']['placement']=='sink' and n['relu']['stream']==0, n; "
               "assert n['nonzero']['segment']==1 and n['nonzero']['reason']=='dynamic shape', n; "
               "assert [s['kind'] for s in d['segments']]==['sink','host']; "
               "assert d['inputs'][0]['name']=='x'; print('ok')\"",
           &code);
  EXPECT_EQ(code, 0) << out;
}

TEST_F(CliInfo, DumpSvg) {
  int code = -1;
  if (Sh("which dot", &code).empty() || code != 0) GTEST_SKIP() << "graphviz's dot is not installed";
  const std::string svg = dir_ + "/cnn.svg";
  std::string out = Sh(kGe + " dump " + kModels + "small_cnn.onnx --format svg -o " + svg, &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(Read(svg).find("<svg"), std::string::npos);
}

TEST_F(CliInfo, Errors) {
  int code = 0;
  // No dot on PATH: a clear message that says what to install.
  std::string out = Sh("PATH=/nonexistent " + kGe + " dump " + kModels + "mlp.onnx --format svg", &code);
  EXPECT_NE(code, 0);
  EXPECT_NE(out.find("needs Graphviz's 'dot' on PATH"), std::string::npos) << out;
  code = 0;
  out = Sh(kGe + " dump " + kModels + "mlp.onnx --format png", &code);
  EXPECT_NE(code, 0);
  EXPECT_NE(out.find("--format"), std::string::npos) << out;
  code = 0;
  out = Sh(kGe + " dump " + kModels + "mlp.onnx -o /nonexistent/dir/g.dot", &code);
  EXPECT_NE(code, 0);
  EXPECT_NE(out.find("error: -o: cannot write '/nonexistent/dir/g.dot'"), std::string::npos) << out;
  for (const char* cmd : {" info ", " dump "}) {
    code = 0;
    out = Sh(kGe + cmd + "/nonexistent/m.onnx", &code);
    EXPECT_NE(code, 0);
    EXPECT_NE(out.find("error: "), std::string::npos) << out;
    EXPECT_NE(out.find("/nonexistent/m.onnx"), std::string::npos) << out;
    code = 0;
    out = Sh(kGe + cmd + kModels + "mlp_input.npy", &code);  // not an ONNX model
    EXPECT_NE(code, 0);
    EXPECT_NE(out.find("error: "), std::string::npos) << out;
    code = 0;
    out = Sh(kGe + cmd + kModels + "mlp.onnx --bogus", &code);
    EXPECT_NE(code, 0);
    EXPECT_NE(out.find("--bogus"), std::string::npos) << out;
  }
}

}  // namespace
