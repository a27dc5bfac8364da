// `ge run/bench --profile TRACE.json`: the trace is valid Chrome trace-event JSON with the host
// track (compile steps, per-node host steps), model stream and core tracks (tasks with their op
// names and shapes), start times monotonic per track and properly nested (see
// scripts/check_trace.py for the exact rules). Runs the built `ge` binary.
#include <gtest/gtest.h>

#include "cli_util.h"

#include <unistd.h>

#include <cstdio>
#include <string>

namespace {

using ge::testing::kGe;
using ge::testing::kModels;
const std::string kCheck = "/usr/bin/python3 " + std::string(GE_SOURCE_DIR) + "/tests/tools/scripts/check_trace.py ";

std::string Sh(const std::string& cmd, int* code) { return ge::testing::Shell(cmd, code); }

std::string TempPath(const std::string& name) {
  return std::string(GE_BINARY_DIR) + "/tools_test_" + std::to_string(getpid()) + "_" + name;
}

TEST(CliProfile, RunSinkTraceHasHostStreamAndCoreTracks) {
  const std::string trace = TempPath("sink.json");
  int code = -1;
  std::string out = Sh(kGe + " run " + kModels + "small_cnn.onnx --mode sink --profile " + trace, &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("profile: " + trace), std::string::npos) << out;
  out = Sh(kCheck + trace +
               " --nesting --track host --track 'stream ' --track 'core ' --expect parse --expect compile"
               " --expect optimize --expect 'static inference' --expect dead-code-elimination --expect placement"
               " --expect partition --expect 'memory plan' --expect 'task generation' --expect load --expect FusedConv"
               " --arg FusedConv.node --arg FusedConv.inputs --arg FusedConv.op",
           &code);
  EXPECT_EQ(code, 0) << out;
  std::remove(trace.c_str());
}

TEST(CliProfile, RunHostTraceHasPerNodeSteps) {
  const std::string trace = TempPath("host.json");
  int code = -1;
  std::string out = Sh(kGe + " run " + kModels + "mlp.onnx --mode host --profile " + trace, &code);
  ASSERT_EQ(code, 0) << out;
  out = Sh(kCheck + trace +
               " --nesting --track host --track 'host stream' --track 'core ' --expect 'infer shape'"
               " --expect tiling --expect allocate --expect launch --expect 'host plan' --arg launch.node"
               " --arg launch.inputs",
           &code);
  EXPECT_EQ(code, 0) << out;
  std::remove(trace.c_str());
}

TEST(CliProfile, BenchConcurrentTraceIsValid) {
  const std::string trace = TempPath("bench.json");
  int code = -1;
  std::string out =
      Sh(kGe + " bench " + kModels + "mlp.onnx --runs 20 --warmup 1 --concurrency 2 --profile " + trace, &code);
  ASSERT_EQ(code, 0) << out;
  // Two host threads run concurrently: each has its own host track; tasks of concurrent runs
  // may share a stream track, so only monotonic start times are checked.
  out = Sh(kCheck + trace + " --track host --track 'core ' --expect parse --expect load", &code);
  EXPECT_EQ(code, 0) << out;
  std::remove(trace.c_str());
}

TEST(CliProfile, UnwritableTraceIsAClearError) {
  int code = 0;
  std::string out = Sh(kGe + " run " + kModels + "mlp.onnx --profile /nonexistent/dir/t.json", &code);
  EXPECT_NE(code, 0);
  EXPECT_NE(out.find("error: --profile: cannot write '/nonexistent/dir/t.json'"), std::string::npos) << out;
  code = 0;
  out = Sh(kGe + " bench " + kModels + "mlp.onnx --runs 1 --profile /nonexistent/dir/t.json", &code);
  EXPECT_NE(code, 0);
  EXPECT_NE(out.find("cannot write"), std::string::npos) << out;
  code = 0;
  out = Sh(kGe + " run " + kModels + "mlp.onnx --profile", &code);  // the file is missing
  EXPECT_NE(code, 0);
  EXPECT_NE(out.find("--profile"), std::string::npos) << out;
}

}  // namespace
