// Shape-producing and shape-combining ops: Shape, Size, Concat, Split, Range, ConstantOfShape,
// EyeLike. define: OpDef per op. create: shape inference (value-depend inputs read on the
// host); tiling records what the kernel writes. run: small SPMD kernels.
#include <cmath>

#include <fmt/format.h>

#include "base/checked_math.h"
#include "ops/op_util.h"

namespace ge::ops_shape {
using namespace ge::ops_util;

// ---- Shape and Size: the kernel writes int64 values fixed at tiling time ----------------------
struct ValuesTiling {
  int32_t n;
  int64_t v[kMaxRank];
};

void ShapeRange(const gert::RuntimeAttrs* a, int64_t rank, int64_t* b, int64_t* e) {
  *b = AttrInt(a, 0, 0);
  *e = a && a->IsSet(1) ? AttrInt(a, 1, rank) : rank;
  if (*b < 0) *b += rank;
  if (*e < 0) *e += rank;
  *b = std::clamp<int64_t>(*b, 0, rank);
  *e = std::clamp<int64_t>(*e, *b, rank);
}

ge::graphStatus ShapeShape(gert::InferShapeContext* ctx) {
  int64_t b, e;
  ShapeRange(ctx->GetAttrs(), ctx->GetInputShape(0)->GetDimNum(), &b, &e);
  SetDims(ctx->GetOutputShape(0), {e - b});
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus ShapeTiling(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  int64_t b, e;
  ShapeRange(ctx->GetAttrs(), x.GetDimNum(), &b, &e);
  ValuesTiling t{};
  for (int64_t d = b; d < e && t.n < kMaxRank; ++d) t.v[t.n++] = x.GetDim(d);
  return SetTiling(ctx, t);
}

ge::graphStatus SizeShape(gert::InferShapeContext* ctx) {
  ctx->GetOutputShape(0)->SetDimNum(0);
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus SizeTiling(gert::TilingContext* ctx) {
  ValuesTiling t{};
  t.n = 1;
  t.v[0] = ctx->GetInputShape(0)->GetStorageShape().GetShapeSize();
  return SetTiling(ctx, t);
}

ge::graphStatus Int64Output(gert::InferDataTypeContext* ctx) { return ctx->SetOutputDataType(0, ge::DT_INT64); }

void ValuesKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<ValuesTiling>(args);
  if (args->blockIdx == 0) std::memcpy(args->addrs[1], t.v, sizeof(int64_t) * t.n);
}

// ---- Concat ----------------------------------------------------------------------------------
constexpr int kMaxConcat = 64;
struct ConcatTiling {
  int32_t elem_size;
  int32_t n;
  int64_t outer;             // product of dims before the axis
  int64_t out_row;           // elements per outer row of the output
  int64_t rows[kMaxConcat];  // elements per outer row of each input
};

ge::graphStatus ConcatShape(gert::InferShapeContext* ctx) {
  if (ctx->GetInputShape(0) == nullptr) return ge::GRAPH_FAILED;  // no inputs (the generic single-op entry)
  const gert::Shape& x0 = *ctx->GetInputShape(0);
  int64_t ax;
  if (!NormalizeAxis(AttrInt(ctx->GetAttrs(), 0, 0), x0.GetDimNum(), &ax))
    return InferFail(
        fmt::format("axis {} is out of range for input 0 {}", AttrInt(ctx->GetAttrs(), 0, 0), ShapeToString(x0)));
  gert::Shape* y = ctx->GetOutputShape(0);
  *y = x0;
  int64_t sum = 0;
  for (size_t i = 0; i < ctx->GetComputeNodeInputNum(); ++i) {
    const gert::Shape* s = ctx->GetInputShape(i);
    if (s == nullptr) return InferFail(fmt::format("missing input {}", i));
    if (s->GetDimNum() != x0.GetDimNum())
      return InferFail(fmt::format("expected input {} of rank {} like input 0 {}, got {}", i, x0.GetDimNum(),
                                   ShapeToString(x0), ShapeToString(*s)));
    for (size_t d = 0; d < x0.GetDimNum(); ++d)
      if (static_cast<int64_t>(d) != ax && s->GetDim(d) >= 0 && x0.GetDim(d) >= 0 && s->GetDim(d) != x0.GetDim(d))
        return InferFail(fmt::format("input {} {} differs from input 0 {} in dim {} (not the axis {})", i,
                                     ShapeToString(*s), ShapeToString(x0), d, ax));
    sum += s->GetDim(ax);
  }
  y->SetDim(ax, sum);
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus ConcatTilingFn(gert::TilingContext* ctx) {
  const gert::Shape& y = ctx->GetOutputShape(0)->GetStorageShape();
  int64_t ax;
  if (!NormalizeAxis(AttrInt(ctx->GetAttrs(), 0, 0), y.GetDimNum(), &ax)) return ge::GRAPH_FAILED;
  ConcatTiling t{};
  t.elem_size = static_cast<int32_t>(ge::GetSizeByDataType(ctx->GetOutputDesc(0)->GetDataType()));
  t.n = static_cast<int32_t>(ctx->GetComputeNodeInputNum());
  if (t.n > kMaxConcat) return InferFail(fmt::format("expected at most {} inputs, got {}", kMaxConcat, t.n));
  t.outer = 1;
  for (int64_t d = 0; d < ax; ++d) t.outer *= y.GetDim(d);
  for (int i = 0; i < t.n; ++i) {
    const gert::Shape& s = ctx->GetInputShape(i)->GetStorageShape();
    t.rows[i] = t.outer == 0 ? 0 : s.GetShapeSize() / t.outer;
    t.out_row += t.rows[i];
  }
  ctx->SetBlockDim(ChooseBlockDim(ctx, y.GetShapeSize(), 1 << 15));
  return SetTiling(ctx, t);
}

void ConcatKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<ConcatTiling>(args);
  int64_t b, e;
  BlockRange(t.outer, args->blockIdx, args->blockDim, &b, &e);
  auto* y = static_cast<uint8_t*>(args->addrs[t.n]);
  for (int64_t o = b; o < e; ++o) {
    uint8_t* dst = y + o * t.out_row * t.elem_size;
    for (int i = 0; i < t.n; ++i) {
      size_t bytes = t.rows[i] * t.elem_size;
      std::memcpy(dst, static_cast<const uint8_t*>(args->addrs[i]) + o * bytes, bytes);
      dst += bytes;
    }
  }
}

// ---- Split -----------------------------------------------------------------------------------
template <typename Ctx>
bool SplitSizes(const Ctx* ctx, const gert::Shape& x, int64_t* ax, std::vector<int64_t>* sizes) {
  if (!NormalizeAxis(AttrInt(ctx->GetAttrs(), 0, 0), x.GetDimNum(), ax)) return false;
  size_t n_out = ctx->GetComputeNodeOutputNum();
  if (ctx->GetComputeNodeInputNum() > 1 && ctx->GetInputTensor(1) != nullptr) {
    // ONNX: the sizes are >= 0 and add up to the axis (they address the input).
    if (!ReadInt64s(ctx->GetInputTensor(1), sizes) || sizes->size() != n_out) return false;
    int64_t sum = 0;
    for (int64_t s : *sizes)
      if (s < 0 || !ge::CheckedAdd(sum, s, &sum)) return false;
    return x.GetDim(*ax) < 0 || sum == x.GetDim(*ax);
  }
  if (n_out == 0) return false;  // no outputs to split into (the generic single-op entry allows it)
  int64_t dim = x.GetDim(*ax), chunk = (dim + static_cast<int64_t>(n_out) - 1) / static_cast<int64_t>(n_out);
  sizes->clear();
  for (size_t i = 0; i < n_out; ++i) sizes->push_back(std::max<int64_t>(0, std::min(chunk, dim - chunk * (int64_t)i)));
  return true;
}

ge::graphStatus SplitShape(gert::InferShapeContext* ctx) {
  const gert::Shape& x = *ctx->GetInputShape(0);
  int64_t ax;
  std::vector<int64_t> sizes;
  if (!SplitSizes(ctx, x, &ax, &sizes))
    return InferFail(fmt::format("invalid axis or 'split' sizes for the input {} and {} outputs", ShapeToString(x),
                                 ctx->GetComputeNodeOutputNum()));
  for (size_t i = 0; i < sizes.size(); ++i) {
    gert::Shape* y = ctx->GetOutputShape(i);
    *y = x;
    y->SetDim(ax, sizes[i]);
  }
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus SplitTiling(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  int64_t ax;
  std::vector<int64_t> sizes;
  if (!SplitSizes(ctx, x, &ax, &sizes) || sizes.size() > static_cast<size_t>(kMaxConcat)) return ge::GRAPH_FAILED;
  ConcatTiling t{};  // the same layout, read the other way
  t.elem_size = static_cast<int32_t>(ge::GetSizeByDataType(ctx->GetInputDesc(0)->GetDataType()));
  t.n = static_cast<int32_t>(sizes.size());
  t.outer = 1;
  for (int64_t d = 0; d < ax; ++d) t.outer *= x.GetDim(d);
  int64_t inner = 1;
  for (size_t d = ax + 1; d < x.GetDimNum(); ++d) inner *= x.GetDim(d);
  for (int i = 0; i < t.n; ++i) {
    t.rows[i] = sizes[i] * inner;
    t.out_row += t.rows[i];
  }
  ctx->SetBlockDim(ChooseBlockDim(ctx, x.GetShapeSize(), 1 << 15));
  return SetTiling(ctx, t);
}

void SplitKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<ConcatTiling>(args);
  int64_t b, e;
  BlockRange(t.outer, args->blockIdx, args->blockDim, &b, &e);
  const auto* x = static_cast<const uint8_t*>(args->addrs[0]);
  uint32_t first_out = args->numAddrs - t.n;
  for (int64_t o = b; o < e; ++o) {
    const uint8_t* src = x + o * t.out_row * t.elem_size;
    for (int i = 0; i < t.n; ++i) {
      size_t bytes = t.rows[i] * t.elem_size;
      // An empty output may have no buffer: no memcpy to null (Split with a 0-row part from the
      // single-op API: UBSan, aclnn harness; fuzz/regressions/aclnn/split_empty_output).
      if (bytes > 0) std::memcpy(static_cast<uint8_t*>(args->addrs[first_out + i]) + o * bytes, src, bytes);
      src += bytes;
    }
  }
}

// ---- Range -----------------------------------------------------------------------------------
struct RangeTiling {
  int32_t dtype;
  int64_t n;
  double start, delta;
};

template <typename Ctx>
bool RangeParams(const Ctx* ctx, RangeTiling* t) {
  double start, limit, delta;
  if (!ReadScalar(ctx->GetInputTensor(0), &start) || !ReadScalar(ctx->GetInputTensor(1), &limit) ||
      !ReadScalar(ctx->GetInputTensor(2), &delta) || delta == 0)
    return false;
  const double n = std::ceil((limit - start) / delta);
  if (!(n < 9.0e18)) return false;             // also NaN: no int64 count
  t->n = n > 0 ? static_cast<int64_t>(n) : 0;  // a negative count of any size is 0 (no UB cast)
  t->start = start;
  t->delta = delta;
  return true;
}

ge::graphStatus RangeDataType(gert::InferDataTypeContext* ctx) {
  const ge::DataType a = ctx->GetInputDataType(0), b = ctx->GetInputDataType(1), c = ctx->GetInputDataType(2);
  if (a != b || a != c)
    return InferFail(fmt::format("expected start, limit and delta of one dtype, got {}, {} and {}", ge::DataTypeName(a),
                                 ge::DataTypeName(b), ge::DataTypeName(c)));
  return ctx->SetOutputDataType(0, a);
}

ge::graphStatus RangeShape(gert::InferShapeContext* ctx) {
  RangeTiling t{};
  if (!RangeParams(ctx, &t)) return InferFail("'delta' must be nonzero and the element count an int64");
  SetDims(ctx->GetOutputShape(0), {t.n});
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus RangeTilingFn(gert::TilingContext* ctx) {
  RangeTiling t{};
  if (!RangeParams(ctx, &t)) return ge::GRAPH_FAILED;
  t.dtype = ctx->GetOutputDesc(0)->GetDataType();
  return SetTiling(ctx, t);
}

void RangeKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<RangeTiling>(args);
  if (args->blockIdx != 0) return;
  GE_DISPATCH(Numerics, static_cast<ge::DataType>(t.dtype), {
    auto* y = static_cast<scalar_t*>(args->addrs[3]);
    scalar_t start = static_cast<scalar_t>(t.start), delta = static_cast<scalar_t>(t.delta);
    for (int64_t i = 0; i < t.n; ++i) y[i] = static_cast<scalar_t>(start + static_cast<scalar_t>(i) * delta);
  });
}

// ---- EyeLike ---------------------------------------------------------------------------------
struct EyeTiling {
  int32_t dtype;
  int64_t rows, cols, k;
};

ge::graphStatus EyeDataType(gert::InferDataTypeContext* ctx) {
  const auto* a = ctx->GetAttrs();
  ge::DataType dt = a && a->IsSet(0) ? FromOnnxDtype(AttrInt(a, 0, 1)) : ctx->GetInputDataType(0);
  return ctx->SetOutputDataType(0, dt);
}

ge::graphStatus EyeTilingFn(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  if (x.GetDimNum() != 2) return ge::GRAPH_FAILED;
  EyeTiling t{ctx->GetOutputDesc(0)->GetDataType(), x.GetDim(0), x.GetDim(1), AttrInt(ctx->GetAttrs(), 1, 0)};
  return SetTiling(ctx, t);
}

void EyeKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<EyeTiling>(args);
  if (args->blockIdx != 0) return;
  GE_DISPATCH(AllTypes, static_cast<ge::DataType>(t.dtype), {
    auto* y = static_cast<scalar_t*>(args->addrs[1]);
    for (int64_t r = 0; r < t.rows; ++r)
      for (int64_t c = 0; c < t.cols; ++c) y[r * t.cols + c] = static_cast<scalar_t>(c - r == t.k ? 1.f : 0.f);
  });
}

const std::vector<ge::DataType> kIdx = {ge::DT_INT64, ge::DT_INT32};

}  // namespace ge::ops_shape

namespace ops {
using namespace ge::ops_shape;
using ge::ops_util::kAllTypes;
struct Shape : OpDef {
  explicit Shape(const char* n) : OpDef(n) {
    Input("data").ParamType(REQUIRED).DataType(kAllTypes);
    Output("shape").ParamType(REQUIRED).DataType({ge::DT_INT64});
    Attr("start").AttrType(OPTIONAL).Int(0);
    Attr("end").AttrType(OPTIONAL).Int(0);
    SetInferShape(ShapeShape).SetInferDataType(Int64Output);
    AICore().SetTiling(ShapeTiling).SetKernel(ValuesKernel).AddConfig("ascend910b");
  }
};
struct Size : OpDef {
  explicit Size(const char* n) : OpDef(n) {
    Input("data").ParamType(REQUIRED).DataType(kAllTypes);
    Output("size").ParamType(REQUIRED).DataType({ge::DT_INT64});
    SetInferShape(SizeShape).SetInferDataType(Int64Output);
    AICore().SetTiling(SizeTiling).SetKernel(ValuesKernel).AddConfig("ascend910b");
  }
};
struct Concat : OpDef {
  explicit Concat(const char* n) : OpDef(n) {
    Input("inputs").ParamType(DYNAMIC).DataType(kAllTypes);
    Output("concat_result").ParamType(REQUIRED).DataType(kAllTypes);
    Attr("axis").AttrType(REQUIRED).Int();
    SetInferShape(ConcatShape).SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    AICore().SetTiling(ConcatTilingFn).SetKernel(ConcatKernel).AddConfig("ascend910b");
  }
};
struct Split : OpDef {
  explicit Split(const char* n) : OpDef(n) {
    Input("input").ParamType(REQUIRED).DataType(kAllTypes);
    Input("split").ParamType(OPTIONAL).DataType(kIdx).ValueDepend(OPTIONAL);
    Output("outputs").ParamType(DYNAMIC).DataType(kAllTypes);
    Attr("axis").AttrType(OPTIONAL).Int(0);
    SetInferShape(SplitShape).SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    AICore().SetTiling(SplitTiling).SetKernel(SplitKernel).AddConfig("ascend910b");
  }
};
// ONNX's Range types; start, limit and delta of one of them (an unsigned Range counting down
// from 0 cast -1 to uint64: UBSan, onnx_model harness).
const std::vector<ge::DataType> kRangeTypes = {ge::DT_FLOAT, ge::DT_DOUBLE, ge::DT_INT16, ge::DT_INT32, ge::DT_INT64};
struct Range : OpDef {
  explicit Range(const char* n) : OpDef(n) {
    for (const char* in : {"start", "limit", "delta"})
      Input(in).ParamType(REQUIRED).DataType(kRangeTypes).ValueDepend(REQUIRED);
    Output("output").ParamType(REQUIRED).DataType(kRangeTypes);
    SetInferShape(RangeShape).SetInferDataType(RangeDataType);
    AICore().SetTiling(RangeTilingFn).SetKernel(RangeKernel).AddConfig("ascend910b");
  }
};
struct EyeLike : OpDef {
  explicit EyeLike(const char* n) : OpDef(n) {
    Input("input").ParamType(REQUIRED).DataType(kAllTypes);
    Output("output").ParamType(REQUIRED).DataType(kAllTypes);
    Attr("dtype").AttrType(OPTIONAL).Int(1);
    Attr("k").AttrType(OPTIONAL).Int(0);
    SetInferShape(ge::ops_util::InferShapeSameAsInput0).SetInferDataType(EyeDataType);
    AICore().SetTiling(EyeTilingFn).SetKernel(EyeKernel).AddConfig("ascend910b");
  }
};
OP_ADD(Shape);
OP_ADD(Size);
OP_ADD(Concat);
OP_ADD(Split);
OP_ADD(Range);
OP_ADD(EyeLike);
}  // namespace ops

// ---- ConstantOfShape: input = the shape (value-depend); attr value = a one-element tensor,
// bound as {decimal DataType, raw bytes} (see ToRuntimeAttr); default float 0.
namespace ge::ops_shape {

struct FillTiling {
  int32_t dtype;
  int32_t elem_size;
  int64_t numel;
  uint8_t value[8];
};

ge::DataType FillType(const gert::RuntimeAttrs* a) {
  const auto* v = a ? a->GetListStr(0) : nullptr;
  return v && v->size() == 2 ? static_cast<ge::DataType>(std::stoi((*v)[0])) : ge::DT_FLOAT;
}

ge::graphStatus FillShape(gert::InferShapeContext* ctx) {
  std::vector<int64_t> dims;
  if (!ReadInt64s(ctx->GetInputTensor(0), &dims)) return ge::GRAPH_FAILED;
  for (int64_t d : dims)
    if (d < 0) return InferFail(fmt::format("'input' value {} is not a dimension (an integer >= 0)", d));
  SetDims(ctx->GetOutputShape(0), dims);
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus FillDataType(gert::InferDataTypeContext* ctx) {
  return ctx->SetOutputDataType(0, FillType(ctx->GetAttrs()));
}

ge::graphStatus FillTilingFn(gert::TilingContext* ctx) {
  FillTiling t{};
  t.dtype = FillType(ctx->GetAttrs());
  t.elem_size = static_cast<int32_t>(ge::GetSizeByDataType(static_cast<ge::DataType>(t.dtype)));
  t.numel = ctx->GetOutputShape(0)->GetStorageShape().GetShapeSize();
  const auto* v = ctx->GetAttrs()->GetListStr(0);
  if (v && v->size() == 2) std::memcpy(t.value, (*v)[1].data(), std::min<size_t>((*v)[1].size(), 8));
  ctx->SetBlockDim(ChooseBlockDim(ctx, t.numel, 1 << 15));
  return SetTiling(ctx, t);
}

void FillKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<FillTiling>(args);
  int64_t b, e;
  BlockRange(t.numel, args->blockIdx, args->blockDim, &b, &e);
  GE_DISPATCH(UInts, kernels::UIntOfSize(t.elem_size), {
    scalar_t v;
    std::memcpy(&v, t.value, sizeof(v));
    auto* y = static_cast<scalar_t*>(args->addrs[1]);
    for (int64_t i = b; i < e; ++i) y[i] = v;
  });
}

}  // namespace ge::ops_shape

namespace ops {
struct ConstantOfShape : OpDef {
  explicit ConstantOfShape(const char* n) : OpDef(n) {
    Input("input").ParamType(REQUIRED).DataType({ge::DT_INT64}).ValueDepend(REQUIRED);
    Output("output").ParamType(REQUIRED).DataType(ge::ops_util::kAllTypes);
    Attr("value").AttrType(OPTIONAL).ListString();
    SetInferShape(ge::ops_shape::FillShape).SetInferDataType(ge::ops_shape::FillDataType);
    AICore().SetTiling(ge::ops_shape::FillTilingFn).SetKernel(ge::ops_shape::FillKernel).AddConfig("ascend910b");
  }
};
OP_ADD(ConstantOfShape);
}  // namespace ops
