// The host memory limit (base/host_memory.h): host tensors are accounted against it, and a run
// that needs more fails with an out-of-memory status.
#include "base/host_memory.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "ge/graph.h"
#include "ge/model.h"

namespace ge {
namespace {

// Host tensors are accounted against GE_HOST_MEMORY_LIMIT (base/host_memory.h): over it, an
// allocation fails with an out-of-memory error naming the sizes, never the OOM killer.
TEST(HostMemoryLimit, HostTensorsAreAccountedAndLimited) {
  SetHostMemoryLimitForTesting(int64_t{64} << 20);
  const int64_t before = HostMemoryInUse();
  {
    HostTensor t(DT_FLOAT, Shape({1 << 20}));
    EXPECT_EQ(HostMemoryInUse(), before + (4 << 20));
    HostTensor copy = t;  // shares the bytes: counted once
    EXPECT_EQ(HostMemoryInUse(), before + (4 << 20));
  }
  EXPECT_EQ(HostMemoryInUse(), before);
  EXPECT_THROW(HostTensor(DT_FLOAT, Shape({int64_t{1} << 25})), HostMemoryLimitError);
  EXPECT_EQ(HostMemoryInUse(), before);

  // Through a model: ConstantOfShape of 2^25 floats (128 MiB) from a run-time shape.
  Graph g("cos");
  ValueId s = g.AddInput("S", TensorDesc{DT_INT64, FORMAT_ND, Shape({1})});
  ValueId y = g.AddValue("Y");
  g.AddNode("cos", "ConstantOfShape", {s}, {y});
  g.AddOutput(y);
  std::unique_ptr<Model> model;
  ASSERT_TRUE(Model::FromGraph(std::make_shared<Graph>(g), ModelOptions{}, &model).ok());
  auto shape = [](int64_t n) {
    HostTensor t(DT_INT64, Shape({1}));
    t.mutable_data_as<int64_t>()[0] = n;
    return t;
  };
  std::vector<HostTensor> out;
  ASSERT_TRUE(model->Run({shape(4)}, &out).ok());
  Status st = model->Run({shape(int64_t{1} << 25)}, &out);
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.code(), Status::kOutOfMemory) << st.message();
  EXPECT_NE(st.message().find("host memory limit"), std::string::npos) << st.message();
  SetHostMemoryLimitForTesting(0);
}

// The CPU device's memory is the host's: device and pinned host blocks count against the host
// memory limit that host tensors share, so the two together cannot outgrow it.
TEST(HostMemoryLimit, DeviceMemoryCountsAgainstIt) {
  EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  const int64_t before = HostMemoryInUse();
  SetHostMemoryLimitForTesting(before + (int64_t{64} << 20));
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, size_t{40} << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(HostMemoryInUse(), before + (int64_t{40} << 20));
  EXPECT_THROW(ReserveHostMemory(int64_t{32} << 20), HostMemoryLimitError);  // a 32 MiB host tensor
  void* host = reinterpret_cast<void*>(1);
  EXPECT_EQ(aclrtMallocHost(&host, size_t{32} << 20), ACL_ERROR_BAD_ALLOC);
  EXPECT_EQ(host, nullptr);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("host out of memory: requested 33554432 bytes"), std::string::npos)
      << aclGetRecentErrMsg();
  void* dev2 = reinterpret_cast<void*>(1);
  EXPECT_EQ(aclrtMalloc(&dev2, size_t{32} << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
  EXPECT_EQ(dev2, nullptr);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("the CPU device's memory is the host's"), std::string::npos)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtMallocHost(&host, size_t{16} << 20), ACL_SUCCESS);
  EXPECT_EQ(HostMemoryInUse(), before + (int64_t{56} << 20));
  EXPECT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
  EXPECT_EQ(HostMemoryInUse(), before);
  ReserveHostMemory(int64_t{32} << 20);  // room again
  ReleaseHostMemory(int64_t{32} << 20);
  SetHostMemoryLimitForTesting(0);
}

}  // namespace
}  // namespace ge
