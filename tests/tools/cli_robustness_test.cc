// `ge run` robustness: --timeout stops a model whose Loop never ends (exit 124, an error line
// naming the Loop) instead of hanging; --output to a full device (/dev/full) is an error, not exit 0.
#include <gtest/gtest.h>

#include "cli_util.h"

#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

#include "onnx_test_models.h"

namespace {

using ge::testing::Shell;

using ge::testing::kGe;
const std::string kMlp = std::string(GE_SOURCE_DIR) + "/models/mlp.onnx";

// The shared never-ending Loop model (tests/common), written to a file for `ge run`.
std::string WriteInfiniteLoopModel() {
  const std::string path = ::testing::TempDir() + "/ge_infinite_loop.onnx";
  std::ofstream(path, std::ios::binary) << ge::testing::InfiniteLoopModel();
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
