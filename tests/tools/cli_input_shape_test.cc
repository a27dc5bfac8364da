// `ge run --input-shape` is parsed strictly: a dimension is a decimal integer >= 0 ("-5", "1.5",
// "1e3" and "0x10" are errors, not 1, 1, 1 and 0), names must be model inputs, and a shape
// whose byte size overflows is an error. Runs the built `ge` binary.
#include <gtest/gtest.h>

#include "cli_util.h"

#include <cstdio>
#include <string>

namespace {

using ge::testing::kGe;
const std::string kMlp = std::string(GE_SOURCE_DIR) + "/models/mlp.onnx";

// Runs `ge run mlp.onnx <args>`; returns its output, *code its exit status.
std::string RunGe(const std::string& args, int* code) {
  return ge::testing::Shell(kGe + " run " + kMlp + " " + args, code);
}

TEST(CliInputShape, RejectsWhatIsNotADimension) {
  for (const char* bad : {"-5", "1.5", "1e3", "0x10", "4,abc", ""}) {
    int code = 0;
    const std::string out = RunGe(std::string("--input-shape 'input=") + bad + "'", &code);
    EXPECT_NE(code, 0) << bad;
    EXPECT_NE(out.find("--input-shape input: '" + std::string(bad) + "' is not a list of dimensions (integers >= 0)"),
              std::string::npos)
        << bad << ": " << out;
  }
}

TEST(CliInputShape, RejectsUnknownNames) {
  int code = 0;
  const std::string out = RunGe("--input-shape nope=4,64", &code);
  EXPECT_NE(code, 0);
  EXPECT_NE(out.find("input shape given for 'nope': the model has no such input (inputs: input)"), std::string::npos)
      << out;
}

TEST(CliInputShape, RejectsAnOverflowingShape) {
  int code = 0;
  const std::string out = RunGe("--input-shape input=4611686018427387905", &code);
  EXPECT_NE(code, 0);
  EXPECT_NE(out.find("input 'input': shape [4611686018427387905] is too large (its byte size overflows 64 bits)"),
            std::string::npos)
      << out;
}

TEST(CliInputShape, AcceptsTheDeclaredShape) {
  int code = -1;
  const std::string out = RunGe("--input-shape input=4,64", &code);
  EXPECT_EQ(code, 0) << out;
}

}  // namespace
