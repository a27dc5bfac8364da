// The cost of the fallback path (DESIGN.md: the overhead users are warned about):
//   BM_DynamicMatMulChain/<path>   4 MatMuls of a [batch, 256] activation, dynamic batch:
//                                  fallback (aclnnMatmul) vs host kernel (offline compile)
//   BM_Add/<path>/<elements>       one Add-like node: fallback (generic aclnn entry) vs kernel
//   BM_StaticChain/<aclnn_only>    8 static Adds, one of them aclnn_only (graph break) vs none
// AddFb / AddOnly are copies of the built-in Add registered here with EnableFallBack() and
// aclnn_only, since the built-in Add has no fallback.
#include <benchmark/benchmark.h>

#include <random>

#include "api/model.h"
#include "compiler/placement.h"
#include "compiler/static_inference.h"
#include "executor/device_tensor.h"
#include "executor/host_executor.h"
#include "register/op_def.h"

namespace {

using namespace ge;

class AddCopy : public ops::OpDef {
 public:
  AddCopy(const char* name, bool aclnn_only) : OpDef(name) {
    auto reg = gert::DefaultOpImplSpaceRegistryV2::GetInstance().GetSpaceRegistry();
    const auto* add = reg->GetOpImpl("Add");
    this->Input("A").ParamType(ops::REQUIRED).DataType({DT_FLOAT});
    this->Input("B").ParamType(ops::REQUIRED).DataType({DT_FLOAT});
    this->Output("C").ParamType(ops::REQUIRED).DataType({DT_FLOAT});
    this->SetInferShape(add->infer_shape);
    this->SetInferDataType(add->infer_datatype);
    ops::OpAICoreConfig cfg("ascend910b");
    if (aclnn_only) cfg.ExtendCfgInfo("aclnnSupport.value", "aclnn_only");
    this->AICore().SetTiling(add->tiling).SetKernel(add->kernel).AddConfig("ascend910b", cfg);
    this->EnableFallBack();
  }
};

void RegisterCopies() {
  static bool done = [] {
    ops::AddOpDef(std::make_shared<AddCopy>("AddFb", false));
    ops::AddOpDef(std::make_shared<AddCopy>("AddOnly", true));
    return true;
  }();
  (void)done;
}

HostTensor Random(std::vector<int64_t> dims) {
  HostTensor t(DT_FLOAT, Shape(std::move(dims)));
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> d(-1, 1);
  for (int64_t i = 0; i < t.NumElements(); ++i) t.mutable_data_as<float>()[i] = d(gen);
  return t;
}

std::unique_ptr<HostExecutor> Compile(std::shared_ptr<Graph> g, const CompileOptions& opt) {
  std::vector<Placement> p;
  std::unique_ptr<HostExecutor> ex;
  if (!RunStaticInference(g.get()).ok() || !DecidePlacement(*g, opt, &p).ok() || !HostExecutor::Create(g, &p, &ex).ok())
    return nullptr;
  return ex;
}

void RunLoop(benchmark::State& state, HostExecutor* ex, const std::vector<HostTensor>& in) {
  if (ex == nullptr) {
    state.SkipWithError("compile failed");
    return;
  }
  std::vector<HostTensor> out;
  for (auto _ : state)
    if (!ex->Run(in, &out).ok()) state.SkipWithError("run failed");
  state.counters["fallbacks"] = static_cast<double>(ex->stats().fallbacks) / std::max<int64_t>(1, state.iterations());
}

// state.range(0): 1 = fallback path, 0 = host kernel path.
void BM_DynamicMatMulChain(benchmark::State& state) {
  const int64_t batch = state.range(1), width = 256;
  auto g = std::make_shared<Graph>("mm_chain");
  ValueId v = g->AddInput("x", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({-1, width})});
  for (int i = 0; i < 4; ++i) {
    ValueId w = g->AddConstant("w" + std::to_string(i), Random({width, width}));
    ValueId out = g->AddValue("h" + std::to_string(i));
    g->AddNode("mm" + std::to_string(i), "MatMul", {v, w}, {out});
    v = out;
  }
  g->AddOutput(v);
  CompileOptions opt;
  opt.offline = state.range(0) == 0;  // offline compiles never take the fallback
  auto ex = Compile(g, opt);
  RunLoop(state, ex.get(), {Random({batch, width})});
  state.SetLabel(state.range(0) ? "fallback (aclnnMatmul)" : "host kernel");
}
BENCHMARK(BM_DynamicMatMulChain)->ArgsProduct({{0, 1}, {1, 64, 512}})->UseRealTime();

void BM_Add(benchmark::State& state) {
  RegisterCopies();
  const int64_t n = state.range(1);
  auto g = std::make_shared<Graph>("add");
  ValueId a = g->AddInput("a", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({-1})});
  ValueId b = g->AddInput("b", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({-1})});
  ValueId c = g->AddValue("c");
  g->AddNode("add", "AddFb", {a, b}, {c});
  g->AddOutput(c);
  CompileOptions opt;
  opt.offline = state.range(0) == 0;
  auto ex = Compile(g, opt);
  RunLoop(state, ex.get(), {Random({n}), Random({n})});
  state.SetLabel(state.range(0) ? "fallback (aclnnOp)" : "host kernel");
}
BENCHMARK(BM_Add)->ArgsProduct({{0, 1}, {1024, 1 << 20}})->UseRealTime();

void BM_StaticChain(benchmark::State& state) {
  RegisterCopies();
  auto g = std::make_shared<Graph>("static_chain");
  ValueId v = g->AddInput("x", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({64, 256})});
  ValueId bias = g->AddConstant("bias", Random({64, 256}));
  for (int i = 0; i < 8; ++i) {
    ValueId out = g->AddValue("h" + std::to_string(i));
    g->AddNode("add" + std::to_string(i), (state.range(0) && i == 4) ? "AddOnly" : "Add", {v, bias}, {out});
    v = out;
  }
  g->AddOutput(v);
  // The whole compile path (auto mode): all-sink without the aclnn_only node; with it, the
  // graph breaks into sink / host fallback / sink segments.
  std::unique_ptr<Model> model;
  Status st = Model::FromGraph(g, ModelOptions{}, &model);
  if (!st.ok()) {
    state.SkipWithError(st.message().c_str());
    return;
  }
  std::vector<HostTensor> in = {Random({64, 256})}, out;
  for (auto _ : state)
    if (!model->Run(in, &out).ok()) state.SkipWithError("run failed");
  state.SetLabel(std::string(state.range(0) ? "one aclnn_only node" : "no aclnn_only node") + ", mode " +
                 model->mode());
}
BENCHMARK(BM_StaticChain)->Arg(0)->Arg(1)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
