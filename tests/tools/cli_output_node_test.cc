// `--output-node NAME[:k]` on `ge bench` and `ge compile` (as on `ge run`): the named tensors
// become the model's outputs; a name the graph lacks is an error naming it, and a compiled .gem's
// outputs cannot be changed at load.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>

#include "cli_util.h"

namespace {

using ge::testing::kGe;
using ge::testing::Shell;

const std::string kMlp = std::string(GE_SOURCE_DIR) + "/tests/tf/data/mlp_00/frozen_model.pb";

std::string Temp(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("ge_cli_output_node_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

// What `ge run` reports of output `name` ("output K: name shape=... dtype=... checksum=..."), or "".
std::string OutputLine(const std::string& out, const std::string& name) {
  size_t p = out.find(": " + name + " shape=");
  if (p == std::string::npos) return "";
  return out.substr(p, out.find('\n', p) - p);
}

TEST(CliOutputNode, BenchTimesTheNamedOutputs) {
  int code = -1;
  std::string out = Shell(kGe + " bench " + kMlp + " --runs 3 --warmup 0 --output-node l0Out", &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("runs: 3"), std::string::npos) << out;
  out = Shell(kGe + " bench " + kMlp + " --runs 3 --output-node no_such_node", &code);
  EXPECT_EQ(code, 1) << out;
  EXPECT_NE(out.find("no_such_node"), std::string::npos) << out;
}

TEST(CliOutputNode, CompileFixesTheOutputsOfTheGem) {
  const std::string gem = Temp("mlp.gem");
  int code = -1;
  std::string out =
      Shell(kGe + " compile " + kMlp + " -o " + gem + " --output-node l0Out --output-node MatMul_1", &code);
  ASSERT_EQ(code, 0) << out;
  const std::string from_gem = Shell(kGe + " run " + gem, &code);
  ASSERT_EQ(code, 0) << from_gem;
  const std::string from_pb = Shell(kGe + " run " + kMlp + " --output-node l0Out --output-node MatMul_1", &code);
  ASSERT_EQ(code, 0) << from_pb;
  for (const char* name : {"l0Out", "MatMul_1"}) {
    EXPECT_NE(OutputLine(from_gem, name), "") << from_gem;
    EXPECT_EQ(OutputLine(from_gem, name), OutputLine(from_pb, name));
  }
  EXPECT_EQ(OutputLine(from_gem, "output"), "") << from_gem;  // the graph's own output is not one
  out = Shell(kGe + " run " + gem + " --output-node output", &code);
  EXPECT_EQ(code, 1) << out;
  EXPECT_NE(out.find("fixed by `ge compile --output-node`"), std::string::npos) << out;
  out = Shell(kGe + " compile " + kMlp + " -o " + gem + " --output-node l9", &code);
  EXPECT_EQ(code, 1) << out;
  EXPECT_NE(out.find("'l9'"), std::string::npos) << out;
  std::filesystem::remove(gem);
}

}  // namespace
