// Resize (opset 13 semantics; Upsample-9 arrives here through the version converter): N-D
// separable interpolation (nearest, linear, cubic) with every coordinate_transformation_mode,
// nearest_mode, exclude_outside and cubic_coeff_a. define: OpDef. create: the output shape from
// scales or sizes (value-depend inputs), and per-axis scales and roi as tiling data. run: each
// block precomputes per-axis (index, weight) taps, then sums the tap products for its outputs.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "ops/attr_choice.h"
#include "ops/op_util.h"

namespace ge::ops_resize {
using namespace ge::ops_util;

enum Attr { kCtm, kCubicA, kExcludeOutside, kExtrapolation, kMode, kNearestMode };
enum Mode : int32_t { kNearest, kLinear, kCubic };
enum Ctm : int32_t { kHalfPixel, kPytorchHalfPixel, kAlignCorners, kAsymmetric, kTfHalfPixelForNn, kTfCropAndResize };
enum NearestMode : int32_t { kRoundPreferFloor, kRoundPreferCeil, kFloor, kCeil };
enum Input { kX, kRoi, kScales, kSizes };
constexpr int kMaxTaps = 4;

struct ResizeTiling {
  int32_t rank, mode, ctm, nearest_mode, exclude_outside, dtype;
  float cubic_a, extrapolation;
  int64_t in[kMaxRank], out[kMaxRank];
  double scale[kMaxRank];
  double roi_start[kMaxRank], roi_end[kMaxRank];
};

// A non-empty input tensor's data as doubles; empty when absent, empty-shaped or unknown.
std::vector<double> ReadValues(const gert::Tensor* t) {
  std::vector<double> v;
  if (t == nullptr || t->GetAddr() == nullptr || t->GetShapeSize() <= 0) return v;
  int64_t n = t->GetShapeSize();
  if (t->GetDataType() == ge::DT_FLOAT) {
    v.assign(t->GetData<float>(), t->GetData<float>() + n);
  } else if (t->GetDataType() == ge::DT_DOUBLE) {
    v.assign(t->GetData<double>(), t->GetData<double>() + n);
  } else {
    std::vector<int64_t> ints;
    if (ReadInt64s(t, &ints)) v.assign(ints.begin(), ints.end());
  }
  return v;
}

bool Unknown(const gert::Tensor* t) { return t != nullptr && t->GetShapeSize() > 0 && t->GetAddr() == nullptr; }

// Output dims and per-axis scales from the inputs; GRAPH_FAILED when data is missing or bad.
ge::graphStatus ComputeSizes(const gert::Shape& x, const gert::Tensor* scales_t, const gert::Tensor* sizes_t,
                             std::vector<int64_t>* out, std::vector<double>* scale) {
  size_t rank = x.GetDimNum();
  if (Unknown(scales_t) || Unknown(sizes_t)) return InferFail("inputs 'scales' and 'sizes' must be constants");
  std::vector<double> scales = ReadValues(scales_t), sizes = ReadValues(sizes_t);
  out->assign(rank, 0);
  scale->assign(rank, 1.0);
  if (!sizes.empty()) {
    if (sizes.size() != rank)
      return InferFail(
          fmt::format("'sizes' has {} entries, the input {} has rank {}", sizes.size(), ShapeToString(x), rank));
    for (size_t d = 0; d < rank; ++d) {
      if (!(sizes[d] >= 0)) return InferFail(fmt::format("'sizes' value {} is not a dim", sizes[d]));
      (*out)[d] = static_cast<int64_t>(sizes[d]);
      (*scale)[d] = x.GetDim(d) > 0 ? sizes[d] / static_cast<double>(x.GetDim(d)) : 1.0;
    }
    return ge::GRAPH_SUCCESS;
  }
  if (scales.size() != rank)
    return InferFail(fmt::format("expected 'sizes' or 'scales' with {} entries for the input {}, got {} scales", rank,
                                 ShapeToString(x), scales.size()));
  for (size_t d = 0; d < rank; ++d) {
    if (!(scales[d] > 0)) return InferFail(fmt::format("'scales' value {} is not positive", scales[d]));
    (*scale)[d] = scales[d];
    const double n = std::floor(scales[d] * static_cast<double>(x.GetDim(d)));
    if (!(n < 9.0e18))  // (also inf): an output dim must be an int64
      return InferFail(fmt::format("scale {} makes output dim {} overflow", scales[d], d));
    (*out)[d] = static_cast<int64_t>(n);
  }
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus InferShape(gert::InferShapeContext* ctx) {
  const gert::Shape* x = ctx->GetInputShape(kX);
  if (x == nullptr) return InferFail("missing input X");
  if (x->GetDimNum() == 0 || x->GetDimNum() > kMaxRank)
    return InferFail(fmt::format("expected an input of rank 1 to {}, got {}", kMaxRank, ShapeToString(*x)));
  std::vector<int64_t> out;
  std::vector<double> scale;
  if (ComputeSizes(*x, ctx->GetInputTensor(kScales), ctx->GetInputTensor(kSizes), &out, &scale) != ge::GRAPH_SUCCESS)
    return ge::GRAPH_FAILED;
  SetDims(ctx->GetOutputShape(0), out);
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus ReadAttrs(const gert::RuntimeAttrs* a, ResizeTiling* t) {
  // Positions in the lists are the enums' values; the first is the ONNX default.
  const int m = AttrChoice(a, kMode, "mode", {"nearest", "linear", "cubic"});
  const int c = AttrChoice(a, kCtm, "coordinate_transformation_mode",
                           {"half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric", "tf_half_pixel_for_nn",
                            "tf_crop_and_resize"});
  const int nm =
      AttrChoice(a, kNearestMode, "nearest_mode", {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"});
  if (m < 0 || c < 0 || nm < 0) return ge::GRAPH_FAILED;
  t->mode = m;
  t->ctm = c;
  t->nearest_mode = nm;
  t->cubic_a = AttrFloat(a, kCubicA, -0.75f);
  t->exclude_outside = static_cast<int32_t>(AttrInt(a, kExcludeOutside, 0));
  t->extrapolation = AttrFloat(a, kExtrapolation, 0.f);
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus Tiling(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(kX)->GetStorageShape();
  ResizeTiling t{};
  if (ReadAttrs(ctx->GetAttrs(), &t) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
  std::vector<int64_t> out;
  std::vector<double> scale;
  if (ComputeSizes(x, ctx->GetInputTensor(kScales), ctx->GetInputTensor(kSizes), &out, &scale) != ge::GRAPH_SUCCESS)
    return ge::GRAPH_FAILED;
  t.rank = static_cast<int32_t>(x.GetDimNum());
  t.dtype = ctx->GetInputDesc(kX)->GetDataType();
  std::vector<double> roi = ReadValues(ctx->GetInputTensor(kRoi));
  for (int d = 0; d < t.rank; ++d) {
    t.in[d] = x.GetDim(d);
    t.out[d] = out[d];
    t.scale[d] = scale[d];
    t.roi_start[d] = roi.size() == 2u * t.rank ? roi[d] : 0.0;
    t.roi_end[d] = roi.size() == 2u * t.rank ? roi[t.rank + d] : 1.0;
  }
  int64_t numel = 1;
  for (int64_t d : out) numel *= d;
  ctx->SetBlockDim(ChooseBlockDim(ctx, numel, 1 << 13));
  return SetTiling(ctx, t);
}

// ---- run ---------------------------------------------------------------------------------------
struct Taps {
  int32_t n;
  bool extrapolate;  // tf_crop_and_resize outside the input: the output is extrapolation_value
  int64_t idx[kMaxTaps];
  double w[kMaxTaps];
};

double SourceCoord(const ResizeTiling& t, int d, int64_t x) {
  double scale = t.scale[d], in = static_cast<double>(t.in[d]);
  double out_len = scale * in;  // the reference uses the unrounded output length
  switch (t.ctm) {
    case kAlignCorners: return out_len == 1 ? 0.0 : x * (in - 1) / (out_len - 1);
    case kAsymmetric: return x / scale;
    case kTfHalfPixelForNn: return (x + 0.5) / scale;
    case kPytorchHalfPixel: return out_len == 1 ? -0.5 : (x + 0.5) / scale - 0.5;
    case kTfCropAndResize: {
      double s = t.roi_start[d], e = t.roi_end[d];
      double v = out_len == 1 ? (e - s) * (in - 1) / 2 : x * (e - s) * (in - 1) / (out_len - 1);
      return v + s * (in - 1);
    }
    default: return (x + 0.5) / scale - 0.5;
  }
}

void Coeffs(const ResizeTiling& t, double ratio, bool integral, double* c) {
  if (t.mode == kNearest) {
    bool right = integral;
    if (!integral) {
      switch (t.nearest_mode) {
        case kRoundPreferCeil: right = ratio >= 0.5; break;
        case kFloor: right = false; break;
        case kCeil: right = true; break;
        default: right = ratio > 0.5; break;
      }
    }
    c[0] = right ? 0.0 : 1.0;
    c[1] = right ? 1.0 : 0.0;
  } else if (t.mode == kLinear) {
    c[0] = 1 - ratio;
    c[1] = ratio;
  } else {
    double a = t.cubic_a, r1 = ratio + 1, r = ratio, s = 1 - ratio, s1 = 2 - ratio;
    c[0] = ((a * r1 - 5 * a) * r1 + 8 * a) * r1 - 4 * a;
    c[1] = ((a + 2) * r - (a + 3)) * r * r + 1;
    c[2] = ((a + 2) * s - (a + 3)) * s * s + 1;
    c[3] = ((a * s1 - 5 * a) * s1 + 8 * a) * s1 - 4 * a;
  }
}

Taps MakeTaps(const ResizeTiling& t, int d, int64_t x) {
  Taps taps{};
  double xo = SourceCoord(t, d, x);
  int64_t in = t.in[d];
  if (t.ctm == kTfCropAndResize && (xo < 0 || xo > in - 1)) {
    taps.extrapolate = true;
    return taps;
  }
  double fl = std::floor(xo);
  bool integral = fl == xo;
  double ratio = integral ? 1.0 : xo - fl;
  int64_t base = integral ? static_cast<int64_t>(fl) - 1 : static_cast<int64_t>(fl);  // left of xo
  int n = t.mode == kCubic ? 4 : 2;
  int64_t first = base - (n / 2 - 1);
  double c[kMaxTaps];
  Coeffs(t, ratio, integral, c);
  if (t.exclude_outside) {
    double sum = 0;
    for (int i = 0; i < n; ++i) {
      if (first + i < 0 || first + i >= in) c[i] = 0;
      sum += c[i];
    }
    for (int i = 0; i < n; ++i) c[i] = sum != 0 ? c[i] / sum : 0;
  }
  for (int i = 0; i < n; ++i) {
    if (c[i] == 0) continue;
    taps.idx[taps.n] = std::clamp<int64_t>(first + i, 0, in - 1);
    taps.w[taps.n++] = c[i];
  }
  return taps;
}

template <typename T>
void Run(const ResizeTiling& t, const T* x, T* y, int64_t begin, int64_t end) {
  std::vector<std::vector<Taps>> taps(t.rank);
  for (int d = 0; d < t.rank; ++d)
    for (int64_t i = 0; i < t.out[d]; ++i) taps[d].push_back(MakeTaps(t, d, i));
  int64_t in_strides[kMaxRank];
  ContiguousStrides(t.in, t.rank, in_strides);
  int64_t idx[kMaxRank];
  for (int64_t o = begin; o < end; ++o) {
    int64_t rem = o;
    const Taps* tp[kMaxRank];
    bool extrapolate = false;
    for (int d = t.rank - 1; d >= 0; --d) {
      idx[d] = rem % t.out[d];
      rem /= t.out[d];
      tp[d] = &taps[d][idx[d]];
      extrapolate |= tp[d]->extrapolate;
    }
    if (extrapolate) {
      y[o] = static_cast<T>(t.extrapolation);
      continue;
    }
    // Sum over the cartesian product of the axes' taps (odometer over tap positions).
    int pos[kMaxRank] = {};
    double acc = 0;
    while (true) {
      double w = 1;
      int64_t off = 0;
      for (int d = 0; d < t.rank; ++d) {
        w *= tp[d]->w[pos[d]];
        off += tp[d]->idx[pos[d]] * in_strides[d];
      }
      acc += w * static_cast<double>(static_cast<ComputeT<T>>(x[off]));
      int d = t.rank - 1;
      while (d >= 0 && ++pos[d] >= tp[d]->n) pos[d--] = 0;
      if (d < 0) break;
    }
    y[o] = static_cast<T>(static_cast<ComputeT<T>>(acc));
  }
}

void Kernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<ResizeTiling>(args);
  int64_t b, e;
  BlockRange(kernels::NumElements(t.out, t.rank), args->blockIdx, args->blockDim, &b, &e);
  if (b >= e) return;
  GE_DISPATCH(
      FloatsAnd16, static_cast<ge::DataType>(t.dtype),
      Run<scalar_t>(t, static_cast<const scalar_t*>(args->addrs[kX]), static_cast<scalar_t*>(args->addrs[4]), b, e));
}

}  // namespace ge::ops_resize

namespace ops {
using namespace ge::ops_resize;
class Resize : public OpDef {
 public:
  explicit Resize(const char* name) : OpDef(name) {
    this->Input("X").ParamType(REQUIRED).DataType(ge::ops_util::kFloatTypes);
    this->Input("roi")
        .ParamType(OPTIONAL)
        .DataType({ge::DT_FLOAT, ge::DT_DOUBLE, ge::DT_FLOAT16})
        .ValueDepend(OPTIONAL);
    this->Input("scales").ParamType(OPTIONAL).DataType({ge::DT_FLOAT}).ValueDepend(OPTIONAL);
    this->Input("sizes").ParamType(OPTIONAL).DataType({ge::DT_INT64}).ValueDepend(OPTIONAL);
    this->Output("Y").ParamType(REQUIRED).DataType(ge::ops_util::kFloatTypes);
    this->Attr("coordinate_transformation_mode").AttrType(OPTIONAL).String("half_pixel");
    this->Attr("cubic_coeff_a").AttrType(OPTIONAL).Float(-0.75f);
    this->Attr("exclude_outside").AttrType(OPTIONAL).Int(0);
    this->Attr("extrapolation_value").AttrType(OPTIONAL).Float(0.f);
    this->Attr("mode").AttrType(OPTIONAL).String("nearest");
    this->Attr("nearest_mode").AttrType(OPTIONAL).String("round_prefer_floor");
    this->SetInferShape(InferShape);
    this->SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    this->AICore().SetTiling(Tiling).SetKernel(Kernel).AddConfig("ascend910b");
  }
};
OP_ADD(Resize);
}  // namespace ops
