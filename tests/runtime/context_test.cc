// aclrt*Context: create/destroy, the current context per thread, the default context, misuse.
#include <gtest/gtest.h>

#include <thread>

#include "acl/acl_rt.h"

namespace {

TEST(RuntimeContext, CurrentContextPerThread) {
  aclrtContext dflt = nullptr, cur = nullptr, ctx = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&dflt), ACL_SUCCESS);
  ASSERT_NE(dflt, nullptr);
  ASSERT_EQ(aclrtCreateContext(&ctx, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetCurrentContext(&cur), ACL_SUCCESS);
  EXPECT_EQ(cur, ctx);  // creating makes it current
  std::thread([&] {
    aclrtContext other = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&other), ACL_SUCCESS);
    EXPECT_EQ(other, dflt);  // another thread still has the default
    ASSERT_EQ(aclrtSetCurrentContext(ctx), ACL_SUCCESS);
    ASSERT_EQ(aclrtGetCurrentContext(&other), ACL_SUCCESS);
    EXPECT_EQ(other, ctx);
  }).join();
  ASSERT_EQ(aclrtSetCurrentContext(dflt), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetCurrentContext(ctx), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyContext(ctx), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetCurrentContext(&cur), ACL_SUCCESS);
  EXPECT_EQ(cur, dflt);
}

TEST(RuntimeContext, Misuse) {
  aclrtContext ctx = nullptr;
  EXPECT_EQ(aclrtCreateContext(nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtCreateContext(&ctx, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetCurrentContext(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSetCurrentContext(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyContext(nullptr), ACL_ERROR_INVALID_PARAM);
  int not_a_context = 0;
  EXPECT_EQ(aclrtSetCurrentContext(&not_a_context), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtDestroyContext(&not_a_context), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtCreateContext(&ctx, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyContext(ctx), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyContext(ctx), ACL_ERROR_RT_PARAM_INVALID);  // twice
  aclrtContext dflt = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&dflt), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyContext(dflt), ACL_ERROR_RT_PARAM_INVALID);  // the default stays
}

}  // namespace
