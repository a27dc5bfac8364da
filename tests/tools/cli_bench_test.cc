// `ge bench`: --input NAME=FILE.npy as for `ge run` (errors name the input or file), --per-op
// tables, GFLOP/s next to the median. Runs the built `ge` binary; no timing is asserted.
#include <gtest/gtest.h>

#include "cli_util.h"

#include <cstdio>
#include <string>

namespace {

using ge::testing::kGe;
using ge::testing::kModels;

// Runs `ge bench <args>`; returns its output, *code its exit status.
std::string Bench(const std::string& args, int* code) { return ge::testing::Shell(kGe + " bench " + args, code); }

TEST(CliBench, InputFromNpyFile) {
  int code = -1;
  const std::string out =
      Bench(kModels + "mlp.onnx --runs 3 --warmup 1 --input input=" + kModels + "mlp_input.npy", &code);
  EXPECT_EQ(code, 0) << out;
  EXPECT_NE(out.find("per run (us): min"), std::string::npos) << out;
}

TEST(CliBench, InputErrorsNameTheInputOrFile) {
  int code = 0;
  std::string out = Bench(kModels + "mlp.onnx --runs 1 --input nope=" + kModels + "mlp_input.npy", &code);
  EXPECT_NE(code, 0);
  EXPECT_NE(out.find("--input nope: the model has no input named 'nope'"), std::string::npos) << out;
  code = 0;
  out = Bench(kModels + "mlp.onnx --runs 1 --input input=/nonexistent/x.npy", &code);
  EXPECT_NE(code, 0);
  EXPECT_NE(out.find("/nonexistent/x.npy"), std::string::npos) << out;
  code = 0;  // the wrong tensor for this model: the run's input check says so
  out = Bench(kModels + "mlp.onnx --runs 1 --input input=" + kModels + "small_cnn_input.npy", &code);
  EXPECT_NE(code, 0);
  EXPECT_NE(out.find("error:"), std::string::npos) << out;
}

TEST(CliBench, PerOpTablesAndGflops) {
  for (const char* mode : {"sink", "host"}) {
    int code = -1;
    const std::string out = Bench(kModels + "small_cnn.onnx --runs 3 --warmup 1 --per-op --mode " + mode, &code);
    EXPECT_EQ(code, 0) << out;
    EXPECT_NE(out.find("GFLOP/s at the median"), std::string::npos) << out;
    EXPECT_NE(out.find("per op type (device time per run, 3 profiled runs"), std::string::npos) << out;
    EXPECT_NE(out.find("slowest nodes:"), std::string::npos) << out;
    EXPECT_NE(out.find("Conv"), std::string::npos) << out;
  }
}

TEST(CliBench, LatencyPercentilesAndThroughput) {
  int code = -1;
  const std::string out = Bench(kModels + "mlp.onnx --runs 30 --warmup 2", &code);
  EXPECT_EQ(code, 0) << out;
  // The line bench/models.py parses keeps its start; p99 follows p90.
  EXPECT_NE(out.find("per run (us): min "), std::string::npos) << out;
  EXPECT_NE(out.find(" p99 "), std::string::npos) << out;
  EXPECT_NE(out.find("compile: "), std::string::npos) << out;
  EXPECT_NE(out.find("runs: 30  warmup: 2  concurrency: 1"), std::string::npos) << out;
  EXPECT_NE(out.find("throughput: "), std::string::npos) << out;
  EXPECT_NE(out.find("(30 runs in "), std::string::npos) << out;
}

TEST(CliBench, ConcurrencyRunsTheTotalAcrossThreads) {
  for (const char* mode : {"sink", "host"}) {
    int code = -1;
    const std::string out =
        Bench(kModels + "small_cnn.onnx --runs 40 --warmup 1 --concurrency 4 --mode " + std::string(mode), &code);
    EXPECT_EQ(code, 0) << out;
    EXPECT_NE(out.find("runs: 40  warmup: 1  concurrency: 4"), std::string::npos) << out;
    EXPECT_NE(out.find("on 4 threads"), std::string::npos) << out;
  }
}

TEST(CliBench, DurationRunsForAboutThatLong) {
  int code = -1;
  const std::string out = Bench(kModels + "mlp.onnx --duration 0.3 --warmup 1 --concurrency 2", &code);
  EXPECT_EQ(code, 0) << out;
  auto at = out.find(" runs in ");
  ASSERT_NE(at, std::string::npos) << out;
  const double secs = std::stod(out.substr(at + 9));
  EXPECT_GE(secs, 0.29) << out;
  EXPECT_LT(secs, 5.0) << out;
}

TEST(CliBench, ProgressBarOnRequest) {
  int code = -1;
  const std::string out = Bench(kModels + "mlp.onnx --duration 0.5 --warmup 0 --progress", &code);
  EXPECT_EQ(code, 0) << out;
  EXPECT_NE(out.find("100%"), std::string::npos) << out;
  EXPECT_NE(out.find("[####"), std::string::npos) << out;
}

TEST(CliBench, FlagErrorsAreClear) {
  int code = 0;
  std::string out = Bench(kModels + "mlp.onnx --runs 5 --duration 1", &code);
  EXPECT_NE(code, 0);
  EXPECT_NE(out.find("excludes"), std::string::npos) << out;
  code = 0;
  out = Bench(kModels + "mlp.onnx --concurrency 0", &code);
  EXPECT_NE(code, 0);
  EXPECT_NE(out.find("--concurrency"), std::string::npos) << out;
  code = 0;
  out = Bench(kModels + "mlp.onnx --duration -1", &code);
  EXPECT_NE(code, 0);
  EXPECT_NE(out.find("--duration"), std::string::npos) << out;
  code = 0;
  out = Bench(kModels + "mlp.onnx --no-such-flag", &code);
  EXPECT_NE(code, 0);
  EXPECT_NE(out.find("--no-such-flag"), std::string::npos) << out;
  code = 0;
  out = Bench("/nonexistent/model.onnx --runs 1", &code);
  EXPECT_NE(code, 0);
  EXPECT_NE(out.find("/nonexistent/model.onnx"), std::string::npos) << out;
}

}  // namespace
