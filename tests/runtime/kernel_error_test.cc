// Kernel data errors (aclrtReportKernelError): a kernel's report fails its stream at the next
// synchronize, or the model execution that ran it, with ACL_ERROR_RT_KERNEL_DATA and a message
// "<launch name>: <message>"; the first report wins; the next run is clean again.
#include <gtest/gtest.h>

#include <string>

#include "acl/acl_rt.h"
#include "runtime_test_util.h"

namespace ge::rt::testing {
namespace {

// Every block reports "block <i>" when tiling says so; otherwise writes 1 to out[blockIdx].
void MaybeFail(const aclrtKernelArgs* args) {
  const auto fail = TilingAs<int32_t>(args);
  if (fail) {
    const std::string msg = "block " + std::to_string(args->blockIdx);
    aclrtReportKernelError(args, msg.c_str());
    return;
  }
  static_cast<int32_t*>(args->addrs[0])[args->blockIdx] = 1;
}

class KernelError : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(aclrtMalloc(&buf_, 64 * sizeof(int32_t), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS); }
  void TearDown() override { EXPECT_EQ(aclrtFree(buf_), ACL_SUCCESS); }
  void* buf_ = nullptr;
};

TEST_F(KernelError, StreamReportsAtSynchronizeWithTheLaunchName) {
  ScopedStream s;
  int32_t fail = 1, ok = 0;
  ASSERT_EQ(aclrtLaunchKernelWithName("node 'g' (Gather)", MaybeFail, 1, &buf_, 1, &fail, sizeof(fail), s.get()),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernelWithName("later", MaybeFail, 1, &buf_, 1, &fail, sizeof(fail), s.get()), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s.get()), ACL_ERROR_RT_KERNEL_DATA);
  EXPECT_STREQ(aclGetRecentErrMsg(), "node 'g' (Gather): block 0");  // the first report
  ASSERT_EQ(aclrtLaunchKernel(MaybeFail, 1, &buf_, 1, &ok, sizeof(ok), s.get()), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s.get()), ACL_SUCCESS);  // cleared by the synchronize
  ASSERT_EQ(aclrtLaunchKernel(MaybeFail, 1, &buf_, 1, &fail, sizeof(fail), s.get()), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s.get()), ACL_ERROR_RT_KERNEL_DATA);
  EXPECT_STREQ(aclGetRecentErrMsg(), "block 0");  // an unnamed launch: the message alone
}

TEST_F(KernelError, ConcurrentBlocksOneReportWins) {
  ScopedStream s;
  int32_t fail = 1;
  for (int rep = 0; rep < 50; ++rep) {
    ASSERT_EQ(aclrtLaunchKernelWithName("k", MaybeFail, 16, &buf_, 1, &fail, sizeof(fail), s.get()), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(s.get()), ACL_ERROR_RT_KERNEL_DATA);
    const std::string msg = aclGetRecentErrMsg();
    EXPECT_EQ(msg.rfind("k: block ", 0), 0u) << msg;
  }
}

TEST_F(KernelError, ModelExecutionFailsNamingTheTaskThenRunsCleanly) {
  for (uint32_t streams : {1u, 2u}) {
    aclmdlRI model = nullptr;
    ASSERT_EQ(aclmdlRICreate(streams, 0, &model), ACL_SUCCESS);
    int32_t fail = 1;
    ASSERT_EQ(aclmdlRIAddKernelTaskWithName(model, streams - 1, "node 'bad' (ScatterND)", MaybeFail, 4, &buf_, 1, &fail,
                                            sizeof(fail)),
              ACL_SUCCESS);
    ASSERT_EQ(aclmdlRILoadComplete(model), ACL_SUCCESS);
    for (int rep = 0; rep < 3; ++rep) {
      EXPECT_EQ(aclmdlRIExecute(model, -1), ACL_ERROR_RT_KERNEL_DATA);
      EXPECT_EQ(std::string(aclGetRecentErrMsg()).rfind("node 'bad' (ScatterND): block ", 0), 0u)
          << aclGetRecentErrMsg();
    }
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICreate(streams, 0, &model), ACL_SUCCESS);
    int32_t ok = 0;
    ASSERT_EQ(aclmdlRIAddKernelTask(model, 0, MaybeFail, 4, &buf_, 1, &ok, sizeof(ok)), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRILoadComplete(model), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIExecute(model, -1), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  }
}

TEST_F(KernelError, ModelOnAStreamFailsTheStream) {
  ScopedStream s;
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICreate(1, 0, &model), ACL_SUCCESS);
  int32_t fail = 1;
  ASSERT_EQ(aclmdlRIAddKernelTaskWithName(model, 0, "t", MaybeFail, 1, &buf_, 1, &fail, sizeof(fail)), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRILoadComplete(model), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIExecuteAsync(model, s.get()), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s.get()), ACL_ERROR_RT_KERNEL_DATA);
  EXPECT_STREQ(aclGetRecentErrMsg(), "t: block 0");
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

}  // namespace
}  // namespace ge::rt::testing
