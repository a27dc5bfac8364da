// Signal ops (opset 17): DFT, STFT, the window generators HannWindow, HammingWindow,
// BlackmanWindow, and MelWeightMatrix. Transforms are direct O(n^2) sums in double with exact
// twiddle angles ((k * j) mod n), so bins that are zero in exact arithmetic stay ~0.
// define: OpDefs. create: output shapes from value-depend scalars. run: one block per transform
// batch (DFT, STFT) or a single block (generators).
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "ops/op_util.h"

namespace ge::ops_signal {
using namespace ge::ops_util;

constexpr double kTwoPi = 6.283185307179586476925286766559;

// A scalar integer input's value; false when absent or not known yet.
bool ScalarInt(const gert::Tensor* t, int64_t* v) {
  std::vector<int64_t> vals;
  if (t == nullptr || t->GetAddr() == nullptr || !ReadInt64s(t, &vals) || vals.empty()) return false;
  *v = vals[0];
  return true;
}

// A scalar input's value as float (any numeric dtype); false when absent, unknown or not one value.
bool ScalarFloat(const gert::Tensor* t, float* v) {
  double d = 0;
  if (!ReadScalar(t, &d)) return false;
  *v = static_cast<float>(d);
  return true;
}

// out[k] = sum_j in[j] * exp(sign * 2πi k j / n), k < out_len; in has `len` complex samples
// (zero beyond), read with stride `in_stride` complex elements.
void Dft(const float* in, int64_t in_stride, int64_t len, int comps, int64_t n, int64_t out_len, bool inverse,
         float* out, int64_t out_stride) {
  double sign = inverse ? 1.0 : -1.0;
  for (int64_t k = 0; k < out_len; ++k) {
    double re = 0, im = 0;
    for (int64_t j = 0; j < std::min(len, n); ++j) {
      double ang = sign * kTwoPi * static_cast<double>((k * j) % n) / static_cast<double>(n);
      double xr = in[j * in_stride * comps], xi = comps == 2 ? in[j * in_stride * comps + 1] : 0.0;
      double c = std::cos(ang), s = std::sin(ang);
      re += xr * c - xi * s;
      im += xr * s + xi * c;
    }
    if (inverse) {
      re /= n;
      im /= n;
    }
    out[k * out_stride * 2] = static_cast<float>(re);
    out[k * out_stride * 2 + 1] = static_cast<float>(im);
  }
}

// ---- DFT ---------------------------------------------------------------------------------------
enum DftAttr { kDftAxis, kDftInverse, kDftOnesided };
struct DftTiling {
  int64_t outer, len, inner, n, out_len;
  int32_t comps, inverse;
};

bool DftGeometry(const gert::Shape& x, const gert::Tensor* dft_length, const gert::RuntimeAttrs* a, DftTiling* t,
                 std::vector<int64_t>* out) {
  int64_t rank = static_cast<int64_t>(x.GetDimNum()), axis = AttrInt(a, kDftAxis, 1);
  if (rank < 3 || (x.GetDim(rank - 1) != 1 && x.GetDim(rank - 1) != 2)) return false;
  if (axis < 0) axis += rank - 1;  // negative axes count from the last signal dim
  if (axis < 0 || axis >= rank - 1) return false;
  t->comps = static_cast<int32_t>(x.GetDim(rank - 1));
  t->len = x.GetDim(axis);
  t->n = t->len;
  if (dft_length && dft_length->GetShapeSize() > 0 && !ScalarInt(dft_length, &t->n)) return false;
  t->inverse = static_cast<int32_t>(AttrInt(a, kDftInverse, 0));
  bool onesided = AttrInt(a, kDftOnesided, 0) != 0;
  t->out_len = onesided ? t->n / 2 + 1 : t->n;
  t->outer = t->inner = 1;
  for (int64_t d = 0; d < axis; ++d) t->outer *= x.GetDim(d);
  for (int64_t d = axis + 1; d < rank - 1; ++d) t->inner *= x.GetDim(d);
  *out = DimsOf(x);
  (*out)[axis] = t->out_len;
  out->back() = 2;
  return t->n > 0;
}

ge::graphStatus DftShape(gert::InferShapeContext* ctx) {
  DftTiling t{};
  std::vector<int64_t> out;
  if (!DftGeometry(*ctx->GetInputShape(0), ctx->GetInputTensor(1), ctx->GetAttrs(), &t, &out)) return ge::GRAPH_FAILED;
  SetDims(ctx->GetOutputShape(0), out);
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus DftTilingFn(gert::TilingContext* ctx) {
  DftTiling t{};
  std::vector<int64_t> out;
  if (ctx->GetInputDesc(0)->GetDataType() != ge::DT_FLOAT ||
      !DftGeometry(ctx->GetInputShape(0)->GetStorageShape(), ctx->GetInputTensor(1), ctx->GetAttrs(), &t, &out))
    return ge::GRAPH_FAILED;
  ctx->SetBlockDim(ChooseBlockDim(ctx, t.outer * t.inner * t.n * t.out_len, 1 << 14));
  return SetTiling(ctx, t);
}

void DftKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<DftTiling>(args);
  const auto* x = static_cast<const float*>(args->addrs[0]);
  auto* y = static_cast<float*>(args->addrs[2]);
  int64_t b, e;
  BlockRange(t.outer * t.inner, args->blockIdx, args->blockDim, &b, &e);
  for (int64_t u = b; u < e; ++u) {
    int64_t o = u / t.inner, i = u % t.inner;
    Dft(x + (o * t.len * t.inner + i) * t.comps, t.inner, t.len, t.comps, t.n, t.out_len, t.inverse,
        y + (o * t.out_len * t.inner + i) * 2, t.inner);
  }
}

// ---- STFT --------------------------------------------------------------------------------------
enum StftIn { kSignal, kFrameStep, kWindow, kFrameLength };
struct StftTiling {
  int64_t batch, len, step, frame, frames, bins;
  int32_t comps, has_window;
};

bool StftGeometry(const gert::Shape& s, const gert::Tensor* step, const gert::Tensor* window,
                  const gert::Tensor* frame_len, const gert::RuntimeAttrs* a, StftTiling* t) {
  if (s.GetDimNum() != 3 || !ScalarInt(step, &t->step) || t->step <= 0) return false;
  t->batch = s.GetDim(0);
  t->len = s.GetDim(1);
  t->comps = static_cast<int32_t>(s.GetDim(2));
  t->has_window = window != nullptr && window->GetShapeSize() > 0;
  if (frame_len != nullptr && frame_len->GetShapeSize() > 0) {
    if (!ScalarInt(frame_len, &t->frame)) return false;
  } else if (t->has_window) {
    t->frame = window->GetStorageShape().GetDim(0);
  } else {
    return false;
  }
  if (t->frame <= 0 || t->frame > t->len) return false;
  t->frames = (t->len - t->frame) / t->step + 1;
  bool onesided = AttrInt(a, 0, 1) != 0;
  t->bins = onesided ? t->frame / 2 + 1 : t->frame;
  return true;
}

template <typename Ctx>
bool StftFrom(const Ctx* ctx, const gert::Shape& s, StftTiling* t) {
  return StftGeometry(s, ctx->GetInputTensor(kFrameStep), ctx->GetInputTensor(kWindow),
                      ctx->GetInputTensor(kFrameLength), ctx->GetAttrs(), t);
}

ge::graphStatus StftShape(gert::InferShapeContext* ctx) {
  StftTiling t{};
  if (!StftFrom(ctx, *ctx->GetInputShape(kSignal), &t)) return ge::GRAPH_FAILED;
  SetDims(ctx->GetOutputShape(0), {t.batch, t.frames, t.bins, 2});
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus StftTilingFn(gert::TilingContext* ctx) {
  StftTiling t{};
  if (ctx->GetInputDesc(0)->GetDataType() != ge::DT_FLOAT ||
      !StftFrom(ctx, ctx->GetInputShape(kSignal)->GetStorageShape(), &t))
    return ge::GRAPH_FAILED;
  ctx->SetBlockDim(ChooseBlockDim(ctx, t.batch * t.frames * t.frame * t.bins, 1 << 14));
  ctx->GetWorkspaceSizes(1)[0] = static_cast<size_t>(ctx->GetBlockDim()) * t.frame * 2 * sizeof(float);
  return SetTiling(ctx, t);
}

void StftKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<StftTiling>(args);
  const auto* x = static_cast<const float*>(args->addrs[kSignal]);
  const auto* w = t.has_window ? static_cast<const float*>(args->addrs[kWindow]) : nullptr;
  auto* y = static_cast<float*>(args->addrs[4]);
  float* frame = static_cast<float*>(args->addrs[5]) + args->blockIdx * t.frame * 2;
  int64_t b, e;
  BlockRange(t.batch * t.frames, args->blockIdx, args->blockDim, &b, &e);
  for (int64_t u = b; u < e; ++u) {
    int64_t n = u / t.frames, f = u % t.frames;
    const float* src = x + (n * t.len + f * t.step) * t.comps;
    for (int64_t j = 0; j < t.frame; ++j) {
      float wv = w ? w[j] : 1.f;
      frame[2 * j] = src[j * t.comps] * wv;
      frame[2 * j + 1] = t.comps == 2 ? src[j * t.comps + 1] * wv : 0.f;
    }
    Dft(frame, 1, t.frame, 2, t.frame, t.bins, false, y + u * t.bins * 2, 1);
  }
}

// ---- Windows -----------------------------------------------------------------------------------
enum WindowKind : int32_t { kHann, kHamming, kBlackman };
enum WindowAttr { kOutputDtype, kPeriodic };
struct WindowTiling {
  int64_t size;
  int32_t kind, periodic, dtype;
};

ge::graphStatus WindowShape(gert::InferShapeContext* ctx) {
  int64_t n;
  if (!ScalarInt(ctx->GetInputTensor(0), &n) || n < 0) return ge::GRAPH_FAILED;
  SetDims(ctx->GetOutputShape(0), {n});
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus OutputDtypeAttr(gert::InferDataTypeContext* ctx) {
  ge::DataType dt = FromOnnxDtype(AttrInt(ctx->GetAttrs(), 0, 1));
  return ctx->SetOutputDataType(0, dt == ge::DT_UNDEFINED ? ge::DT_FLOAT : dt);
}

template <int32_t kKind>
ge::graphStatus WindowTilingFn(gert::TilingContext* ctx) {
  WindowTiling t{};
  if (!ScalarInt(ctx->GetInputTensor(0), &t.size)) return ge::GRAPH_FAILED;
  t.kind = kKind;
  t.periodic = static_cast<int32_t>(AttrInt(ctx->GetAttrs(), kPeriodic, 1));
  t.dtype = ctx->GetOutputDesc(0)->GetDataType();
  return SetTiling(ctx, t);
}

void WindowKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<WindowTiling>(args);
  if (args->blockIdx != 0) return;
  double denom = static_cast<double>(t.periodic ? t.size : t.size - 1);
  for (int64_t k = 0; k < t.size; ++k) {
    double a = denom > 0 ? kTwoPi * k / denom : 0, v;
    if (t.kind == kHann)
      v = 0.5 - 0.5 * std::cos(a);
    else if (t.kind == kHamming)
      v = 25.0 / 46 - 21.0 / 46 * std::cos(a);
    else
      v = 0.42 - 0.5 * std::cos(a) + 0.08 * std::cos(2 * a);
    GE_DISPATCH(AllTypes, static_cast<ge::DataType>(t.dtype),
                static_cast<scalar_t*>(args->addrs[1])[k] = static_cast<scalar_t>(static_cast<float>(v)));
  }
}

// ---- MelWeightMatrix ---------------------------------------------------------------------------
struct MelTiling {
  int64_t mel_bins, dft_length, sample_rate;
  float lower, upper;
  int32_t dtype;
};

// The parameters, or false (with the reason in *why once the values are known).
template <typename Ctx>
bool MelParams(const Ctx* ctx, MelTiling* t, std::string* why) {
  for (int i = 0; i < 5; ++i)
    if (ctx->GetInputTensor(i) == nullptr || ctx->GetInputTensor(i)->GetAddr() == nullptr) return false;
  if (!ScalarInt(ctx->GetInputTensor(0), &t->mel_bins) || !ScalarInt(ctx->GetInputTensor(1), &t->dft_length) ||
      !ScalarInt(ctx->GetInputTensor(2), &t->sample_rate) || !ScalarFloat(ctx->GetInputTensor(3), &t->lower) ||
      !ScalarFloat(ctx->GetInputTensor(4), &t->upper)) {
    *why = "each input must hold one value (integer num_mel_bins, dft_length and sample_rate; float edges)";
    return false;
  }
  // Frequency edges: finite, 0 <= lower <= upper, and a top bin index ((dft_length + 1) * upper /
  // sample_rate) far inside int64 (a NaN or -1e30 edge made the bins NaN, cast to int64: UBSan).
  if (!(t->lower >= 0 && t->lower <= t->upper && std::isfinite(t->upper))) {
    *why = fmt::format(
        "the edges must be finite with 0 <= lower <= upper, got lower_edge_hertz {} and "
        "upper_edge_hertz {}",
        t->lower, t->upper);
    return false;
  }
  if (t->mel_bins <= 0 || t->dft_length <= 0 || t->sample_rate <= 0 || t->mel_bins > (int64_t{1} << 24) ||
      t->dft_length > (int64_t{1} << 40)) {
    *why = fmt::format(
        "expected 0 < num_mel_bins <= 2^24, 0 < dft_length <= 2^40 and sample_rate > 0, got {}, {} "
        "and {}",
        t->mel_bins, t->dft_length, t->sample_rate);
    return false;
  }
  const double top_bin = (static_cast<double>(t->dft_length) + 1) * t->upper / static_cast<double>(t->sample_rate);
  if (!(top_bin < 1e15)) {
    *why = fmt::format("(dft_length + 1) * upper_edge_hertz / sample_rate is {:.3g}, past 1e15", top_bin);
    return false;
  }
  return true;
}

ge::graphStatus MelShape(gert::InferShapeContext* ctx) {
  MelTiling t{};
  std::string why;
  if (!MelParams(ctx, &t, &why)) return InferFail(why);
  SetDims(ctx->GetOutputShape(0), {t.dft_length / 2 + 1, t.mel_bins});
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus MelTilingFn(gert::TilingContext* ctx) {
  MelTiling t{};
  std::string why;
  if (!MelParams(ctx, &t, &why)) return InferFail(why);
  t.dtype = ctx->GetOutputDesc(0)->GetDataType();
  return SetTiling(ctx, t);
}

// Triangular filters between mel-spaced frequency bins (the ONNX reference's construction).
void MelKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<MelTiling>(args);
  if (args->blockIdx != 0) return;
  int64_t rows = t.dft_length / 2 + 1, n = t.mel_bins + 2;
  std::vector<double> out(rows * t.mel_bins, 0.0);
  float low_mel = 2595.f * std::log10(1.f + t.lower / 700.f), high_mel = 2595.f * std::log10(1.f + t.upper / 700.f);
  float step = (high_mel - low_mel) / static_cast<float>(n);
  std::vector<int64_t> bins(n);
  for (int64_t i = 0; i < n; ++i) {
    double hz = 700.0 * (std::pow(10.0, (i * static_cast<double>(step) + low_mel) / 2595.0) - 1);
    bins[i] = static_cast<int64_t>(std::floor((t.dft_length + 1) * hz / t.sample_rate));
  }
  auto at = [&](int64_t r, int64_t c) -> double& { return out[std::clamp<int64_t>(r, 0, rows - 1) * t.mel_bins + c]; };
  for (int64_t i = 0; i < t.mel_bins; ++i) {
    int64_t lo = bins[i], center = bins[i + 1], hi = bins[i + 2];
    if (center == lo) {
      at(center, i) = 1;
    } else {
      for (int64_t j = lo; j <= center; ++j) at(j, i) = static_cast<double>(j - lo) / (center - lo);
    }
    for (int64_t j = center; hi > center && j < hi; ++j) at(j, i) = static_cast<double>(hi - j) / (hi - center);
  }
  for (size_t k = 0; k < out.size(); ++k)
    GE_DISPATCH(AllTypes, static_cast<ge::DataType>(t.dtype),
                static_cast<scalar_t*>(args->addrs[5])[k] = static_cast<scalar_t>(static_cast<float>(out[k])));
}

const std::vector<ge::DataType> kInts = {ge::DT_INT32, ge::DT_INT64};

}  // namespace ge::ops_signal

namespace ops {
using namespace ge::ops_signal;

class DFT : public OpDef {
 public:
  explicit DFT(const char* name) : OpDef(name) {
    this->Input("input").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Input("dft_length").ParamType(OPTIONAL).DataType(kInts).ValueDepend(OPTIONAL);
    this->Output("output").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Attr("axis").AttrType(OPTIONAL).Int(1);
    this->Attr("inverse").AttrType(OPTIONAL).Int(0);
    this->Attr("onesided").AttrType(OPTIONAL).Int(0);
    this->SetInferShape(DftShape);
    this->SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    this->AICore().SetTiling(DftTilingFn).SetKernel(DftKernel).AddConfig("ascend910b");
  }
};
OP_ADD(DFT);

class STFT : public OpDef {
 public:
  explicit STFT(const char* name) : OpDef(name) {
    this->Input("signal").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Input("frame_step").ParamType(REQUIRED).DataType(kInts).ValueDepend(REQUIRED);
    this->Input("window").ParamType(OPTIONAL).DataType({ge::DT_FLOAT});
    this->Input("frame_length").ParamType(OPTIONAL).DataType(kInts).ValueDepend(OPTIONAL);
    this->Output("output").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Attr("onesided").AttrType(OPTIONAL).Int(1);
    this->SetInferShape(StftShape);
    this->SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    this->AICore().SetTiling(StftTilingFn).SetKernel(StftKernel).AddConfig("ascend910b");
  }
};
OP_ADD(STFT);

#define GE_WINDOW_OP(Name, kKind)                                                                      \
  class Name : public OpDef {                                                                          \
   public:                                                                                             \
    explicit Name(const char* name) : OpDef(name) {                                                    \
      this->Input("size").ParamType(REQUIRED).DataType(kInts).ValueDepend(REQUIRED);                   \
      this->Output("output").ParamType(REQUIRED);                                                      \
      this->Attr("output_datatype").AttrType(OPTIONAL).Int(1);                                         \
      this->Attr("periodic").AttrType(OPTIONAL).Int(1);                                                \
      this->SetInferShape(WindowShape);                                                                \
      this->SetInferDataType(OutputDtypeAttr);                                                         \
      this->AICore().SetTiling(WindowTilingFn<kKind>).SetKernel(WindowKernel).AddConfig("ascend910b"); \
    }                                                                                                  \
  };                                                                                                   \
  OP_ADD(Name)
GE_WINDOW_OP(HannWindow, kHann);
GE_WINDOW_OP(HammingWindow, kHamming);
GE_WINDOW_OP(BlackmanWindow, kBlackman);

class MelWeightMatrix : public OpDef {
 public:
  explicit MelWeightMatrix(const char* name) : OpDef(name) {
    this->Input("num_mel_bins").ParamType(REQUIRED).DataType(kInts).ValueDepend(REQUIRED);
    this->Input("dft_length").ParamType(REQUIRED).DataType(kInts).ValueDepend(REQUIRED);
    this->Input("sample_rate").ParamType(REQUIRED).DataType(kInts).ValueDepend(REQUIRED);
    this->Input("lower_edge_hertz").ParamType(REQUIRED).ValueDepend(REQUIRED);
    this->Input("upper_edge_hertz").ParamType(REQUIRED).ValueDepend(REQUIRED);
    this->Output("output").ParamType(REQUIRED);
    this->Attr("output_datatype").AttrType(OPTIONAL).Int(1);
    this->SetInferShape(MelShape);
    this->SetInferDataType(OutputDtypeAttr);
    this->AICore().SetTiling(MelTilingFn).SetKernel(MelKernel).AddConfig("ascend910b");
  }
};
OP_ADD(MelWeightMatrix);
}  // namespace ops
