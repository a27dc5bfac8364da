// The compile-time fallback decision (DESIGN.md's table), end to end:
// {no fallback, support_aclnn, aclnn_only} x {static, dynamic} x {online, offline}: where each
// node runs, the segment count of the broken graph, the debug lines "<node>, setting fallback
// attribute", the deprecation warning for aclnn_only, and the offline error. Also: a
// hand-written op-execute function wins over the generated one.
#include <spdlog/sinks/ostream_sink.h>

#include <sstream>

#include "base/log.h"
#include "opapi/fallback_test_util.h"
#include "register/fallback_hook.h"
#include "register/op_def.h"

namespace ge::testing {
namespace {

// Three copies of "y = x + 1" that differ only in their aclnn mode.
struct AddOneTiling {
  int64_t n;
};
graphStatus AddOneTilingFunc(gert::TilingContext* ctx) {
  auto* t = ctx->GetTilingData<AddOneTiling>();
  t->n = ctx->GetInputShape(0)->GetStorageShape().GetShapeSize();
  return GRAPH_SUCCESS;
}
void AddOneKernel(const aclrtKernelArgs* args) {
  const auto* t = static_cast<const AddOneTiling*>(args->tiling);
  const float* x = static_cast<const float*>(args->addrs[0]);
  float* y = static_cast<float*>(args->addrs[1]);
  for (int64_t i = 0; i < t->n; ++i) y[i] = x[i] + 1.f;
}
graphStatus SameShape(gert::InferShapeContext* ctx) {
  *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
  return GRAPH_SUCCESS;
}
graphStatus SameType(gert::InferDataTypeContext* ctx) { return ctx->SetOutputDataType(0, ctx->GetInputDataType(0)); }

class AddOneBase : public ops::OpDef {
 public:
  explicit AddOneBase(const char* name) : OpDef(name) {
    this->Input("x").ParamType(ops::REQUIRED).DataType({DT_FLOAT});
    this->Output("y").ParamType(ops::REQUIRED).DataType({DT_FLOAT});
    this->SetInferShape(SameShape);
    this->SetInferDataType(SameType);
    this->AICore().SetTiling(AddOneTilingFunc).SetKernel(AddOneKernel);
  }
};
class FbNone : public AddOneBase {
 public:
  explicit FbNone(const char* n) : AddOneBase(n) { this->AICore().AddConfig("ascend910b"); }
};
class FbSupport : public AddOneBase {
 public:
  explicit FbSupport(const char* n) : AddOneBase(n) {
    this->AICore().AddConfig("ascend910b");
    this->EnableFallBack();
  }
};
class FbOnly : public AddOneBase {
 public:
  explicit FbOnly(const char* n) : AddOneBase(n) {
    ops::OpAICoreConfig cfg("ascend910b");
    cfg.ExtendCfgInfo("aclnnSupport.value", "aclnn_only");
    this->AICore().AddConfig("ascend910b", cfg);
    this->EnableFallBack();
  }
};
class FbHand : public AddOneBase {
 public:
  explicit FbHand(const char* n) : AddOneBase(n) {
    this->AICore().AddConfig("ascend910b");
    this->EnableFallBack();
  }
};
OP_ADD(FbNone);
OP_ADD(FbSupport);
OP_ADD(FbOnly);
OP_ADD(FbHand);

int g_hand_calls = 0;
graphStatus HandWritten(gert::OpExecuteContext* ctx) {
  ++g_hand_calls;
  const gert::Tensor* x = ctx->GetInputTensor(0);
  gert::Tensor* y = ctx->GetOutputTensor(0);
  // Runs on the host after the stream drains (a real one would call its aclnn API).
  aclrtSynchronizeStream(ctx->GetStream());
  for (int64_t i = 0; i < x->GetShapeSize(); ++i) y->GetData<float>()[i] = x->GetData<float>()[i] + 1.f;
  return GRAPH_SUCCESS;
}
IMPL_OP(FbHand).OpExecuteFunc(HandWritten);

// Captures the GE logger at debug level for the test's lifetime.
class LogCapture {
 public:
  LogCapture() : sink_(std::make_shared<spdlog::sinks::ostream_sink_mt>(out_)) {
    saved_ = Logger().level();
    Logger().sinks().push_back(sink_);
    Logger().set_level(spdlog::level::debug);
  }
  ~LogCapture() {
    auto& sinks = Logger().sinks();
    sinks.erase(std::remove(sinks.begin(), sinks.end(), sink_), sinks.end());
    Logger().set_level(saved_);
  }
  std::string text() const { return out_.str(); }
  int Count(const std::string& s) const {
    int n = 0;
    std::string t = text();
    for (size_t p = t.find(s); p != std::string::npos; p = t.find(s, p + 1)) ++n;
    return n;
  }

 private:
  std::ostringstream out_;
  std::shared_ptr<spdlog::sinks::ostream_sink_mt> sink_;
  spdlog::level::level_enum saved_;
};

// x -> a (FbNone) -> b (FbSupport) -> c (FbOnly) -> d (FbNone) -> y; `with_only` = false drops c.
std::shared_ptr<Graph> Chain(bool dynamic, bool with_only) {
  auto g = std::make_shared<Graph>("chain");
  ValueId v = g->AddInput("x", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({dynamic ? -1 : 2, 3})});
  std::vector<std::pair<const char*, const char*>> nodes = {{"a", "FbNone"}, {"b", "FbSupport"}};
  if (with_only) nodes.push_back({"c", "FbOnly"});
  nodes.push_back({"d", "FbNone"});
  for (auto [name, type] : nodes) {
    ValueId out = g->AddValue(std::string(name) + "_out");
    g->AddNode(name, type, {v}, {out});
    v = out;
  }
  g->AddOutput(v);
  return g;
}

// Segments of the broken graph: maximal runs of sink nodes vs host nodes in execution order.
int Segments(const std::vector<Placement>& p) {
  int n = 0;
  for (size_t i = 0; i < p.size(); ++i)
    if (i == 0 || (p[i] == Placement::kSink) != (p[i - 1] == Placement::kSink)) ++n;
  return n;
}

struct Row {
  const char* name;
  bool dynamic, offline, with_only;
  std::vector<Placement> want;  // a, b, [c], d
  int segments;
  std::vector<const char*> fallback_lines;  // nodes logged "setting fallback attribute"
  const char* error;                        // offline error text, or null
};

constexpr auto S = Placement::kSink, K = Placement::kHostKernel, F = Placement::kHostFallback;

class DecisionTable : public ::testing::TestWithParam<Row> {
 protected:
  void SetUp() override { EnsureTestDevice(); }
};

TEST_P(DecisionTable, PlacementLogsSegmentsAndResults) {
  const Row& r = GetParam();
  LogCapture log;
  CompileOptions opt;
  opt.offline = r.offline;
  GraphRun run = CompileAndRun(Chain(r.dynamic, r.with_only), opt, {FloatTensor({2, 3}, {0, 1, 2, 3, 4, 5})});
  if (r.error) {
    ASSERT_FALSE(run.status.ok());
    EXPECT_NE(run.status.message().find(r.error), std::string::npos) << run.status.message();
    return;
  }
  ASSERT_TRUE(run.status.ok()) << run.status.message();
  EXPECT_EQ(run.placement, r.want);
  EXPECT_EQ(Segments(run.placement), r.segments);
  EXPECT_EQ(log.Count("setting fallback attribute"), static_cast<int>(r.fallback_lines.size())) << log.text();
  for (const char* n : r.fallback_lines)
    EXPECT_EQ(log.Count(std::string("] ") + n + ", setting fallback attribute"), 1) << n << "\n" << log.text();
  uint64_t fallbacks = std::count(r.want.begin(), r.want.end(), F);
  EXPECT_EQ(run.stats.fallbacks, fallbacks);
  EXPECT_EQ(run.stats.launches, r.want.size() - fallbacks);
  float adds = static_cast<float>(r.want.size());
  EXPECT_EQ(ToFloats(run.outputs[0]), (std::vector<float>{adds, 1 + adds, 2 + adds, 3 + adds, 4 + adds, 5 + adds}));
}

INSTANTIATE_TEST_SUITE_P(AllModes, DecisionTable,
                         ::testing::Values(
                             // no fallback (a, d), support_aclnn (b), aclnn_only (c)
                             Row{"static_online", false, false, true, {S, S, F, S}, 3, {"c"}, nullptr},
                             Row{"dynamic_online", true, false, true, {K, F, F, K}, 1, {"b", "c"}, nullptr},
                             Row{"static_offline_aclnn_only",
                                 false,
                                 true,
                                 true,
                                 {},
                                 0,
                                 {},
                                 "node 'c' (FbOnly): operator FbOnly is aclnn_only"},
                             Row{"dynamic_offline_aclnn_only",
                                 true,
                                 true,
                                 true,
                                 {},
                                 0,
                                 {},
                                 "node 'c' (FbOnly): operator FbOnly is aclnn_only"},
                             Row{"static_online_no_aclnn_only", false, false, false, {S, S, S}, 1, {}, nullptr},
                             Row{"dynamic_online_no_aclnn_only", true, false, false, {K, F, K}, 1, {"b"}, nullptr},
                             Row{"static_offline", false, true, false, {S, S, S}, 1, {}, nullptr},
                             Row{"dynamic_offline", true, true, false, {K, K, K}, 1, {}, nullptr}),
                         [](const ::testing::TestParamInfo<Row>& i) { return std::string(i.param.name); });

TEST(FallbackDecision, AclnnOnlyWarnsOnceAsDeprecated) {
  EnsureTestDevice();
  LogCapture log;
  for (int i = 0; i < 3; ++i) {
    std::vector<Placement> p;
    auto g = Chain(false, true);
    ASSERT_TRUE(RunStaticInference(g.get()).ok());
    ASSERT_TRUE(DecidePlacement(*g, CompileOptions{}, &p).ok());
  }
  // Once per process and op type: earlier tests may already have warned.
  EXPECT_LE(log.Count("FbOnly uses aclnnSupport.value = aclnn_only, which is deprecated"), 1);
}

TEST(FallbackDecision, GeneratedUnlessHandWritten) {
  auto reg = gert::DefaultOpImplSpaceRegistryV2::GetInstance().GetSpaceRegistry();
  ASSERT_NE(ResolveFallback("FbSupport"), nullptr);
  EXPECT_TRUE(reg->GetOpImpl("FbSupport")->op_execute_is_generated);
  EXPECT_EQ(ResolveFallback("FbHand"), &HandWritten);
  EXPECT_FALSE(reg->GetOpImpl("FbHand")->op_execute_is_generated);
  EXPECT_EQ(ResolveFallback("FbNone"), nullptr);
}

TEST(FallbackDecision, HandWrittenFallbackRuns) {
  EnsureTestDevice();
  auto g = std::make_shared<Graph>("hand");
  ValueId x = g->AddInput("x", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({-1})});
  ValueId y = g->AddValue("y");
  g->AddNode("h", "FbHand", {x}, {y});
  g->AddOutput(y);
  g_hand_calls = 0;
  GraphRun run = CompileAndRun(g, CompileOptions{}, {FloatTensor({3}, {1, 2, 3})});
  ASSERT_TRUE(run.status.ok()) << run.status.message();
  EXPECT_EQ(run.placement[0], Placement::kHostFallback);
  EXPECT_EQ(g_hand_calls, 1);
  EXPECT_EQ(ToFloats(run.outputs[0]), (std::vector<float>{2, 3, 4}));
}

}  // namespace
}  // namespace ge::testing
