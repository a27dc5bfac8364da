// OpDef bookkeeping and OP_ADD registration into the op-implementation registry.
#include "register/op_def.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <mutex>
#include <set>

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

namespace optiling {
namespace {
std::mutex g_check_mu;
std::map<std::pair<std::string, std::string>, OP_CHECK_FUNC>& CheckFuncs() {
  static std::map<std::pair<std::string, std::string>, OP_CHECK_FUNC> funcs;
  return funcs;
}
}  // namespace

OpCheckFuncHelper::OpCheckFuncHelper(const ge::AscendString& check_type, const ge::AscendString& op_type,
                                     OP_CHECK_FUNC func) {
  std::lock_guard<std::mutex> lock(g_check_mu);
  CheckFuncs()[{check_type.str(), op_type.str()}] = func;
}
// Parameter generalization serves Ascend's binary reuse: nothing on GE calls it.
OpCheckFuncHelper::OpCheckFuncHelper(const ge::AscendString&, PARAM_GENERALIZE_FUNC) {}

OP_CHECK_FUNC GetRegisteredOpCheckFunc(const char* check_type, const char* op_type) {
  std::lock_guard<std::mutex> lock(g_check_mu);
  auto it = CheckFuncs().find({check_type, op_type});
  return it == CheckFuncs().end() ? nullptr : it->second;
}
}  // namespace optiling

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

namespace {
// The SoC names Ascend's op projects configure (lower case, as AddConfig spells them).
const std::set<std::string>& KnownSocs() {
  static const std::set<std::string> socs = {
      "ascend031",  "ascend035",     "ascend310", "ascend310b", "ascend310p",   "ascend610",
      "ascend610b", "ascend610lite", "ascend910", "ascend910b", "ascend910_93", "ascend910_95",
      "ascend950",  "bs9sx1a",       "bs9sx2a",   "mc61am21a",  "kirinx90",     "kirin9030"};
  return socs;
}
}  // namespace

void CheckSocName(const char* soc) {
  if (soc == nullptr || KnownSocs().count(soc) == 0)
    GELOGW("AddConfig(\"{}\"): unknown SoC name (known: {})", soc ? soc : "(null)", fmt::join(KnownSocs(), ", "));
}

const OpAICoreConfig* OpAICoreDef::GetDeviceConfig() const {
  auto it = configs_.find(ge::GetDeviceSocName());
  return it == configs_.end() ? nullptr : &it->second;
}

std::string OpDef::GetAclnnSupport() const {
  const auto kKey = "aclnnSupport.value";
  std::string mode;
  if (const OpAICoreConfig* dev = aicore_.GetDeviceConfig()) {
    auto it = dev->GetCfgInfo().find(kKey);
    if (it != dev->GetCfgInfo().end()) mode = it->second;
  } else {
    std::map<std::string, std::string> modes;  // soc -> mode
    for (const auto& [soc, cfg] : aicore_.GetConfigs()) {
      auto it = cfg.GetCfgInfo().find(kKey);
      if (it != cfg.GetCfgInfo().end()) modes[soc] = it->second;
    }
    for (const auto& [soc, m] : modes) {
      if (!mode.empty() && m != mode) {
        GELOGW(
            "{}: AI-core configs disagree on aclnnSupport.value ({}); no config for this device ({}), so the "
            "op keeps its kernel (support_aclnn)",
            type_, fmt::join(modes, ", "), ge::GetDeviceSocName());
        return "support_aclnn";
      }
      mode = m;
    }
  }
  if (!mode.empty()) return mode;
  return fallback_ ? "support_aclnn" : "";
}

void OpDef::ApplyDeviceConfig() {
  const OpAICoreConfig* dev = aicore_.GetDeviceConfig();
  if (dev == nullptr) return;
  auto apply = [&](std::vector<OpParamDef>& params, const std::vector<OpParamDef>& overrides, const char* what) {
    for (const auto& o : overrides) {
      auto it =
          std::find_if(params.begin(), params.end(), [&](const OpParamDef& p) { return p.GetName() == o.GetName(); });
      if (it == params.end())
        GELOGW("{}: AddConfig(\"{}\") redefines {} '{}', which the op does not declare", type_, dev->GetSoc(), what,
               o.GetName());
      else
        *it = o;
    }
  };
  apply(inputs_, dev->GetInputs(), "input");
  apply(outputs_, dev->GetOutputs(), "output");
}

namespace {
// The IR index of the input named `name`, or -1.
int InputIndex(const OpDef& def, const std::string& name) {
  for (size_t i = 0; i < def.GetInputs().size(); ++i)
    if (def.GetInputs()[i].GetName() == name) return static_cast<int>(i);
  return -1;
}

bool Follows(const OpParamDef& out, FollowType what) {
  return !out.GetFollow().empty() && (out.GetFollowType() == FollowType::ALL || out.GetFollowType() == what);
}

// Inference for an op that declares Follow on its outputs and no functions of its own.
ge::graphStatus FollowInferShape(gert::InferShapeContext* ctx) {
  auto def = GetOpDef(ctx->GetNodeType());
  if (def == nullptr) return ge::GRAPH_FAILED;
  for (size_t o = 0; o < def->GetOutputs().size(); ++o) {
    const OpParamDef& out = def->GetOutputs()[o];
    int in = Follows(out, FollowType::SHAPE) ? InputIndex(*def, out.GetFollow()) : -1;
    const gert::Shape* src = in < 0 ? nullptr : ctx->GetRequiredInputShape(static_cast<size_t>(in));
    gert::Shape* dst = ctx->GetRequiredOutputShape(o);
    if (src == nullptr || dst == nullptr) {
      GELOGE("{}: output '{}' has no shape inference (no InferShape, no Follow of a given input)", ctx->GetNodeType(),
             out.GetName());
      return ge::GRAPH_FAILED;
    }
    *dst = *src;
  }
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus FollowInferDataType(gert::InferDataTypeContext* ctx) {
  auto def = GetOpDef(ctx->GetNodeType());
  if (def == nullptr) return ge::GRAPH_FAILED;
  for (size_t o = 0; o < def->GetOutputs().size(); ++o) {
    const OpParamDef& out = def->GetOutputs()[o];
    int in = Follows(out, FollowType::DTYPE) ? InputIndex(*def, out.GetFollow()) : -1;
    ge::DataType dt = ge::DT_UNDEFINED;
    if (in >= 0) dt = ctx->GetRequiredInputDataType(static_cast<size_t>(in));
    if (dt == ge::DT_UNDEFINED && out.GetDataTypes().size() == 1) dt = out.GetDataTypes()[0];
    if (dt == ge::DT_UNDEFINED && out.GetDataTypeList().size() == 1) dt = out.GetDataTypeList()[0];
    if (dt == ge::DT_UNDEFINED || ctx->SetRequiredOutputDataType(o, dt) != ge::GRAPH_SUCCESS) {
      GELOGE("{}: output '{}' has no dtype inference (no InferDataType, no Follow, no single dtype)",
             ctx->GetNodeType(), out.GetName());
      return ge::GRAPH_FAILED;
    }
  }
  return ge::GRAPH_SUCCESS;
}

bool AnyFollow(const OpDef& def) {
  for (const auto& o : def.GetOutputs())
    if (!o.GetFollow().empty()) return true;
  return false;
}
}  // namespace

int AddOpDef(std::shared_ptr<OpDef> def) {
  def->ApplyDeviceConfig();
  auto& impl =
      gert::DefaultOpImplSpaceRegistryV2::GetInstance().GetSpaceRegistry()->CreateOrGetOpImpl(def->GetOpType().c_str());
  if (def->GetInferShape()) impl.infer_shape = def->GetInferShape();
  if (def->GetInferDataType()) impl.infer_datatype = def->GetInferDataType();
  if (def->GetInferShapeRange()) impl.infer_shape_range = def->GetInferShapeRange();
  if (AnyFollow(*def)) {
    if (impl.infer_shape == nullptr) impl.infer_shape = FollowInferShape;
    if (impl.infer_datatype == nullptr) impl.infer_datatype = FollowInferDataType;
  }
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
