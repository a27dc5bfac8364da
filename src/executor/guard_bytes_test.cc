// Guard bytes (GE_GUARD_BYTES, base/guard_bytes.h): a kernel that writes one element past its
// output fails the run naming the node, in sink and host modes; the same kernel writing within
// its output passes; without guards the overrun lands in padding unseen (why the option exists).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "base/guard_bytes.h"
#include "ge/graph.h"
#include "ge/model.h"
#include "register/op_def.h"
#include "runtime/caching_allocator.h"

namespace ge {
namespace {

struct CopyTiling {
  int64_t n;
  int64_t extra;  // elements written past the output
};
graphStatus CopyTilingFunc(gert::TilingContext* ctx) {
  auto* t = ctx->GetTilingData<CopyTiling>();
  t->n = ctx->GetInputShape(0)->GetStorageShape().GetShapeSize();
  t->extra = std::string(ctx->GetNodeType()) == "GuardTestOverrun" ? 1 : 0;
  return GRAPH_SUCCESS;
}
void CopyKernel(const aclrtKernelArgs* args) {
  const auto* t = static_cast<const CopyTiling*>(args->tiling);
  const float* x = static_cast<const float*>(args->addrs[0]);
  float* y = static_cast<float*>(args->addrs[1]);
  for (int64_t i = 0; i < t->n + t->extra; ++i) y[i] = i < t->n ? x[i] : 42.f;
}
graphStatus SameShape(gert::InferShapeContext* ctx) {
  *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
  return GRAPH_SUCCESS;
}
graphStatus SameType(gert::InferDataTypeContext* ctx) { return ctx->SetOutputDataType(0, ctx->GetInputDataType(0)); }

class GuardTestCopy : public ops::OpDef {
 public:
  explicit GuardTestCopy(const char* name) : OpDef(name) {
    this->Input("x").ParamType(ops::REQUIRED).DataType({DT_FLOAT});
    this->Output("y").ParamType(ops::REQUIRED).DataType({DT_FLOAT});
    this->SetInferShape(SameShape);
    this->SetInferDataType(SameType);
    this->AICore().SetTiling(CopyTilingFunc).SetKernel(CopyKernel);
    this->AICore().AddConfig("ascend910b");
  }
};
class GuardTestOverrun : public GuardTestCopy {
 public:
  explicit GuardTestOverrun(const char* name) : GuardTestCopy(name) {}
};
OP_ADD(GuardTestCopy);
OP_ADD(GuardTestOverrun);

// x -> Relu-free chain: op "first" then Neg-like copy "second" (two kernels, so the overrun is
// not only into a graph output's buffer).
Status RunChain(const std::string& op, const std::string& mode, std::vector<HostTensor>* out) {
  auto g = std::make_shared<Graph>("g");
  ValueId x = g->AddInput("x", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({mode == "host" ? -1 : 4})});
  ValueId mid = g->AddValue("mid", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({mode == "host" ? -1 : 4})});
  ValueId y = g->AddValue("y", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({mode == "host" ? -1 : 4})});
  g->AddNode("first", op, {x}, {mid}, {});
  g->AddNode("second", "GuardTestCopy", {mid}, {y}, {});
  g->AddOutput(y);
  ModelOptions opt;
  opt.mode = mode;
  opt.opt_level = 0;
  std::unique_ptr<Model> m;
  GE_RETURN_IF_ERROR(Model::FromGraph(g, opt, &m));
  HostTensor in(DT_FLOAT, Shape({4}));
  for (int i = 0; i < 4; ++i) in.mutable_data_as<float>()[i] = static_cast<float>(i);
  return m->Run({in}, out);
}

class GuardBytesTest : public ::testing::TestWithParam<std::string> {
 protected:
  void TearDown() override { SetGuardBytesForTesting(0); }
};

TEST_P(GuardBytesTest, AnOverrunFailsTheRunNamingTheNode) {
  SetGuardBytesForTesting(64);
  std::vector<HostTensor> out;
  Status st = RunChain("GuardTestOverrun", GetParam(), &out);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("first"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("wrote past the end of"), std::string::npos) << st.message();
}

TEST_P(GuardBytesTest, AKernelWithinItsOutputPasses) {
  SetGuardBytesForTesting(64);
  std::vector<HostTensor> out;
  Status st = RunChain("GuardTestCopy", GetParam(), &out);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(out[0].data_as<float>()[3], 3.f);
}

TEST_P(GuardBytesTest, WithoutGuardsTheOverrunGoesUnseen) {
  SetGuardBytesForTesting(0);
  std::vector<HostTensor> out;
  Status st = RunChain("GuardTestOverrun", GetParam(), &out);
  EXPECT_TRUE(st.ok()) << st.message();
}

INSTANTIATE_TEST_SUITE_P(Modes, GuardBytesTest, ::testing::Values("sink", "host"));

TEST(GuardBytesAllocator, GuardAfterTheRequestedBytes) {
  SetGuardBytesForTesting(32);
  {
    rt::CachingAllocator a;
    auto* p = static_cast<uint8_t*>(a.Malloc(10));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(a.CheckGuard(p), -1);
    p[9] = 1;  // the last byte asked for
    EXPECT_EQ(a.CheckGuard(p), -1);
    p[10] = 1;  // one too far
    EXPECT_EQ(a.CheckGuard(p), 0);
    a.Free(p);
    auto* q = static_cast<uint8_t*>(a.Malloc(10));  // reused: the guard is written afresh
    EXPECT_EQ(a.CheckGuard(q), -1);
    a.Free(q);
  }
  SetGuardBytesForTesting(0);
}

}  // namespace
}  // namespace ge
