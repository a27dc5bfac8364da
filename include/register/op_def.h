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

enum Option { IGNORE = 0, OPTIONAL = 1, REQUIRED = 2, DYNAMIC = 3, VIRTUAL = 4 };
// Which of an input's properties an output copies (Follow).
enum class FollowType { ALL = 0, DTYPE = 1, FORMAT = 2, SHAPE = 3, INVALID_TYPE };
// Who reads a value-depend input's data: shape inference and tiling (ALL) or tiling only.
enum class DependScope { ALL = 0, TILING = 1, INVALID_SCOPE };
enum class CommentSection { BRIEF = 0, CONSTRAINTS, RESTRICTIONS, SEE, THIRDPARTYFWKCOMPAT, SECTION_MAX };
enum class AttrDataType {
  ATTR_DT_BOOL = 0,
  ATTR_DT_FLOAT = 1,
  ATTR_DT_INT = 2,
  ATTR_DT_STR = 3,
  ATTR_DT_LIST_BOOL = 4,
  ATTR_DT_LIST_FLOAT = 5,
  ATTR_DT_LIST_INT = 6,
  ATTR_DT_LIST_LIST_INT = 7,
  ATTR_DT_MAX
};
// How strictly Ascend matches input formats against the declared ones (recorded on GE).
enum class FormatCheckOption : uint32_t { DEFAULT = 0, STRICT = 1, MAX };
// Where an MC2 (compute + communication) op's collective runs (recorded on GE).
enum HcclServerType : uint32_t { AICPU = 0, MTE = 1, CCU = 2, MAX = 3 };
enum class ScalarType {
  UINT64 = 0,
  INT64 = 1,
  UINT32 = 2,
  INT32 = 3,
  UINT8 = 4,
  INT8 = 5,
  UINT16 = 6,
  INT16 = 7,
  FLOAT32 = 8,
  FLOAT16 = 9,
  INVALID_DTYPE = -1
};
union ScalarNum {
  uint64_t value_u64;
  int64_t value_i64;
  float value_f32;
  ScalarNum() : value_u64(0) {}
  explicit ScalarNum(uint64_t v) : value_u64(v) {}
  explicit ScalarNum(int64_t v) : value_i64(v) {}
  explicit ScalarNum(float v) : value_f32(v) {}
};
// An output's initial value (InitValue): the number and the type it is written as.
struct ScalarVar {
  ScalarType scalar_type = ScalarType::INVALID_DTYPE;
  ScalarNum scalar_num;
  ScalarVar() = default;
  // The number is stored as the type says: a float for FLOAT32/FLOAT16, an integer otherwise.
  ScalarVar(ScalarType type, uint64_t num) : scalar_type(type), scalar_num(num) {
    if (IsFloat()) scalar_num = ScalarNum(static_cast<float>(num));
  }
  ScalarVar(ScalarType type, int64_t num) : scalar_type(type), scalar_num(num) {
    if (IsFloat()) scalar_num = ScalarNum(static_cast<float>(num));
  }
  ScalarVar(ScalarType type, int num) : ScalarVar(type, static_cast<int64_t>(num)) {}
  ScalarVar(ScalarType type, unsigned int num) : ScalarVar(type, static_cast<uint64_t>(num)) {}
  ScalarVar(ScalarType type, float num) : scalar_type(type), scalar_num(num) {
    if (type == ScalarType::UINT64)
      scalar_num = ScalarNum(static_cast<uint64_t>(num));
    else if (!IsFloat())
      scalar_num = ScalarNum(static_cast<int64_t>(num));
  }
  ScalarVar(ScalarType type, double num) : ScalarVar(type, static_cast<float>(num)) {}
  bool IsFloat() const { return scalar_type == ScalarType::FLOAT32 || scalar_type == ScalarType::FLOAT16; }
  bool operator==(const ScalarVar& o) const {
    return scalar_type == o.scalar_type && scalar_num.value_u64 == o.scalar_num.value_u64;
  }
  // The value as a double, whatever its type.
  double AsDouble() const {
    if (IsFloat()) return scalar_num.value_f32;
    return scalar_type == ScalarType::UINT64 ? static_cast<double>(scalar_num.value_u64)
                                             : static_cast<double>(scalar_num.value_i64);
  }
};

class OpParamDef {
 public:
  explicit OpParamDef(const char* name) : name_(name) {}
  OpParamDef& ParamType(Option t) {
    param_type_ = t;
    return *this;
  }
  OpParamDef& DataType(std::vector<ge::DataType> types) {
    dtypes_ = std::move(types);
    return *this;
  }
  OpParamDef& Format(std::vector<ge::Format> formats) {
    formats_ = std::move(formats);
    return *this;
  }
  // One list for every format (DataType/Format pair up position by position instead).
  OpParamDef& DataTypeList(std::vector<ge::DataType> types) {
    dtype_list_ = std::move(types);
    return *this;
  }
  OpParamDef& FormatList(std::vector<ge::Format> formats) {
    format_list_ = std::move(formats);
    return *this;
  }
  // The dtypes/formats Ascend looks its prebuilt kernel binaries up by: no binaries on GE, so
  // recorded only.
  OpParamDef& DataTypeForBinQuery(std::vector<ge::DataType> types) {
    bin_dtypes_ = std::move(types);
    return *this;
  }
  OpParamDef& FormatForBinQuery(std::vector<ge::Format> formats) {
    bin_formats_ = std::move(formats);
    return *this;
  }
  // Formats for unknown-shape compilation: Ascend's private formats; GE runs ND layouts only.
  OpParamDef& UnknownShapeFormat(std::vector<ge::Format> formats) {
    unknown_shape_formats_ = std::move(formats);
    return *this;
  }
  OpParamDef& ValueDepend(Option v) {
    value_depend_ = v;
    return *this;
  }
  OpParamDef& ValueDepend(Option v, DependScope scope) {
    value_depend_ = v;
    depend_scope_ = scope;
    return *this;
  }
  // This output copies the named input's dtype, format and shape (or the one property given):
  // an op without its own inference functions gets them from its Follow declarations.
  OpParamDef& Follow(const char* param_name) { return Follow(param_name, FollowType::ALL); }
  OpParamDef& Follow(const char* param_name, FollowType type) {
    follow_ = param_name;
    follow_type_ = type;
    return *this;
  }
  // Contiguity: GE's tensors are always contiguous when a kernel sees them, so both are no-ops.
  OpParamDef& AutoContiguous() { return *this; }
  OpParamDef& IgnoreContiguous() { return *this; }
  // Ascend's typed aclnn API takes this input as an aclScalar / aclScalarList. Recorded: GE's
  // generated API takes it as a (0-d / 1-d) aclTensor.
  OpParamDef& Scalar() {
    scalar_ = 1;
    return *this;
  }
  OpParamDef& ScalarList() {
    scalar_ = 2;
    return *this;
  }
  // The scalar's dtype in the kernel: a fixed one, or that of the named input (recorded).
  OpParamDef& To(ge::DataType type) {
    to_type_ = type;
    return *this;
  }
  OpParamDef& To(const char* name) {
    to_name_ = name;
    return *this;
  }
  // The value Ascend fills the output with before the kernel runs (kernels that accumulate).
  // Recorded (GetInitValues); GE does not pre-fill outputs: a CPU kernel writes all of its output.
  OpParamDef& InitValue(uint64_t value) { return InitValue(ScalarVar(ScalarType::UINT64, value)); }
  OpParamDef& InitValue(const ScalarVar& value) {
    init_values_.assign(1, value);
    return *this;
  }
  OpParamDef& InitValue(const std::vector<ScalarVar>& values) {
    init_values_ = values;
    return *this;
  }
  // The output's shape is known only after the kernel ran (a non-zero count, unique values).
  // Recorded only: on GE such an op registers OutputsByExecute and sizes its outputs itself.
  OpParamDef& OutputShapeDependOnCompute() {
    shape_depend_on_compute_ = true;
    return *this;
  }
  OpParamDef& Comment(const char* text) {
    comment_ = text;
    return *this;
  }
  // The aclnn API version that added this parameter (aclnnXxxV<n>).
  OpParamDef& Version(uint32_t version) {
    version_ = version;
    return *this;
  }

  const std::string& GetName() const { return name_; }
  Option GetParamType() const { return param_type_; }
  const std::vector<ge::DataType>& GetDataTypes() const { return dtypes_; }
  const std::vector<ge::Format>& GetFormats() const { return formats_; }
  Option GetValueDepend() const { return value_depend_; }
  DependScope GetDependScope() const { return depend_scope_; }
  const std::vector<ge::DataType>& GetDataTypeList() const { return dtype_list_; }
  const std::vector<ge::Format>& GetFormatList() const { return format_list_; }
  const std::vector<ge::Format>& GetUnknownShapeFormats() const { return unknown_shape_formats_; }
  const std::string& GetFollow() const { return follow_; }
  FollowType GetFollowType() const { return follow_type_; }
  bool IsScalar() const { return scalar_ == 1; }
  bool IsScalarList() const { return scalar_ == 2; }
  ge::DataType GetToType() const { return to_type_; }
  const std::string& GetToName() const { return to_name_; }
  const std::vector<ScalarVar>& GetInitValues() const { return init_values_; }
  bool IsOutputShapeDependOnCompute() const { return shape_depend_on_compute_; }
  const std::string& GetComment() const { return comment_; }
  uint32_t GetVersion() const { return version_; }

 private:
  std::string name_;
  Option param_type_ = REQUIRED;
  std::vector<ge::DataType> dtypes_;
  std::vector<ge::Format> formats_;
  std::vector<ge::DataType> dtype_list_;
  std::vector<ge::Format> format_list_;
  std::vector<ge::Format> unknown_shape_formats_;
  std::vector<ge::DataType> bin_dtypes_;
  std::vector<ge::Format> bin_formats_;
  Option value_depend_ = IGNORE;
  DependScope depend_scope_ = DependScope::ALL;
  std::string follow_;
  FollowType follow_type_ = FollowType::ALL;
  int scalar_ = 0;
  ge::DataType to_type_ = ge::DT_UNDEFINED;
  std::string to_name_;
  std::vector<ScalarVar> init_values_;
  bool shape_depend_on_compute_ = false;
  std::string comment_;
  uint32_t version_ = 0;
};

class OpAttrDef {
 public:
  explicit OpAttrDef(const char* name) : name_(name) {}
  OpAttrDef& AttrType(Option t) {
    required_ = (t == REQUIRED);
    return *this;
  }
  OpAttrDef& Bool() { return Kind(gert::RuntimeAttrValue::kBool); }
  OpAttrDef& Bool(bool v) {
    Kind(gert::RuntimeAttrValue::kBool);
    default_.b = v;
    return *this;
  }
  OpAttrDef& Int() { return Kind(gert::RuntimeAttrValue::kInt); }
  OpAttrDef& Int(int64_t v) {
    Kind(gert::RuntimeAttrValue::kInt);
    default_.i = v;
    return *this;
  }
  OpAttrDef& Float() { return Kind(gert::RuntimeAttrValue::kFloat); }
  OpAttrDef& Float(float v) {
    Kind(gert::RuntimeAttrValue::kFloat);
    default_.f = v;
    return *this;
  }
  OpAttrDef& String() { return Kind(gert::RuntimeAttrValue::kString); }
  OpAttrDef& String(const char* v) {
    Kind(gert::RuntimeAttrValue::kString);
    default_.s = v;
    return *this;
  }
  OpAttrDef& ListInt() { return Kind(gert::RuntimeAttrValue::kListInt); }
  OpAttrDef& ListInt(std::vector<int64_t> v) {
    Kind(gert::RuntimeAttrValue::kListInt);
    default_.ints = std::move(v);
    return *this;
  }
  OpAttrDef& ListFloat() { return Kind(gert::RuntimeAttrValue::kListFloat); }
  OpAttrDef& ListFloat(std::vector<float> v) {
    Kind(gert::RuntimeAttrValue::kListFloat);
    default_.floats = std::move(v);
    return *this;
  }
  OpAttrDef& ListString() { return Kind(gert::RuntimeAttrValue::kListString); }
  OpAttrDef& ListString(std::vector<std::string> v) {
    Kind(gert::RuntimeAttrValue::kListString);
    default_.strings = std::move(v);
    return *this;
  }
  OpAttrDef& ListBool() { return Kind(gert::RuntimeAttrValue::kListBool); }
  OpAttrDef& ListBool(std::vector<bool> v) {
    Kind(gert::RuntimeAttrValue::kListBool);
    default_.bools.assign(v.begin(), v.end());
    return *this;
  }
  OpAttrDef& ListListInt() { return Kind(gert::RuntimeAttrValue::kListListInt); }
  OpAttrDef& ListListInt(std::vector<std::vector<int64_t>> v) {
    Kind(gert::RuntimeAttrValue::kListListInt);
    default_.list_ints = std::move(v);
    return *this;
  }
  OpAttrDef& Comment(const char* text) {
    comment_ = text;
    return *this;
  }
  OpAttrDef& Version(uint32_t version) {
    version_ = version;
    return *this;
  }

  const std::string& GetName() const { return name_; }
  bool IsRequired() const { return required_; }
  const std::string& GetComment() const { return comment_; }
  uint32_t GetVersion() const { return version_; }
  const gert::RuntimeAttrValue& GetDefault() const { return default_; }

 private:
  OpAttrDef& Kind(gert::RuntimeAttrValue::Kind k) {
    default_.kind = k;
    return *this;
  }
  std::string name_;
  bool required_ = false;
  gert::RuntimeAttrValue default_;
  std::string comment_;
  uint32_t version_ = 0;
};

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
    views_.push_back({output, input});
    return *this;
  }
  // Output `output` may be written over input `input` when both have the same dtype and shape:
  // the kernel reads element i of the input before writing element i of the output, and no
  // other element of it (elementwise ops, activations).
  OpDef& OutputInplace(uint32_t output, uint32_t input) {
    inplaces_.push_back({output, input});
    return *this;
  }

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
};

// Registers a prototype: records it and its functions in the default OpImplSpaceRegistryV2,
// and, when fallback is enabled, a generated op-execute function. Returns 0.
int AddOpDef(std::shared_ptr<OpDef> def);
// The prototype registered for an op type, or null.
std::shared_ptr<const OpDef> GetOpDef(const std::string& op_type);

}  // namespace ops

#define OP_ADD(opType, ...) static int g_##opType##_op_def_added = ::ops::AddOpDef(std::make_shared<opType>(#opType))

#endif  // GE_INCLUDE_REGISTER_OP_DEF_H_
