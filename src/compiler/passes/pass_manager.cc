#include "compiler/passes/pass_manager.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/log.h"
#include "base/trace.h"
#include "compiler/passes/attention_fusion.h"
#include "compiler/passes/common_subexpression_elimination.h"
#include "compiler/passes/concat_conv_split.h"
#include "compiler/passes/concat_scale_shift_fusion.h"
#include "compiler/passes/conv_activation_fusion.h"
#include "compiler/passes/conv_bn_folding.h"
#include "compiler/passes/conv_depthwise_fusion.h"
#include "compiler/passes/conv_input_scale_fusion.h"
#include "compiler/passes/conv_row_mean_fusion.h"
#include "compiler/passes/dead_code_elimination.h"
#include "compiler/passes/identity_elimination.h"
#include "compiler/passes/layer_norm_fusion.h"
#include "compiler/passes/matmul_add_to_gemm.h"
#include "compiler/passes/matmul_fusion.h"
#include "compiler/passes/matmul_layer_norm_fusion.h"
#include "compiler/passes/matmul_weight_packing.h"
#include "compiler/passes/softmax_fusion.h"
#include "compiler/passes/transpose_cancellation.h"
#include "register/op_impl_registry.h"

namespace ge {
namespace {

constexpr int kMaxRounds = 8;

bool IsRegistered(const char* op) {
  auto registry = gert::DefaultOpImplSpaceRegistryV2::GetInstance().GetSpaceRegistry();
  return registry->GetOpImpl(op) != nullptr;
}

// Every pass by name: the operator its rewrite creates (which must be registered: the fused
// kernels exist only in some builds) and its factory.
struct PassEntry {
  const char* name;
  const char* needs_op;  // nullptr: only standard operators
  std::unique_ptr<GraphPass> (*make)();
};

template <typename P>
std::unique_ptr<GraphPass> Make() {
  return std::make_unique<P>();
}

constexpr PassEntry kPasses[] = {
    {"attention-fusion", "FusedAttention", Make<AttentionFusion>},
    {"common-subexpression-elimination", nullptr, Make<CommonSubexpressionElimination>},
    {"concat-conv-split", "FusedConv", Make<ConcatConvSplit>},
    {"concat-scale-shift-fusion", "ConcatScaleShift", Make<ConcatScaleShiftFusion>},
    {"conv-activation-fusion", "FusedConv", Make<ConvActivationFusion>},
    {"conv-bn-folding", nullptr, Make<ConvBnFolding>},
    {"conv-depthwise-fusion", "FusedConvDw", Make<ConvDepthwiseFusion>},
    {"conv-input-scale-fusion", "FusedConv", Make<ConvInputScaleFusion>},
    {"conv-row-mean-fusion", "FusedConvRowMeans", Make<ConvRowMeanFusion>},
    {"dead-code-elimination", nullptr, Make<DeadCodeElimination>},
    {"identity-elimination", nullptr, Make<IdentityElimination>},
    {"layer-norm-fusion", nullptr, Make<LayerNormFusion>},
    {"matmul-add-to-gemm", nullptr, Make<MatMulAddToGemm>},
    {"matmul-fusion", "FusedMatMul", Make<MatMulFusion>},
    {"matmul-layer-norm-fusion", "FusedMatMul", Make<MatMulLayerNormFusion>},
    {"matmul-weight-packing", "MatMulWeightPack", Make<MatMulWeightPacking>},
    {"softmax-fusion", nullptr, Make<SoftmaxFusion>},
    {"transpose-cancellation", nullptr, Make<TransposeCancellation>},
};

const PassEntry* FindPass(const std::string& name) {
  for (const PassEntry& e : kPasses)
    if (name == e.name) return &e;
  return nullptr;
}

// The passes of each level, in the order a round runs them; dead-code elimination runs last.
const std::vector<const char*>& LevelPasses(int opt_level) {
  static const std::vector<const char*> kLevels[kMaxOptLevel + 1] = {
      {},
      {"identity-elimination", "common-subexpression-elimination", "dead-code-elimination"},
      {"identity-elimination", "common-subexpression-elimination", "conv-bn-folding", "transpose-cancellation",
       "matmul-add-to-gemm", "layer-norm-fusion", "softmax-fusion", "attention-fusion", "matmul-fusion",
       "matmul-layer-norm-fusion", "matmul-weight-packing", "conv-activation-fusion", "concat-conv-split",
       "dead-code-elimination"},
  };
  return kLevels[opt_level];
}

}  // namespace

std::string OptimizeStats::ToString(int opt_level) const {
  std::vector<std::string> names;
  for (const auto& [name, n] : rounds_changed) names.push_back(name);
  return fmt::format("-O{}: {} -> {} nodes ({} folded, {} Shape/Size){}{}", opt_level, nodes_before, nodes_after,
                     folded, shapes_folded, names.empty() ? "" : "; ", fmt::join(names, ", "));
}

Status PassManager::MakePass(const std::string& name, std::unique_ptr<GraphPass>* out) {
  const PassEntry* e = FindPass(name);
  if (!e)
    return InvalidArgument("unknown graph pass '{}'; the passes are: {}", name, fmt::join(GraphPassNames(), ", "));
  if (e->needs_op && !IsRegistered(e->needs_op))
    return Unsupported("graph pass '{}' makes {} nodes, and this build registers no {} kernel", name, e->needs_op,
                       e->needs_op);
  *out = e->make();
  return Status::Ok();
}

Status PassManager::Create(int opt_level, std::unique_ptr<PassManager>* out) {
  if (opt_level < 0 || opt_level > kMaxOptLevel)
    return InvalidArgument("optimization level {} is not one of 0, 1, 2", opt_level);
  std::unique_ptr<PassManager> pm(new PassManager());
  pm->level_ = opt_level;
  for (const char* name : LevelPasses(opt_level)) {
    const PassEntry* e = FindPass(name);
    if (e->needs_op && !IsRegistered(e->needs_op)) {
      GELOGD("pass manager: {} is not registered, {} is off", e->needs_op, name);
      continue;
    }
    pm->passes_.push_back(e->make());
  }
  *out = std::move(pm);
  return Status::Ok();
}

Status PassManager::Run(Graph* g, OptimizeStats* stats) const {
  OptimizeStats local;
  local.nodes_before = g->num_nodes();
  StaticInferenceOptions inference;
  auto infer = [&]() -> Status {
    trace::Step step("static inference");
    GE_RETURN_IF_ERROR(RunStaticInference(g, inference, &local.inference));
    local.folded += local.inference.folded;
    local.shapes_folded += local.inference.shapes_folded;
    return Status::Ok();
  };
  GE_RETURN_IF_ERROR(infer());
  for (int round = 0; round < kMaxRounds && !passes_.empty(); ++round) {
    bool any = false;
    for (const auto& pass : passes_) {
      bool changed = false;
      Status st;
      {
        trace::Step step(pass->name());
        st = pass->Run(g, &changed);
      }
      if (!st.ok()) return st.Prepend(fmt::format("{} pass: ", pass->name()));
      if (changed) local.rounds_changed[pass->name()]++;
      any |= changed;
    }
    if (!any) break;
    GE_RETURN_IF_ERROR(g->Verify());
    GE_RETURN_IF_ERROR(infer());
  }
  local.nodes_after = g->num_nodes();
  GELOGD("optimizer of '{}': {}", g->name(), local.ToString(level_));
  if (stats) *stats = local;
  return Status::Ok();
}

Status OptimizeGraph(Graph* graph, int opt_level, OptimizeStats* stats) {
  std::unique_ptr<PassManager> pm;
  GE_RETURN_IF_ERROR(PassManager::Create(opt_level, &pm));
  return pm->Run(graph, stats);
}

std::vector<std::string> GraphPassNames() {
  std::vector<std::string> names;
  for (const PassEntry& e : kPasses) names.emplace_back(e.name);
  return names;
}

Status RunGraphPass(const std::string& name, Graph* graph, bool* changed) {
  std::unique_ptr<GraphPass> pass;
  GE_RETURN_IF_ERROR(PassManager::MakePass(name, &pass));
  bool c = false;
  Status st = pass->Run(graph, &c);
  if (!st.ok()) return st.Prepend(fmt::format("{} pass: ", name));
  if (changed) *changed = c;
  return Status::Ok();
}

Status GraphPassesOfLevel(int opt_level, std::vector<std::string>* names) {
  std::unique_ptr<PassManager> pm;
  GE_RETURN_IF_ERROR(PassManager::Create(opt_level, &pm));
  names->clear();
  for (const auto& p : pm->passes()) names->emplace_back(p->name());
  return Status::Ok();
}

}  // namespace ge
