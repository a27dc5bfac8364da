// ge::Operator: a node as an op's check-support and op-select-format functions see it: its name
// and type, its inputs' and outputs' descs (dtype, format, shape) and its attributes by name.
// GE builds one from the node after shape inference. Compiles at C++14.
#ifndef GE_INCLUDE_GRAPH_OPERATOR_H_
#define GE_INCLUDE_GRAPH_OPERATOR_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "exe_graph/runtime/runtime_attrs.h"
#include "ge/tensor.h"
#include "graph/ascend_string.h"
#include "graph/ge_error_codes.h"

namespace ge {

class Operator {
 public:
  Operator() = default;
  Operator(std::string name, std::string type, std::vector<TensorDesc> inputs, std::vector<TensorDesc> outputs,
           const gert::RuntimeAttrs* attrs)
      : name_(std::move(name)),
        type_(std::move(type)),
        inputs_(std::move(inputs)),
        outputs_(std::move(outputs)),
        attrs_(attrs) {}

  graphStatus GetName(AscendString& name) const {
    name = AscendString(name_.c_str());
    return GRAPH_SUCCESS;
  }
  graphStatus GetOpType(AscendString& type) const {
    type = AscendString(type_.c_str());
    return GRAPH_SUCCESS;
  }
  size_t GetInputsSize() const { return inputs_.size(); }
  size_t GetOutputsSize() const { return outputs_.size(); }
  // An index past the end gives an empty desc (DT_UNDEFINED, unknown rank).
  TensorDesc GetInputDesc(uint32_t index) const { return index < inputs_.size() ? inputs_[index] : TensorDesc(); }
  TensorDesc GetOutputDesc(uint32_t index) const { return index < outputs_.size() ? outputs_[index] : TensorDesc(); }

  // Attributes by name; GRAPH_FAILED when absent or of another type.
  graphStatus GetAttr(const char* name, int64_t& v) const { return Get(name, &gert::RuntimeAttrs::GetInt, v); }
  graphStatus GetAttr(const char* name, int32_t& v) const {
    int64_t x = 0;
    graphStatus st = GetAttr(name, x);
    if (st == GRAPH_SUCCESS) v = static_cast<int32_t>(x);
    return st;
  }
  graphStatus GetAttr(const char* name, float& v) const { return Get(name, &gert::RuntimeAttrs::GetFloat, v); }
  graphStatus GetAttr(const char* name, bool& v) const { return Get(name, &gert::RuntimeAttrs::GetBool, v); }
  graphStatus GetAttr(const char* name, AscendString& v) const {
    size_t i = Find(name);
    const char* s = i == SIZE_MAX ? nullptr : attrs_->GetStr(i);
    if (s == nullptr) return GRAPH_FAILED;
    v = AscendString(s);
    return GRAPH_SUCCESS;
  }
  graphStatus GetAttr(const char* name, std::vector<int64_t>& v) const {
    size_t i = Find(name);
    const gert::TypedContinuousVector<int64_t>* l = i == SIZE_MAX ? nullptr : attrs_->GetListInt(i);
    if (l == nullptr) return GRAPH_FAILED;
    v.assign(l->GetData(), l->GetData() + l->GetSize());
    return GRAPH_SUCCESS;
  }
  graphStatus GetAttr(const char* name, std::vector<float>& v) const {
    size_t i = Find(name);
    const gert::TypedContinuousVector<float>* l = i == SIZE_MAX ? nullptr : attrs_->GetListFloat(i);
    if (l == nullptr) return GRAPH_FAILED;
    v.assign(l->GetData(), l->GetData() + l->GetSize());
    return GRAPH_SUCCESS;
  }

 private:
  size_t Find(const char* name) const {
    if (attrs_ == nullptr || name == nullptr) return SIZE_MAX;
    for (size_t i = 0; i < attrs_->GetAttrNum(); ++i)
      if (attrs_->GetName(i) == name) return i;
    return SIZE_MAX;
  }
  template <typename T>
  graphStatus Get(const char* name, const T* (gert::RuntimeAttrs::*get)(size_t) const, T& v) const {
    size_t i = Find(name);
    const T* p = i == SIZE_MAX ? nullptr : (attrs_->*get)(i);
    if (p == nullptr) return GRAPH_FAILED;
    v = *p;
    return GRAPH_SUCCESS;
  }
  std::string name_, type_;
  std::vector<TensorDesc> inputs_, outputs_;
  const gert::RuntimeAttrs* attrs_ = nullptr;
};

}  // namespace ge

#endif  // GE_INCLUDE_GRAPH_OPERATOR_H_
