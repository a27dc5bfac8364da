// Data-movement ops whose output is the input's bytes under a new shape: Reshape, Flatten,
// Identity. Their kernel is a copy; the sink memory planner may turn them into views.
#include <cstring>

#include <fmt/format.h>

#include "base/checked_math.h"
#include "ops/op_util.h"

namespace ge::ops_reshape {
using namespace ge::ops_util;

struct CopyTiling {
  int64_t bytes;
};

ge::graphStatus CopyTilingFunc(gert::TilingContext* ctx) {
  CopyTiling t{static_cast<int64_t>(ctx->GetInputDesc(0)->GetSize())};
  ctx->SetBlockDim(ChooseBlockDim(ctx, t.bytes, 1 << 20));
  return SetTiling(ctx, t);
}

void CopyKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<CopyTiling>(args);
  int64_t b, e;
  BlockRange(t.bytes, args->blockIdx, args->blockDim, &b, &e);
  void* out = args->addrs[args->numAddrs - 1];
  if (out != args->addrs[0] && e > b)
    std::memcpy(static_cast<char*>(out) + b, static_cast<const char*>(args->addrs[0]) + b, e - b);
}

// Reshape: `shape` may hold 0 (copy the input dim unless allowzero) and one -1 (inferred).
ge::graphStatus ReshapeInferShape(gert::InferShapeContext* ctx) {
  const gert::Shape* in = ctx->GetInputShape(0);
  std::vector<int64_t> spec;
  if (in == nullptr) return InferFail("missing input data");
  if (!ReadInt64s(ctx->GetInputTensor(1), &spec)) return InferFail("input 'shape' must be a constant int64 tensor");
  bool allow_zero = *ctx->GetAttrs()->GetInt(0) != 0;
  gert::Shape* out = ctx->GetOutputShape(0);
  out->SetDimNum(0);
  int64_t known = 1, infer_at = -1;
  for (size_t i = 0; i < spec.size(); ++i) {
    int64_t d = spec[i];
    if (d == 0 && !allow_zero) {
      if (i >= in->GetDimNum())
        return InferFail(fmt::format("shape[{}] = 0 copies a dim the input {} does not have", i, ShapeToString(*in)));
      d = in->GetDim(i);
    }
    if (d == -1) {
      if (infer_at >= 0) return InferFail("shape has more than one -1");
      infer_at = static_cast<int64_t>(i);
    } else if (d < 0) {
      return InferFail(fmt::format("shape[{}] = {} is negative", i, d));
    } else if (!ge::CheckedMul(known, d, &known)) {
      return InferFail("the element count of shape overflows");
    }
    out->AppendDim(d);
  }
  int64_t total = in->GetShapeSize();
  if (infer_at >= 0) {
    if (total < 0) return ge::GRAPH_SUCCESS;  // stays unknown (-1)
    if (known == 0 || total % known != 0)
      return InferFail(fmt::format("cannot reshape input {} ({} elements) with a -1 dim and the other dims' product {}",
                                   ShapeToString(*in), total, known));
    out->SetDim(infer_at, total / known);
  } else if (total >= 0 && known != total) {
    return InferFail(fmt::format("cannot reshape input {} ({} elements) to {} ({} elements)", ShapeToString(*in), total,
                                 ShapeToString(*out), known));
  }
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus FlattenInferShape(gert::InferShapeContext* ctx) {
  const gert::Shape* in = ctx->GetInputShape(0);
  int64_t rank = static_cast<int64_t>(in->GetDimNum()), axis = *ctx->GetAttrs()->GetInt(0);
  if (axis < 0) axis += rank;
  if (axis < 0 || axis > rank)
    return InferFail(fmt::format("axis {} is out of range [-{}, {}] for the input {}", *ctx->GetAttrs()->GetInt(0),
                                 rank, rank, ShapeToString(*in)));
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t d = in->GetDim(i);
    int64_t& acc = i < axis ? outer : inner;
    if (acc < 0 || d < 0) {
      acc = -1;
    } else if (!ge::CheckedMul(acc, d, &acc)) {  // an empty tensor's other dims may be huge (aclnn harness)
      return InferFail(fmt::format("the flattened dims of the input {} overflow int64", ShapeToString(*in)));
    }
  }
  *ctx->GetOutputShape(0) = gert::Shape({outer, inner});
  return ge::GRAPH_SUCCESS;
}

}  // namespace ge::ops_reshape

namespace ops {
using namespace ge::ops_reshape;
const std::vector<ge::DataType> kAllTypes = {ge::DT_FLOAT,  ge::DT_FLOAT16, ge::DT_BF16,  ge::DT_DOUBLE, ge::DT_INT8,
                                             ge::DT_INT16,  ge::DT_INT32,   ge::DT_INT64, ge::DT_UINT8,  ge::DT_UINT16,
                                             ge::DT_UINT32, ge::DT_UINT64,  ge::DT_BOOL};

class Reshape : public OpDef {
 public:
  explicit Reshape(const char* name) : OpDef(name) {
    this->Input("data").ParamType(REQUIRED).DataType(kAllTypes);
    this->Input("shape").ParamType(REQUIRED).DataType({ge::DT_INT64}).ValueDepend(REQUIRED);
    this->Output("reshaped").ParamType(REQUIRED).DataType(kAllTypes);
    this->Attr("allowzero").AttrType(OPTIONAL).Int(0);
    this->SetInferShape(ReshapeInferShape);
    this->SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    this->AICore().SetTiling(CopyTilingFunc).SetKernel(CopyKernel).AddConfig("ascend910b");
    this->OutputView(0, 0);
  }
};
OP_ADD(Reshape);

class Flatten : public OpDef {
 public:
  explicit Flatten(const char* name) : OpDef(name) {
    this->Input("input").ParamType(REQUIRED).DataType(kAllTypes);
    this->Output("output").ParamType(REQUIRED).DataType(kAllTypes);
    this->Attr("axis").AttrType(OPTIONAL).Int(1);
    this->SetInferShape(FlattenInferShape);
    this->SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    this->AICore().SetTiling(CopyTilingFunc).SetKernel(CopyKernel).AddConfig("ascend910b");
    this->OutputView(0, 0);
  }
};
OP_ADD(Flatten);

class Identity : public OpDef {
 public:
  explicit Identity(const char* name) : OpDef(name) {
    this->Input("input").ParamType(REQUIRED).DataType(kAllTypes);
    this->Output("output").ParamType(REQUIRED).DataType(kAllTypes);
    this->SetInferShape(ge::ops_util::InferShapeSameAsInput0);
    this->SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    this->AICore().SetTiling(CopyTilingFunc).SetKernel(CopyKernel).AddConfig("ascend910b");
    this->OutputView(0, 0);
  }
};
OP_ADD(Identity);
}  // namespace ops
