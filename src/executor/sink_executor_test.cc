// Sink scheduling against host scheduling: bit-identical outputs on the bundled models, on ONNX
// backend node cases, on multi-stream graphs and on partitioned (partly dynamic) graphs; the
// memory checker runs on every compiled sink segment.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "compiler/memory_checker.h"
#include "executor/compiled_model.h"
#include "executor/sink_executor.h"
#include "ge/graph.h"
#include "ge/model.h"
#include "ge/npy.h"
#include "ge/onnx_loader.h"

namespace ge {
namespace {

namespace fs = std::filesystem;

void ExpectIdentical(const std::vector<HostTensor>& a, const std::vector<HostTensor>& b, const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].dtype(), b[i].dtype()) << what << " output " << i;
    EXPECT_EQ(a[i].shape(), b[i].shape()) << what << " output " << i;
    ASSERT_EQ(a[i].NumBytes(), b[i].NumBytes()) << what << " output " << i;
    EXPECT_EQ(0, std::memcmp(a[i].data(), b[i].data(), a[i].NumBytes())) << what << " output " << i << " differs";
  }
}

// Runs the memory checker on every sink segment of the model.
void CheckSinkMemory(const Model& m, const std::string& what) {
  const CompiledModel* c = m.compiled();
  if (!c) return;
  for (size_t i = 0; i < c->num_segments(); ++i) {
    const SinkExecutor* s = c->sink_executor(i);
    if (!s) continue;
    const SinkProgram& p = s->program();
    Status st = CheckMemoryPlan(p.memory, p.streams, &p.planner_input);
    EXPECT_TRUE(st.ok()) << what << ": " << st.message();
  }
}

// Host vs sink (and sink with one stream) on one model file; false if host cannot run it.
bool CompareModes(const std::string& path, const std::vector<HostTensor>& inputs, const std::string& what,
                  bool require = true) {
  std::unique_ptr<Model> host, sink, sink1;
  ModelOptions ho, so, so1;
  ho.mode = "host";
  so.mode = "auto";
  so1.mode = "auto";
  so1.max_streams = 1;
  std::vector<HostTensor> want, got, got1;
  Status st = Model::Load(path, ho, &host);
  if (st.ok()) st = host->Run(inputs, &want);
  if (!st.ok()) {
    EXPECT_FALSE(require) << what << ": host failed: " << st.message();
    return false;
  }
  st = Model::Load(path, so, &sink);
  EXPECT_TRUE(st.ok()) << what << ": " << st.message();
  if (!st.ok()) return true;
  st = sink->Run(inputs, &got);
  EXPECT_TRUE(st.ok()) << what << ": " << st.message();
  ExpectIdentical(got, want, what + " (" + sink->mode() + ")");
  CheckSinkMemory(*sink, what);
  EXPECT_TRUE(Model::Load(path, so1, &sink1).ok());
  EXPECT_TRUE(sink1->Run(inputs, &got1).ok());
  ExpectIdentical(got1, want, what + " (one stream)");
  return true;
}

TEST(SinkExecutorTest, BundledModelsMatchHostBitForBit) {
  for (std::string name : {"small_cnn", "mlp"}) {
    std::string dir = std::string(GE_SOURCE_DIR) + "/models/";
    HostTensor in;
    ASSERT_TRUE(ReadNpy(dir + name + "_input.npy", &in).ok());
    std::unique_ptr<Model> m;
    ASSERT_TRUE(Model::Load(dir + name + ".onnx", ModelOptions{}, &m).ok());
    EXPECT_EQ(m->mode(), "sink") << name << ": " << m->DescribeSegments();
    EXPECT_GT(m->memory_report().arena_bytes, 0);
    EXPECT_LE(m->memory_report().arena_bytes, m->memory_report().naive_bytes);
    CompareModes(dir + name + ".onnx", {in}, name);
  }
}

std::vector<HostTensor> CaseInputs(const fs::path& dir) {
  std::vector<HostTensor> inputs;
  for (int i = 0;; ++i) {
    fs::path p = dir / "test_data_set_0" / ("input_" + std::to_string(i) + ".pb");
    if (!fs::exists(p)) break;
    HostTensor t;
    EXPECT_TRUE(LoadTensorProtoFile(p.string(), &t).ok()) << p;
    inputs.push_back(t);
  }
  return inputs;
}

TEST(SinkExecutorTest, OnnxBackendNodeCasesMatchHost) {
  const fs::path root = "/usr/share/libonnx-testdata/data/node";
  if (!fs::exists(root)) GTEST_SKIP() << "libonnx-testdata is not installed";
  const char* cases[] = {"test_add",
                         "test_add_bcast",
                         "test_sub",
                         "test_mul",
                         "test_div",
                         "test_relu",
                         "test_sigmoid",
                         "test_exp",
                         "test_tanh",
                         "test_gemm_default_matrix_bias",
                         "test_matmul_2d",
                         "test_matmul_4d",
                         "test_maxpool_2d_default",
                         "test_globalaveragepool",
                         "test_softmax_axis_1",
                         "test_reshape_reordered_all_dims",
                         "test_flatten_axis1",
                         "test_identity",
                         "test_cast_FLOAT_to_DOUBLE",
                         "test_transpose_default",
                         "test_concat_2d_axis_0",
                         "test_leakyrelu",
                         "test_clip"};
  int compared = 0;
  for (const char* c : cases) {
    fs::path dir = root / c;
    if (!fs::exists(dir / "model.onnx")) continue;
    compared += CompareModes((dir / "model.onnx").string(), CaseInputs(dir), c, /*require=*/false);
  }
  EXPECT_GE(compared, 15);
}

TensorDesc F32(std::vector<int64_t> dims) { return TensorDesc{DT_FLOAT, FORMAT_ND, Shape(std::move(dims))}; }

HostTensor Iota(const Shape& s, float scale) {
  HostTensor t(DT_FLOAT, s);
  for (int64_t i = 0; i < t.NumElements(); ++i) t.mutable_data_as<float>()[i] = scale * static_cast<float>(i % 17) - 3;
  return t;
}

// x -> `branches` independent chains of `depth` (Add c, Relu) -> summed pairwise at the end.
std::shared_ptr<Graph> BranchGraph(int branches, int depth, int64_t width) {
  auto g = std::make_shared<Graph>("branches");
  ValueId x = g->AddInput("x", F32({1, width}));
  std::vector<ValueId> tips;
  for (int b = 0; b < branches; ++b) {
    ValueId v = x;
    for (int d = 0; d < depth; ++d) {
      std::string tag = "b" + std::to_string(b) + "_" + std::to_string(d);
      ValueId c = g->AddConstant(tag + "_c", Iota(Shape({1, width}), 0.01f * (b + 1)));
      ValueId a = g->AddValue(tag + "_a", F32({1, width}));
      g->AddNode(tag + "_add", "Add", {v, c}, {a});
      ValueId r = g->AddValue(tag + "_r", F32({1, width}));
      g->AddNode(tag + "_relu", "Relu", {a}, {r});
      v = r;
    }
    tips.push_back(v);
  }
  while (tips.size() > 1) {
    ValueId s = g->AddValue("sum" + std::to_string(tips.size()), F32({1, width}));
    g->AddNode("sum" + std::to_string(tips.size()), "Add", {tips[tips.size() - 2], tips.back()}, {s});
    tips.pop_back();
    tips.back() = s;
  }
  g->AddOutput(tips[0]);
  return g;
}

TEST(SinkExecutorTest, MultiStreamBranchesMatchOneStreamAndHost) {
  std::vector<HostTensor> want;
  std::unique_ptr<Model> host;
  ModelOptions ho;
  ho.mode = "host";
  ASSERT_TRUE(Model::FromGraph(BranchGraph(4, 8, 64), ho, &host).ok());
  HostTensor x = Iota(Shape({1, 64}), 0.5f);
  ASSERT_TRUE(host->Run({x}, &want).ok());
  for (int streams : {1, 2, 4}) {
    ModelOptions so;
    so.mode = "sink";
    so.max_streams = streams;
    std::unique_ptr<Model> m;
    Status st = Model::FromGraph(BranchGraph(4, 8, 64), so, &m);
    ASSERT_TRUE(st.ok()) << st.message();
    const SinkProgram& p = m->compiled()->sink_executor(0)->program();
    EXPECT_EQ(p.streams.num_streams, streams);
    if (streams > 1) {
      EXPECT_GT(p.streams.num_events, 0);
    }
    CheckSinkMemory(*m, "branches");
    for (int run = 0; run < 20; ++run) {  // repeated runs: races would show as differences
      std::vector<HostTensor> got;
      ASSERT_TRUE(m->Run({x}, &got).ok());
      ExpectIdentical(got, want, "streams=" + std::to_string(streams));
    }
  }
}

// x[2,6] -> Relu -> Reshape(shape from a graph input) -> Relu: the Reshape's output is dynamic,
// so a static sink prefix is followed by a host segment.
std::shared_ptr<Graph> PartlyStaticGraph() {
  auto g = std::make_shared<Graph>("partly_static");
  ValueId x = g->AddInput("x", F32({2, 6}));
  ValueId shape = g->AddInput("shape", TensorDesc{DT_INT64, FORMAT_ND, Shape({2})});
  ValueId c = g->AddConstant("c", Iota(Shape({2, 6}), 0.25f));
  ValueId a = g->AddValue("a", F32({2, 6})), r = g->AddValue("r", F32({2, 6}));
  ValueId y = g->AddValue("y", TensorDesc{DT_FLOAT, FORMAT_ND, Shape::UnknownRank()});
  ValueId z = g->AddValue("z", TensorDesc{DT_FLOAT, FORMAT_ND, Shape::UnknownRank()});
  g->AddNode("add", "Add", {x, c}, {a});
  g->AddNode("relu", "Relu", {a}, {r});
  g->AddNode("reshape", "Reshape", {r, shape}, {y});
  g->AddNode("relu2", "Relu", {y}, {z});
  g->AddOutput(z);
  g->AddOutput(r);
  return g;
}

TEST(SinkExecutorTest, PartitionedGraphRunsSinkThenHost) {
  std::unique_ptr<Model> m, host;
  Status st = Model::FromGraph(PartlyStaticGraph(), ModelOptions{}, &m);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(m->mode(), "mixed");
  EXPECT_EQ(m->DescribeSegments(), "sink[2 nodes] -> host[2 nodes]");
  ModelOptions ho;
  ho.mode = "host";
  ASSERT_TRUE(Model::FromGraph(PartlyStaticGraph(), ho, &host).ok());
  HostTensor shape(DT_INT64, Shape({2}));
  shape.mutable_data_as<int64_t>()[0] = 3;
  shape.mutable_data_as<int64_t>()[1] = 4;
  std::vector<HostTensor> got, want;
  HostTensor x = Iota(Shape({2, 6}), 1.0f);
  ASSERT_TRUE(m->Run({x, shape}, &got).ok());
  ASSERT_TRUE(host->Run({x, shape}, &want).ok());
  ExpectIdentical(got, want, "partitioned");
  EXPECT_EQ(got[0].shape(), Shape({3, 4}));
  CheckSinkMemory(*m, "partitioned");
}

TEST(SinkExecutorTest, SinkModeListsDynamicNodes) {
  std::unique_ptr<Model> m;
  ModelOptions so;
  so.mode = "sink";
  Status st = Model::FromGraph(PartlyStaticGraph(), so, &m);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("reshape"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("relu2"), std::string::npos) << st.message();
}

TEST(SinkExecutorTest, WrongInputShapeIsAnError) {
  std::unique_ptr<Model> m;
  ASSERT_TRUE(Model::FromGraph(BranchGraph(1, 2, 16), ModelOptions{}, &m).ok());
  std::vector<HostTensor> out;
  Status st = m->Run({Iota(Shape({1, 8}), 1.0f)}, &out);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("'x'"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace ge
