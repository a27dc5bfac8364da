// The structs behind the single-op API's opaque handles (aclTensor, aclScalar, arrays, lists,
// aclOpAttrs). Internal to src/opapi and the fallback generator.
#ifndef GE_SRC_OPAPI_ACL_META_IMPL_H_
#define GE_SRC_OPAPI_ACL_META_IMPL_H_

#include <map>
#include <string>
#include <vector>

#include "aclnn/aclnn_base.h"
#include "base/dims_string.h"
#include "exe_graph/runtime/runtime_attrs.h"
#include "exe_graph/runtime/tensor.h"
#include "graph/types.h"

struct aclTensor {
  std::vector<int64_t> view_dims;
  std::vector<int64_t> strides;  // elements, per view dim
  std::vector<int64_t> storage_dims;
  int64_t offset = 0;  // elements from `data`
  ge::DataType dtype = ge::DT_FLOAT;
  ge::Format format = ge::FORMAT_ND;
  void* data = nullptr;

  void* Addr() const {
    return data == nullptr ? nullptr : static_cast<char*>(data) + offset * static_cast<int64_t>(ElemSize());
  }
  size_t ElemSize() const { return ge::GetSizeByDataType(dtype); }
  int64_t Numel() const;
  bool IsContiguous() const;
  gert::Shape Shape() const;
  // A gert::Tensor describing the view as if contiguous at `addr` (null: the view's own address).
  gert::Tensor AsGert(void* addr = nullptr) const;
  std::string ToString() const;  // "float32[2, 3]" (+ " strides [..]" when not contiguous)
};

struct aclScalar {
  ge::DataType dtype = ge::DT_FLOAT;
  double f = 0;   // the value as double (floating types)
  int64_t i = 0;  // the value as int64 (integer and bool types)
  double ToDouble() const;
  int64_t ToInt() const;
};

struct aclIntArray {
  std::vector<int64_t> v;
};
struct aclFloatArray {
  std::vector<float> v;
};
struct aclBoolArray {
  std::vector<uint8_t> v;
};
struct aclTensorList {
  std::vector<const aclTensor*> v;
};
struct aclScalarList {
  std::vector<const aclScalar*> v;
};
struct aclOpAttrs {
  std::map<std::string, gert::RuntimeAttrValue> v;
};

namespace ge::opapi {
std::vector<int64_t> ContiguousStrides(const std::vector<int64_t>& dims);
}  // namespace ge::opapi

#endif  // GE_SRC_OPAPI_ACL_META_IMPL_H_
