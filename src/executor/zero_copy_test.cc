// Zero-copy runs (Model::RunWithDeviceBuffers): a whole-graph sink model reads its inputs from and
// writes its outputs to the caller's device buffers; the task arguments are rebound when the
// buffers move, and back to the arena for a host-tensor run. Expected values are worked out by
// hand from the graph's arithmetic.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "acl/acl_rt.h"
#include "executor/compiled_model.h"
#include "executor/sink_executor.h"
#include "ge/graph.h"
#include "ge/model.h"

namespace ge {
namespace {

TensorDesc F32(std::vector<int64_t> dims) { return TensorDesc{DT_FLOAT, FORMAT_ND, Shape(std::move(dims))}; }

HostTensor Floats(std::vector<int64_t> dims, const std::vector<float>& v) {
  return HostTensor::FromBytes(DT_FLOAT, Shape(std::move(dims)), v.data(), v.size() * sizeof(float));
}

// x[2,3] -> a = x + 10 -> r = Relu(a) -> y = Reshape(r, [3,2]);  m = x * x.
// Outputs: y (a view: zero copy), r (same bytes as y: copied), x (a graph input: copied), m.
std::shared_ptr<Graph> IoGraph() {
  auto g = std::make_shared<Graph>("io");
  ValueId x = g->AddInput("x", F32({2, 3}));
  ValueId c = g->AddConstant("c", Floats({1}, {10.f}));
  HostTensor shape(DT_INT64, Shape({2}));
  shape.mutable_data_as<int64_t>()[0] = 3;
  shape.mutable_data_as<int64_t>()[1] = 2;
  ValueId s = g->AddConstant("shape", shape);
  ValueId a = g->AddValue("a", F32({2, 3})), r = g->AddValue("r", F32({2, 3}));
  ValueId y = g->AddValue("y", F32({3, 2})), m = g->AddValue("m", F32({2, 3}));
  g->AddNode("add", "Add", {x, c}, {a});
  g->AddNode("relu", "Relu", {a}, {r});
  g->AddNode("reshape", "Reshape", {r, s}, {y});
  g->AddNode("mul", "Mul", {x, x}, {m});
  g->AddOutput(y);
  g->AddOutput(r);
  g->AddOutput(x);
  g->AddOutput(m);
  return g;
}

// Device buffers freed at scope end.
struct Buffers {
  std::vector<DeviceBuffer> b;
  ~Buffers() {
    for (auto& d : b) aclrtFree(d.data);
  }
  DeviceBuffer& Add(size_t bytes) {
    void* p = nullptr;
    EXPECT_EQ(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    b.push_back({p, bytes});
    return b.back();
  }
};

std::vector<float> Read(const DeviceBuffer& d) {
  std::vector<float> v(d.size / sizeof(float));
  std::memcpy(v.data(), d.data, d.size);
  return v;
}

void Write(const DeviceBuffer& d, const std::vector<float>& v) { std::memcpy(d.data, v.data(), d.size); }

std::unique_ptr<Model> SinkModel(std::shared_ptr<Graph> g, int streams = 1) {
  ModelOptions o;
  o.mode = "sink";
  o.max_streams = streams;
  o.opt_level = 0;  // the graphs as built (CSE would merge the identical branches of the stream test)
  std::unique_ptr<Model> m;
  Status st = Model::FromGraph(std::move(g), o, &m);
  EXPECT_TRUE(st.ok()) << st.message();
  return m;
}

TEST(ZeroCopyTest, OutputsLandInCallerBuffersAndInputsStayUntouched) {
  auto m = SinkModel(IoGraph());
  ASSERT_TRUE(m);
  SinkExecutor* sink = const_cast<CompiledModel*>(m->compiled())->whole_graph_sink();
  ASSERT_NE(sink, nullptr);
  EXPECT_EQ(sink->num_zero_copy_outputs(), 2u);  // y and m; r and x are copied
  Buffers in, out;
  Write(in.Add(24), {-12, -11, 0, 1, 2, 3});
  for (int i = 0; i < 4; ++i) out.Add(24);
  Status st = m->RunWithDeviceBuffers(in.b, out.b);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(Read(out.b[0]), (std::vector<float>{0, 0, 10, 11, 12, 13}));
  EXPECT_EQ(Read(out.b[1]), (std::vector<float>{0, 0, 10, 11, 12, 13}));
  EXPECT_EQ(Read(out.b[2]), (std::vector<float>{-12, -11, 0, 1, 2, 3}));
  EXPECT_EQ(Read(out.b[3]), (std::vector<float>{144, 121, 0, 1, 4, 9}));
  EXPECT_EQ(Read(in.b[0]), (std::vector<float>{-12, -11, 0, 1, 2, 3}));  // Add must not write into x
}

TEST(ZeroCopyTest, RebindsWhenBuffersMoveAndBackToTheArenaForHostTensors) {
  auto m = SinkModel(IoGraph());
  ASSERT_TRUE(m);
  for (int round = 0; round < 3; ++round) {
    const float k = static_cast<float>(round);
    Buffers in, out;  // fresh addresses every round
    Write(in.Add(24), {k, k + 1, k + 2, -1, -2, -30});
    for (int i = 0; i < 4; ++i) out.Add(24);
    ASSERT_TRUE(m->RunWithDeviceBuffers(in.b, out.b).ok());
    EXPECT_EQ(Read(out.b[0]), (std::vector<float>{k + 10, k + 11, k + 12, 9, 8, 0})) << "round " << round;
    EXPECT_EQ(Read(out.b[3]), (std::vector<float>{k * k, (k + 1) * (k + 1), (k + 2) * (k + 2), 1, 4, 900}));
    std::vector<HostTensor> got;  // a host-tensor run in between uses the arena again
    ASSERT_TRUE(m->Run({Floats({2, 3}, {1, 2, 3, 4, 5, 6})}, &got).ok());
    ASSERT_EQ(got.size(), 4u);
    EXPECT_EQ(got[0].shape(), Shape({3, 2}));
    EXPECT_EQ(std::vector<float>(got[0].data_as<float>(), got[0].data_as<float>() + 6),
              (std::vector<float>{11, 12, 13, 14, 15, 16}));
    EXPECT_EQ(std::vector<float>(got[3].data_as<float>(), got[3].data_as<float>() + 6),
              (std::vector<float>{1, 4, 9, 16, 25, 36}));
  }
}

// x[1,8] -> 4 branches of (Add 1, Relu) x 3 -> summed: each branch adds 3, so y = 4 * relu-chain(x).
TEST(ZeroCopyTest, MultiStreamModelWritesTheCallerBuffer) {
  auto g = std::make_shared<Graph>("branches");
  ValueId x = g->AddInput("x", F32({1, 8}));
  ValueId one = g->AddConstant("one", Floats({1}, {1.f}));
  std::vector<ValueId> tips;
  for (int b = 0; b < 4; ++b) {
    ValueId v = x;
    for (int d = 0; d < 3; ++d) {
      std::string tag = "b" + std::to_string(b) + "_" + std::to_string(d);
      ValueId a = g->AddValue(tag + "_a", F32({1, 8})), r = g->AddValue(tag + "_r", F32({1, 8}));
      g->AddNode(tag + "_add", "Add", {v, one}, {a});
      g->AddNode(tag + "_relu", "Relu", {a}, {r});
      v = r;
    }
    tips.push_back(v);
  }
  ValueId s01 = g->AddValue("s01", F32({1, 8})), s23 = g->AddValue("s23", F32({1, 8}));
  ValueId y = g->AddValue("y", F32({1, 8}));
  g->AddNode("s01", "Add", {tips[0], tips[1]}, {s01});
  g->AddNode("s23", "Add", {tips[2], tips[3]}, {s23});
  g->AddNode("y", "Add", {s01, s23}, {y});
  g->AddOutput(y);
  auto m = SinkModel(g, 2);
  ASSERT_TRUE(m);
  ASSERT_EQ(m->compiled()->sink_executor(0)->program().streams.num_streams, 2);
  for (int run = 0; run < 20; ++run) {
    Buffers in, out;
    Write(in.Add(32), {-10, -2.5f, -1, 0, 1, 2, 3, static_cast<float>(run)});
    out.Add(32);
    ASSERT_TRUE(m->RunWithDeviceBuffers(in.b, out.b).ok());
    // relu(relu(relu(v+1)+1)+1): v <= -1 -> 2 (the first Relu clamps to 0), v >= 0 -> v + 3.
    EXPECT_EQ(Read(out.b[0]), (std::vector<float>{8, 8, 8, 12, 16, 20, 24, 4.f * (run + 3)})) << "run " << run;
  }
}

TEST(ZeroCopyTest, BadBuffersAreClearErrors) {
  auto m = SinkModel(IoGraph());
  ASSERT_TRUE(m);
  Buffers in, out;
  in.Add(24);
  for (int i = 0; i < 3; ++i) out.Add(24);
  Status st = m->RunWithDeviceBuffers(in.b, out.b);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("expected 1 input and 4 output buffers, got 1 and 3"), std::string::npos) << st.message();
  out.Add(24);
  in.b[0].size = 20;
  st = m->RunWithDeviceBuffers(in.b, out.b);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("input 'x': expected a device buffer of 24 bytes (float32[2, 3]), got 20 bytes"),
            std::string::npos)
      << st.message();
  in.b[0].size = 24;
  DeviceBuffer saved = out.b[3];
  out.b[3] = {nullptr, 24};
  st = m->RunWithDeviceBuffers(in.b, out.b);
  out.b[3] = saved;
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("output 'm': expected a device buffer of 24 bytes"), std::string::npos) << st.message();
}

// Host scheduling has no task arguments to rebind: the buffers are copied, with the same checks.
TEST(ZeroCopyTest, HostModelCopiesThroughTheBuffers) {
  ModelOptions o;
  o.mode = "host";
  std::unique_ptr<Model> m;
  ASSERT_TRUE(Model::FromGraph(IoGraph(), o, &m).ok());
  Buffers in, out;
  Write(in.Add(24), {1, 2, 3, -4, -5, -6});
  for (int i = 0; i < 4; ++i) out.Add(24);
  Status st = m->RunWithDeviceBuffers(in.b, out.b);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(Read(out.b[0]), (std::vector<float>{11, 12, 13, 6, 5, 4}));
  EXPECT_EQ(Read(out.b[3]), (std::vector<float>{1, 4, 9, 16, 25, 36}));
  out.b[1].size = 8;
  st = m->RunWithDeviceBuffers(in.b, out.b);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("output 'r': expected a device buffer of 24 bytes (float32[2, 3]), got 8 bytes"),
            std::string::npos)
      << st.message();
}

// x -> Relu -> y; outputs y and a constant: the constant's bytes are copied into its buffer.
TEST(ZeroCopyTest, ConstantOutputIsCopiedIntoItsBuffer) {
  auto g = std::make_shared<Graph>("const_out");
  ValueId x = g->AddInput("x", F32({2}));
  ValueId k = g->AddConstant("k", Floats({2}, {7.f, 8.f}));
  ValueId y = g->AddValue("y", F32({2}));
  g->AddNode("relu", "Relu", {x}, {y});
  g->AddOutput(y);
  g->AddOutput(k);
  auto m = SinkModel(g);
  ASSERT_TRUE(m);
  ASSERT_NE(const_cast<CompiledModel*>(m->compiled())->whole_graph_sink(), nullptr);
  Buffers in, out;
  Write(in.Add(8), {-1, 2});
  out.Add(8);
  out.Add(8);
  Status st = m->RunWithDeviceBuffers(in.b, out.b);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(Read(out.b[0]), (std::vector<float>{0, 2}));
  EXPECT_EQ(Read(out.b[1]), (std::vector<float>{7, 8}));
  out.b[1].size = 4;
  st = m->RunWithDeviceBuffers(in.b, out.b);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("output 'k': expected a device buffer of 8 bytes (float32[2]), got 4 bytes"),
            std::string::npos)
      << st.message();
}

// A buffer carries no shape, so a device-buffer run needs every input shape known up front.
TEST(ZeroCopyTest, DynamicInputShapeIsAClearError) {
  auto g = std::make_shared<Graph>("dynamic");
  ValueId x = g->AddInput("x", F32({-1, 3}));
  ValueId y = g->AddValue("y", TensorDesc{DT_FLOAT, FORMAT_ND, Shape::UnknownRank()});
  g->AddNode("relu", "Relu", {x}, {y});
  g->AddOutput(y);
  std::unique_ptr<Model> m;
  ASSERT_TRUE(Model::FromGraph(g, ModelOptions{}, &m).ok());
  Buffers in, out;
  in.Add(24);
  out.Add(24);
  Status st = m->RunWithDeviceBuffers(in.b, out.b);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("input 'x' has a dynamic shape (float32[-1, 3]): device-buffer runs need static input "
                              "shapes"),
            std::string::npos)
      << st.message();
}

}  // namespace
}  // namespace ge
