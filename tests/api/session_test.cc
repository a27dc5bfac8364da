// The Session API (ge/ge_api.h): options (an unknown key is an error naming it), graphs parsed with
// aclgrphParseONNX or built in C++, lazy and explicit builds, synchronous and asynchronous runs,
// and one compiled graph run from 8 threads x 1000 runs (SessionConcurrentRun; also under
// ThreadSanitizer in scripts/test-sanitize.sh).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

#include "ge/ge_api.h"
#include "ge/graph.h"
#include "ge/npy.h"
#include "ge/onnx_parser.h"

namespace ge {
namespace {

const std::string kModels = std::string(GE_SOURCE_DIR) + "/models/";

class SessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Status st = GEInitialize(std::map<AscendString, AscendString>{});
    ASSERT_TRUE(st.ok()) << st.message();
  }
  void TearDown() override { EXPECT_TRUE(GEFinalize().ok()); }
};

Graph ParseMlp() {
  Graph g;
  EXPECT_EQ(aclgrphParseONNX((kModels + "mlp.onnx").c_str(), {}, g), GRAPH_SUCCESS) << GEGetErrorMsg();
  return g;
}

Tensor MlpInput(int seed) {
  Tensor t(TensorDesc{DT_FLOAT, FORMAT_ND, Shape({4, 64})});
  float* p = reinterpret_cast<float*>(t.GetData());
  for (int i = 0; i < 256; ++i) p[i] = static_cast<float>((i * 7 + seed * 13) % 29) / 9.f - 1.5f;
  return t;
}

bool Same(const std::vector<Tensor>& a, const std::vector<Tensor>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].shape() != b[i].shape() || a[i].GetSize() != b[i].GetSize() ||
        std::memcmp(a[i].GetData(), b[i].GetData(), a[i].GetSize()) != 0)
      return false;
  return true;
}

TEST_F(SessionTest, RunGraphMatchesPyTorch) {
  Session session(std::map<AscendString, AscendString>{{kOptionOptimizationLevel, "2"}});
  ASSERT_TRUE(session.AddGraph(1, ParseMlp()).ok());
  EXPECT_TRUE(session.IsGraphNeedRebuild(1));
  HostTensor x, want;
  ASSERT_TRUE(ReadNpy(kModels + "mlp_input.npy", &x).ok());
  ASSERT_TRUE(ReadNpy(kModels + "mlp_output.npy", &want).ok());
  std::vector<Tensor> out;
  Status st = session.RunGraph(1, {Tensor(x)}, out);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_FALSE(session.IsGraphNeedRebuild(1));
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out[0].shape(), want.shape());
  const float* got = reinterpret_cast<const float*>(out[0].GetData());
  for (int64_t i = 0; i < want.NumElements(); ++i) EXPECT_NEAR(got[i], want.data_as<float>()[i], 1e-4f);
  EXPECT_GT(session.GetSessionId(), 0u);
}

TEST_F(SessionTest, ModesAndBuildGraph) {
  Session session(std::map<std::string, std::string>{{kOptionMode, "host"}});
  const Graph g = ParseMlp();
  ASSERT_TRUE(session.AddGraph(1, g).ok());
  ASSERT_TRUE(session.AddGraph(2, g, std::map<std::string, std::string>{{kOptionMode, "sink"}}).ok());
  ASSERT_TRUE(session.BuildGraph(2, {}).ok());
  EXPECT_FALSE(session.IsGraphNeedRebuild(2));
  EXPECT_TRUE(session.BuildGraph(2, {}).ok());  // built already: nothing to do
  std::vector<Tensor> a, b;
  ASSERT_TRUE(session.RunGraph(1, {MlpInput(1)}, a).ok());
  ASSERT_TRUE(session.RunGraph(2, {MlpInput(1)}, b).ok());
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  const float* pa = reinterpret_cast<const float*>(a[0].GetData());
  const float* pb = reinterpret_cast<const float*>(b[0].GetData());
  for (int i = 0; i < 40; ++i) EXPECT_NEAR(pa[i], pb[i], 1e-5f);
  Status st = session.BuildGraph(1, {MlpInput(0), MlpInput(1)});
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("2 input tensors"), std::string::npos) << st.message();
}

// x[-1, 3] -> Relu: BuildGraph with a [2, 3] tensor compiles it for that shape.
TEST_F(SessionTest, BuildGraphFixesDynamicInputShapes) {
  Graph g("dyn");
  ValueId x = g.AddInput("x", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({-1, 3})});
  ValueId y = g.AddValue("y", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({-1, 3})});
  g.AddNode("relu", "Relu", {x}, {y});
  g.AddOutput(y);
  Session session(std::map<std::string, std::string>{});
  ASSERT_TRUE(session.AddGraph(7, g).ok());
  Tensor in(TensorDesc{DT_FLOAT, FORMAT_ND, Shape({2, 3})});
  float* p = reinterpret_cast<float*>(in.GetData());
  for (int i = 0; i < 6; ++i) p[i] = static_cast<float>(i) - 2.5f;
  Status st = session.BuildGraph(7, {in});
  ASSERT_TRUE(st.ok()) << st.message();
  std::vector<Tensor> out;
  st = session.RunGraph(7, {in}, out);
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].shape(), Shape({2, 3}));
  const float* q = reinterpret_cast<const float*>(out[0].GetData());
  for (int i = 0; i < 6; ++i) EXPECT_EQ(q[i], std::max(0.f, p[i]));
}

// The README's example: a graph built from the public headers alone (node outputs without a
// desc: shapes and dtypes come from inference), y = Relu(x) + x, in sink and host modes.
TEST_F(SessionTest, GraphBuiltFromThePublicHeadersRuns) {
  for (const char* mode : {"sink", "host"}) {
    SCOPED_TRACE(mode);
    Graph g("relu_add");
    ValueId x = g.AddInput("x", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({-1, 3})});
    ValueId r = g.AddValue("r"), y = g.AddValue("y");
    g.AddNode("relu", "Relu", {x}, {r});
    g.AddNode("add", "Add", {r, x}, {y});
    g.AddOutput(y);
    std::map<AscendString, AscendString> options = {{kOptionMode, mode}};
    Session session(options);
    ASSERT_TRUE(session.AddGraph(2, g).ok());
    Tensor in(TensorDesc{DT_FLOAT, FORMAT_ND, Shape({2, 3})});
    float* p = reinterpret_cast<float*>(in.GetData());
    const float xs[6] = {-2.5f, -1.f, 0.f, 0.5f, 1.f, 3.f};
    std::copy(xs, xs + 6, p);
    if (std::string(mode) == "sink") {
      ASSERT_TRUE(session.BuildGraph(2, {in}).ok());
    }
    std::vector<Tensor> out;
    Status st = session.RunGraph(2, {in}, out);
    ASSERT_TRUE(st.ok()) << st.message();
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].shape(), Shape({2, 3}));
    const float want[6] = {-2.5f, -1.f, 0.f, 1.f, 2.f, 6.f};  // Relu(x) + x: x for x < 0, else 2x
    const float* q = reinterpret_cast<const float*>(out[0].GetData());
    for (int i = 0; i < 6; ++i) EXPECT_EQ(q[i], want[i]) << i;
  }
}

TEST_F(SessionTest, RunGraphAsyncCallsBackWithOutputs) {
  constexpr int kRuns = 24;
  Session session(std::map<std::string, std::string>{});
  ASSERT_TRUE(session.AddGraph(3, ParseMlp()).ok());
  std::vector<std::vector<Tensor>> want(kRuns), got(kRuns);
  for (int r = 0; r < kRuns; ++r) ASSERT_TRUE(session.RunGraph(3, {MlpInput(r)}, want[r]).ok());
  std::mutex mu;
  std::condition_variable cv;
  int done = 0, failed = 0;
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<int> on_caller{0};
  for (int r = 0; r < kRuns; ++r) {
    Status st = session.RunGraphAsync(3, {MlpInput(r)}, [&, r](Status s, std::vector<Tensor>& outputs) {
      if (std::this_thread::get_id() == caller) ++on_caller;
      std::lock_guard<std::mutex> lk(mu);
      if (!s.ok()) ++failed;
      got[r] = outputs;
      ++done;
      cv.notify_all();
    });
    ASSERT_TRUE(st.ok()) << st.message();
  }
  {
    std::unique_lock<std::mutex> lk(mu);
    ASSERT_TRUE(cv.wait_for(lk, std::chrono::seconds(60), [&] { return done == kRuns; }));
  }
  EXPECT_EQ(failed, 0);
  EXPECT_EQ(on_caller.load(), 0);
  for (int r = 0; r < kRuns; ++r) EXPECT_TRUE(Same(got[r], want[r])) << "run " << r;
  // Unknown graph: returned at once, no callback.
  bool called = false;
  Status st = session.RunGraphAsync(99, {MlpInput(0)}, [&](Status, std::vector<Tensor>&) { called = true; });
  EXPECT_EQ(st.code(), Status::kNotFound);
  EXPECT_FALSE(called);
  EXPECT_FALSE(session.RunGraphAsync(3, {MlpInput(0)}, nullptr).ok());
}

// A run that fails (wrong input count) reports it through the callback; the session's destructor
// runs what is still queued.
TEST_F(SessionTest, RunGraphAsyncReportsErrorsAndDrainsAtDestruction) {
  std::atomic<int> ok{0}, failed{0};
  std::string message;
  {
    Session session(std::map<std::string, std::string>{});
    ASSERT_TRUE(session.AddGraph(1, ParseMlp()).ok());
    ASSERT_TRUE(session
                    .RunGraphAsync(1, {},
                                   [&](Status s, std::vector<Tensor>& out) {
                                     if (!s.ok() && out.empty()) {
                                       message = s.message();
                                       ++failed;
                                     }
                                   })
                    .ok());
    for (int r = 0; r < 8; ++r)
      ASSERT_TRUE(
          session.RunGraphAsync(1, {MlpInput(r)}, [&](Status s, std::vector<Tensor>&) { s.ok() ? ++ok : ++failed; })
              .ok());
  }
  EXPECT_EQ(ok.load(), 8);
  EXPECT_EQ(failed.load(), 1);
  EXPECT_NE(message.find("graph 1"), std::string::npos) << message;
}

TEST_F(SessionTest, GraphIdsAndRemoval) {
  Session session(std::map<std::string, std::string>{});
  const Graph g = ParseMlp();
  ASSERT_TRUE(session.AddGraph(1, g).ok());
  EXPECT_FALSE(session.AddGraph(1, g).ok());
  std::vector<Tensor> out;
  ASSERT_TRUE(session.RunGraph(1, {MlpInput(0)}, out).ok());
  ASSERT_TRUE(session.RemoveGraph(1).ok());
  EXPECT_EQ(session.RunGraph(1, {MlpInput(0)}, out).code(), Status::kNotFound);
  EXPECT_EQ(session.RemoveGraph(1).code(), Status::kNotFound);
  EXPECT_EQ(session.BuildGraph(5, {}).code(), Status::kNotFound);
  EXPECT_TRUE(session.IsGraphNeedRebuild(5));
  ASSERT_TRUE(session.AddGraph(1, g).ok());  // the id is free again
  Status st = session.RunGraph(1, {MlpInput(0), MlpInput(1)}, out);
  EXPECT_FALSE(st.ok());
}

TEST_F(SessionTest, UnknownOrBadOptionsAreErrorsNamingThem) {
  Session bad_session(std::map<std::string, std::string>{{"ge.noSuchOption", "1"}});
  Status st = bad_session.AddGraph(1, ParseMlp());
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("ge.noSuchOption"), std::string::npos) << st.message();
  std::vector<Tensor> out;
  EXPECT_NE(bad_session.RunGraph(1, {}, out).message().find("ge.noSuchOption"), std::string::npos);

  Session session(std::map<std::string, std::string>{});
  const Graph g = ParseMlp();
  st = session.AddGraph(1, g, std::map<std::string, std::string>{{"ge.exec.modee", "host"}});
  EXPECT_NE(st.message().find("ge.exec.modee"), std::string::npos) << st.message();
  st = session.AddGraph(1, g, std::map<std::string, std::string>{{kOptionMode, "fast"}});
  EXPECT_NE(st.message().find("fast"), std::string::npos) << st.message();
  st = session.AddGraph(1, g, std::map<std::string, std::string>{{kOptionOptimizationLevel, "3"}});
  EXPECT_NE(st.message().find(kOptionOptimizationLevel), std::string::npos) << st.message();
  st = session.AddGraph(1, g, std::map<std::string, std::string>{{kOptionStreamNum, "two"}});
  EXPECT_NE(st.message().find(kOptionStreamNum), std::string::npos) << st.message();
  st = session.AddGraph(1, g, std::map<std::string, std::string>{{kOptionThreadNum, "2"}});
  EXPECT_NE(st.message().find("GEInitialize"), std::string::npos) << st.message();
  st = session.AddGraph(1, g, std::map<std::string, std::string>{{kOptionLogLevel, "loud"}});
  EXPECT_NE(st.message().find("loud"), std::string::npos) << st.message();
  st = session.AddGraph(1, g, std::map<std::string, std::string>{{kOptionCustomOpLib, "/nonexistent/libop.so"}});
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find(kOptionCustomOpLib), std::string::npos) << st.message();
  EXPECT_EQ(GEGetErrorMsg(), st.message());
  // Valid options are accepted at every level.
  EXPECT_TRUE(session
                  .AddGraph(1, g,
                            std::map<std::string, std::string>{{kOptionMode, "auto"},
                                                               {kOptionOptimizationLevel, "1"},
                                                               {kOptionStreamNum, "1"},
                                                               {kOptionLogLevel, "warn"},
                                                               {kOptionPreferFallback, "0"}})
                  .ok());
  ASSERT_TRUE(session.RunGraph(1, {MlpInput(0)}, out).ok());
}

TEST(SessionInit, InitializeFinalizeAndErrors) {
  Status st = GEInitialize(std::map<std::string, std::string>{{"ge.bogus", "1"}});
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("ge.bogus"), std::string::npos) << st.message();
  EXPECT_FALSE(GEFinalize().ok());  // not initialized
  Session early(std::map<std::string, std::string>{});
  st = early.AddGraph(1, ParseMlp());
  EXPECT_EQ(st.code(), Status::kFailedPrecondition);
  EXPECT_NE(st.message().find("GEInitialize"), std::string::npos) << st.message();
  ASSERT_TRUE(GEInitialize(std::map<std::string, std::string>{{kOptionMode, "auto"}, {kOptionMemoryLimit, "0"}}).ok());
  EXPECT_FALSE(GEInitialize(std::map<std::string, std::string>{}).ok());  // twice
  EXPECT_TRUE(early.AddGraph(1, ParseMlp()).ok());
  ASSERT_TRUE(GEFinalize().ok());
  std::vector<Tensor> out;
  EXPECT_EQ(early.RunGraph(1, {MlpInput(0)}, out).code(), Status::kFailedPrecondition);
}

TEST(SessionParser, ParseErrors) {
  Graph g;
  EXPECT_NE(aclgrphParseONNX("/nonexistent/m.onnx", {}, g), GRAPH_SUCCESS);
  EXPECT_NE(GEGetErrorMsg().find("/nonexistent/m.onnx"), std::string::npos) << GEGetErrorMsg();
  EXPECT_NE(aclgrphParseONNX(nullptr, {}, g), GRAPH_SUCCESS);
  EXPECT_NE(aclgrphParseONNX((kModels + "mlp.onnx").c_str(), {{"input_format", "NCHW"}}, g), GRAPH_SUCCESS);
  EXPECT_NE(GEGetErrorMsg().find("input_format"), std::string::npos) << GEGetErrorMsg();
  const char junk[] = "junk";
  EXPECT_NE(aclgrphParseONNXFromMem(junk, sizeof(junk), {}, g), GRAPH_SUCCESS);
  EXPECT_NE(aclgrphParseONNXFromMem(nullptr, 0, {}, g), GRAPH_SUCCESS);
}

int SessionRuns() {
  const char* e = std::getenv("GE_SESSION_CONCURRENT_RUNS");
  return e ? std::atoi(e) : 1000;
}

// One compiled graph, 8 threads x 1000 runs (GE_SESSION_CONCURRENT_RUNS), every thread with its
// own sequence of inputs; each output equals the single-threaded run's on the same input, bit for
// bit. The mlp compiles to one sink segment in auto mode, to host scheduling in host mode.
void CheckSessionConcurrentRun(const std::string& mode) {
  constexpr int kThreads = 8, kVariants = 16;
  const int runs = SessionRuns();
  Session session(std::map<std::string, std::string>{{kOptionMode, mode}});
  ASSERT_TRUE(session.AddGraph(1, ParseMlp()).ok());
  std::vector<Tensor> in(kVariants);
  std::vector<std::vector<Tensor>> want(kVariants);
  for (int v = 0; v < kVariants; ++v) {
    in[v] = MlpInput(v);
    Status st = session.RunGraph(1, {in[v]}, want[v]);
    ASSERT_TRUE(st.ok()) << st.message();
  }
  ASSERT_FALSE(Same(want[0], want[1]));
  std::atomic<int> failures{0}, mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      std::vector<Tensor> out;
      for (int r = 0; r < runs; ++r) {
        const int v = (t * 5 + r * (t + 1)) % kVariants;
        if (!session.RunGraph(1, {in[v]}, out).ok())
          ++failures;
        else if (!Same(out, want[v]))
          ++mismatches;
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(mismatches.load(), 0);
}

TEST_F(SessionTest, SessionConcurrentRunEightThreads) { CheckSessionConcurrentRun("auto"); }  // sink

TEST_F(SessionTest, SessionConcurrentRunEightThreadsHostMode) { CheckSessionConcurrentRun("host"); }

}  // namespace
}  // namespace ge
