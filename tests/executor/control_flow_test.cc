// Scan and Loop with attributes or bodies that do not fit their inputs fail with one-line errors
// naming the node (a wrong num_scan_inputs dereferenced a missing input before); a valid Scan
// computes a running sum (hand-computed from the ONNX Scan definition).
#include <gtest/gtest.h>

#include <cstring>

#include "ge/graph.h"
#include "ge/model.h"

namespace ge {
namespace {

HostTensor F32(std::vector<int64_t> dims, std::vector<float> v) {
  HostTensor t(DT_FLOAT, Shape(dims));
  std::memcpy(t.mutable_data(), v.data(), t.NumBytes());
  return t;
}

// body(s, x) = (s + x, s + x): the state and the scan output.
std::shared_ptr<Graph> SumBody() {
  auto b = std::make_shared<Graph>("body");
  ValueId s = b->AddInput("s", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({1})});
  ValueId x = b->AddInput("x", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({1})});
  ValueId sum = b->AddValue("sum", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({1})});
  ValueId out = b->AddValue("out", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({1})});
  b->AddNode("add", "Add", {s, x}, {sum});
  b->AddNode("id", "Identity", {sum}, {out});
  b->AddOutput(sum);
  b->AddOutput(out);
  return b;
}

Status RunScan(int64_t num_scan_inputs, std::vector<HostTensor>* outs) {
  auto g = std::make_shared<Graph>("g");
  ValueId s = g->AddInput("s0", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({1})});
  ValueId x = g->AddInput("xs", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({3, 1})});
  ValueId fin = g->AddValue("final"), ys = g->AddValue("ys");
  g->AddNode("scan", "Scan", {s, x}, {fin, ys}, {{"body", SumBody()}, {"num_scan_inputs", num_scan_inputs}});
  g->AddOutput(fin);
  g->AddOutput(ys);
  std::unique_ptr<Model> m;
  GE_RETURN_IF_ERROR(Model::FromGraph(g, {}, &m));
  return m->Run({F32({1}, {0}), F32({3, 1}, {1, 2, 3})}, outs);
}

TEST(ControlFlow, ScanRunningSum) {
  std::vector<HostTensor> outs;
  Status st = RunScan(1, &outs);
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_EQ(outs.size(), 2u);
  EXPECT_EQ(outs[0].data_as<float>()[0], 6.f);
  ASSERT_EQ(outs[1].shape(), Shape({3, 1}));
  EXPECT_EQ(std::vector<float>(outs[1].data_as<float>(), outs[1].data_as<float>() + 3), (std::vector<float>{1, 3, 6}));
}

TEST(ControlFlow, ScanWithAWrongNumScanInputsIsAnError) {
  for (int64_t bad : {int64_t{0}, int64_t{3}, int64_t{-1}, int64_t{1} << 40}) {
    std::vector<HostTensor> outs;
    Status st = RunScan(bad, &outs);
    ASSERT_FALSE(st.ok()) << bad;
    EXPECT_NE(st.message().find("node 'scan' (Scan): num_scan_inputs " + std::to_string(bad) + " must be in [1, 2]"),
              std::string::npos)
        << st.message();
    EXPECT_EQ(st.message().find('\n'), std::string::npos);
  }
}

TEST(ControlFlow, ScanWithTwoStatesButOneOutputIsAnError) {
  std::vector<HostTensor> outs;
  Status st = RunScan(1, &outs);  // sanity: valid
  ASSERT_TRUE(st.ok());
  auto g = std::make_shared<Graph>("g");
  ValueId s = g->AddInput("s0", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({1})});
  ValueId x = g->AddInput("xs", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({3, 1})});
  ValueId fin = g->AddValue("final");
  g->AddNode("scan", "Scan", {s, s, x}, {fin}, {{"body", SumBody()}, {"num_scan_inputs", int64_t{1}}});
  g->AddOutput(fin);
  std::unique_ptr<Model> m;
  st = Model::FromGraph(g, {}, &m);
  if (st.ok()) st = m->Run({F32({1}, {0}), F32({3, 1}, {1, 2, 3})}, &outs);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("node 'scan' (Scan): 1 outputs, fewer than its 2 state inputs"), std::string::npos)
      << st.message();
}

}  // namespace
}  // namespace ge
