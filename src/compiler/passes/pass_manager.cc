#include "compiler/passes/pass_manager.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/log.h"
#include "base/trace.h"
#include "compiler/passes/attention_fusion.h"
#include "compiler/passes/common_subexpression_elimination.h"
#include "compiler/passes/concat_conv_split.h"
#include "compiler/passes/conv_activation_fusion.h"
#include "compiler/passes/conv_bn_folding.h"
#include "compiler/passes/dead_code_elimination.h"
#include "compiler/passes/identity_elimination.h"
#include "compiler/passes/layer_norm_fusion.h"
#include "compiler/passes/matmul_add_to_gemm.h"
#include "compiler/passes/matmul_fusion.h"
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

}  // namespace

std::string OptimizeStats::ToString(int opt_level) const {
  std::vector<std::string> names;
  for (const auto& [name, n] : rounds_changed) names.push_back(name);
  return fmt::format("-O{}: {} -> {} nodes ({} folded, {} Shape/Size){}{}", opt_level, nodes_before, nodes_after,
                     folded, shapes_folded, names.empty() ? "" : "; ", fmt::join(names, ", "));
}

Status PassManager::Create(int opt_level, std::unique_ptr<PassManager>* out) {
  if (opt_level < 0 || opt_level > kMaxOptLevel)
    return InvalidArgument("optimization level {} is not one of 0, 1, 2", opt_level);
  std::unique_ptr<PassManager> pm(new PassManager());
  pm->level_ = opt_level;
  auto& p = pm->passes_;
  if (opt_level >= 1) {
    p.push_back(std::make_unique<IdentityElimination>());
    p.push_back(std::make_unique<CommonSubexpressionElimination>());
  }
  if (opt_level >= 2) {
    p.push_back(std::make_unique<ConvBnFolding>());
    p.push_back(std::make_unique<TransposeCancellation>());
    p.push_back(std::make_unique<MatMulAddToGemm>());
    p.push_back(std::make_unique<LayerNormFusion>());
    p.push_back(std::make_unique<SoftmaxFusion>());
    if (IsRegistered("FusedAttention")) p.push_back(std::make_unique<AttentionFusion>());
    if (IsRegistered("FusedMatMul")) p.push_back(std::make_unique<MatMulFusion>());
    if (IsRegistered("MatMulWeightPack")) p.push_back(std::make_unique<MatMulWeightPacking>());
    if (IsRegistered("FusedConv")) {
      p.push_back(std::make_unique<ConvActivationFusion>());
      p.push_back(std::make_unique<ConcatConvSplit>());
    } else
      GELOGD("pass manager: FusedConv is not registered, conv-activation-fusion is off");
  }
  if (opt_level >= 1) p.push_back(std::make_unique<DeadCodeElimination>());
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

}  // namespace ge
