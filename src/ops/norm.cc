// Normalizations: LayerNormalization, BatchNormalization (inference and training mode),
// InstanceNormalization, MeanVarianceNormalization, LRN. Each normalizes groups of elements
// described by (outer, group, inner) in the tiling; statistics are accumulated in double.
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "kernels/layer_norm.h"
#include "ops/op_util.h"

namespace ge::ops_norm {
using namespace ge::ops_util;

enum class K : int32_t { kLayer, kBatch, kInstance, kMvn, kLrn };

struct NormTiling {
  int32_t kind;
  int32_t dtype;
  int32_t training;
  int32_t lrn_size;
  int64_t outer, chan, inner;  // layout [outer, chan, inner]
  int64_t scale_numel, bias_numel;
  float eps, momentum, alpha, beta, bias;
  int32_t n_red;  // MVN: reduced dims in a rank-4 [N, C, H, W] view
  int32_t mvn_axes[kMaxRank];
  int64_t dims[kMaxRank];
  int32_t rank;
};

// ---- create ----------------------------------------------------------------------------------
ge::graphStatus LayerNormShape(gert::InferShapeContext* ctx) {
  const gert::Shape& x = *ctx->GetInputShape(0);
  int64_t ax;
  if (!NormalizeAxis(AttrInt(ctx->GetAttrs(), 0, -1), x.GetDimNum(), &ax))
    return InferFail(
        fmt::format("axis {} is out of range for the input {}", AttrInt(ctx->GetAttrs(), 0, -1), ShapeToString(x)));
  *ctx->GetOutputShape(0) = x;
  for (size_t o = 1; o < ctx->GetComputeNodeOutputNum(); ++o) {
    gert::Shape* s = ctx->GetOutputShape(o);
    if (s == nullptr) continue;
    *s = x;
    for (size_t d = ax; d < x.GetDimNum(); ++d) s->SetDim(d, 1);
  }
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus BatchNormShape(gert::InferShapeContext* ctx) {
  *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
  for (size_t o = 1; o < ctx->GetComputeNodeOutputNum(); ++o)
    if (ctx->GetOutputShape(o)) *ctx->GetOutputShape(o) = *ctx->GetInputShape(3);
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus LayerNormDataType(gert::InferDataTypeContext* ctx) {
  ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
  for (size_t o = 1; o < ctx->GetComputeNodeOutputNum(); ++o) ctx->SetOutputDataType(o, ge::DT_FLOAT);
  return ge::GRAPH_SUCCESS;
}

int64_t Numel(const gert::TilingContext* ctx, size_t i) {
  const auto* s = ctx->GetInputShape(i);
  return s ? s->GetStorageShape().GetShapeSize() : 0;
}

template <K kKind>
ge::graphStatus Tiling(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  const auto* a = ctx->GetAttrs();
  NormTiling t{};
  t.kind = static_cast<int32_t>(kKind);
  t.dtype = ctx->GetInputDesc(0)->GetDataType();
  t.rank = static_cast<int32_t>(x.GetDimNum());
  if (t.rank > kMaxRank) return InferFail(fmt::format("expected at most {} dims, got {}", kMaxRank, ShapeToString(x)));
  for (int d = 0; d < t.rank; ++d) t.dims[d] = x.GetDim(d);
  int64_t split = 1;  // dims before `split` are outer (LayerNorm) or N (others)
  if (kKind == K::kLayer) {
    if (!NormalizeAxis(AttrInt(a, 0, -1), t.rank, &split))
      return InferFail(fmt::format("axis {} is out of range for the input {}", AttrInt(a, 0, -1), ShapeToString(x)));
    t.eps = AttrFloat(a, 1, 1e-5f);
  } else if (kKind == K::kBatch) {
    t.eps = AttrFloat(a, 0, 1e-5f);
    t.momentum = AttrFloat(a, 1, 0.9f);
    t.training = static_cast<int32_t>(AttrInt(a, 2, 0));
  } else if (kKind == K::kInstance) {
    t.eps = AttrFloat(a, 0, 1e-5f);
  } else if (kKind == K::kLrn) {
    t.alpha = AttrFloat(a, 0, 1e-4f);
    t.beta = AttrFloat(a, 1, 0.75f);
    t.bias = AttrFloat(a, 2, 1.f);
    const int64_t size = AttrInt(a, 3, 1);
    if (size < 1 || size > std::numeric_limits<int32_t>::max())
      return InferFail(fmt::format("LRN size {} must be a positive number of channels", size));
    t.lrn_size = static_cast<int32_t>(size);
  } else {
    auto axes = AttrInts(a, 0);
    if (axes.empty()) axes = {0, 2, 3};
    for (int64_t ax : axes) {
      int64_t n;
      if (!NormalizeAxis(ax, t.rank, &n))
        return InferFail(fmt::format("axis {} is out of range for the input {}", ax, ShapeToString(x)));
      t.mvn_axes[t.n_red++] = static_cast<int32_t>(n);
    }
  }
  t.outer = 1;
  for (int64_t d = 0; d < split; ++d) t.outer *= x.GetDim(d);
  t.chan = kKind == K::kLayer ? 1 : (t.rank > 1 ? x.GetDim(1) : 1);
  t.inner = 1;
  for (int d = kKind == K::kLayer ? split : 2; d < t.rank; ++d) t.inner *= x.GetDim(d);
  t.scale_numel = Numel(ctx, 1);
  t.bias_numel = ctx->GetComputeNodeInputNum() > 2 ? Numel(ctx, 2) : 0;
  // Per-channel inputs are read at every channel of X: BatchNormalization's scale, B, mean and
  // var, InstanceNormalization's scale and B hold exactly C values.
  if (kKind == K::kBatch || kKind == K::kInstance) {
    static constexpr const char* kNames[] = {"", "scale", "B", "input_mean", "input_var"};
    const size_t count = kKind == K::kBatch ? 5 : 3;
    for (size_t i = 1; i < count; ++i) {
      const auto* s = ctx->GetInputShape(i);
      if (s == nullptr || s->GetStorageShape().GetShapeSize() != t.chan)
        return InferFail(fmt::format("expected input {} to hold {} values (the channels of X {}), got {}", kNames[i],
                                     t.chan, ShapeToString(x),
                                     s == nullptr ? std::string("none") : ShapeToString(s->GetStorageShape())));
    }
  }
  return SetTiling(ctx, t);
}

// ---- run -------------------------------------------------------------------------------------
template <typename T>
double At(const void* p, int64_t i) {
  return static_cast<double>(static_cast<ComputeT<T>>(static_cast<const T*>(p)[i]));
}

template <typename T>
void Store(void* p, int64_t i, double v) {
  static_cast<T*>(p)[i] = static_cast<T>(static_cast<ComputeT<T>>(v));
}

// LayerNorm: per outer row of `inner` elements (the shared kernel). Args: X, Scale, B, Y, Mean,
// InvStdDev (float statistics).
template <typename T>
void RunLayer(const NormTiling& t, void* const* a, int64_t b, int64_t e) {
  const kernels::LayerNormParams p{t.inner, t.scale_numel, a[2] ? t.bias_numel : 0, t.eps};
  kernels::LayerNormRows<T, float>(p, static_cast<const T*>(a[0]), static_cast<const T*>(a[1]),
                                   static_cast<const T*>(a[2]), static_cast<T*>(a[3]), static_cast<float*>(a[4]),
                                   static_cast<float*>(a[5]), b, e);
}

// Mean and biased variance of channel c over N and the spatial dims (n0..n1 of N).
template <typename T>
void ChannelStats(const NormTiling& t, const void* x, int64_t c, int64_t n0, int64_t n1, double* mean, double* var) {
  double s = 0, ss = 0;
  int64_t cnt = (n1 - n0) * t.inner;
  for (int64_t n = n0; n < n1; ++n)
    for (int64_t j = 0; j < t.inner; ++j) s += At<T>(x, (n * t.chan + c) * t.inner + j);
  *mean = cnt ? s / cnt : 0;
  for (int64_t n = n0; n < n1; ++n)
    for (int64_t j = 0; j < t.inner; ++j) {
      double d = At<T>(x, (n * t.chan + c) * t.inner + j) - *mean;
      ss += d * d;
    }
  *var = cnt ? ss / cnt : 0;
}

// BatchNorm args: X, scale, B, mean, var, Y, running_mean, running_var. Blocks over channels.
template <typename T>
void RunBatch(const NormTiling& t, void* const* a, int64_t b, int64_t e) {
  for (int64_t c = b; c < e; ++c) {
    double mean = At<T>(a[3], c), var = At<T>(a[4], c);
    if (t.training) {
      ChannelStats<T>(t, a[0], c, 0, t.outer, &mean, &var);
      if (a[6]) Store<T>(a[6], c, At<T>(a[3], c) * t.momentum + mean * (1 - t.momentum));
      if (a[7]) Store<T>(a[7], c, At<T>(a[4], c) * t.momentum + var * (1 - t.momentum));
    }
    double inv = 1.0 / std::sqrt(var + t.eps), sc = At<T>(a[1], c), bi = At<T>(a[2], c);
    for (int64_t n = 0; n < t.outer; ++n)
      for (int64_t j = 0; j < t.inner; ++j) {
        int64_t i = (n * t.chan + c) * t.inner + j;
        Store<T>(a[5], i, (At<T>(a[0], i) - mean) * inv * sc + bi);
      }
  }
}

// InstanceNorm args: X, scale, B, Y. Blocks over (n, c) pairs.
template <typename T>
void RunInstance(const NormTiling& t, void* const* a, int64_t b, int64_t e) {
  NormTiling one = t;
  one.chan = 1;
  for (int64_t nc = b; nc < e; ++nc) {
    double mean, var;
    ChannelStats<T>(one, static_cast<const T*>(a[0]) + nc * t.inner, 0, 0, 1, &mean, &var);
    int64_t c = nc % t.chan;
    double inv = 1.0 / std::sqrt(var + t.eps), sc = At<T>(a[1], c), bi = At<T>(a[2], c);
    for (int64_t j = 0; j < t.inner; ++j)
      Store<T>(a[3], nc * t.inner + j, (At<T>(a[0], nc * t.inner + j) - mean) * inv * sc + bi);
  }
}

// LRN args: X, Y. Blocks over N*C.
template <typename T>
void RunLrn(const NormTiling& t, void* const* a, int64_t b, int64_t e) {
  int64_t lo = (t.lrn_size - 1) / 2, hi = t.lrn_size - 1 - lo;
  for (int64_t nc = b; nc < e; ++nc) {
    int64_t n = nc / t.chan, c = nc % t.chan;
    for (int64_t j = 0; j < t.inner; ++j) {
      double sq = 0;
      for (int64_t k = std::max<int64_t>(0, c - lo); k <= std::min<int64_t>(t.chan - 1, c + hi); ++k) {
        double v = At<T>(a[0], (n * t.chan + k) * t.inner + j);
        sq += v * v;
      }
      int64_t i = nc * t.inner + j;
      Store<T>(a[1], i, At<T>(a[0], i) / std::pow(t.bias + t.alpha / t.lrn_size * sq, t.beta));
    }
  }
}

// MVN over the reduced axes; one block (small inputs in practice).
template <typename T>
void RunMvn(const NormTiling& t, void* const* a) {
  StridedView kept{}, red{};
  int64_t strides[kMaxRank];
  ContiguousStrides(t.dims, t.rank, strides);
  for (int d = 0; d < t.rank; ++d) {
    bool r = std::find(t.mvn_axes, t.mvn_axes + t.n_red, d) != t.mvn_axes + t.n_red;
    StridedView& v = r ? red : kept;
    v.dims[v.rank] = t.dims[d];
    v.strides[v.rank++] = strides[d];
  }
  int64_t nk = 1, nr = 1;
  for (int d = 0; d < kept.rank; ++d) nk *= kept.dims[d];
  for (int d = 0; d < red.rank; ++d) nr *= red.dims[d];
  ForEachBroadcast<1>(kept.rank, kept.dims, &kept.strides, 0, nk, [&](int64_t, const int64_t* base) {
    double s = 0, ss = 0;
    ForEachBroadcast<1>(red.rank, red.dims, &red.strides, 0, nr, [&](int64_t, const int64_t* o) {
      double v = At<T>(a[0], base[0] + o[0]);
      s += v;
      ss += v * v;
    });
    double mean = s / nr, sd = std::sqrt(std::max(0.0, ss / nr - mean * mean));
    ForEachBroadcast<1>(red.rank, red.dims, &red.strides, 0, nr, [&](int64_t, const int64_t* o) {
      Store<T>(a[1], base[0] + o[0], (At<T>(a[0], base[0] + o[0]) - mean) / (sd + 1e-9));
    });
  });
}

void Kernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<NormTiling>(args);
  K kind = static_cast<K>(t.kind);
  int64_t work = kind == K::kLayer ? t.outer : kind == K::kBatch ? t.chan : kind == K::kMvn ? 1 : t.outer * t.chan;
  int64_t b, e;
  BlockRange(work, args->blockIdx, args->blockDim, &b, &e);
  GE_DISPATCH(FloatsAnd16, static_cast<ge::DataType>(t.dtype), {
    switch (kind) {
      case K::kLayer: RunLayer<scalar_t>(t, args->addrs, b, e); break;
      case K::kBatch: RunBatch<scalar_t>(t, args->addrs, b, e); break;
      case K::kInstance: RunInstance<scalar_t>(t, args->addrs, b, e); break;
      case K::kLrn: RunLrn<scalar_t>(t, args->addrs, b, e); break;
      case K::kMvn:
        if (b < e) RunMvn<scalar_t>(t, args->addrs);
        break;
    }
  });
}

template <K kKind>
ge::graphStatus TilingWithBlocks(gert::TilingContext* ctx) {
  if (Tiling<kKind>(ctx) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
  const auto* t = static_cast<const NormTiling*>(ctx->GetRawTilingData()->GetData());
  int64_t work = kKind == K::kLayer   ? t->outer
                 : kKind == K::kBatch ? t->chan
                 : kKind == K::kMvn   ? 1
                                      : t->outer * t->chan;
  ctx->SetBlockDim(ChooseBlockDim(ctx, work * std::max<int64_t>(t->inner, 1), 1 << 14));
  return ge::GRAPH_SUCCESS;
}

}  // namespace ge::ops_norm

namespace ops {
using namespace ge::ops_norm;
using ge::ops_util::kFloatTypes;
struct LayerNormalization : OpDef {
  explicit LayerNormalization(const char* n) : OpDef(n) {
    Input("X").ParamType(REQUIRED).DataType(kFloatTypes);
    Input("Scale").ParamType(REQUIRED).DataType(kFloatTypes);
    Input("B").ParamType(OPTIONAL).DataType(kFloatTypes);
    Output("Y").ParamType(REQUIRED).DataType(kFloatTypes);
    Output("Mean").ParamType(OPTIONAL).DataType({ge::DT_FLOAT});
    Output("InvStdDev").ParamType(OPTIONAL).DataType({ge::DT_FLOAT});
    Attr("axis").AttrType(OPTIONAL).Int(-1);
    Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);
    Attr("stash_type").AttrType(OPTIONAL).Int(1);
    SetInferShape(LayerNormShape).SetInferDataType(LayerNormDataType);
    AICore().SetTiling(TilingWithBlocks<K::kLayer>).SetKernel(Kernel).AddConfig("ascend910b");
  }
};
struct BatchNormalization : OpDef {
  explicit BatchNormalization(const char* n) : OpDef(n) {
    for (const char* in : {"X", "scale", "B", "input_mean", "input_var"})
      Input(in).ParamType(REQUIRED).DataType(kFloatTypes);
    Output("Y").ParamType(REQUIRED).DataType(kFloatTypes);
    Output("running_mean").ParamType(OPTIONAL).DataType(kFloatTypes);
    Output("running_var").ParamType(OPTIONAL).DataType(kFloatTypes);
    Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);
    Attr("momentum").AttrType(OPTIONAL).Float(0.9f);
    Attr("training_mode").AttrType(OPTIONAL).Int(0);
    SetInferShape(BatchNormShape).SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    AICore().SetTiling(TilingWithBlocks<K::kBatch>).SetKernel(Kernel).AddConfig("ascend910b");
  }
};
struct InstanceNormalization : OpDef {
  explicit InstanceNormalization(const char* n) : OpDef(n) {
    for (const char* in : {"input", "scale", "B"}) Input(in).ParamType(REQUIRED).DataType(kFloatTypes);
    Output("output").ParamType(REQUIRED).DataType(kFloatTypes);
    Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);
    SetInferShape(ge::ops_util::InferShapeSameAsInput0).SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    AICore().SetTiling(TilingWithBlocks<K::kInstance>).SetKernel(Kernel).AddConfig("ascend910b");
  }
};
struct LRN : OpDef {
  explicit LRN(const char* n) : OpDef(n) {
    Input("X").ParamType(REQUIRED).DataType(kFloatTypes);
    Output("Y").ParamType(REQUIRED).DataType(kFloatTypes);
    Attr("alpha").AttrType(OPTIONAL).Float(1e-4f);
    Attr("beta").AttrType(OPTIONAL).Float(0.75f);
    Attr("bias").AttrType(OPTIONAL).Float(1.f);
    Attr("size").AttrType(REQUIRED).Int();
    SetInferShape(ge::ops_util::InferShapeSameAsInput0).SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    AICore().SetTiling(TilingWithBlocks<K::kLrn>).SetKernel(Kernel).AddConfig("ascend910b");
  }
};
struct MeanVarianceNormalization : OpDef {
  explicit MeanVarianceNormalization(const char* n) : OpDef(n) {
    Input("X").ParamType(REQUIRED).DataType(kFloatTypes);
    Output("Y").ParamType(REQUIRED).DataType(kFloatTypes);
    Attr("axes").AttrType(OPTIONAL).ListInt({0, 2, 3});
    SetInferShape(ge::ops_util::InferShapeSameAsInput0).SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    AICore().SetTiling(TilingWithBlocks<K::kMvn>).SetKernel(Kernel).AddConfig("ascend910b");
  }
};
OP_ADD(LayerNormalization);
OP_ADD(BatchNormalization);
OP_ADD(InstanceNormalization);
OP_ADD(LRN);
OP_ADD(MeanVarianceNormalization);
}  // namespace ops
