#include "ops/op_util.h"

#include <fmt/format.h>

#include <cstring>

#include "base/error_message.h"
#include "ops/attr_choice.h"

namespace ge::ops_util {

bool ToMeta(const gert::Shape& s, ge::DataType dt, TensorMeta* meta) {
  if (s.GetDimNum() > static_cast<size_t>(kMaxRank)) return false;
  meta->dtype = dt;
  meta->rank = static_cast<int32_t>(s.GetDimNum());
  for (int i = 0; i < kMaxRank; ++i) meta->dims[i] = i < meta->rank ? s.GetDim(i) : 1;
  return true;
}

bool NormalizeAxis(int64_t axis, int64_t rank, int64_t* out) {
  if (axis < -rank || axis >= rank) return false;
  *out = axis < 0 ? axis + rank : axis;
  return true;
}

ge::graphStatus InferShapeSameAsInput0(gert::InferShapeContext* ctx) {
  const gert::Shape* in = ctx->GetInputShape(0);
  if (in == nullptr) return ge::GRAPH_FAILED;
  for (size_t i = 0; i < ctx->GetComputeNodeOutputNum(); ++i) *ctx->GetOutputShape(i) = *in;
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus InferDataTypeSameAsInput0(gert::InferDataTypeContext* ctx) {
  for (size_t i = 0; i < ctx->GetComputeNodeOutputNum(); ++i) ctx->SetOutputDataType(i, ctx->GetInputDataType(0));
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus InferDataTypeSameAsAB(gert::InferDataTypeContext* ctx) {
  const ge::DataType a = ctx->GetInputDataType(0), b = ctx->GetInputDataType(1);
  if (a != b)
    return InferFail(
        fmt::format("expected A and B of one dtype, got {} and {}", ge::DataTypeName(a), ge::DataTypeName(b)));
  return InferDataTypeSameAsInput0(ctx);
}

bool ReadInt64s(const gert::Tensor* t, std::vector<int64_t>* out) {
  if (t == nullptr || t->GetAddr() == nullptr) return false;
  int64_t n = t->GetShapeSize();
  if (n < 0) return false;
  out->resize(n);
  if (n == 0) return true;
  using IndexTypes = DtypeSet<DtypeEntry<ge::DT_INT64, int64_t>, DtypeEntry<ge::DT_INT32, int32_t>>;
  return Dispatch<IndexTypes>(t->GetDataType(), [&](auto tag) {
    const auto* p = t->GetData<TypeOf<decltype(tag)>>();
    for (int64_t i = 0; i < n; ++i) (*out)[i] = p[i];
  });
}

bool ReadScalar(const gert::Tensor* t, double* v) {
  if (t == nullptr || t->GetAddr() == nullptr || t->GetShapeSize() != 1) return false;
  if (t->GetDataType() == ge::DT_BOOL) {
    *v = *static_cast<const uint8_t*>(t->GetAddr()) != 0 ? 1.0 : 0.0;
    return true;
  }
  return GE_DISPATCH(AllTypes, t->GetDataType(),
                     *v = static_cast<double>(static_cast<ComputeT<scalar_t>>(*t->GetData<scalar_t>())));
}

bool ReportBadIndex(const aclrtKernelArgs* args, const char* input, int64_t value, int64_t dim) {
  std::string msg = dim > 0 ? fmt::format("input '{}' value {} is out of range [{}, {}]", input, value, -dim, dim - 1)
                            : fmt::format("input '{}' value {} indexes an empty axis", input, value);
  aclrtReportKernelError(args, msg.c_str());
  return false;
}

bool ReportBadData(const aclrtKernelArgs* args, const std::string& msg) {
  aclrtReportKernelError(args, msg.c_str());
  return false;
}

ge::graphStatus InferFail(const std::string& why) {
  if (!why.empty()) ge::SetRecentErrMsg(why);
  return ge::GRAPH_FAILED;
}

ge::DataType FromOnnxDtype(int64_t d) {
  switch (d) {
    case 1: return ge::DT_FLOAT;
    case 2: return ge::DT_UINT8;
    case 3: return ge::DT_INT8;
    case 4: return ge::DT_UINT16;
    case 5: return ge::DT_INT16;
    case 6: return ge::DT_INT32;
    case 7: return ge::DT_INT64;
    case 8: return ge::DT_STRING;
    case 9: return ge::DT_BOOL;
    case 10: return ge::DT_FLOAT16;
    case 11: return ge::DT_DOUBLE;
    case 12: return ge::DT_UINT32;
    case 13: return ge::DT_UINT64;
    case 16: return ge::DT_BF16;
    default: return ge::DT_UNDEFINED;
  }
}

std::vector<int64_t> DimsOf(const gert::Shape& s) { return {s.GetDims(), s.GetDims() + s.GetDimNum()}; }

void SetDims(gert::Shape* s, const std::vector<int64_t>& dims) {
  s->SetDimNum(0);
  for (int64_t d : dims) s->AppendDim(d);
}

int64_t AttrInt(const gert::RuntimeAttrs* a, size_t i, int64_t dflt) {
  const int64_t* v = a ? a->GetInt(i) : nullptr;
  return v ? *v : dflt;
}
float AttrFloat(const gert::RuntimeAttrs* a, size_t i, float dflt) {
  const float* v = a ? a->GetFloat(i) : nullptr;
  return v ? *v : dflt;
}
std::string AttrStr(const gert::RuntimeAttrs* a, size_t i, const char* dflt) {
  const char* v = a ? a->GetStr(i) : nullptr;
  return v ? v : dflt;
}
int AttrChoice(const gert::RuntimeAttrs* a, size_t i, const char* name, std::initializer_list<const char*> allowed,
               std::string* why) {
  const char* v = a ? a->GetStr(i) : nullptr;
  if (v == nullptr) return 0;
  int at = 0;
  for (const char* choice : allowed) {
    if (std::strcmp(v, choice) == 0) return at;
    ++at;
  }
  std::string shown, list;  // the value from the model, printable (no raw bytes in a message)
  for (const char* c = v; *c != '\0' && shown.size() < 64; ++c) {
    auto u = static_cast<unsigned char>(*c);
    shown += u >= 0x20 && u < 0x7f ? std::string(1, *c) : fmt::format("\\x{:02x}", u);
  }
  for (const char* choice : allowed) list += (list.empty() ? "" : ", ") + std::string(choice);
  std::string reason = fmt::format("{} '{}' is not one of {}", name, shown, list);
  if (why != nullptr)
    *why = std::move(reason);
  else
    InferFail(reason);
  return -1;
}
std::vector<int64_t> AttrInts(const gert::RuntimeAttrs* a, size_t i) {
  auto* l = a ? a->GetListInt(i) : nullptr;
  if (l == nullptr) return {};
  return {l->GetData(), l->GetData() + l->GetSize()};
}
std::vector<float> AttrFloats(const gert::RuntimeAttrs* a, size_t i) {
  auto* l = a ? a->GetListFloat(i) : nullptr;
  if (l == nullptr) return {};
  return {l->GetData(), l->GetData() + l->GetSize()};
}

}  // namespace ge::ops_util
