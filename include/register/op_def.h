// ops::OpDef: the Ascend-style operator prototype (inputs, outputs, attributes, functions,
// AI-core configuration, fallback), and OP_ADD which registers it.
#ifndef GE_INCLUDE_REGISTER_OP_DEF_H_
#define GE_INCLUDE_REGISTER_OP_DEF_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "exe_graph/runtime/runtime_attrs.h"
#include "graph/types.h"
#include "register/op_impl_registry.h"

namespace ops {

enum Option { IGNORE = 0, OPTIONAL = 1, REQUIRED = 2, DYNAMIC = 3, VIRTUAL = 4 };

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
  OpParamDef& UnknownShapeFormat(std::vector<ge::Format> formats) { return Format(std::move(formats)); }
  OpParamDef& ValueDepend(Option v) {
    value_depend_ = v;
    return *this;
  }
  OpParamDef& AutoContiguous() { return *this; }

  const std::string& GetName() const { return name_; }
  Option GetParamType() const { return param_type_; }
  const std::vector<ge::DataType>& GetDataTypes() const { return dtypes_; }
  const std::vector<ge::Format>& GetFormats() const { return formats_; }
  Option GetValueDepend() const { return value_depend_; }

 private:
  std::string name_;
  Option param_type_ = REQUIRED;
  std::vector<ge::DataType> dtypes_;
  std::vector<ge::Format> formats_;
  Option value_depend_ = IGNORE;
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
  OpAttrDef& ListListInt() { return Kind(gert::RuntimeAttrValue::kListListInt); }

  const std::string& GetName() const { return name_; }
  bool IsRequired() const { return required_; }
  const gert::RuntimeAttrValue& GetDefault() const { return default_; }

 private:
  OpAttrDef& Kind(gert::RuntimeAttrValue::Kind k) {
    default_.kind = k;
    return *this;
  }
  std::string name_;
  bool required_ = false;
  gert::RuntimeAttrValue default_;
};

class OpAICoreConfig {
 public:
  OpAICoreConfig() = default;
  explicit OpAICoreConfig(const char* soc) : soc_(soc) {}
  OpAICoreConfig& DynamicCompileStaticFlag(bool) { return *this; }
  OpAICoreConfig& DynamicFormatFlag(bool) { return *this; }
  OpAICoreConfig& DynamicRankSupportFlag(bool) { return *this; }
  OpAICoreConfig& DynamicShapeSupportFlag(bool) { return *this; }
  OpAICoreConfig& NeedCheckSupportFlag(bool) { return *this; }
  OpAICoreConfig& PrecisionReduceFlag(bool) { return *this; }
  // Known key: "aclnnSupport.value" = "support_aclnn" | "aclnn_only".
  OpAICoreConfig& ExtendCfgInfo(const char* key, const char* value) {
    cfg_info_[key] = value;
    return *this;
  }
  const std::map<std::string, std::string>& GetCfgInfo() const { return cfg_info_; }

 private:
  std::string soc_;
  std::map<std::string, std::string> cfg_info_;
};

class OpAICoreDef {
 public:
  OpAICoreDef& SetTiling(gert::TilingKernelFunc f) {
    tiling_ = f;
    return *this;
  }
  OpAICoreDef& SetCheckSupport(void*) { return *this; }
  OpAICoreDef& AddConfig(const char* soc) { return AddConfig(soc, OpAICoreConfig(soc)); }
  OpAICoreDef& AddConfig(const char* soc, const OpAICoreConfig& cfg) {
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
  const std::map<std::string, OpAICoreConfig>& GetConfigs() const { return configs_; }

 private:
  gert::TilingKernelFunc tiling_ = nullptr;
  aclrtKernelFunc kernel_ = nullptr;
  std::map<std::string, OpAICoreConfig> configs_;
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
  OpDef& SetInferShapeRange(void*) { return *this; }
  OpDef& SetInferDataType(gert::InferDataTypeKernelFunc f) {
    infer_dtype_ = f;
    return *this;
  }
  OpAICoreDef& AICore() { return aicore_; }
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
  const OpAICoreDef& GetAICore() const { return aicore_; }
  bool IsFallBackEnabled() const { return fallback_; }
  struct OutputReuse {
    uint32_t output;
    uint32_t input;
  };
  const std::vector<OutputReuse>& GetOutputViews() const { return views_; }
  const std::vector<OutputReuse>& GetOutputInplaces() const { return inplaces_; }
  // "" (no fallback), "support_aclnn" or "aclnn_only", from EnableFallBack and the AI-core
  // configs' "aclnnSupport.value".
  std::string GetAclnnSupport() const;

 private:
  OpParamDef& Find(std::vector<OpParamDef>& params, const char* name);
  std::string type_;
  std::vector<OpParamDef> inputs_;
  std::vector<OpParamDef> outputs_;
  std::vector<OpAttrDef> attrs_;
  gert::InferShapeKernelFunc infer_shape_ = nullptr;
  gert::InferDataTypeKernelFunc infer_dtype_ = nullptr;
  OpAICoreDef aicore_;
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
