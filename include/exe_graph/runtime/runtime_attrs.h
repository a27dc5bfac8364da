// gert::RuntimeAttrs: a node's attributes in the order its OpDef declares them, defaults filled.
#ifndef GE_INCLUDE_EXE_GRAPH_RUNTIME_RUNTIME_ATTRS_H_
#define GE_INCLUDE_EXE_GRAPH_RUNTIME_RUNTIME_ATTRS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "exe_graph/runtime/shape.h"

namespace gert {

// One attribute value; which member is set follows the OpDef's declared type.
struct RuntimeAttrValue {
  enum Kind { kNone, kBool, kInt, kFloat, kString, kListInt, kListFloat, kListBool, kListString, kListListInt };
  Kind kind = kNone;
  bool b = false;
  int64_t i = 0;
  float f = 0.f;
  std::string s;
  std::vector<int64_t> ints;
  std::vector<float> floats;
  std::vector<uint8_t> bools;
  std::vector<std::string> strings;
  std::vector<std::vector<int64_t>> list_ints;
};

class RuntimeAttrs {
 public:
  size_t GetAttrNum() const { return values_.size(); }
  // nullptr when the index is out of range or the attribute has another kind.
  const bool* GetBool(size_t i) const { return Is(i, RuntimeAttrValue::kBool) ? &values_[i].b : nullptr; }
  const int64_t* GetInt(size_t i) const { return Is(i, RuntimeAttrValue::kInt) ? &values_[i].i : nullptr; }
  const float* GetFloat(size_t i) const { return Is(i, RuntimeAttrValue::kFloat) ? &values_[i].f : nullptr; }
  const char* GetStr(size_t i) const { return Is(i, RuntimeAttrValue::kString) ? values_[i].s.c_str() : nullptr; }
  const TypedContinuousVector<int64_t>* GetListInt(size_t i) const;
  const TypedContinuousVector<float>* GetListFloat(size_t i) const;
  const std::vector<std::string>* GetListStr(size_t i) const {
    return Is(i, RuntimeAttrValue::kListString) ? &values_[i].strings : nullptr;
  }
  // GE: a ListBool attribute, one byte (0/1) per element.
  const std::vector<uint8_t>* GetListBool(size_t i) const {
    return Is(i, RuntimeAttrValue::kListBool) ? &values_[i].bools : nullptr;
  }
  const std::vector<std::vector<int64_t>>* GetListListInt(size_t i) const {
    return Is(i, RuntimeAttrValue::kListListInt) ? &values_[i].list_ints : nullptr;
  }
  // Typed pointer access in the style of Ascend's GetAttrPointer<T>.
  template <typename T>
  const T* GetAttrPointer(size_t i) const;

  // GE: the attribute's name as declared in the OpDef, and whether the node set it.
  const std::string& GetName(size_t i) const { return names_[i]; }
  bool IsSet(size_t i) const { return i < set_.size() && set_[i]; }

  // Building (by the compiler from a node's attributes).
  void Append(std::string name, RuntimeAttrValue v, bool is_set);

 private:
  bool Is(size_t i, RuntimeAttrValue::Kind k) const { return i < values_.size() && values_[i].kind == k; }
  std::vector<RuntimeAttrValue> values_;
  std::vector<std::string> names_;
  std::vector<bool> set_;
  // Views handed out by GetListInt/GetListFloat, rebuilt by Append.
  std::vector<TypedContinuousVector<int64_t>> int_views_;
  std::vector<TypedContinuousVector<float>> float_views_;
};

template <>
inline const int64_t* RuntimeAttrs::GetAttrPointer<int64_t>(size_t i) const {
  return GetInt(i);
}
template <>
inline const float* RuntimeAttrs::GetAttrPointer<float>(size_t i) const {
  return GetFloat(i);
}
template <>
inline const bool* RuntimeAttrs::GetAttrPointer<bool>(size_t i) const {
  return GetBool(i);
}
template <>
inline const char* RuntimeAttrs::GetAttrPointer<char>(size_t i) const {
  return GetStr(i);
}

}  // namespace gert

#endif  // GE_INCLUDE_EXE_GRAPH_RUNTIME_RUNTIME_ATTRS_H_
