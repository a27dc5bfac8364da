// `ge compile` and running a .gem from the command line: the .gem gives the .onnx's outputs
// byte for byte; a missing model, a corrupted .gem and an option the .gem contradicts are errors
// naming the file.
#include <gtest/gtest.h>

#include "cli_util.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

using ge::testing::Shell;

using ge::testing::kGe;
using ge::testing::kModels;

std::string Temp(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("ge_cli_compile_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

std::string Slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

TEST(CliCompile, GemRunsLikeTheOnnx) {
  const std::string gem = Temp("small_cnn.gem"), a = Temp("a.npy"), b = Temp("b.npy");
  int code = -1;
  std::string out = Shell(kGe + " compile " + kModels + "small_cnn.onnx -o " + gem + " --mode sink", &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("compiled "), std::string::npos) << out;
  const std::string input = " --input input=" + kModels + "small_cnn_input.npy --output ";
  out = Shell(kGe + " run " + gem + input + a + " --report", &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("segments: sink[9 nodes]"), std::string::npos) << out;
  out = Shell(kGe + " run " + kModels + "small_cnn.onnx" + input + b, &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_FALSE(Slurp(a).empty());
  EXPECT_EQ(Slurp(a), Slurp(b));
  // The mode is the .gem's: asking for another one at run time is an error.
  out = Shell(kGe + " run " + gem + " --mode host", &code);
  EXPECT_EQ(code, 1) << out;
  EXPECT_NE(out.find("compiled offline with mode sink"), std::string::npos) << out;
  // One flipped byte: the checksum names the file.
  std::string bytes = Slurp(gem);
  bytes[bytes.size() / 2] ^= 0x20;
  std::ofstream(gem, std::ios::binary | std::ios::trunc) << bytes;
  out = Shell(kGe + " run " + gem, &code);
  EXPECT_EQ(code, 1) << out;
  EXPECT_NE(out.find(gem + ": not a valid .gem model: checksum mismatch"), std::string::npos) << out;
  for (const auto& p : {gem, a, b}) std::filesystem::remove(p);
}

TEST(CliCompile, MissingModelAndUnwritableOutputAreErrors) {
  int code = -1;
  std::string out = Shell(kGe + " compile /nonexistent/model.onnx -o " + Temp("x.gem"), &code);
  EXPECT_EQ(code, 1) << out;
  EXPECT_NE(out.find("/nonexistent/model.onnx"), std::string::npos) << out;
  out = Shell(kGe + " compile " + kModels + "mlp.onnx -o /nonexistent/dir/x.gem", &code);
  EXPECT_EQ(code, 1) << out;
  EXPECT_NE(out.find("/nonexistent/dir/x.gem: cannot open for writing"), std::string::npos) << out;
  out = Shell(kGe + " compile " + kModels + "mlp.onnx", &code);  // -o is required
  EXPECT_NE(code, 0) << out;
}

}  // namespace
