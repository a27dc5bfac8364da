// RuntimeAttrs building and list views.
#include "exe_graph/runtime/runtime_attrs.h"

namespace gert {

void RuntimeAttrs::Append(std::string name, RuntimeAttrValue v, bool is_set) {
  values_.push_back(std::move(v));
  names_.push_back(std::move(name));
  set_.push_back(is_set);
  // Views point into values_, which may have moved: rebuild all.
  int_views_.clear();
  float_views_.clear();
  for (const auto& val : values_) {
    int_views_.emplace_back(val.ints.data(), val.ints.size());
    float_views_.emplace_back(val.floats.data(), val.floats.size());
  }
}

const TypedContinuousVector<int64_t>* RuntimeAttrs::GetListInt(size_t i) const {
  return Is(i, RuntimeAttrValue::kListInt) ? &int_views_[i] : nullptr;
}

const TypedContinuousVector<float>* RuntimeAttrs::GetListFloat(size_t i) const {
  return Is(i, RuntimeAttrValue::kListFloat) ? &float_views_[i] : nullptr;
}

}  // namespace gert
