// ops::OpParamDef and ops::OpAttrDef: an operator prototype's inputs/outputs and attributes as
// Ascend's OpDef declares them, with the enums and the ScalarVar (InitValue) they use.
#ifndef GE_INCLUDE_REGISTER_OP_PARAM_DEF_H_
#define GE_INCLUDE_REGISTER_OP_PARAM_DEF_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "exe_graph/runtime/runtime_attrs.h"
#include "graph/types.h"

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

}  // namespace ops

#endif  // GE_INCLUDE_REGISTER_OP_PARAM_DEF_H_
