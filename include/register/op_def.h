// ops::OpDef: the Ascend-style operator prototype (inputs, outputs, attributes, functions,
// AI-core configuration, fallback), and OP_ADD which registers it.
#ifndef GE_INCLUDE_REGISTER_OP_DEF_H_
#define GE_INCLUDE_REGISTER_OP_DEF_H_

#include <cstdint>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "exe_graph/runtime/runtime_attrs.h"
#include "graph/ascend_string.h"
#include "graph/operator.h"
#include "graph/types.h"
#include "register/op_impl_registry.h"
#include "register/op_param_def.h"

namespace optiling {
// A check-support / op-select-format function: fills `result` (a JSON string) about `op`.
using OP_CHECK_FUNC = ge::graphStatus (*)(const ge::Operator& op, ge::AscendString& result);
// Generalizes an op's parameters for binary reuse (Ascend's compiler; recorded on GE).
using PARAM_GENERALIZE_FUNC = ge::graphStatus (*)(const ge::Operator& op, const ge::AscendString& generalize_config,
                                                  ge::AscendString& generalized_op_params);

#define FUNC_CHECK_SUPPORTED "check_supported"
#define FUNC_OP_SELECT_FORMAT "op_select_format"
#define FUNC_GET_OP_SUPPORT_INFO "get_op_support_info"
#define FUNC_GET_SPECIFIC_INFO "get_op_specific_info"

// Registers an op's check function by kind (FUNC_CHECK_SUPPORTED, ...) outside its OpDef; GE
// calls a FUNC_CHECK_SUPPORTED one as it calls OpAICoreDef::SetCheckSupport's.
class OpCheckFuncHelper {
 public:
  OpCheckFuncHelper(const ge::AscendString& check_type, const ge::AscendString& op_type, OP_CHECK_FUNC func);
  OpCheckFuncHelper(const ge::AscendString& op_type, PARAM_GENERALIZE_FUNC func);
};
// The function registered for (check_type, op_type), or null.
OP_CHECK_FUNC GetRegisteredOpCheckFunc(const char* check_type, const char* op_type);
}  // namespace optiling

namespace ops {

class OpAICoreConfig {
 public:
  OpAICoreConfig() = default;
  explicit OpAICoreConfig(const char* soc) : soc_(soc) {}
  // Ascend compile-time switches with no CPU meaning (kept for GetFlag).
  OpAICoreConfig& DynamicCompileStaticFlag(bool f) { return Flag("dynamicCompileStatic.flag", f); }
  OpAICoreConfig& DynamicFormatFlag(bool f) { return Flag("dynamicFormat.flag", f); }
  OpAICoreConfig& PrecisionReduceFlag(bool f) { return Flag("precision_reduce.flag", f); }
  // Whether the op accepts unknown dims / unknown rank. Recorded (GetFlag): GE re-runs shape
  // inference and tiling per run for dynamic shapes, which every op supports.
  OpAICoreConfig& DynamicShapeSupportFlag(bool f) { return Flag("dynamicShapeSupport.flag", f); }
  OpAICoreConfig& DynamicRankSupportFlag(bool f) { return Flag("dynamicRankSupport.flag", f); }
  // GE calls the op's check-support function (SetCheckSupport) for each node before tiling it.
  OpAICoreConfig& NeedCheckSupportFlag(bool f) { return Flag("needCheckSupport.flag", f); }
  // Known key: "aclnnSupport.value" = "support_aclnn" | "aclnn_only".
  OpAICoreConfig& ExtendCfgInfo(const char* key, const char* value) {
    cfg_info_[key] = value;
    return *this;
  }
  // This SoC's own version of a parameter (dtypes and formats that differ on it).
  OpParamDef& Input(const char* name) { return Find(inputs_, name); }
  OpParamDef& Output(const char* name) { return Find(outputs_, name); }

  const std::map<std::string, std::string>& GetCfgInfo() const { return cfg_info_; }
  // A flag's value, or `dflt` when the config does not set it.
  bool GetFlag(const std::string& key, bool dflt) const {
    std::map<std::string, std::string>::const_iterator it = cfg_info_.find(key);
    return it == cfg_info_.end() ? dflt : it->second == "true";
  }
  const std::string& GetSoc() const { return soc_; }
  const std::vector<OpParamDef>& GetInputs() const { return inputs_; }
  const std::vector<OpParamDef>& GetOutputs() const { return outputs_; }

 private:
  OpAICoreConfig& Flag(const char* key, bool f) {
    cfg_info_[key] = f ? "true" : "false";
    return *this;
  }
  static OpParamDef& Find(std::vector<OpParamDef>& params, const char* name) {
    for (size_t i = 0; i < params.size(); ++i)
      if (params[i].GetName() == name) return params[i];
    params.push_back(OpParamDef(name));
    return params.back();
  }
  std::string soc_;
  std::map<std::string, std::string> cfg_info_;
  std::vector<OpParamDef> inputs_;
  std::vector<OpParamDef> outputs_;
};

// Warns (naming it) when `soc` is not a SoC name Ascend's AddConfig knows.
void CheckSocName(const char* soc);

class OpAICoreDef {
 public:
  OpAICoreDef& SetTiling(gert::TilingKernelFunc f) {
    tiling_ = f;
    return *this;
  }
  OpAICoreDef& SetCheckSupport(optiling::OP_CHECK_FUNC f) {
    check_support_ = f;
    return *this;
  }
  // Ascend picks private formats with it; GE runs ND layouts, so it is recorded, not called.
  OpAICoreDef& SetOpSelectFormat(optiling::OP_CHECK_FUNC f) {
    op_select_format_ = f;
    return *this;
  }
  // Ascend's op-info queries (split/fusion support, op-specific info) and parameter
  // generalization serve its graph compiler and binary reuse: recorded, not called.
  OpAICoreDef& SetOpSupportInfo(optiling::OP_CHECK_FUNC f) {
    op_support_info_ = f;
    return *this;
  }
  OpAICoreDef& SetOpSpecInfo(optiling::OP_CHECK_FUNC f) {
    op_spec_info_ = f;
    return *this;
  }
  OpAICoreDef& SetParamGeneralize(optiling::PARAM_GENERALIZE_FUNC f) {
    param_generalize_ = f;
    return *this;
  }
  // Launch the kernel even when every output is empty (Ascend skips such launches). Recorded.
  OpAICoreDef& LaunchWithZeroEleOutputTensors(bool flag) {
    zero_ele_launch_ = flag;
    return *this;
  }
  OpAICoreDef& AddConfig(const char* soc) { return AddConfig(soc, OpAICoreConfig(soc)); }
  OpAICoreDef& AddConfig(const char* soc, const OpAICoreConfig& cfg) {
    CheckSocName(soc);
    configs_[soc] = cfg;
    return *this;
  }
  // GE: the device kernel launched with the tiling function's block dim and tiling data.
  OpAICoreDef& SetKernel(aclrtKernelFunc f) {
    kernel_ = f;
    return *this;
  }

  gert::TilingKernelFunc GetTiling() const { return tiling_; }
  aclrtKernelFunc GetKernel() const { return kernel_; }
  optiling::OP_CHECK_FUNC GetCheckSupport() const { return check_support_; }
  optiling::OP_CHECK_FUNC GetOpSelectFormat() const { return op_select_format_; }
  optiling::OP_CHECK_FUNC GetOpSupportInfo() const { return op_support_info_; }
  optiling::OP_CHECK_FUNC GetOpSpecInfo() const { return op_spec_info_; }
  optiling::PARAM_GENERALIZE_FUNC GetParamGeneralize() const { return param_generalize_; }
  bool GetZeroEleOutputLaunchFlag() const { return zero_ele_launch_; }
  const std::map<std::string, OpAICoreConfig>& GetConfigs() const { return configs_; }
  // The config that applies on this device (GE_SOC_VERSION, default ascend910b), or null.
  const OpAICoreConfig* GetDeviceConfig() const;

 private:
  gert::TilingKernelFunc tiling_ = nullptr;
  aclrtKernelFunc kernel_ = nullptr;
  optiling::OP_CHECK_FUNC check_support_ = nullptr;
  optiling::OP_CHECK_FUNC op_select_format_ = nullptr;
  optiling::OP_CHECK_FUNC op_support_info_ = nullptr;
  optiling::OP_CHECK_FUNC op_spec_info_ = nullptr;
  optiling::PARAM_GENERALIZE_FUNC param_generalize_ = nullptr;
  bool zero_ele_launch_ = false;
  std::map<std::string, OpAICoreConfig> configs_;
};

// The AI-CPU and host-CPU engine configurations Ascend registers alongside the AI-core one. GE's
// single device runs the op's kernel wherever it is declared: recorded (GetCfgInfo).
class OpCpuEngineDef {
 public:
  OpCpuEngineDef& Engine(const char* value) { return Set("engine", value); }
  OpCpuEngineDef& FlagPartial(bool flag) { return Set("flagPartial", flag ? "true" : "false"); }
  OpCpuEngineDef& ComputeCost(const char* value) { return Set("computeCost", value); }
  OpCpuEngineDef& FlagAsync(bool flag) { return Set("flagAsync", flag ? "true" : "false"); }
  OpCpuEngineDef& OpKernelLib(const char* value) { return Set("opKernelLib", value); }
  OpCpuEngineDef& KernelSo(const char* value) { return Set("kernelSo", value); }
  OpCpuEngineDef& FunctionName(const char* value) { return Set("functionName", value); }
  OpCpuEngineDef& UserDefined(bool flag) { return Set("userDefined", flag ? "true" : "false"); }
  OpCpuEngineDef& ExtendCfgInfo(const char* key, const char* value) { return Set(key, value); }
  const std::map<std::string, std::string>& GetCfgInfo() const { return cfg_info_; }

 private:
  OpCpuEngineDef& Set(const char* key, const char* value) {
    cfg_info_[key] = value ? value : "";
    return *this;
  }
  std::map<std::string, std::string> cfg_info_;
};
using OpAICPUDef = OpCpuEngineDef;
using OpHostCPUDef = OpCpuEngineDef;

// An MC2 op's communication groups and server type: no collectives on the CPU device; recorded.
class OpMC2Def {
 public:
  OpMC2Def& HcclGroup(const char* value) {
    groups_.assign(1, value);
    return *this;
  }
  OpMC2Def& HcclGroup(std::vector<const char*> value) {
    groups_.assign(value.begin(), value.end());
    return *this;
  }
  void HcclServerType(enum HcclServerType type, const char* soc = nullptr) { server_types_[soc ? soc : ""] = type; }
  const std::vector<std::string>& GetHcclGroups() const { return groups_; }

 private:
  std::vector<std::string> groups_;
  std::map<std::string, enum HcclServerType> server_types_;
};

class OpDef {
 public:
  explicit OpDef(const char* type) : type_(type) {}
  virtual ~OpDef() = default;

  OpParamDef& Input(const char* name) { return Find(inputs_, name); }
  OpParamDef& Output(const char* name) { return Find(outputs_, name); }
  OpAttrDef& Attr(const char* name);
  OpDef& SetInferShape(gert::InferShapeKernelFunc f) {
    infer_shape_ = f;
    return *this;
  }
  OpDef& SetInferShapeRange(gert::InferShapeRangeKernelFunc f) {
    infer_shape_range_ = f;
    return *this;
  }
  OpDef& Comment(CommentSection section, const char* text) {
    comments_[section].push_back(text);
    return *this;
  }
  OpDef& SetInferDataType(gert::InferDataTypeKernelFunc f) {
    infer_dtype_ = f;
    return *this;
  }
  OpAICoreDef& AICore() { return aicore_; }
  OpAICPUDef& AICPU() { return aicpu_; }
  OpHostCPUDef& HostCPU() { return hostcpu_; }
  OpMC2Def& MC2() { return mc2_; }
  // Recorded (GetFormatMatchMode): GE does not check formats against the declared lists.
  OpDef& FormatMatchMode(FormatCheckOption option) {
    format_match_mode_ = option;
    return *this;
  }
  FormatCheckOption GetFormatMatchMode() const { return format_match_mode_; }
  OpDef& EnableFallBack() {
    fallback_ = true;
    return *this;
  }
  // Memory properties the compiler's planner uses (GE: output reuse of an input).
  // Output `output` is input `input`'s bytes reinterpreted, unchanged (Reshape, Squeeze,
  // Identity): when dtype and size match, no buffer and no task are planned for it.
  OpDef& OutputView(uint32_t output, uint32_t input) {
    views_.push_back({output, input, "", ""});
    return *this;
  }
  // Output `output` may be written over input `input` when both have the same dtype and shape:
  // the kernel reads element i of the input before writing element i of the output, and no
  // other element of it (elementwise ops, activations).
  OpDef& OutputInplace(uint32_t output, uint32_t input) {
    inplaces_.push_back({output, input, "", ""});
    return *this;
  }
  // The same, only for nodes whose string attribute `attr` (or its declared default) is `value`:
  // FusedConv's residual Z in the NHWC layout, where oneDNN's sum post-op accumulates onto it.
  // A kernel that reads input `input` element for element but another input fully (a conv whose
  // X is also its residual) is not in place: the planner skips a value given to two inputs
  // unless both are declared.
  OpDef& OutputInplace(uint32_t output, uint32_t input, const char* attr, const char* value) {
    inplaces_.push_back({output, input, attr, value});
    return *this;
  }
  // How Model::Flops counts this op's multiply-accumulates from static shapes (2 flops each):
  // kConvolution: |Y| x C/group x kernel size (C from X in the node's "layout", kernel from
  // "kernel_shape" or W [M, C/group, k...]); kMatMul: |Y| x K, K being A's last dim (the first
  // with "transA" and a rank-2 A). kNone (the default): not counted.
  enum class MacsRule { kNone, kConvolution, kMatMul };
  OpDef& Macs(MacsRule rule) {
    macs_ = rule;
    return *this;
  }
  MacsRule GetMacs() const { return macs_; }

  const std::string& GetOpType() const { return type_; }
  const std::vector<OpParamDef>& GetInputs() const { return inputs_; }
  const std::vector<OpParamDef>& GetOutputs() const { return outputs_; }
  const std::vector<OpAttrDef>& GetAttrs() const { return attrs_; }
  gert::InferShapeKernelFunc GetInferShape() const { return infer_shape_; }
  gert::InferDataTypeKernelFunc GetInferDataType() const { return infer_dtype_; }
  gert::InferShapeRangeKernelFunc GetInferShapeRange() const { return infer_shape_range_; }
  const std::map<CommentSection, std::vector<std::string>>& GetComments() const { return comments_; }
  // Replaces each parameter the device's AI-core config redefines (OpAICoreConfig::Input /
  // Output) by that definition; AddOpDef calls it.
  void ApplyDeviceConfig();
  const OpAICoreDef& GetAICore() const { return aicore_; }
  bool IsFallBackEnabled() const { return fallback_; }
  struct OutputReuse {
    uint32_t output;
    uint32_t input;
    std::string attr;  // OutputInplace's condition; empty: always
    std::string value;
  };
  const std::vector<OutputReuse>& GetOutputViews() const { return views_; }
  const std::vector<OutputReuse>& GetOutputInplaces() const { return inplaces_; }
  // "" (no fallback), "support_aclnn" or "aclnn_only", from EnableFallBack and the AI-core
  // configs' "aclnnSupport.value": the device's config decides; without one, the configs must
  // agree (when they do not, a warning names them and the op keeps its kernel: support_aclnn).
  std::string GetAclnnSupport() const;

 private:
  OpParamDef& Find(std::vector<OpParamDef>& params, const char* name);
  std::string type_;
  std::vector<OpParamDef> inputs_;
  std::vector<OpParamDef> outputs_;
  std::vector<OpAttrDef> attrs_;
  gert::InferShapeKernelFunc infer_shape_ = nullptr;
  gert::InferDataTypeKernelFunc infer_dtype_ = nullptr;
  gert::InferShapeRangeKernelFunc infer_shape_range_ = nullptr;
  std::map<CommentSection, std::vector<std::string>> comments_;
  OpAICoreDef aicore_;
  OpAICPUDef aicpu_;
  OpHostCPUDef hostcpu_;
  OpMC2Def mc2_;
  FormatCheckOption format_match_mode_ = FormatCheckOption::DEFAULT;
  bool fallback_ = false;
  std::vector<OutputReuse> views_;
  std::vector<OutputReuse> inplaces_;
  MacsRule macs_ = MacsRule::kNone;
};

// Registers a prototype: records it and its functions in the default OpImplSpaceRegistryV2,
// and, when fallback is enabled, a generated op-execute function. Returns 0.
int AddOpDef(std::shared_ptr<OpDef> def);
// The prototype registered for an op type, or null.
std::shared_ptr<const OpDef> GetOpDef(const std::string& op_type);

}  // namespace ops

#define OP_ADD(opType, ...) static int g_##opType##_op_def_added = ::ops::AddOpDef(std::make_shared<opType>(#opType))

#endif  // GE_INCLUDE_REGISTER_OP_DEF_H_
