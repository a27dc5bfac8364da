// Data-movement ops whose output is a strided view of the input: Transpose, Slice, Expand,
// Tile, DepthToSpace, SpaceToDepth, Squeeze, Unsqueeze. Each op's work is shape inference plus
// building the view at tiling time; they share one kernel (StridedViewKernel).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/checked_math.h"
#include "ops/attr_choice.h"
#include "ops/op_util.h"

namespace ge::ops_move {
using namespace ge::ops_util;

StridedView BaseView(const gert::TilingContext* ctx) {
  StridedView v{};
  v.elem_size = static_cast<int32_t>(ge::GetSizeByDataType(ctx->GetInputDesc(0)->GetDataType()));
  return v;
}

void InStrides(const gert::Shape& s, int64_t* strides) { ContiguousStrides(s.GetDims(), s.GetDimNum(), strides); }

// ---- Transpose -------------------------------------------------------------------------------
std::vector<int64_t> Perm(const gert::RuntimeAttrs* a, size_t rank) {
  std::vector<int64_t> p = AttrInts(a, 0);
  if (p.empty())
    for (size_t i = 0; i < rank; ++i) p.push_back(static_cast<int64_t>(rank - 1 - i));
  return p;
}

ge::graphStatus TransposeShape(gert::InferShapeContext* ctx) {
  const gert::Shape& x = *ctx->GetInputShape(0);
  auto p = Perm(ctx->GetAttrs(), x.GetDimNum());
  if (p.size() != x.GetDimNum())
    return InferFail(
        fmt::format("perm has {} entries, the input {} has rank {}", p.size(), ShapeToString(x), x.GetDimNum()));
  gert::Shape* y = ctx->GetOutputShape(0);
  y->SetDimNum(0);
  std::vector<bool> seen(p.size(), false);
  for (int64_t d : p) {
    if (d < 0 || d >= static_cast<int64_t>(x.GetDimNum()))
      return InferFail(fmt::format("perm entry {} is out of range for the input {}", d, ShapeToString(x)));
    if (seen[d]) return InferFail(fmt::format("perm {} names axis {} twice", fmt::join(p, ", "), d));
    seen[d] = true;
    y->AppendDim(x.GetDim(d));
  }
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus TransposeTiling(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  if (x.GetDimNum() > static_cast<size_t>(kMaxRank))
    return InferFail(fmt::format("expected at most {} dims, got {}", kMaxRank, ShapeToString(x)));
  auto p = Perm(ctx->GetAttrs(), x.GetDimNum());
  StridedView v = BaseView(ctx);
  int64_t s[kMaxRank];
  InStrides(x, s);
  v.rank = static_cast<int32_t>(p.size());
  for (size_t d = 0; d < p.size(); ++d) {
    v.dims[d] = x.GetDim(p[d]);
    v.strides[d] = s[p[d]];
  }
  return SetViewTiling(ctx, v);
}

// ---- Slice -----------------------------------------------------------------------------------
// Per input dim: start and step of the slice and the output length.
template <typename Ctx>
bool SliceParams(const Ctx* ctx, const gert::Shape& x, std::vector<int64_t>* start, std::vector<int64_t>* step,
                 std::vector<int64_t>* len) {
  size_t rank = x.GetDimNum(), n_in = ctx->GetComputeNodeInputNum();
  std::vector<int64_t> starts, ends, axes, steps;
  if (!ReadInt64s(ctx->GetInputTensor(1), &starts) || !ReadInt64s(ctx->GetInputTensor(2), &ends)) return false;
  if (n_in > 3 && ctx->GetInputTensor(3) && !ReadInt64s(ctx->GetInputTensor(3), &axes)) return false;
  if (n_in > 4 && ctx->GetInputTensor(4) && !ReadInt64s(ctx->GetInputTensor(4), &steps)) return false;
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (axes.size() != starts.size() || ends.size() != starts.size() || steps.size() != starts.size()) return false;
  start->assign(rank, 0);
  step->assign(rank, 1);
  len->assign(x.GetDims(), x.GetDims() + rank);
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t ax;
    if (!NormalizeAxis(axes[i], static_cast<int64_t>(rank), &ax) || steps[i] == 0) return false;
    int64_t dim = x.GetDim(ax), st = steps[i];
    // A dim unknown at compile time leaves the slice's length unknown (start + -1 overflowed for a
    // start of INT64_MIN: UBSan, onnx_model harness).
    if (dim < 0) {
      (*len)[ax] = -1;
      (*step)[ax] = st;
      continue;
    }
    int64_t b = starts[i] < 0 ? starts[i] + dim : starts[i];
    int64_t e = ends[i] < 0 ? ends[i] + dim : ends[i];
    if (st > 0) {
      b = std::clamp<int64_t>(b, 0, dim);
      e = std::clamp<int64_t>(e, 0, dim);
      (*len)[ax] = e > b ? 1 + (e - b - 1) / st : 0;  // no overflow for any step
    } else {
      b = std::clamp<int64_t>(b, -1, dim - 1);
      e = std::clamp<int64_t>(e, -1, dim - 1);
      const uint64_t mag = uint64_t{0} - static_cast<uint64_t>(st);  // |st|, INT64_MIN included
      (*len)[ax] = b > e ? static_cast<int64_t>(1 + static_cast<uint64_t>(b - e - 1) / mag) : 0;
    }
    (*start)[ax] = b;
    (*step)[ax] = st;
  }
  return true;
}

ge::graphStatus SliceShape(gert::InferShapeContext* ctx) {
  std::vector<int64_t> start, step, len;
  if (!SliceParams(ctx, *ctx->GetInputShape(0), &start, &step, &len))
    return InferFail(
        fmt::format("invalid starts, ends, axes or steps for the input {}", ShapeToString(*ctx->GetInputShape(0))));
  SetDims(ctx->GetOutputShape(0), len);
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus SliceTiling(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  std::vector<int64_t> start, step, len;
  if (x.GetDimNum() > static_cast<size_t>(kMaxRank))
    return InferFail(fmt::format("expected at most {} dims, got {}", kMaxRank, ShapeToString(x)));
  if (!SliceParams(ctx, x, &start, &step, &len))
    return InferFail(fmt::format("invalid starts, ends, axes or steps for the input {}", ShapeToString(x)));
  StridedView v = BaseView(ctx);
  int64_t s[kMaxRank];
  InStrides(x, s);
  v.rank = static_cast<int32_t>(x.GetDimNum());
  for (int d = 0; d < v.rank; ++d) {
    v.dims[d] = len[d];
    // A step beyond the dim selects one element: its stride is never applied.
    v.strides[d] = len[d] > 1 ? s[d] * step[d] : 0;
    v.offset += len[d] > 0 ? start[d] * s[d] : 0;
  }
  return SetViewTiling(ctx, v);
}

// ---- Expand and Tile -------------------------------------------------------------------------
ge::graphStatus ExpandShape(gert::InferShapeContext* ctx) {
  std::vector<int64_t> dims;
  if (!ReadInt64s(ctx->GetInputTensor(1), &dims)) return InferFail("input 'shape' must be a constant integer tensor");
  gert::Shape target;
  SetDims(&target, dims);
  if (!BroadcastShape(*ctx->GetInputShape(0), target, ctx->GetOutputShape(0)))
    return InferFail(fmt::format("input {} does not broadcast to shape {}", ShapeToString(*ctx->GetInputShape(0)),
                                 ShapeToString(target)));
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus ExpandTiling(gert::TilingContext* ctx) {
  const gert::Shape& out = ctx->GetOutputShape(0)->GetStorageShape();
  if (out.GetDimNum() > static_cast<size_t>(kMaxRank))
    return InferFail(fmt::format("expected at most {} dims, got {}", kMaxRank, ShapeToString(out)));
  StridedView v = BaseView(ctx);
  v.rank = static_cast<int32_t>(out.GetDimNum());
  for (int d = 0; d < v.rank; ++d) v.dims[d] = out.GetDim(d);
  BroadcastStrides(ctx->GetInputShape(0)->GetStorageShape(), out, v.strides);
  return SetViewTiling(ctx, v);
}

ge::graphStatus TileShape(gert::InferShapeContext* ctx) {
  std::vector<int64_t> rep;
  const gert::Shape& x = *ctx->GetInputShape(0);
  if (!ReadInt64s(ctx->GetInputTensor(1), &rep)) return InferFail("input 'repeats' must be a constant integer tensor");
  if (rep.size() != x.GetDimNum())
    return InferFail(
        fmt::format("'repeats' has {} entries, the input {} has rank {}", rep.size(), ShapeToString(x), x.GetDimNum()));
  gert::Shape* y = ctx->GetOutputShape(0);
  y->SetDimNum(0);
  for (size_t d = 0; d < rep.size(); ++d) {
    int64_t n = -1;  // an unknown input dim stays unknown
    if (rep[d] < 0) return InferFail(fmt::format("'repeats' value {} is negative", rep[d]));
    if (x.GetDim(d) >= 0 && !ge::CheckedMul(x.GetDim(d), rep[d], &n))
      return InferFail(fmt::format("dim {} ({}) times repeats {} overflows", d, x.GetDim(d), rep[d]));
    y->AppendDim(n);
  }
  return ge::GRAPH_SUCCESS;
}

// Tile as a view of rank 2r: dims (rep_0, x_0, rep_1, x_1, ...) with strides (0, s_0, 0, s_1...).
ge::graphStatus TileTiling(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  std::vector<int64_t> rep;
  if (!ReadInt64s(ctx->GetInputTensor(1), &rep)) return InferFail("input 'repeats' must be a constant integer tensor");
  if (2 * x.GetDimNum() > static_cast<size_t>(kMaxRank))
    return InferFail(fmt::format("expected at most {} dims, got {}", kMaxRank / 2, ShapeToString(x)));
  StridedView v = BaseView(ctx);
  int64_t s[kMaxRank];
  InStrides(x, s);
  v.rank = static_cast<int32_t>(2 * x.GetDimNum());
  for (size_t d = 0; d < x.GetDimNum(); ++d) {
    v.dims[2 * d] = rep[d];
    v.strides[2 * d] = 0;
    v.dims[2 * d + 1] = x.GetDim(d);
    v.strides[2 * d + 1] = s[d];
  }
  return SetViewTiling(ctx, v);
}

// ---- DepthToSpace / SpaceToDepth -------------------------------------------------------------
template <bool kToSpace>
ge::graphStatus D2SShape(gert::InferShapeContext* ctx) {
  const gert::Shape& x = *ctx->GetInputShape(0);
  int64_t b = AttrInt(ctx->GetAttrs(), 0, 0);
  int64_t bb = 0;
  if (x.GetDimNum() != 4 || b <= 0 || !ge::CheckedMul(b, b, &bb))
    return InferFail("need a 4-D input and blocksize > 0");
  int64_t n = x.GetDim(0), c = x.GetDim(1), h = x.GetDim(2), w = x.GetDim(3);
  // ONNX: the split dims divide evenly (an unknown dim is checked when known).
  if (kToSpace && c >= 0 && c % bb != 0)
    return InferFail(fmt::format("channels {} are not a multiple of blocksize^2 = {}", c, bb));
  if (!kToSpace && ((h >= 0 && h % b != 0) || (w >= 0 && w % b != 0)))
    return InferFail(fmt::format("height {} and width {} must be multiples of blocksize {}", h, w, b));
  int64_t big = 0;  // the grown dims (and c * b * b) must not overflow
  if (!ge::CheckedMul(kToSpace ? std::max<int64_t>(h, w) : c, kToSpace ? b : bb, &big))
    return InferFail("the output dims overflow");
  if (kToSpace)
    SetDims(ctx->GetOutputShape(0), {n, c / (b * b), h * b, w * b});
  else
    SetDims(ctx->GetOutputShape(0), {n, c * b * b, h / b, w / b});
  return ge::GRAPH_SUCCESS;
}

// DepthToSpace DCR: x viewed as [n, b, b, c', h, w] -> [n, c', h, b, w, b]; CRD: [n, c', b, b,
// h, w]. SpaceToDepth: x [n, c, h, b, w, b] -> [n, b, b, c, h', w'].
template <bool kToSpace>
ge::graphStatus D2STiling(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  int64_t b = AttrInt(ctx->GetAttrs(), 0, 0);
  const int mode = kToSpace ? AttrChoice(ctx->GetAttrs(), 1, "mode", {"DCR", "CRD"}) : 0;
  if (mode < 0) return ge::GRAPH_FAILED;
  const bool crd = mode == 1;
  int64_t n = x.GetDim(0), c = x.GetDim(1), h = x.GetDim(2), w = x.GetDim(3);
  StridedView v = BaseView(ctx);
  v.rank = 6;
  int64_t sn = c * h * w, sc = h * w, sh = w;
  if (kToSpace) {
    int64_t cc = c / (b * b);
    // input strides of the split channel parts
    int64_t s_b1 = crd ? b * sc : b * cc * sc, s_b2 = crd ? sc : cc * sc, s_c = crd ? b * b * sc : sc;
    int64_t dims[6] = {n, cc, h, b, w, b}, strides[6] = {sn, s_c, sh, s_b1, 1, s_b2};
    std::copy(dims, dims + 6, v.dims);
    std::copy(strides, strides + 6, v.strides);
  } else {
    int64_t hh = h / b, ww = w / b;
    int64_t dims[6] = {n, b, b, c, hh, ww}, strides[6] = {sn, w, 1, sc, b * w, b};
    std::copy(dims, dims + 6, v.dims);
    std::copy(strides, strides + 6, v.strides);
  }
  return SetViewTiling(ctx, v);
}

// ---- Squeeze / Unsqueeze (a plain copy; only the shape changes) --------------------------------
template <typename Ctx>
bool Axes(const Ctx* ctx, std::vector<int64_t>* axes) {
  if (ctx->GetComputeNodeInputNum() < 2 || ctx->GetInputTensor(1) == nullptr) return true;
  return ReadInt64s(ctx->GetInputTensor(1), axes);
}

ge::graphStatus SqueezeShape(gert::InferShapeContext* ctx) {
  const gert::Shape& x = *ctx->GetInputShape(0);
  std::vector<int64_t> axes;
  if (!Axes(ctx, &axes)) return InferFail("input 'axes' must be a constant integer tensor");
  int64_t rank = static_cast<int64_t>(x.GetDimNum());
  std::vector<bool> drop(rank, axes.empty());
  for (int64_t a : axes) {
    int64_t n;
    if (!NormalizeAxis(a, rank, &n))
      return InferFail(fmt::format("axis {} is out of range for the input {}", a, ShapeToString(x)));
    drop[n] = true;
  }
  gert::Shape* y = ctx->GetOutputShape(0);
  y->SetDimNum(0);
  for (int64_t d = 0; d < rank; ++d)
    if (!(drop[d] && x.GetDim(d) == 1)) y->AppendDim(x.GetDim(d));
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus UnsqueezeShape(gert::InferShapeContext* ctx) {
  const gert::Shape& x = *ctx->GetInputShape(0);
  std::vector<int64_t> axes;
  if (!Axes(ctx, &axes)) return InferFail("input 'axes' must be a constant integer tensor");
  int64_t rank = static_cast<int64_t>(x.GetDimNum() + axes.size());
  std::vector<bool> ins(rank, false);
  for (int64_t a : axes) {
    int64_t n;
    if (!NormalizeAxis(a, rank, &n) || ins[n])
      return InferFail(fmt::format("axis {} is out of range or repeated for an output of rank {} (input {})", a, rank,
                                   ShapeToString(x)));
    ins[n] = true;
  }
  gert::Shape* y = ctx->GetOutputShape(0);
  y->SetDimNum(0);
  for (int64_t d = 0, k = 0; d < rank; ++d) y->AppendDim(ins[d] ? 1 : x.GetDim(k++));
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus CopyTiling(gert::TilingContext* ctx) {
  StridedView v = BaseView(ctx);
  v.rank = 1;
  v.dims[0] = ctx->GetInputShape(0)->GetStorageShape().GetShapeSize();
  v.strides[0] = 1;
  return SetViewTiling(ctx, v);
}

// ---- define ----------------------------------------------------------------------------------
class ViewOpDef : public ::ops::OpDef {
 public:
  ViewOpDef(const char* name, gert::InferShapeKernelFunc shape, gert::TilingKernelFunc tiling) : OpDef(name) {
    this->Input("data").ParamType(::ops::REQUIRED).DataType(kAllTypes);
    this->Output("output").ParamType(::ops::REQUIRED).DataType(kAllTypes);
    this->SetInferShape(shape);
    this->SetInferDataType(InferDataTypeSameAsInput0);
    this->AICore().SetTiling(tiling).SetKernel(StridedViewKernel).AddConfig("ascend910b");
  }
  void ValueInput(const char* name, ::ops::Option opt) {
    this->Input(name).ParamType(opt).DataType({ge::DT_INT64, ge::DT_INT32}).ValueDepend(opt);
  }
};

}  // namespace ge::ops_move

namespace ops {
using ge::ops_move::ViewOpDef;
struct Transpose : ViewOpDef {
  explicit Transpose(const char* n) : ViewOpDef(n, ge::ops_move::TransposeShape, ge::ops_move::TransposeTiling) {
    Attr("perm").AttrType(OPTIONAL).ListInt();
  }
};
struct Slice : ViewOpDef {
  explicit Slice(const char* n) : ViewOpDef(n, ge::ops_move::SliceShape, ge::ops_move::SliceTiling) {
    ValueInput("starts", REQUIRED);
    ValueInput("ends", REQUIRED);
    ValueInput("axes", OPTIONAL);
    ValueInput("steps", OPTIONAL);
  }
};
struct Expand : ViewOpDef {
  explicit Expand(const char* n) : ViewOpDef(n, ge::ops_move::ExpandShape, ge::ops_move::ExpandTiling) {
    ValueInput("shape", REQUIRED);
  }
};
struct Tile : ViewOpDef {
  explicit Tile(const char* n) : ViewOpDef(n, ge::ops_move::TileShape, ge::ops_move::TileTiling) {
    ValueInput("repeats", REQUIRED);
  }
};
struct DepthToSpace : ViewOpDef {
  explicit DepthToSpace(const char* n) : ViewOpDef(n, ge::ops_move::D2SShape<true>, ge::ops_move::D2STiling<true>) {
    Attr("blocksize").AttrType(REQUIRED).Int();
    Attr("mode").AttrType(OPTIONAL).String("DCR");
  }
};
struct SpaceToDepth : ViewOpDef {
  explicit SpaceToDepth(const char* n) : ViewOpDef(n, ge::ops_move::D2SShape<false>, ge::ops_move::D2STiling<false>) {
    Attr("blocksize").AttrType(REQUIRED).Int();
  }
};
struct Squeeze : ViewOpDef {
  explicit Squeeze(const char* n) : ViewOpDef(n, ge::ops_move::SqueezeShape, ge::ops_move::CopyTiling) {
    ValueInput("axes", OPTIONAL);
    OutputView(0, 0);
  }
};
struct Unsqueeze : ViewOpDef {
  explicit Unsqueeze(const char* n) : ViewOpDef(n, ge::ops_move::UnsqueezeShape, ge::ops_move::CopyTiling) {
    ValueInput("axes", REQUIRED);
    OutputView(0, 0);
  }
};
OP_ADD(Transpose);
OP_ADD(Slice);
OP_ADD(Expand);
OP_ADD(Tile);
OP_ADD(DepthToSpace);
OP_ADD(SpaceToDepth);
OP_ADD(Squeeze);
OP_ADD(Unsqueeze);
}  // namespace ops
