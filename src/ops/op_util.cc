#include "ops/op_util.h"

namespace ge::ops_util {

bool ToMeta(const gert::Shape& s, ge::DataType dt, TensorMeta* meta) {
  if (s.GetDimNum() > static_cast<size_t>(kMaxRank)) return false;
  meta->dtype = dt;
  meta->rank = static_cast<int32_t>(s.GetDimNum());
  for (int i = 0; i < kMaxRank; ++i) meta->dims[i] = i < meta->rank ? s.GetDim(i) : 1;
  return true;
}

uint32_t ChooseBlockDim(const gert::TilingContext* ctx, int64_t work, int64_t min_per_block) {
  if (work <= min_per_block) return 1;
  int64_t blocks = work / min_per_block;
  return static_cast<uint32_t>(std::clamp<int64_t>(blocks, 1, ctx->GetCoreNum()));
}

bool BroadcastShape(const gert::Shape& a, const gert::Shape& b, gert::Shape* out) {
  size_t rank = std::max(a.GetDimNum(), b.GetDimNum());
  out->SetDimNum(0);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i + a.GetDimNum() >= rank ? a.GetDim(i + a.GetDimNum() - rank) : 1;
    int64_t db = i + b.GetDimNum() >= rank ? b.GetDim(i + b.GetDimNum() - rank) : 1;
    if (da != db && da != 1 && db != 1) return false;
    out->AppendDim(da == 1 ? db : da);
  }
  return true;
}

void BroadcastStrides(const gert::Shape& in, const gert::Shape& out, int64_t* strides) {
  size_t rank = out.GetDimNum(), off = rank - in.GetDimNum();
  int64_t stride = 1;
  for (size_t i = rank; i-- > 0;) {
    if (i < off) {
      strides[i] = 0;
      continue;
    }
    int64_t d = in.GetDim(i - off);
    strides[i] = d == 1 ? 0 : stride;
    stride *= d;
  }
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

bool ReadInt64s(const gert::Tensor* t, std::vector<int64_t>* out) {
  if (t == nullptr || t->GetAddr() == nullptr) return false;
  int64_t n = t->GetShapeSize();
  if (n < 0) return false;
  out->resize(n);
  for (int64_t i = 0; i < n; ++i) {
    switch (t->GetDataType()) {
      case ge::DT_INT64: (*out)[i] = t->GetData<int64_t>()[i]; break;
      case ge::DT_INT32: (*out)[i] = t->GetData<int32_t>()[i]; break;
      default: return false;
    }
  }
  return true;
}

}  // namespace ge::ops_util
