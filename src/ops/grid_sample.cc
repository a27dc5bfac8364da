// GridSample (opset 16, 4-D): samples X at normalized grid locations with bilinear, nearest or
// bicubic interpolation and zeros, border or reflection padding, following PyTorch's
// grid_sampler_2d (which the ONNX test data comes from). define: OpDef. create: shapes and modes
// as tiling. run: SPMD over output rows (n, h).
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "ops/attr_choice.h"
#include "ops/op_util.h"

namespace ge::ops_grid_sample {
using namespace ge::ops_util;

enum Attr { kAlignCorners, kMode, kPaddingMode };
enum Mode : int32_t { kBilinear, kNearest, kBicubic };
enum Padding : int32_t { kZeros, kBorder, kReflection };

struct GridTiling {
  int64_t n, c, h, w, oh, ow;
  int32_t mode, padding, align_corners;
};

ge::graphStatus InferShape(gert::InferShapeContext* ctx) {
  const gert::Shape* x = ctx->GetInputShape(0);
  const gert::Shape* g = ctx->GetInputShape(1);
  if (!x || !g || x->GetDimNum() != 4 || g->GetDimNum() != 4 || g->GetDim(3) != 2) return ge::GRAPH_FAILED;
  // One grid per image: the kernel reads grid n for image n (X of batch 255 with a batch-1 grid
  // read past the grid: heap-buffer-overflow, onnx_model harness).
  if (x->GetDim(0) >= 0 && g->GetDim(0) >= 0 && x->GetDim(0) != g->GetDim(0))
    return InferFail(
        fmt::format("expected X and grid of one batch size, got {} and {}", ShapeToString(*x), ShapeToString(*g)));
  SetDims(ctx->GetOutputShape(0), {x->GetDim(0), x->GetDim(1), g->GetDim(1), g->GetDim(2)});
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus Tiling(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  const gert::Shape& g = ctx->GetInputShape(1)->GetStorageShape();
  if (ctx->GetInputDesc(0)->GetDataType() != ge::DT_FLOAT) return ge::GRAPH_FAILED;
  GridTiling t{x.GetDim(0), x.GetDim(1), x.GetDim(2), x.GetDim(3), g.GetDim(1), g.GetDim(2), 0, 0, 0};
  // Positions in the lists are the enums' values; the first is the ONNX default.
  t.mode = AttrChoice(ctx->GetAttrs(), kMode, "mode", {"bilinear", "nearest", "bicubic"});
  t.padding = AttrChoice(ctx->GetAttrs(), kPaddingMode, "padding_mode", {"zeros", "border", "reflection"});
  if (t.mode < 0 || t.padding < 0) return ge::GRAPH_FAILED;
  t.align_corners = static_cast<int32_t>(AttrInt(ctx->GetAttrs(), kAlignCorners, 0));
  ctx->SetBlockDim(ChooseBlockDim(ctx, t.n * t.oh * t.ow * t.c, 1 << 12));
  return SetTiling(ctx, t);
}

// ---- run ---------------------------------------------------------------------------------------
float Reflect(float v, float twice_low, float twice_high) {
  if (twice_low == twice_high) return 0;
  float lo = twice_low / 2, span = (twice_high - twice_low) / 2;
  if (!std::isfinite(v)) return lo;  // defined for inf (no float -> int conversion below)
  v = std::fabs(v - lo);
  float extra = std::fmod(v, span);
  const bool even = std::fmod(std::floor(v / span), 2.f) == 0;
  return even ? extra + lo : span - extra + lo;
}

// Applies the padding mode to a source coordinate (PyTorch's compute_coordinates).
float PadCoord(const GridTiling& t, float v, int64_t size) {
  if (t.padding == kBorder) return std::clamp(v, 0.f, static_cast<float>(size - 1));
  if (t.padding == kReflection) {
    v = t.align_corners ? Reflect(v, 0, 2.f * (size - 1)) : Reflect(v, -1, 2.f * size - 1);
    return std::clamp(v, 0.f, static_cast<float>(size - 1));
  }
  return v;
}

float Unnormalize(const GridTiling& t, float g, int64_t size) {
  return t.align_corners ? (g + 1) / 2 * (size - 1) : ((g + 1) * size - 1) / 2;
}

float At(const float* plane, const GridTiling& t, int64_t y, int64_t x) {
  return (y >= 0 && y < t.h && x >= 0 && x < t.w) ? plane[y * t.w + x] : 0.f;
}

float Cubic1(float x, float a) { return ((a + 2) * x - (a + 3)) * x * x + 1; }
float Cubic2(float x, float a) { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a; }

float Sample(const GridTiling& t, const float* plane, float gx, float gy) {
  float x = Unnormalize(t, gx, t.w), y = Unnormalize(t, gy, t.h);
  // The grid is data: NaN and far-outside coordinates are bounded before any float -> int
  // conversion. With zero padding, taps beyond [-4, size + 3] read zeros either way.
  if (std::isnan(x)) x = -4.f;
  if (std::isnan(y)) y = -4.f;
  if (t.padding == kZeros) {
    x = std::clamp(x, -4.f, static_cast<float>(t.w + 3));
    y = std::clamp(y, -4.f, static_cast<float>(t.h + 3));
  }
  if (t.mode == kBicubic) {
    float x0 = std::floor(x), y0 = std::floor(y), tx = x - x0, ty = y - y0;
    const float a = -0.75f;
    float cx[4] = {Cubic2(tx + 1, a), Cubic1(tx, a), Cubic1(1 - tx, a), Cubic2(2 - tx, a)};
    float cy[4] = {Cubic2(ty + 1, a), Cubic1(ty, a), Cubic1(1 - ty, a), Cubic2(2 - ty, a)};
    float acc = 0;
    for (int i = 0; i < 4; ++i) {
      float row = 0;
      for (int j = 0; j < 4; ++j) {
        float sx = PadCoord(t, x0 - 1 + j, t.w), sy = PadCoord(t, y0 - 1 + i, t.h);
        row += cx[j] * At(plane, t, static_cast<int64_t>(sy), static_cast<int64_t>(sx));
      }
      acc += cy[i] * row;
    }
    return acc;
  }
  x = PadCoord(t, x, t.w);
  y = PadCoord(t, y, t.h);
  if (t.mode == kNearest)
    return At(plane, t, static_cast<int64_t>(std::nearbyint(y)), static_cast<int64_t>(std::nearbyint(x)));
  float x0 = std::floor(x), y0 = std::floor(y), lx = x - x0, ly = y - y0;
  auto xi = static_cast<int64_t>(x0), yi = static_cast<int64_t>(y0);
  return (1 - ly) * ((1 - lx) * At(plane, t, yi, xi) + lx * At(plane, t, yi, xi + 1)) +
         ly * ((1 - lx) * At(plane, t, yi + 1, xi) + lx * At(plane, t, yi + 1, xi + 1));
}

void Kernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<GridTiling>(args);
  const auto* x = static_cast<const float*>(args->addrs[0]);
  const auto* grid = static_cast<const float*>(args->addrs[1]);
  auto* y = static_cast<float*>(args->addrs[2]);
  int64_t b, e;
  BlockRange(t.n * t.oh * t.ow, args->blockIdx, args->blockDim, &b, &e);
  for (int64_t p = b; p < e; ++p) {
    int64_t n = p / (t.oh * t.ow), pix = p % (t.oh * t.ow);
    const float* g = grid + p * 2;
    for (int64_t c = 0; c < t.c; ++c)
      y[(n * t.c + c) * t.oh * t.ow + pix] = Sample(t, x + (n * t.c + c) * t.h * t.w, g[0], g[1]);
  }
}

}  // namespace ge::ops_grid_sample

namespace ops {
using namespace ge::ops_grid_sample;
class GridSample : public OpDef {
 public:
  explicit GridSample(const char* name) : OpDef(name) {
    this->Input("X").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Input("grid").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Output("Y").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Attr("align_corners").AttrType(OPTIONAL).Int(0);
    this->Attr("mode").AttrType(OPTIONAL).String("bilinear");
    this->Attr("padding_mode").AttrType(OPTIONAL).String("zeros");
    this->SetInferShape(InferShape);
    this->SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    this->AICore().SetTiling(Tiling).SetKernel(Kernel).AddConfig("ascend910b");
  }
};
OP_ADD(GridSample);
}  // namespace ops
