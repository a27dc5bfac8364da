// For every operator registered with EnableFallBack(): its fallback path (generated op-execute
// function -> single-op API) gives the same outputs as its kernel path, on the ONNX backend
// cases of the operator and on random dynamic shapes. Where the single-op API picks a
// different kernel set than the operator's own kernel (split-K MatMul, three-pass Softmax),
// outputs agree to rounding; everywhere else they are bit-identical.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>

#include <fmt/ranges.h>

#include "ge/onnx_loader.h"
#include "opapi/fallback_test_util.h"
#include "register/fallback_hook.h"
#include "register/op_def.h"

namespace ge::testing {
namespace {

namespace fs = std::filesystem;
const char* kNodeData = "/usr/share/libonnx-testdata/data/node";

std::vector<std::string> FallbackOps() {
  std::vector<std::string> ops;
  auto reg = gert::DefaultOpImplSpaceRegistryV2::GetInstance().GetSpaceRegistry();
  for (const auto& t : reg->GetRegisteredOpTypes()) {
    auto def = ops::GetOpDef(t);
    if (def && def->IsFallBackEnabled()) ops.push_back(t);
  }
  return ops;
}

int CountNodes(const Graph& g, const std::string& type) {
  int n = 0;
  for (size_t i = 0; i < g.num_nodes(); ++i) n += g.node(i).type == type;
  return n;
}

void ExpectSame(const std::vector<HostTensor>& kernel, const std::vector<HostTensor>& fallback, double rtol,
                const std::string& what) {
  ASSERT_EQ(kernel.size(), fallback.size()) << what;
  for (size_t o = 0; o < kernel.size(); ++o) {
    ASSERT_EQ(kernel[o].dtype(), fallback[o].dtype()) << what;
    ASSERT_EQ(kernel[o].shape(), fallback[o].shape()) << what;
    if (rtol == 0) {
      ASSERT_EQ(kernel[o].NumBytes(), fallback[o].NumBytes()) << what;
      EXPECT_EQ(std::memcmp(kernel[o].data(), fallback[o].data(), kernel[o].NumBytes()), 0)
          << what << ": output " << o << " differs between the kernel and the fallback path";
      continue;
    }
    ASSERT_EQ(kernel[o].dtype(), DT_FLOAT) << what;
    auto k = ToFloats(kernel[o]), f = ToFloats(fallback[o]);
    for (size_t i = 0; i < k.size(); ++i) ASSERT_NEAR(k[i], f[i], rtol * (1 + std::abs(k[i]))) << what << " at " << i;
  }
}

class FallbackEquivalence : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { EnsureTestDevice(); }
};

TEST_P(FallbackEquivalence, FallbackIsGenerated) {
  const std::string& op = GetParam();
  ASSERT_NE(ResolveFallback(op.c_str()), nullptr) << op;
  auto reg = gert::DefaultOpImplSpaceRegistryV2::GetInstance().GetSpaceRegistry();
  EXPECT_TRUE(reg->GetOpImpl(op.c_str())->op_execute_is_generated) << op << " has a hand-written fallback";
}

// The operator's ONNX backend cases (test_<op>, test_<op>_*; not the *_expanded ones).
TEST_P(FallbackEquivalence, OnnxBackendCases) {
  std::string prefix = "test_" + GetParam();
  std::transform(prefix.begin(), prefix.end(), prefix.begin(), [](unsigned char c) { return std::tolower(c); });
  if (!fs::exists(kNodeData)) GTEST_SKIP() << kNodeData << " missing (libonnx-testdata)";
  int cases = 0;
  for (const auto& dir : fs::directory_iterator(kNodeData)) {
    std::string name = dir.path().filename();
    if (name != prefix && name.rfind(prefix + "_", 0) != 0) continue;
    if (name.find("_expanded") != std::string::npos) continue;
    std::vector<HostTensor> inputs;
    for (int k = 0; fs::exists(dir.path() / "test_data_set_0" / fmt::format("input_{}.pb", k)); ++k) {
      inputs.emplace_back();
      ASSERT_TRUE(
          LoadTensorProtoFile(dir.path() / "test_data_set_0" / fmt::format("input_{}.pb", k), &inputs.back()).ok());
    }
    std::shared_ptr<Graph> g1, g2;
    ASSERT_TRUE(LoadOnnxModel(dir.path() / "model.onnx", &g1).ok()) << name;
    ASSERT_TRUE(LoadOnnxModel(dir.path() / "model.onnx", &g2).ok()) << name;
    int nodes = CountNodes(*g1, GetParam());
    CompileOptions kernel_opt, fallback_opt;
    fallback_opt.prefer_fallback = true;
    GraphRun k = CompileAndRun(g1, kernel_opt, inputs);
    GraphRun f = CompileAndRun(g2, fallback_opt, inputs);
    ASSERT_TRUE(k.status.ok()) << name << ": " << k.status.message();
    ASSERT_TRUE(f.status.ok()) << name << ": " << f.status.message();
    EXPECT_EQ(k.stats.fallbacks, 0u) << name;
    EXPECT_EQ(f.stats.fallbacks, static_cast<uint64_t>(nodes)) << name;
    ExpectSame(k.outputs, f.outputs, 0, name);
    ++cases;
  }
  EXPECT_GT(cases, 0) << "no ONNX backend case for " << GetParam() << " (looked for " << prefix << "*)";
}

// Random dynamic-shape graphs per operator: inputs declared with unknown dims, so an online
// compile takes the fallback (support_aclnn) and an offline one the host kernel.
struct RandomCase {
  std::vector<std::vector<int64_t>> shapes;
  AttrMap attrs;
  double rtol = 0;
};
using CaseGen = std::function<std::vector<RandomCase>(std::mt19937&)>;

std::vector<RandomCase> MatMulCases(std::mt19937& gen) {
  std::uniform_int_distribution<int64_t> d(1, 48);
  std::vector<RandomCase> v;
  for (int i = 0; i < 6; ++i) v.push_back({{{d(gen), d(gen)}, {}}, {}});
  for (auto& c : v) c.shapes[1] = {c.shapes[0][1], d(gen)};
  v.push_back({{{3, d(gen), 7}, {7, 5}}, {}});
  v.push_back({{{2, 1, 4, 6}, {3, 6, 2}}, {}});
  v.push_back({{{4, 6000}, {6000, 3}}, {}, 1e-4});  // split-K in the fallback
  return v;
}

std::vector<RandomCase> SoftmaxCases(std::mt19937& gen) {
  std::uniform_int_distribution<int64_t> d(1, 9);
  std::vector<RandomCase> v;
  for (int rank = 1; rank <= 4; ++rank) {
    std::vector<int64_t> s;
    for (int i = 0; i < rank; ++i) s.push_back(d(gen));
    for (int64_t axis = -rank; axis < rank; ++axis) v.push_back({{s}, {{"axis", axis}}});
  }
  v.push_back({{{1, 30000}}, {{"axis", int64_t{-1}}}, 1e-5});  // three-pass split in the fallback
  return v;
}

const std::map<std::string, CaseGen>& Generators() {
  static const std::map<std::string, CaseGen> gens = {{"MatMul", MatMulCases}, {"Softmax", SoftmaxCases}};
  return gens;
}

std::shared_ptr<Graph> SingleOpGraph(const std::string& op, const RandomCase& c) {
  auto g = std::make_shared<Graph>("random_" + op);
  std::vector<ValueId> ins;
  for (size_t i = 0; i < c.shapes.size(); ++i)
    ins.push_back(g->AddInput(fmt::format("x{}", i),
                              TensorDesc{DT_FLOAT, FORMAT_ND, Shape(std::vector<int64_t>(c.shapes[i].size(), -1))}));
  ValueId y = g->AddValue("y");
  g->AddNode("node", op, ins, {y}, c.attrs);
  g->AddOutput(y);
  return g;
}

TEST_P(FallbackEquivalence, RandomDynamicShapes) {
  auto it = Generators().find(GetParam());
  if (it == Generators().end()) GTEST_SKIP() << "no random-shape generator for " << GetParam() << " yet";
  std::mt19937 gen(1234);
  for (const RandomCase& c : it->second(gen)) {
    std::vector<HostTensor> inputs;
    uint32_t seed = 1;
    for (const auto& s : c.shapes) {
      int64_t n = 1;
      for (int64_t d : s) n *= d;
      inputs.push_back(FloatTensor(s, RandomFloats(n, seed++)));
    }
    CompileOptions online, offline;
    offline.offline = true;
    GraphRun f = CompileAndRun(SingleOpGraph(GetParam(), c), online, inputs);
    GraphRun k = CompileAndRun(SingleOpGraph(GetParam(), c), offline, inputs);
    std::string what = fmt::format("{} {}", GetParam(), fmt::join(c.shapes, " x "));
    ASSERT_TRUE(f.status.ok()) << what << ": " << f.status.message();
    ASSERT_TRUE(k.status.ok()) << what << ": " << k.status.message();
    EXPECT_EQ(f.placement[0], Placement::kHostFallback) << what;
    EXPECT_EQ(k.placement[0], Placement::kHostKernel) << what;
    EXPECT_EQ(f.stats.fallbacks, 1u) << what;
    ExpectSame(k.outputs, f.outputs, c.rtol, what);
  }
}

INSTANTIATE_TEST_SUITE_P(EveryFallbackOp, FallbackEquivalence, ::testing::ValuesIn(FallbackOps()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

TEST(FallbackOps, MatMulAndSoftmaxAreCovered) {
  auto ops = FallbackOps();
  for (const char* op : {"MatMul", "Softmax"})
    EXPECT_NE(std::find(ops.begin(), ops.end(), op), ops.end()) << op << " should register EnableFallBack()";
}

}  // namespace
}  // namespace ge::testing
