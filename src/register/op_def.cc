// OpDef bookkeeping and OP_ADD registration into the op-implementation registry.
#include "register/op_def.h"

#include <mutex>

#include "base/log.h"
#include "register/fallback_hook.h"

namespace ge {
namespace {
FallbackGenerator g_fallback_generator = nullptr;
}
void SetFallbackGenerator(FallbackGenerator g) { g_fallback_generator = g; }
FallbackGenerator GetFallbackGenerator() { return g_fallback_generator; }

gert::OpExecuteFunc ResolveFallback(const char* op_type) {
  auto registry = gert::DefaultOpImplSpaceRegistryV2::GetInstance().GetSpaceRegistry();
  if (registry->GetOpImpl(op_type) == nullptr) return nullptr;
  auto& impl = registry->CreateOrGetOpImpl(op_type);
  if (impl.op_execute_func == nullptr && impl.op_def && impl.op_def->IsFallBackEnabled() && g_fallback_generator) {
    impl.op_execute_func = g_fallback_generator(op_type);
    impl.op_execute_is_generated = impl.op_execute_func != nullptr;
  }
  return impl.op_execute_func;
}
}  // namespace ge

namespace ops {

namespace {
std::mutex g_defs_mu;
std::map<std::string, std::shared_ptr<const OpDef>>& Defs() {
  static std::map<std::string, std::shared_ptr<const OpDef>> defs;
  return defs;
}
}  // namespace

OpParamDef& OpDef::Find(std::vector<OpParamDef>& params, const char* name) {
  for (auto& p : params)
    if (p.GetName() == name) return p;
  params.emplace_back(name);
  return params.back();
}

OpAttrDef& OpDef::Attr(const char* name) {
  for (auto& a : attrs_)
    if (a.GetName() == name) return a;
  attrs_.emplace_back(name);
  return attrs_.back();
}

std::string OpDef::GetAclnnSupport() const {
  std::string mode;
  for (const auto& [soc, cfg] : aicore_.GetConfigs()) {
    auto it = cfg.GetCfgInfo().find("aclnnSupport.value");
    if (it != cfg.GetCfgInfo().end()) mode = it->second;
  }
  if (!mode.empty()) return mode;
  return fallback_ ? "support_aclnn" : "";
}

int AddOpDef(std::shared_ptr<OpDef> def) {
  auto& impl =
      gert::DefaultOpImplSpaceRegistryV2::GetInstance().GetSpaceRegistry()->CreateOrGetOpImpl(def->GetOpType().c_str());
  if (def->GetInferShape()) impl.infer_shape = def->GetInferShape();
  if (def->GetInferDataType()) impl.infer_datatype = def->GetInferDataType();
  if (def->GetAICore().GetTiling()) impl.tiling = def->GetAICore().GetTiling();
  if (def->GetAICore().GetKernel()) impl.kernel = def->GetAICore().GetKernel();
  if (def->IsFallBackEnabled() && impl.op_execute_func == nullptr) {
    if (auto gen = ge::GetFallbackGenerator()) {
      impl.op_execute_func = gen(def->GetOpType().c_str());
      impl.op_execute_is_generated = impl.op_execute_func != nullptr;
    }
  }
  impl.op_def = def;
  std::lock_guard<std::mutex> lock(g_defs_mu);
  Defs()[def->GetOpType()] = def;
  return 0;
}

std::shared_ptr<const OpDef> GetOpDef(const std::string& op_type) {
  std::lock_guard<std::mutex> lock(g_defs_mu);
  auto it = Defs().find(op_type);
  return it == Defs().end() ? nullptr : it->second;
}

}  // namespace ops
