// One Model shared by 8 threads: every run's outputs equal a single-threaded run's on the same
// inputs, bit for bit, for a model of each kind (sink, host, mixed, control flow). Threads use
// different inputs, so shared per-run state (arena, host executor buffers) would show as a
// mismatch. Also in scripts/test-sanitize.sh under ThreadSanitizer (GE_CONCURRENT_RUNS sets the
// runs per thread there).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>

#include "ge/graph.h"
#include "ge/model.h"
#include "ge/npy.h"

namespace ge {
namespace {

constexpr int kThreads = 8;
constexpr int kVariants = 4;

int RunsPerThread(int dflt) {
  const char* e = std::getenv("GE_CONCURRENT_RUNS");
  return e ? std::atoi(e) : dflt;
}

HostTensor Filled(DataType dt, const Shape& s, int seed) {
  HostTensor t(dt, s);
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    const float v = static_cast<float>((i * 7 + seed * 13) % 23) / 7.f - 1.5f;
    if (dt == DT_FLOAT) t.mutable_data_as<float>()[i] = v;
  }
  return t;
}

bool Same(const std::vector<HostTensor>& a, const std::vector<HostTensor>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].shape() != b[i].shape() || a[i].NumBytes() != b[i].NumBytes() ||
        std::memcmp(a[i].data(), b[i].data(), a[i].NumBytes()) != 0)
      return false;
  return true;
}

// Runs `make_inputs(variant)` single-threaded for the references, then from kThreads threads.
void CheckConcurrent(Model& m, const std::function<std::vector<HostTensor>(int)>& make_inputs, int runs) {
  std::vector<std::vector<HostTensor>> in(kVariants), want(kVariants);
  for (int v = 0; v < kVariants; ++v) {
    in[v] = make_inputs(v);
    Status st = m.Run(in[v], &want[v]);
    ASSERT_TRUE(st.ok()) << st.message();
  }
  ASSERT_FALSE(Same(want[0], want[1])) << "variants must differ to detect shared state";
  std::atomic<int> failures{0}, mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      std::vector<HostTensor> out;
      for (int r = 0; r < runs; ++r) {
        const int v = (t + r) % kVariants;
        if (!m.Run(in[v], &out).ok())
          ++failures;
        else if (!Same(out, want[v]))
          ++mismatches;
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(mismatches.load(), 0);
}

std::unique_ptr<Model> Load(const std::string& name, const std::string& mode) {
  ModelOptions o;
  o.mode = mode;
  std::unique_ptr<Model> m;
  Status st = Model::Load(std::string(GE_SOURCE_DIR) + "/models/" + name + ".onnx", o, &m);
  EXPECT_TRUE(st.ok()) << st.message();
  return m;
}

TEST(ConcurrentRun, SinkModel) {
  auto m = Load("small_cnn", "sink");
  ASSERT_TRUE(m);
  ASSERT_EQ(m->mode(), "sink");
  HostTensor x;
  ASSERT_TRUE(ReadNpy(std::string(GE_SOURCE_DIR) + "/models/small_cnn_input.npy", &x).ok());
  CheckConcurrent(
      *m, [&](int v) { return std::vector<HostTensor>{Filled(DT_FLOAT, x.shape(), v)}; }, RunsPerThread(100));
}

TEST(ConcurrentRun, HostModel) {
  auto m = Load("mlp", "host");
  ASSERT_TRUE(m);
  ASSERT_EQ(m->mode(), "host");
  CheckConcurrent(
      *m,
      [](int v) {
        return std::vector<HostTensor>{Filled(DT_FLOAT, Shape({4, 64}), v)};
      },
      RunsPerThread(200));
}

// x[2,6] + c -> Relu -> Reshape(shape input) -> Relu: a sink segment, then a host segment.
TEST(ConcurrentRun, MixedModel) {
  auto g = std::make_shared<Graph>("mixed");
  ValueId x = g->AddInput("x", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({2, 6})});
  ValueId shape = g->AddInput("shape", TensorDesc{DT_INT64, FORMAT_ND, Shape({2})});
  ValueId c = g->AddConstant("c", Filled(DT_FLOAT, Shape({2, 6}), 9));
  ValueId a = g->AddValue("a", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({2, 6})});
  ValueId r = g->AddValue("r", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({2, 6})});
  ValueId y = g->AddValue("y", TensorDesc{DT_FLOAT, FORMAT_ND, Shape::UnknownRank()});
  ValueId z = g->AddValue("z", TensorDesc{DT_FLOAT, FORMAT_ND, Shape::UnknownRank()});
  g->AddNode("add", "Add", {x, c}, {a});
  g->AddNode("relu", "Relu", {a}, {r});
  g->AddNode("reshape", "Reshape", {r, shape}, {y});
  g->AddNode("relu2", "Relu", {y}, {z});
  g->AddOutput(z);
  g->AddOutput(r);
  std::unique_ptr<Model> m;
  ASSERT_TRUE(Model::FromGraph(g, {}, &m).ok());
  ASSERT_EQ(m->mode(), "mixed");
  CheckConcurrent(
      *m,
      [](int v) {
        HostTensor s(DT_INT64, Shape({2}));
        s.mutable_data_as<int64_t>()[0] = v % 2 ? 3 : 4;
        s.mutable_data_as<int64_t>()[1] = v % 2 ? 4 : 3;
        return std::vector<HostTensor>{Filled(DT_FLOAT, Shape({2, 6}), v), s};
      },
      RunsPerThread(200));
}

// Scan over xs[3,1] with body (s, x) -> (s + x, s + x): a control-flow node whose body runs in
// nested executors.
TEST(ConcurrentRun, ControlFlowModel) {
  auto b = std::make_shared<Graph>("body");
  ValueId s = b->AddInput("s", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({1})});
  ValueId xi = b->AddInput("x", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({1})});
  ValueId sum = b->AddValue("sum", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({1})});
  ValueId out = b->AddValue("out", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({1})});
  b->AddNode("add", "Add", {s, xi}, {sum});
  b->AddNode("id", "Identity", {sum}, {out});
  b->AddOutput(sum);
  b->AddOutput(out);
  auto g = std::make_shared<Graph>("g");
  ValueId s0 = g->AddInput("s0", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({1})});
  ValueId xs = g->AddInput("xs", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({3, 1})});
  ValueId fin = g->AddValue("final"), ys = g->AddValue("ys");
  g->AddNode("scan", "Scan", {s0, xs}, {fin, ys}, {{"body", b}, {"num_scan_inputs", int64_t{1}}});
  g->AddOutput(fin);
  g->AddOutput(ys);
  std::unique_ptr<Model> m;
  ASSERT_TRUE(Model::FromGraph(g, {}, &m).ok());
  CheckConcurrent(
      *m,
      [](int v) {
        return std::vector<HostTensor>{Filled(DT_FLOAT, Shape({1}), v), Filled(DT_FLOAT, Shape({3, 1}), v + 1)};
      },
      RunsPerThread(100));
}

}  // namespace
}  // namespace ge
