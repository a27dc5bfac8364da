// Tracing (base/trace.h) inside the runtime: a multi-stream model with events and multi-block
// kernels, and kernels launched on a stream, give the same results traced, and the trace has the
// model streams' tasks by name, the host stream's kernels and every block on some core track.
#include "base/trace.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "runtime_test_util.h"

namespace ge::rt::testing {
namespace {

struct AddTiling {
  int64_t add, n;
};
void AddKernel(const aclrtKernelArgs* args) {
  AddTiling t;
  std::memcpy(&t, args->tiling, sizeof(t));
  auto* in = static_cast<const int64_t*>(args->addrs[0]);
  auto* out = static_cast<int64_t*>(args->addrs[1]);
  const int64_t per = (t.n + args->blockDim - 1) / args->blockDim;
  const int64_t begin = per * args->blockIdx, end = std::min<int64_t>(t.n, begin + per);
  for (int64_t i = begin; i < end; ++i) out[i] = in[i] + t.add;
}

TEST(RuntimeTrace, MultiStreamModelAndStreamLaunches) {
  constexpr int64_t kN = 64;
  std::vector<int64_t> x(kN), a(kN), b1(kN), b2(kN), out(kN);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICreate(3, 3, &model), ACL_SUCCESS);
  auto add = [&](uint32_t stream, const char* name, uint32_t blocks, int64_t* in, int64_t* o, int64_t v) {
    void* addrs[] = {in, o};
    AddTiling t{v, kN};
    return aclmdlRIAddKernelTaskWithName(model, stream, name, AddKernel, blocks, addrs, 2, &t, sizeof(t));
  };
  // s0: a = x + 1, record e0; s1: wait e0, b1 = a + 10 (4 blocks), record e1; s2: wait e0,
  // b2 = a + 20, record e2; s0: wait e1, e2; out = b1 + 100.
  ASSERT_EQ(add(0, "first", 1, x.data(), a.data(), 1), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIAddEventRecord(model, 0, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIAddEventWait(model, 1, 0), ACL_SUCCESS);
  ASSERT_EQ(add(1, "left", 4, a.data(), b1.data(), 10), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIAddEventRecord(model, 1, 1), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIAddEventWait(model, 2, 0), ACL_SUCCESS);
  ASSERT_EQ(add(2, "right", 1, a.data(), b2.data(), 20), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIAddEventRecord(model, 2, 2), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIAddEventWait(model, 0, 1), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIAddEventWait(model, 0, 2), ACL_SUCCESS);
  ASSERT_EQ(add(0, "last", 2, b1.data(), out.data(), 100), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRILoadComplete(model), ACL_SUCCESS);
  trace::Start();
  for (int run = 0; run < 20; ++run) {
    for (int64_t i = 0; i < kN; ++i) x[i] = run + i;
    ASSERT_EQ(aclmdlRIExecute(model, -1), ACL_SUCCESS);
    for (int64_t i = 0; i < kN; ++i) {
      ASSERT_EQ(out[i], run + i + 111);
      ASSERT_EQ(b2[i], run + i + 21);
    }
  }
  {
    ScopedStream stream;
    void* addrs[] = {x.data(), a.data()};
    AddTiling t{5, kN};
    ASSERT_EQ(aclrtLaunchKernelWithName("launched", AddKernel, 2, addrs, 2, &t, sizeof(t), stream.get()), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream.get()), ACL_SUCCESS);
    EXPECT_EQ(a[3], x[3] + 5);
  }
  const std::string path = ::testing::TempDir() + "/runtime_trace.json";
  std::string error;
  ASSERT_TRUE(trace::StopAndWrite(path, &error)) << error;
  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  std::ifstream f(path);
  const auto doc = nlohmann::json::parse(f);
  std::map<int, std::string> names;
  std::map<std::string, std::set<std::string>> by_track;  // track name -> event names
  std::map<std::string, int> blocks;                      // kernel name -> block events on cores
  for (const auto& e : doc["traceEvents"])
    if (e["ph"] == "M" && e["name"] == "thread_name") names[e["tid"].get<int>()] = e["args"]["name"];
  for (const auto& e : doc["traceEvents"]) {
    if (e["ph"] != "X") continue;
    const std::string track = names.at(e["tid"].get<int>());
    by_track[track].insert(e["name"].get<std::string>());
    if (track.rfind("core ", 0) == 0) ++blocks[e["name"].get<std::string>()];
  }
  EXPECT_EQ(by_track["stream 0"], (std::set<std::string>{"first", "last"}));
  EXPECT_EQ(by_track["stream 1"], (std::set<std::string>{"left"}));
  EXPECT_EQ(by_track["stream 2"], (std::set<std::string>{"right"}));
  EXPECT_EQ(by_track["host stream"], (std::set<std::string>{"launched"}));
  EXPECT_EQ(blocks["first"], 20);
  EXPECT_EQ(blocks["left"], 4 * 20);
  EXPECT_EQ(blocks["last"], 2 * 20);
  EXPECT_EQ(blocks["launched"], 2);
}

}  // namespace
}  // namespace ge::rt::testing
