// Model::Run with RunOptions: a time limit and a cancellation flag stop a run whose Loop never
// ends (in host and auto mode) with kDeadlineExceeded / kCancelled naming the Loop, a flag set
// before the run stops a sink model before it starts, and a run within its limits is unchanged.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <thread>

#include "ge/model.h"
#include "onnx_test_models.h"

namespace {

using ge::HostTensor;
using ge::Model;
using ge::ModelOptions;
using ge::RunOptions;
using ge::Status;

const std::string kModels = std::string(GE_SOURCE_DIR) + "/models/";

std::unique_ptr<Model> LoadLoop(const std::string& mode) {
  const std::string bytes = ge::testing::InfiniteLoopModel();
  ModelOptions options;
  options.mode = mode;
  std::unique_ptr<Model> model;
  Status st = Model::LoadFromMemory(bytes.data(), bytes.size(), options, &model, "forever.onnx");
  EXPECT_TRUE(st.ok()) << st.message();
  return model;
}

std::vector<HostTensor> OneFloat() {
  HostTensor x(ge::DT_FLOAT, ge::Shape({1}));
  *x.mutable_data_as<float>() = 0.f;
  return {x};
}

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

class InfiniteLoop : public ::testing::TestWithParam<const char*> {};

TEST_P(InfiniteLoop, TimeLimitStopsIt) {
  auto model = LoadLoop(GetParam());
  ASSERT_TRUE(model);
  std::vector<HostTensor> out;
  RunOptions ro;
  ro.timeout_s = 0.2;
  const auto start = std::chrono::steady_clock::now();
  Status st = model->Run(OneFloat(), &out, ro);
  const double s = Seconds(start);
  EXPECT_EQ(st.code(), Status::kDeadlineExceeded) << st.message();
  EXPECT_NE(st.message().find("time limit of 0.2 s"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("node 'forever' (Loop)"), std::string::npos) << st.message();
  EXPECT_GE(s, 0.2);
  EXPECT_LT(s, 20.0);
  // The model is usable afterwards: the next run stops the same way.
  EXPECT_EQ(model->Run(OneFloat(), &out, ro).code(), Status::kDeadlineExceeded);
}

TEST_P(InfiniteLoop, CancelFromAnotherThreadStopsIt) {
  auto model = LoadLoop(GetParam());
  ASSERT_TRUE(model);
  std::atomic<bool> cancel{false};
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    cancel.store(true);
  });
  std::vector<HostTensor> out;
  RunOptions ro;
  ro.cancel = &cancel;
  Status st = model->Run(OneFloat(), &out, ro);
  canceller.join();
  EXPECT_EQ(st.code(), Status::kCancelled) << st.message();
  EXPECT_NE(st.message().find("run cancelled"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("node 'forever' (Loop)"), std::string::npos) << st.message();
}

INSTANTIATE_TEST_SUITE_P(Modes, InfiniteLoop, ::testing::Values("host", "auto"));

// A sink model with the flag already set does not start; unset, the same run gives the same
// outputs as a run without options.
TEST(RunOptions, CancelledBeforeASinkRunStarts) {
  std::unique_ptr<Model> model;
  ModelOptions options;
  options.mode = "sink";
  ASSERT_TRUE(Model::Load(kModels + "mlp.onnx", options, &model).ok());
  HostTensor x(ge::DT_FLOAT, ge::Shape({4, 64}));
  for (int i = 0; i < 4 * 64; ++i) x.mutable_data_as<float>()[i] = 0.01f * static_cast<float>(i % 97);
  std::atomic<bool> cancel{true};
  RunOptions ro;
  ro.cancel = &cancel;
  std::vector<HostTensor> out;
  Status st = model->Run({x}, &out, ro);
  EXPECT_EQ(st.code(), Status::kCancelled) << st.message();
  EXPECT_NE(st.message().find("before the sink segment"), std::string::npos) << st.message();

  cancel.store(false);
  ro.timeout_s = 600;
  std::vector<HostTensor> plain;
  ASSERT_TRUE(model->Run({x}, &out, ro).ok());
  ASSERT_TRUE(model->Run({x}, &plain).ok());
  ASSERT_EQ(out.size(), plain.size());
  ASSERT_EQ(out[0].NumBytes(), plain[0].NumBytes());
  EXPECT_EQ(std::memcmp(out[0].data(), plain[0].data(), out[0].NumBytes()), 0);
}

TEST(RunOptions, BadTimeoutIsAnError) {
  std::unique_ptr<Model> model;
  ASSERT_TRUE(Model::Load(kModels + "mlp.onnx", {}, &model).ok());
  std::vector<HostTensor> out;
  for (double t : {-1.0, std::numeric_limits<double>::quiet_NaN(), 1e12}) {
    RunOptions ro;
    ro.timeout_s = t;
    Status st = model->Run({}, &out, ro);
    EXPECT_EQ(st.code(), Status::kInvalidArgument) << t;
    EXPECT_NE(st.message().find("RunOptions::timeout_s"), std::string::npos) << st.message();
  }
}

}  // namespace
