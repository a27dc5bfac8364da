// aclTensor, aclScalar, arrays, lists and aclOpAttrs: creation, destruction, accessors.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstring>

#include "base/error_message.h"
#include "opapi/acl_meta_impl.h"

#include "base/checked_math.h"
#include "opapi/api_guard.h"

namespace ge::opapi {

std::vector<int64_t> ContiguousStrides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> s(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;)  // saturates (a view of huge dims is refused by its size)
    if (!CheckedMul(s[i], std::max<int64_t>(dims[i], 1), &s[i - 1])) s[i - 1] = INT64_MAX;
  return s;
}

namespace {
template <typename T>
T* Fail(std::string msg) {
  SetRecentErrMsg(std::move(msg));
  return nullptr;
}
bool ValidDataType(aclDataType dt) {
  return dt >= ACL_FLOAT && dt <= ACL_BOOL && dt != 5 && ge::GetSizeByDataType(static_cast<ge::DataType>(dt)) > 0;
}
}  // namespace

}  // namespace ge::opapi

using ge::DimsToString;

int64_t aclTensor::Numel() const {
  int64_t n = 1;
  for (int64_t d : view_dims) n *= d;
  return n;
}

bool aclTensor::IsContiguous() const {
  auto want = ge::opapi::ContiguousStrides(view_dims);
  for (size_t i = 0; i < view_dims.size(); ++i)
    if (view_dims[i] != 1 && strides[i] != want[i]) return false;
  return true;
}

gert::Shape aclTensor::Shape() const {
  gert::Shape s;
  for (int64_t d : view_dims) s.AppendDim(d);
  return s;
}

gert::Tensor aclTensor::AsGert(void* addr) const {
  gert::Tensor t;
  t.MutableShape().SetShape(Shape());
  t.SetDataType(dtype);
  t.SetFormat(format);
  t.SetAddr(addr ? addr : Addr());
  return t;
}

std::string aclTensor::ToString() const {
  std::string s = fmt::format("{}{}", ge::DataTypeName(dtype), DimsToString(view_dims));
  if (!IsContiguous()) s += " strides " + DimsToString(strides);
  return s;
}

double aclScalar::ToDouble() const {
  return (dtype == ge::DT_FLOAT || dtype == ge::DT_DOUBLE || dtype == ge::DT_FLOAT16) ? f : static_cast<double>(i);
}
int64_t aclScalar::ToInt() const {
  return (dtype == ge::DT_FLOAT || dtype == ge::DT_DOUBLE || dtype == ge::DT_FLOAT16) ? static_cast<int64_t>(f) : i;
}

namespace {
// Hands out a new[] copy of one of the tensor's dim vectors (the caller delete[]s it).
aclnnStatus CopyDims(const char* api, const aclTensor* tensor, std::vector<int64_t> aclTensor::*dims, int64_t** out,
                     uint64_t* num) {
  return ge::opapi::Guard(api, [&]() -> ge::Status {
    if (!tensor) return ge::opapi::NullArg(api, "tensor");
    if (!out || !num) return ge::opapi::NullArg(api, "output");
    const std::vector<int64_t>& v = tensor->*dims;
    *num = v.size();
    *out = new int64_t[std::max<size_t>(1, v.size())];
    std::copy(v.begin(), v.end(), *out);
    return ge::Status::Ok();
  });
}
// The element count of an array or list (anything with a vector `v`).
template <typename T>
aclnnStatus GetSize(const char* api, const T* array, uint64_t* size) {
  if (!array || !size) return ge::opapi::Guard(api, [api] { return ge::opapi::NullArg(api, "argument"); });
  *size = array->v.size();
  return ACLNN_SUCCESS;
}
}  // namespace

extern "C" {

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t* stride,
                           int64_t offset, aclFormat format, const int64_t* storageDims, uint64_t storageDimsNum,
                           void* tensorData) {
  using ge::opapi::Fail;
  if (viewDimsNum > 0 && viewDims == nullptr) return Fail<aclTensor>("aclCreateTensor: viewDims is null");
  if (viewDimsNum > gert::Shape::kMaxDimNum)
    return Fail<aclTensor>(fmt::format("aclCreateTensor: {} dims, at most {}", viewDimsNum, gert::Shape::kMaxDimNum));
  if (!ge::opapi::ValidDataType(dataType))
    return Fail<aclTensor>(fmt::format("aclCreateTensor: unsupported data type {}", static_cast<int>(dataType)));
  if (storageDimsNum > 0 && storageDims == nullptr) return Fail<aclTensor>("aclCreateTensor: storageDims is null");
  if (offset < 0) return Fail<aclTensor>(fmt::format("aclCreateTensor: negative offset {}", offset));
  auto* t = new aclTensor();
  t->view_dims.assign(viewDims, viewDims + viewDimsNum);
  for (int64_t d : t->view_dims)
    if (d < 0) {
      delete t;
      return Fail<aclTensor>(fmt::format("aclCreateTensor: negative dim in {}",
                                         DimsToString(std::vector<int64_t>(viewDims, viewDims + viewDimsNum))));
    }
  t->strides = stride ? std::vector<int64_t>(stride, stride + viewDimsNum) : ge::opapi::ContiguousStrides(t->view_dims);
  t->storage_dims = storageDims ? std::vector<int64_t>(storageDims, storageDims + storageDimsNum) : t->view_dims;
  t->offset = offset;
  t->dtype = static_cast<ge::DataType>(dataType);
  t->format = format == ACL_FORMAT_UNDEFINED ? ge::FORMAT_ND : static_cast<ge::Format>(format);
  t->data = tensorData;
  // Sizes in bytes must fit int64 (checked: dims come from callers), and the view must stay
  // inside its storage, from its lowest element (negative strides) to its highest.
  const size_t es = ge::GetSizeByDataType(t->dtype);
  if (t->storage_dims.size() > gert::Shape::kMaxDimNum || !ge::CheckedTensorBytes(t->storage_dims, es) ||
      !ge::CheckedTensorBytes(t->view_dims, es)) {
    std::string msg = fmt::format("aclCreateTensor: view {} / storage {}: negative, too many or too large dims",
                                  DimsToString(t->view_dims), DimsToString(t->storage_dims));
    delete t;
    return Fail<aclTensor>(msg);
  }
  int64_t storage = *ge::CheckedElementCount(t->storage_dims), last = t->offset, first = t->offset;
  bool fits = true;
  for (size_t i = 0; i < t->view_dims.size() && fits; ++i) {
    if (t->view_dims[i] <= 0) continue;
    int64_t step = 0;
    fits = ge::CheckedMul<int64_t>(t->view_dims[i] - 1, t->strides[i], &step) &&
           (step >= 0 ? ge::CheckedAdd(last, step, &last) : ge::CheckedAdd(first, step, &first));
  }
  if (t->Numel() > 0 && (!fits || first < 0 || last >= storage)) {
    std::string msg = fmt::format(
        "aclCreateTensor: view {} strides {} offset {} reaches element {} of a {}-element storage {}",
        DimsToString(t->view_dims), DimsToString(t->strides), offset, last, storage, DimsToString(t->storage_dims));
    delete t;
    return Fail<aclTensor>(msg);
  }
  return t;
}

aclScalar* aclCreateScalar(void* value, aclDataType dataType) {
  if (value == nullptr) return ge::opapi::Fail<aclScalar>("aclCreateScalar: value is null");
  auto* s = new aclScalar();
  s->dtype = static_cast<ge::DataType>(dataType);
  switch (dataType) {
    case ACL_FLOAT: s->f = *static_cast<float*>(value); break;
    case ACL_DOUBLE: s->f = *static_cast<double*>(value); break;
    case ACL_INT8: s->i = *static_cast<int8_t*>(value); break;
    case ACL_INT16: s->i = *static_cast<int16_t*>(value); break;
    case ACL_INT32: s->i = *static_cast<int32_t*>(value); break;
    case ACL_INT64: s->i = *static_cast<int64_t*>(value); break;
    case ACL_UINT8: s->i = *static_cast<uint8_t*>(value); break;
    case ACL_UINT16: s->i = *static_cast<uint16_t*>(value); break;
    case ACL_UINT32: s->i = *static_cast<uint32_t*>(value); break;
    case ACL_UINT64: s->i = static_cast<int64_t>(*static_cast<uint64_t*>(value)); break;
    case ACL_BOOL: s->i = *static_cast<bool*>(value) ? 1 : 0; break;
    default:
      delete s;
      return ge::opapi::Fail<aclScalar>(
          fmt::format("aclCreateScalar: unsupported data type {}", static_cast<int>(dataType)));
  }
  return s;
}

aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size) {
  if (size > 0 && value == nullptr) return ge::opapi::Fail<aclIntArray>("aclCreateIntArray: value is null");
  return new aclIntArray{std::vector<int64_t>(value, value + size)};
}
aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size) {
  if (size > 0 && value == nullptr) return ge::opapi::Fail<aclFloatArray>("aclCreateFloatArray: value is null");
  return new aclFloatArray{std::vector<float>(value, value + size)};
}
aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size) {
  if (size > 0 && value == nullptr) return ge::opapi::Fail<aclBoolArray>("aclCreateBoolArray: value is null");
  auto* a = new aclBoolArray();
  for (uint64_t i = 0; i < size; ++i) a->v.push_back(value[i] ? 1 : 0);
  return a;
}
aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size) {
  if (size > 0 && value == nullptr) return ge::opapi::Fail<aclTensorList>("aclCreateTensorList: value is null");
  return new aclTensorList{std::vector<const aclTensor*>(value, value + size)};
}
aclScalarList* aclCreateScalarList(const aclScalar* const* value, uint64_t size) {
  if (size > 0 && value == nullptr) return ge::opapi::Fail<aclScalarList>("aclCreateScalarList: value is null");
  return new aclScalarList{std::vector<const aclScalar*>(value, value + size)};
}

aclnnStatus aclDestroyTensor(const aclTensor* p) {
  delete p;
  return ACLNN_SUCCESS;
}
aclnnStatus aclDestroyScalar(const aclScalar* p) {
  delete p;
  return ACLNN_SUCCESS;
}
aclnnStatus aclDestroyIntArray(const aclIntArray* p) {
  delete p;
  return ACLNN_SUCCESS;
}
aclnnStatus aclDestroyFloatArray(const aclFloatArray* p) {
  delete p;
  return ACLNN_SUCCESS;
}
aclnnStatus aclDestroyBoolArray(const aclBoolArray* p) {
  delete p;
  return ACLNN_SUCCESS;
}
aclnnStatus aclDestroyTensorList(const aclTensorList* p) {
  delete p;
  return ACLNN_SUCCESS;
}
aclnnStatus aclDestroyScalarList(const aclScalarList* p) {
  delete p;
  return ACLNN_SUCCESS;
}

aclnnStatus aclGetViewShape(const aclTensor* tensor, int64_t** viewDims, uint64_t* viewDimsNum) {
  return CopyDims("aclGetViewShape", tensor, &aclTensor::view_dims, viewDims, viewDimsNum);
}
aclnnStatus aclGetDataType(const aclTensor* tensor, aclDataType* dataType) {
  if (!tensor || !dataType)
    return ge::opapi::Guard("aclGetDataType", [] { return ge::opapi::NullArg("aclGetDataType", "argument"); });
  *dataType = static_cast<aclDataType>(tensor->dtype);
  return ACLNN_SUCCESS;
}
aclnnStatus aclGetStorageShape(const aclTensor* tensor, int64_t** storageDims, uint64_t* storageDimsNum) {
  return CopyDims("aclGetStorageShape", tensor, &aclTensor::storage_dims, storageDims, storageDimsNum);
}
aclnnStatus aclGetViewStrides(const aclTensor* tensor, int64_t** stridesValue, uint64_t* stridesNum) {
  return CopyDims("aclGetViewStrides", tensor, &aclTensor::strides, stridesValue, stridesNum);
}
aclnnStatus aclGetViewOffset(const aclTensor* tensor, int64_t* offset) {
  if (!tensor || !offset)
    return ge::opapi::Guard("aclGetViewOffset", [] { return ge::opapi::NullArg("aclGetViewOffset", "argument"); });
  *offset = tensor->offset;
  return ACLNN_SUCCESS;
}
aclnnStatus aclGetFormat(const aclTensor* tensor, aclFormat* format) {
  if (!tensor || !format)
    return ge::opapi::Guard("aclGetFormat", [] { return ge::opapi::NullArg("aclGetFormat", "argument"); });
  *format = static_cast<aclFormat>(tensor->format);
  return ACLNN_SUCCESS;
}
aclnnStatus aclGetIntArraySize(const aclIntArray* array, uint64_t* size) {
  return GetSize("aclGetIntArraySize", array, size);
}
aclnnStatus aclGetFloatArraySize(const aclFloatArray* array, uint64_t* size) {
  return GetSize("aclGetFloatArraySize", array, size);
}
aclnnStatus aclGetBoolArraySize(const aclBoolArray* array, uint64_t* size) {
  return GetSize("aclGetBoolArraySize", array, size);
}
aclnnStatus aclGetScalarListSize(const aclScalarList* list, uint64_t* size) {
  return GetSize("aclGetScalarListSize", list, size);
}
aclnnStatus aclGetTensorListSize(const aclTensorList* list, uint64_t* size) {
  if (!list || !size)
    return ge::opapi::Guard("aclGetTensorListSize",
                            [] { return ge::opapi::NullArg("aclGetTensorListSize", "argument"); });
  *size = list->v.size();
  return ACLNN_SUCCESS;
}

const aclTensor* aclGetTensorListItem(const aclTensorList* list, uint64_t index) {
  return list && index < list->v.size() ? list->v[index] : nullptr;
}

// ---- aclOpAttrs ----------------------------------------------------------------------------
aclOpAttrs* aclCreateOpAttrs(void) { return new aclOpAttrs(); }
aclnnStatus aclDestroyOpAttrs(const aclOpAttrs* attrs) {
  delete attrs;
  return ACLNN_SUCCESS;
}

}  // extern "C"

namespace {
template <typename F>
aclnnStatus SetAttr(const char* api, aclOpAttrs* attrs, const char* name, F&& fill) {
  return ge::opapi::Guard(api, [&]() -> ge::Status {
    if (!attrs) return ge::opapi::NullArg(api, "attrs");
    if (!name) return ge::opapi::NullArg(api, "name");
    gert::RuntimeAttrValue v;
    GE_RETURN_IF_ERROR(fill(&v));
    attrs->v[name] = std::move(v);
    return ge::Status::Ok();
  });
}
}  // namespace

extern "C" {
aclnnStatus aclOpAttrsSetInt(aclOpAttrs* attrs, const char* name, int64_t value) {
  return SetAttr("aclOpAttrsSetInt", attrs, name, [&](gert::RuntimeAttrValue* v) {
    v->kind = gert::RuntimeAttrValue::kInt;
    v->i = value;
    return ge::Status::Ok();
  });
}
aclnnStatus aclOpAttrsSetFloat(aclOpAttrs* attrs, const char* name, float value) {
  return SetAttr("aclOpAttrsSetFloat", attrs, name, [&](gert::RuntimeAttrValue* v) {
    v->kind = gert::RuntimeAttrValue::kFloat;
    v->f = value;
    return ge::Status::Ok();
  });
}
aclnnStatus aclOpAttrsSetBool(aclOpAttrs* attrs, const char* name, bool value) {
  return SetAttr("aclOpAttrsSetBool", attrs, name, [&](gert::RuntimeAttrValue* v) {
    v->kind = gert::RuntimeAttrValue::kBool;
    v->b = value;
    return ge::Status::Ok();
  });
}
aclnnStatus aclOpAttrsSetString(aclOpAttrs* attrs, const char* name, const char* value) {
  return SetAttr("aclOpAttrsSetString", attrs, name, [&](gert::RuntimeAttrValue* v) -> ge::Status {
    if (!value) return ge::opapi::NullArg("aclOpAttrsSetString", "value");
    v->kind = gert::RuntimeAttrValue::kString;
    v->s = value;
    return ge::Status::Ok();
  });
}
aclnnStatus aclOpAttrsSetIntArray(aclOpAttrs* attrs, const char* name, const aclIntArray* value) {
  return SetAttr("aclOpAttrsSetIntArray", attrs, name, [&](gert::RuntimeAttrValue* v) -> ge::Status {
    if (!value) return ge::opapi::NullArg("aclOpAttrsSetIntArray", "value");
    v->kind = gert::RuntimeAttrValue::kListInt;
    v->ints = value->v;
    return ge::Status::Ok();
  });
}
aclnnStatus aclOpAttrsSetBoolArray(aclOpAttrs* attrs, const char* name, const aclBoolArray* value) {
  return SetAttr("aclOpAttrsSetBoolArray", attrs, name, [&](gert::RuntimeAttrValue* v) -> ge::Status {
    if (!value) return ge::opapi::NullArg("aclOpAttrsSetBoolArray", "value");
    v->kind = gert::RuntimeAttrValue::kListBool;
    v->bools = value->v;
    return ge::Status::Ok();
  });
}
aclnnStatus aclOpAttrsSetFloatArray(aclOpAttrs* attrs, const char* name, const aclFloatArray* value) {
  return SetAttr("aclOpAttrsSetFloatArray", attrs, name, [&](gert::RuntimeAttrValue* v) -> ge::Status {
    if (!value) return ge::opapi::NullArg("aclOpAttrsSetFloatArray", "value");
    v->kind = gert::RuntimeAttrValue::kListFloat;
    v->floats = value->v;
    return ge::Status::Ok();
  });
}
}  // extern "C"
