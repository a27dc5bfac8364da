// RoiAlign (opset 16: half_pixel / output_half_pixel, avg / max) and MaxRoiPool: pooled
// features of regions of interest. RoiAlign follows ONNX Runtime's sampling (bilinear samples on
// a sampling_ratio grid per bin; "max" takes the largest weighted corner, as ORT does).
// define: OpDefs. create: shapes and parameters as tiling. run: SPMD over (roi, channel).
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "ops/attr_choice.h"
#include "ops/op_util.h"

namespace ge::ops_roi {
using namespace ge::ops_util;

// ---- RoiAlign ----------------------------------------------------------------------------------
enum AlignAttr { kCtm, kMode, kOutH, kOutW, kSamplingRatio, kSpatialScale };

// Sampling points per output bin, at most (256 x 256: a 7-bin output over a 1792-pixel roi), and
// per run, at most 2^31 (about 10 s on one core; Mask R-CNN's heads take 1000 rois x 256 channels
// x 7 x 7 bins x 2 x 2 = 5e7). sampling_ratio 1000 over 3 rois of 4 x 255 bins asked for 3e9,
// then reported a bad batch index after 16 s (onnx_model harness).
constexpr double kMaxSamplesPerBin = 1 << 16;
constexpr double kMaxSamplesPerRun = 2147483648.0;

struct AlignTiling {
  int64_t n, c, h, w, rois, oh, ow, sampling_ratio;
  float spatial_scale;
  int32_t half_pixel, max_mode, idx_dtype;
};

ge::graphStatus AlignShape(gert::InferShapeContext* ctx) {
  const gert::Shape* x = ctx->GetInputShape(0);
  const gert::Shape* rois = ctx->GetInputShape(1);
  if (!x || !rois || x->GetDimNum() != 4 || rois->GetDimNum() != 2 || rois->GetDim(1) != 4) return ge::GRAPH_FAILED;
  const gert::Shape* idx = ctx->GetInputShape(2);
  if (!idx || idx->GetDimNum() != 1 || idx->GetDim(0) != rois->GetDim(0))
    return InferFail(fmt::format("'batch_indices' must have shape [{}] (one per roi)", rois->GetDim(0)));
  const auto* a = ctx->GetAttrs();
  SetDims(ctx->GetOutputShape(0), {rois->GetDim(0), x->GetDim(1), AttrInt(a, kOutH, 1), AttrInt(a, kOutW, 1)});
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus AlignTilingFn(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  const auto* a = ctx->GetAttrs();
  if (ctx->GetInputDesc(0)->GetDataType() != ge::DT_FLOAT) return ge::GRAPH_FAILED;
  AlignTiling t{};
  t.n = x.GetDim(0);
  t.c = x.GetDim(1);
  t.h = x.GetDim(2);
  t.w = x.GetDim(3);
  t.rois = ctx->GetInputShape(1)->GetStorageShape().GetDim(0);
  t.oh = AttrInt(a, kOutH, 1);
  t.ow = AttrInt(a, kOutW, 1);
  t.sampling_ratio = AttrInt(a, kSamplingRatio, 0);
  if (t.sampling_ratio > 0 && static_cast<double>(t.sampling_ratio) * t.sampling_ratio > kMaxSamplesPerBin) {
    return InferFail(fmt::format("sampling_ratio {} asks for more than {} points per output bin", t.sampling_ratio,
                                 kMaxSamplesPerBin));
  }
  if (t.sampling_ratio > 0) {
    const double samples = static_cast<double>(t.rois) * t.c * t.oh * t.ow * t.sampling_ratio * t.sampling_ratio;
    if (samples > kMaxSamplesPerRun)
      return InferFail(
          fmt::format("{} rois x {} channels x {} x {} bins x sampling_ratio {}^2 is {:.3g} samples, "
                      "more than the {:.3g} RoiAlign takes in one run",
                      t.rois, t.c, t.oh, t.ow, t.sampling_ratio, samples, kMaxSamplesPerRun));
  }
  t.spatial_scale = AttrFloat(a, kSpatialScale, 1.f);
  const int ctm = AttrChoice(a, kCtm, "coordinate_transformation_mode", {"half_pixel", "output_half_pixel"});
  const int mode = AttrChoice(a, kMode, "mode", {"avg", "max"});
  if (ctm < 0 || mode < 0) return ge::GRAPH_FAILED;
  t.half_pixel = ctm == 0;
  t.max_mode = mode == 1;
  t.idx_dtype = ctx->GetInputDesc(2)->GetDataType();
  ctx->SetBlockDim(ChooseBlockDim(ctx, t.rois * t.c * t.oh * t.ow, 1 << 10));
  return SetTiling(ctx, t);
}

// Bilinear sample of plane at (y, x) as ORT computes it, returning the four weighted corners.
void Corners(const AlignTiling& t, const float* plane, float y, float x, float v[4]) {
  v[0] = v[1] = v[2] = v[3] = 0;
  if (!(y >= -1.f && y <= t.h && x >= -1.f && x <= t.w)) return;  // also NaN
  y = std::max(y, 0.f);
  x = std::max(x, 0.f);
  auto yl = static_cast<int64_t>(y), xl = static_cast<int64_t>(x);
  int64_t yh, xh;
  if (yl >= t.h - 1) {
    yh = yl = t.h - 1;
    y = static_cast<float>(yl);
  } else {
    yh = yl + 1;
  }
  if (xl >= t.w - 1) {
    xh = xl = t.w - 1;
    x = static_cast<float>(xl);
  } else {
    xh = xl + 1;
  }
  float ly = y - yl, lx = x - xl, hy = 1 - ly, hx = 1 - lx;
  v[0] = hy * hx * plane[yl * t.w + xl];
  v[1] = hy * lx * plane[yl * t.w + xh];
  v[2] = ly * hx * plane[yh * t.w + xl];
  v[3] = ly * lx * plane[yh * t.w + xh];
}

// One roi's sampling geometry: its start, bin size and grid (points a side per bin).
struct RoiGrid {
  float sw, sh, bw, bh;
  int64_t gh, gw;
};

// The geometry of roi r, or false after reporting why it cannot be sampled.
bool RoiGeometry(const aclrtKernelArgs* args, const AlignTiling& t, const float* rois, int64_t r, RoiGrid* g) {
  const int64_t batch = RawIndex(args->addrs[2], t.idx_dtype, r);
  if (batch < 0 || batch >= t.n) {  // ONNX: batch_indices in [0, N), no wrapping
    return ReportBadData(args, fmt::format("input 'batch_indices' value {} is out of range [0, {}]", batch, t.n - 1));
  }
  const float off = t.half_pixel ? 0.5f : 0.f;
  const float* roi = rois + r * 4;
  g->sw = roi[0] * t.spatial_scale - off;
  g->sh = roi[1] * t.spatial_scale - off;
  float rw = roi[2] * t.spatial_scale - off - g->sw, rh = roi[3] * t.spatial_scale - off - g->sh;
  if (!std::isfinite(rw) || !std::isfinite(rh))
    return ReportBadData(args, fmt::format("input 'rois' row {} is not finite after scaling", r));
  if (!t.half_pixel) {
    rw = std::max(rw, 1.f);
    rh = std::max(rh, 1.f);
  }
  g->bh = rh / t.oh;
  g->bw = rw / t.ow;
  // The adaptive grid, ceil(roi extent / output extent) points a side, is bounded: a
  // spatial_scale of 1e30 asked for 3e29 (a float-to-int64 overflow, then a loop without end;
  // onnx_model fuzz harness).
  // (A negative extent, possible with half_pixel, samples nothing: 0 points, as a negative count did.)
  const double agh = std::max(0.0, std::ceil(static_cast<double>(rh) / t.oh)),
               agw = std::max(0.0, std::ceil(static_cast<double>(rw) / t.ow));
  if (t.sampling_ratio <= 0 && !(agh * agw <= kMaxSamplesPerBin)) {
    return ReportBadData(args, fmt::format("input 'rois' row {} needs a {} x {} sampling grid per output bin (at most "
                                           "{} points: check spatial_scale)",
                                           r, agh, agw, kMaxSamplesPerBin));
  }
  g->gh = t.sampling_ratio > 0 ? t.sampling_ratio : static_cast<int64_t>(agh);
  g->gw = t.sampling_ratio > 0 ? t.sampling_ratio : static_cast<int64_t>(agw);
  return true;
}

void AlignKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<AlignTiling>(args);
  const auto* x = static_cast<const float*>(args->addrs[0]);
  const auto* rois = static_cast<const float*>(args->addrs[1]);
  auto* y = static_cast<float*>(args->addrs[3]);
  // Every roi is checked, and the run's samples counted, before any is sampled: each block does
  // the same O(rois) pass, so all agree, and a bad roi is reported without the others' work.
  double samples = 0;
  for (int64_t r = 0; r < t.rois; ++r) {
    RoiGrid g;
    if (!RoiGeometry(args, t, rois, r, &g)) return;
    samples += static_cast<double>(g.gh) * g.gw * t.c * t.oh * t.ow;
  }
  if (samples > kMaxSamplesPerRun) {
    ReportBadData(args, fmt::format("the rois need {:.3g} samples, more than the {:.3g} RoiAlign takes in one run "
                                    "(check spatial_scale and the roi sizes)",
                                    samples, kMaxSamplesPerRun));
    return;
  }
  int64_t b, e;
  BlockRange(t.rois * t.c * t.oh * t.ow, args->blockIdx, args->blockDim, &b, &e);
  RoiGrid g{};
  int64_t cur_r = -1;
  for (int64_t o = b; o < e; ++o) {
    int64_t pw = o % t.ow, ph = (o / t.ow) % t.oh, c = (o / (t.ow * t.oh)) % t.c, r = o / (t.ow * t.oh * t.c);
    if (r != cur_r) {                     // outputs run roi by roi: one geometry per roi and block
      RoiGeometry(args, t, rois, r, &g);  // checked above
      cur_r = r;
    }
    const int64_t batch = RawIndex(args->addrs[2], t.idx_dtype, r);
    const int64_t gh = g.gh, gw = g.gw;
    float count = static_cast<float>(std::max<int64_t>(gh * gw, 1));
    const float* plane = x + (batch * t.c + c) * t.h * t.w;
    float acc = 0;
    bool first = true;
    for (int64_t iy = 0; iy < gh; ++iy) {
      float yy = g.sh + ph * g.bh + (iy + 0.5f) * g.bh / gh;
      for (int64_t ix = 0; ix < gw; ++ix) {
        float xx = g.sw + pw * g.bw + (ix + 0.5f) * g.bw / gw;
        float v[4];
        Corners(t, plane, yy, xx, v);
        if (t.max_mode) {
          float m = std::max(std::max(v[0], v[1]), std::max(v[2], v[3]));
          acc = first ? m : std::max(acc, m);
          first = false;
        } else {
          acc += v[0] + v[1] + v[2] + v[3];
        }
      }
    }
    y[o] = t.max_mode ? acc : acc / count;
  }
}

// ---- MaxRoiPool --------------------------------------------------------------------------------
enum PoolAttr { kPooledShape, kPoolSpatialScale };

struct PoolTiling {
  int64_t n, c, h, w, rois, ph, pw;
  float spatial_scale;
};

ge::graphStatus PoolShape(gert::InferShapeContext* ctx) {
  const gert::Shape* x = ctx->GetInputShape(0);
  const gert::Shape* rois = ctx->GetInputShape(1);
  std::vector<int64_t> ps = AttrInts(ctx->GetAttrs(), kPooledShape);
  if (!x || !rois || x->GetDimNum() != 4 || rois->GetDimNum() != 2 || rois->GetDim(1) != 5 || ps.size() != 2)
    return ge::GRAPH_FAILED;
  SetDims(ctx->GetOutputShape(0), {rois->GetDim(0), x->GetDim(1), ps[0], ps[1]});
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus PoolTilingFn(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  std::vector<int64_t> ps = AttrInts(ctx->GetAttrs(), kPooledShape);
  if (ps.size() != 2 || ctx->GetInputDesc(0)->GetDataType() != ge::DT_FLOAT) return ge::GRAPH_FAILED;
  PoolTiling t{x.GetDim(0),
               x.GetDim(1),
               x.GetDim(2),
               x.GetDim(3),
               ctx->GetInputShape(1)->GetStorageShape().GetDim(0),
               ps[0],
               ps[1],
               AttrFloat(ctx->GetAttrs(), kPoolSpatialScale, 1.f)};
  ctx->SetBlockDim(ChooseBlockDim(ctx, t.rois * t.c * t.ph * t.pw, 1 << 10));
  return SetTiling(ctx, t);
}

// Caffe's ROIPooling (as ORT): rounded roi corners, floor/ceil bin edges, empty bin = 0.
void PoolKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<PoolTiling>(args);
  const auto* x = static_cast<const float*>(args->addrs[0]);
  const auto* rois = static_cast<const float*>(args->addrs[1]);
  auto* y = static_cast<float*>(args->addrs[2]);
  int64_t b, e;
  BlockRange(t.rois * t.c * t.ph * t.pw, args->blockIdx, args->blockDim, &b, &e);
  for (int64_t o = b; o < e; ++o) {
    int64_t pw = o % t.pw, ph = (o / t.pw) % t.ph, c = (o / (t.pw * t.ph)) % t.c, r = o / (t.pw * t.ph * t.c);
    const float* roi = rois + r * 5;
    if (!(roi[0] >= 0.f && roi[0] < static_cast<float>(t.n))) {  // also NaN
      ReportBadData(args,
                    fmt::format("input 'rois' row {} batch index {} is out of range [0, {}]", r, roi[0], t.n - 1));
      return;
    }
    bool finite = true;
    for (int k = 1; k < 5; ++k) finite = finite && std::fabs(roi[k] * t.spatial_scale) < 1e15f;
    if (!finite) {
      ReportBadData(args, fmt::format("input 'rois' row {} has a coordinate that is not finite", r));
      return;
    }
    auto batch = static_cast<int64_t>(roi[0]);
    auto sw = static_cast<int64_t>(std::round(roi[1] * t.spatial_scale));
    auto sh = static_cast<int64_t>(std::round(roi[2] * t.spatial_scale));
    auto ew = static_cast<int64_t>(std::round(roi[3] * t.spatial_scale));
    auto eh = static_cast<int64_t>(std::round(roi[4] * t.spatial_scale));
    float bh = static_cast<float>(std::max<int64_t>(eh - sh + 1, 1)) / t.ph;
    float bw = static_cast<float>(std::max<int64_t>(ew - sw + 1, 1)) / t.pw;
    int64_t hs = std::clamp<int64_t>(static_cast<int64_t>(std::floor(ph * bh)) + sh, 0, t.h);
    int64_t he = std::clamp<int64_t>(static_cast<int64_t>(std::ceil((ph + 1) * bh)) + sh, 0, t.h);
    int64_t ws = std::clamp<int64_t>(static_cast<int64_t>(std::floor(pw * bw)) + sw, 0, t.w);
    int64_t we = std::clamp<int64_t>(static_cast<int64_t>(std::ceil((pw + 1) * bw)) + sw, 0, t.w);
    const float* plane = x + (batch * t.c + c) * t.h * t.w;
    bool empty = he <= hs || we <= ws;
    float m = empty ? 0.f : -INFINITY;
    for (int64_t i = hs; i < he; ++i)
      for (int64_t j = ws; j < we; ++j) m = std::max(m, plane[i * t.w + j]);
    y[o] = m;
  }
}

}  // namespace ge::ops_roi

namespace ops {
using namespace ge::ops_roi;
class RoiAlign : public OpDef {
 public:
  explicit RoiAlign(const char* name) : OpDef(name) {
    this->Input("X").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Input("rois").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Input("batch_indices").ParamType(REQUIRED).DataType({ge::DT_INT64, ge::DT_INT32});
    this->Output("Y").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Attr("coordinate_transformation_mode").AttrType(OPTIONAL).String("half_pixel");
    this->Attr("mode").AttrType(OPTIONAL).String("avg");
    this->Attr("output_height").AttrType(OPTIONAL).Int(1);
    this->Attr("output_width").AttrType(OPTIONAL).Int(1);
    this->Attr("sampling_ratio").AttrType(OPTIONAL).Int(0);
    this->Attr("spatial_scale").AttrType(OPTIONAL).Float(1.f);
    this->SetInferShape(AlignShape);
    this->SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    this->AICore().SetTiling(AlignTilingFn).SetKernel(AlignKernel).AddConfig("ascend910b");
  }
};
OP_ADD(RoiAlign);

class MaxRoiPool : public OpDef {
 public:
  explicit MaxRoiPool(const char* name) : OpDef(name) {
    this->Input("X").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Input("rois").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Output("Y").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Attr("pooled_shape").AttrType(REQUIRED).ListInt();
    this->Attr("spatial_scale").AttrType(OPTIONAL).Float(1.f);
    this->SetInferShape(PoolShape);
    this->SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    this->AICore().SetTiling(PoolTilingFn).SetKernel(PoolKernel).AddConfig("ascend910b");
  }
};
OP_ADD(MaxRoiPool);
}  // namespace ops
