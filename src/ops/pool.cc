// MaxPool (1-3 spatial dims, dilations, ceil_mode, optional Indices output) and
// GlobalAveragePool. Tiling splits the N x C planes over the cores.
#include <cfloat>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "ops/op_util.h"
#include "ops/spatial_util.h"

namespace ge::ops_pool {
using namespace ge::ops_util;

enum MaxPoolAttr { kAutoPad, kCeilMode, kDilations, kKernelShape, kPads, kStorageOrder, kStrides };
constexpr WindowAttrIdx kWinIdx = {kAutoPad, kDilations, kPads, kStrides, kCeilMode};

struct PoolTiling {
  Window3d w;
  int32_t dtype;
  int32_t storage_order;
  int32_t has_indices;
  int64_t planes;  // N * C
};

bool Window(const gert::Shape& x, const gert::RuntimeAttrs* attrs, Window3d* w, std::string* why = nullptr) {
  auto* ks = attrs->GetListInt(kKernelShape);
  if (ks == nullptr) {
    if (why) *why = "kernel_shape is required";
    return false;
  }
  return ComputeWindow(x, ks->GetData(), ks->GetSize(), attrs, kWinIdx, w, why);
}

ge::graphStatus MaxPoolInferShape(gert::InferShapeContext* ctx) {
  const gert::Shape* x = ctx->GetInputShape(0);
  Window3d w;
  if (!x) return InferFail("missing input X");
  if (x->GetDimNum() < 3 || x->GetDimNum() > 5)
    return InferFail(fmt::format("expected 3-D to 5-D input, got {}", ShapeToString(*x)));
  std::string why;
  if (!Window(*x, ctx->GetAttrs(), &w, &why))
    return InferFail(fmt::format("invalid window for input {}: {}", ShapeToString(*x), why));
  size_t ns = x->GetDimNum() - 2;
  gert::Shape out({x->GetDim(0), x->GetDim(1)});
  for (size_t i = 0; i < ns; ++i) out.AppendDim(w.out[3 - ns + i]);
  for (size_t o = 0; o < ctx->GetComputeNodeOutputNum(); ++o) *ctx->GetOutputShape(o) = out;
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus MaxPoolInferDataType(gert::InferDataTypeContext* ctx) {
  ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
  if (ctx->GetComputeNodeOutputNum() > 1) ctx->SetOutputDataType(1, ge::DT_INT64);
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus MaxPoolTiling(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  PoolTiling t{};
  if (!Window(x, ctx->GetAttrs(), &t.w)) return ge::GRAPH_FAILED;
  t.dtype = ctx->GetInputDesc(0)->GetDataType();
  t.storage_order = static_cast<int32_t>(*ctx->GetAttrs()->GetInt(kStorageOrder));
  t.has_indices = ctx->GetComputeNodeOutputNum() > 1 && ctx->GetOutputDesc(1) != nullptr;
  t.planes = x.GetDim(0) * x.GetDim(1);
  const int64_t work =
      WorkProduct({t.planes, t.w.out[0], t.w.out[1], t.w.out[2], t.w.kernel[0], t.w.kernel[1], t.w.kernel[2]});
  ctx->SetBlockDim(
      static_cast<uint32_t>(std::min<int64_t>(ChooseBlockDim(ctx, work, 1 << 15), std::max<int64_t>(t.planes, 1))));
  return SetTiling(ctx, t);
}

template <typename T>
void MaxPoolPlane(const PoolTiling& t, const T* x, T* y, int64_t* ind, int64_t plane) {
  const Window3d& w = t.w;
  int64_t in_pix = w.in[0] * w.in[1] * w.in[2], out_pix = w.out[0] * w.out[1] * w.out[2];
  const T* xp = x + plane * in_pix;
  for (int64_t od = 0; od < w.out[0]; ++od)
    for (int64_t oh = 0; oh < w.out[1]; ++oh)
      for (int64_t ow = 0; ow < w.out[2]; ++ow) {
        T best = std::numeric_limits<T>::lowest();
        int64_t best_i = -1;
        const int64_t start[3] = {od * w.stride[0] - w.pad_begin[0], oh * w.stride[1] - w.pad_begin[1],
                                  ow * w.stride[2] - w.pad_begin[2]};
        int64_t lo[3], hi[3];
        for (int d = 0; d < 3; ++d) TapsInside(w, d, start[d], &lo[d], &hi[d]);
        for (int64_t kd = lo[0]; kd < hi[0]; ++kd) {
          const int64_t id = start[0] + kd * w.dilation[0];
          for (int64_t kh = lo[1]; kh < hi[1]; ++kh) {
            const int64_t ih = start[1] + kh * w.dilation[1];
            for (int64_t kw = lo[2]; kw < hi[2]; ++kw) {
              const int64_t iw = start[2] + kw * w.dilation[2];
              int64_t i = (id * w.in[1] + ih) * w.in[2] + iw;
              if (best_i < 0 || xp[i] > best) {
                best = xp[i];
                best_i = i;
              }
            }
          }
        }
        int64_t o = (od * w.out[1] + oh) * w.out[2] + ow;
        y[plane * out_pix + o] = best;
        if (ind) {
          int64_t idx = best_i;
          if (t.storage_order == 1 && best_i >= 0) {  // column-major over (H, W)
            int64_t ih = (best_i / w.in[2]) % w.in[1], iw = best_i % w.in[2];
            idx = iw * w.in[1] + ih;
          }
          ind[plane * out_pix + o] = plane * in_pix + idx;
        }
      }
}

void MaxPoolKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<PoolTiling>(args);
  int64_t b, e;
  BlockRange(t.planes, args->blockIdx, args->blockDim, &b, &e);
  int64_t* ind = t.has_indices ? static_cast<int64_t*>(args->addrs[2]) : nullptr;
  GE_DISPATCH(Numerics, static_cast<ge::DataType>(t.dtype), {
    for (int64_t p = b; p < e; ++p)
      MaxPoolPlane<scalar_t>(t, static_cast<const scalar_t*>(args->addrs[0]), static_cast<scalar_t*>(args->addrs[1]),
                             ind, p);
  });
}

// ---- GlobalAveragePool -------------------------------------------------------------------------
struct GapTiling {
  int32_t dtype;
  int64_t planes, pix;
};

ge::graphStatus GapInferShape(gert::InferShapeContext* ctx) {
  const gert::Shape* x = ctx->GetInputShape(0);
  if (!x) return InferFail("missing input X");
  if (x->GetDimNum() < 2) return InferFail(fmt::format("expected input of rank >= 2, got {}", ShapeToString(*x)));
  gert::Shape out({x->GetDim(0), x->GetDim(1)});
  for (size_t i = 2; i < x->GetDimNum(); ++i) out.AppendDim(1);
  *ctx->GetOutputShape(0) = out;
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus GapTilingFunc(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  GapTiling t{ctx->GetInputDesc(0)->GetDataType(), x.GetDim(0) * x.GetDim(1), 1};
  for (size_t i = 2; i < x.GetDimNum(); ++i) t.pix *= x.GetDim(i);
  ctx->SetBlockDim(static_cast<uint32_t>(
      std::min<int64_t>(ChooseBlockDim(ctx, t.planes * t.pix, 1 << 15), std::max<int64_t>(t.planes, 1))));
  return SetTiling(ctx, t);
}

void GapKernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<GapTiling>(args);
  int64_t b, e;
  BlockRange(t.planes, args->blockIdx, args->blockDim, &b, &e);
  GE_DISPATCH(Floats, static_cast<ge::DataType>(t.dtype), {
    const auto* x = static_cast<const scalar_t*>(args->addrs[0]);
    auto* y = static_cast<scalar_t*>(args->addrs[1]);
    for (int64_t p = b; p < e; ++p) {
      double s = 0;
      for (int64_t i = 0; i < t.pix; ++i) s += x[p * t.pix + i];
      y[p] = static_cast<scalar_t>(s / t.pix);
    }
  });
}

}  // namespace ge::ops_pool

namespace ops {
using namespace ge::ops_pool;
class MaxPool : public OpDef {
 public:
  explicit MaxPool(const char* name) : OpDef(name) {
    const std::vector<ge::DataType> types = {ge::DT_FLOAT, ge::DT_DOUBLE, ge::DT_INT8, ge::DT_UINT8};
    this->Input("X").ParamType(REQUIRED).DataType(types);
    this->Output("Y").ParamType(REQUIRED).DataType(types);
    this->Output("Indices").ParamType(OPTIONAL).DataType({ge::DT_INT64});
    this->Attr("auto_pad").AttrType(OPTIONAL).String("NOTSET");
    this->Attr("ceil_mode").AttrType(OPTIONAL).Int(0);
    this->Attr("dilations").AttrType(OPTIONAL).ListInt();
    this->Attr("kernel_shape").AttrType(REQUIRED).ListInt();
    this->Attr("pads").AttrType(OPTIONAL).ListInt();
    this->Attr("storage_order").AttrType(OPTIONAL).Int(0);
    this->Attr("strides").AttrType(OPTIONAL).ListInt();
    this->SetInferShape(MaxPoolInferShape);
    this->SetInferDataType(MaxPoolInferDataType);
    this->AICore().SetTiling(MaxPoolTiling).SetKernel(MaxPoolKernel).AddConfig("ascend910b");
  }
};
OP_ADD(MaxPool);

class GlobalAveragePool : public OpDef {
 public:
  explicit GlobalAveragePool(const char* name) : OpDef(name) {
    this->Input("X").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_DOUBLE});
    this->Output("Y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_DOUBLE});
    this->SetInferShape(GapInferShape);
    this->SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    this->AICore().SetTiling(GapTilingFunc).SetKernel(GapKernel).AddConfig("ascend910b");
  }
};
OP_ADD(GlobalAveragePool);
}  // namespace ops
