// Pooling besides MaxPool/GlobalAveragePool (pool.cc): AveragePool (count_include_pad), LpPool,
// GlobalMaxPool, GlobalLpPool. Windows come from spatial_util (1-D to 3-D padded to D, H, W).
// create: output shape from the window; tiling = Window3d + planes. run: blocks over planes.
#include <cmath>

#include <fmt/format.h>

#include "ops/op_util.h"
#include "ops/spatial_util.h"

namespace ge::ops_avg_lp_pool {
using namespace ge::ops_util;

enum class P : int32_t { kAverage, kLp, kGlobalMax, kGlobalLp };

struct PoolExtTiling {
  int32_t op;
  int32_t dtype;
  int32_t include_pad;
  int32_t p;
  int64_t planes;
  Window3d w;
};

// Attribute order (AveragePool/LpPool): auto_pad, ceil_mode, count_include_pad|p, kernel_shape,
// pads, strides.
constexpr WindowAttrIdx kWinIdx = {0, -1, 4, 5, 1};

template <P kOp>
bool MakeWindow(const gert::Shape& x, const gert::RuntimeAttrs* a, Window3d* w, std::string* why = nullptr) {
  if (kOp == P::kGlobalMax || kOp == P::kGlobalLp) {
    std::vector<int64_t> k(x.GetDims() + 2, x.GetDims() + x.GetDimNum());
    gert::RuntimeAttrs none;
    return ComputeWindow(x, k.data(), k.size(), &none, {-1, -1, -1, -1, -1}, w, why);
  }
  auto k = AttrInts(a, 3);
  WindowAttrIdx idx = kWinIdx;
  if (kOp == P::kLp) idx.ceil_mode = -1;
  return ComputeWindow(x, k.data(), k.size(), a, idx, w, why);
}

template <P kOp>
ge::graphStatus InferShape(gert::InferShapeContext* ctx) {
  const gert::Shape& x = *ctx->GetInputShape(0);
  Window3d w;
  if (x.GetDimNum() < 3 || x.GetDimNum() > 5)
    return InferFail(fmt::format("expected 3-D to 5-D input, got {}", ShapeToString(x)));
  std::string why;
  if (!MakeWindow<kOp>(x, ctx->GetAttrs(), &w, &why))
    return InferFail(fmt::format("invalid window for input {}: {}", ShapeToString(x), why));
  gert::Shape* y = ctx->GetOutputShape(0);
  *y = x;
  size_t ns = x.GetDimNum() - 2;
  for (size_t i = 0; i < ns; ++i) y->SetDim(2 + i, w.out[3 - ns + i]);
  return ge::GRAPH_SUCCESS;
}

template <P kOp>
ge::graphStatus Tiling(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  PoolExtTiling t{};
  t.op = static_cast<int32_t>(kOp);
  t.dtype = ctx->GetInputDesc(0)->GetDataType();
  if (!MakeWindow<kOp>(x, ctx->GetAttrs(), &t.w)) return ge::GRAPH_FAILED;
  t.include_pad = kOp == P::kAverage ? static_cast<int32_t>(AttrInt(ctx->GetAttrs(), 2, 0)) : 0;
  t.p = kOp == P::kLp ? static_cast<int32_t>(AttrInt(ctx->GetAttrs(), 2, 2))
                      : static_cast<int32_t>(kOp == P::kGlobalLp ? AttrInt(ctx->GetAttrs(), 0, 2) : 2);
  t.planes = x.GetDim(0) * x.GetDim(1);
  ctx->SetBlockDim(ChooseBlockDim(ctx, t.planes * t.w.in[0] * t.w.in[1] * t.w.in[2], 1 << 14));
  return SetTiling(ctx, t);
}

// One output element: window starting at s[d] (may be negative = in the padding).
template <typename T>
double Window(const PoolExtTiling& t, const T* x, const int64_t* s) {
  const Window3d& w = t.w;
  P op = static_cast<P>(t.op);
  double acc = op == P::kGlobalMax ? -INFINITY : 0.0;
  int64_t count = 0, padded = 1;
  int64_t lo[3], hi[3];  // the taps inside the input only (a 2^31-wide kernel over a 4-wide input)
  for (int d = 0; d < 3; ++d) {
    int64_t end = s[d] + (w.kernel[d] - 1) * w.dilation[d] + 1;
    padded *= std::min(end, w.in[d] + w.pad_end[d]) - std::max(s[d], -w.pad_begin[d]);
    int64_t klo, khi;
    TapsInside(w, d, s[d], &klo, &khi);
    lo[d] = s[d] + klo * w.dilation[d];
    hi[d] = s[d] + std::max(khi, klo) * w.dilation[d];
  }
  for (int64_t i = lo[0]; i < hi[0]; i += w.dilation[0])
    for (int64_t j = lo[1]; j < hi[1]; j += w.dilation[1])
      for (int64_t k = lo[2]; k < hi[2]; k += w.dilation[2]) {
        double v = static_cast<double>(static_cast<ComputeT<T>>(x[(i * w.in[1] + j) * w.in[2] + k]));
        if (op == P::kGlobalMax)
          acc = std::max(acc, v);
        else if (op == P::kAverage)
          acc += v;
        else
          acc += std::pow(std::fabs(v), t.p);
        ++count;
      }
  if (op == P::kAverage) return acc / static_cast<double>(t.include_pad ? padded : std::max<int64_t>(count, 1));
  if (op == P::kLp || op == P::kGlobalLp) return std::pow(acc, 1.0 / t.p);
  return acc;
}

template <typename T>
void Run(const PoolExtTiling& t, const T* x, T* y, int64_t b, int64_t e) {
  const Window3d& w = t.w;
  int64_t in_plane = w.in[0] * w.in[1] * w.in[2], out_plane = w.out[0] * w.out[1] * w.out[2];
  for (int64_t p = b; p < e; ++p)
    for (int64_t od = 0; od < w.out[0]; ++od)
      for (int64_t oh = 0; oh < w.out[1]; ++oh)
        for (int64_t ow = 0; ow < w.out[2]; ++ow) {
          int64_t s[3] = {od * w.stride[0] - w.pad_begin[0], oh * w.stride[1] - w.pad_begin[1],
                          ow * w.stride[2] - w.pad_begin[2]};
          double v = Window(t, x + p * in_plane, s);
          y[p * out_plane + (od * w.out[1] + oh) * w.out[2] + ow] = static_cast<T>(static_cast<ComputeT<T>>(v));
        }
}

void Kernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<PoolExtTiling>(args);
  int64_t b, e;
  BlockRange(t.planes, args->blockIdx, args->blockDim, &b, &e);
  GE_DISPATCH(FloatsAnd16, static_cast<ge::DataType>(t.dtype),
              Run(t, static_cast<const scalar_t*>(args->addrs[0]), static_cast<scalar_t*>(args->addrs[1]), b, e));
}

template <P kOp>
class AvgLpPoolOpDef : public ::ops::OpDef {
 public:
  explicit AvgLpPoolOpDef(const char* name) : OpDef(name) {
    this->Input("X").ParamType(::ops::REQUIRED).DataType(kFloatTypes);
    this->Output("Y").ParamType(::ops::REQUIRED).DataType(kFloatTypes);
    if (kOp == P::kAverage || kOp == P::kLp) {
      this->Attr("auto_pad").AttrType(::ops::OPTIONAL).String("NOTSET");
      this->Attr("ceil_mode").AttrType(::ops::OPTIONAL).Int(0);
      if (kOp == P::kAverage)
        this->Attr("count_include_pad").AttrType(::ops::OPTIONAL).Int(0);
      else
        this->Attr("p").AttrType(::ops::OPTIONAL).Int(2);
      this->Attr("kernel_shape").AttrType(::ops::REQUIRED).ListInt();
      this->Attr("pads").AttrType(::ops::OPTIONAL).ListInt();
      this->Attr("strides").AttrType(::ops::OPTIONAL).ListInt();
    } else if (kOp == P::kGlobalLp) {
      this->Attr("p").AttrType(::ops::OPTIONAL).Int(2);
    }
    this->SetInferShape(InferShape<kOp>);
    this->SetInferDataType(InferDataTypeSameAsInput0);
    this->AICore().SetTiling(Tiling<kOp>).SetKernel(Kernel).AddConfig("ascend910b");
  }
};

}  // namespace ge::ops_avg_lp_pool

namespace ops {
using AveragePool = ge::ops_avg_lp_pool::AvgLpPoolOpDef<ge::ops_avg_lp_pool::P::kAverage>;
using LpPool = ge::ops_avg_lp_pool::AvgLpPoolOpDef<ge::ops_avg_lp_pool::P::kLp>;
using GlobalMaxPool = ge::ops_avg_lp_pool::AvgLpPoolOpDef<ge::ops_avg_lp_pool::P::kGlobalMax>;
using GlobalLpPool = ge::ops_avg_lp_pool::AvgLpPoolOpDef<ge::ops_avg_lp_pool::P::kGlobalLp>;
OP_ADD(AveragePool);
OP_ADD(LpPool);
OP_ADD(GlobalMaxPool);
OP_ADD(GlobalLpPool);
}  // namespace ops
