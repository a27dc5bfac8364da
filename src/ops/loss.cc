// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (input [N, C, d...], integer target
// [N, d...], optional class weights, ignore_index, reduction none|sum|mean). SCE also returns
// the log-probabilities. create: output shapes per reduction; tiling = (N, C, D) and attributes.
// run: a single block (the reductions are over the whole batch).
#include <cmath>

#include <fmt/format.h>

#include "ops/attr_choice.h"
#include "ops/op_util.h"

namespace ge::ops_loss {
using namespace ge::ops_util;

struct LossTiling {
  int32_t dtype, target_dtype;
  int32_t reduction;  // 0 none, 1 sum, 2 mean
  int32_t has_ignore;
  int32_t softmax;
  int32_t has_weight;
  int64_t ignore_index;
  int64_t n, c, d;
};

// 0 none, 1 sum, 2 mean; -1 (with the reason) for any other.
int Reduction(const gert::RuntimeAttrs* a) {
  static constexpr int kCode[] = {2, 0, 1};
  int at = AttrChoice(a, 1, "reduction", {"mean", "none", "sum"});
  return at < 0 ? -1 : kCode[at];
}

// Attribute order: ignore_index, reduction.
ge::graphStatus InferShape(gert::InferShapeContext* ctx) {
  const gert::Shape& x = *ctx->GetInputShape(0);
  if (x.GetDimNum() < 2) return ge::GRAPH_FAILED;
  // ONNX: target [N, d...] (input without C), weight [C].
  auto same = [](int64_t a, int64_t b) { return a < 0 || b < 0 || a == b; };  // unknown dims match
  const gert::Shape* target = ctx->GetInputShape(1);
  bool ok = target && target->GetDimNum() + 1 == x.GetDimNum() && same(target->GetDim(0), x.GetDim(0));
  for (size_t d = 2; ok && d < x.GetDimNum(); ++d) ok = same(target->GetDim(d - 1), x.GetDim(d));
  if (!ok) return InferFail("'target' must have the input's shape without its class dim");
  const gert::Shape* weight = ctx->GetComputeNodeInputNum() > 2 ? ctx->GetInputShape(2) : nullptr;
  if (weight && (weight->GetDimNum() != 1 || !same(weight->GetDim(0), x.GetDim(1))))
    return InferFail(fmt::format("'weight' must have shape [{}] (one per class)", x.GetDim(1)));
  gert::Shape* y = ctx->GetOutputShape(0);
  y->SetDimNum(0);
  const int reduction = Reduction(ctx->GetAttrs());
  if (reduction < 0) return ge::GRAPH_FAILED;
  if (reduction == 0) {
    y->AppendDim(x.GetDim(0));
    for (size_t d = 2; d < x.GetDimNum(); ++d) y->AppendDim(x.GetDim(d));
  }
  if (ctx->GetComputeNodeOutputNum() > 1 && ctx->GetOutputShape(1)) *ctx->GetOutputShape(1) = x;
  return ge::GRAPH_SUCCESS;
}

template <bool kSoftmax>
ge::graphStatus Tiling(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  LossTiling t{};
  t.dtype = ctx->GetInputDesc(0)->GetDataType();
  t.target_dtype = ctx->GetInputDesc(1)->GetDataType();
  t.reduction = Reduction(ctx->GetAttrs());
  if (t.reduction < 0) return ge::GRAPH_FAILED;
  t.has_ignore = ctx->GetAttrs()->IsSet(0);
  t.ignore_index = AttrInt(ctx->GetAttrs(), 0, 0);
  t.softmax = kSoftmax;
  t.has_weight = ctx->GetComputeNodeInputNum() > 2 && ctx->GetInputDesc(2) != nullptr;
  t.n = x.GetDim(0);
  t.c = x.GetDim(1);
  t.d = t.n * t.c == 0 ? 0 : x.GetShapeSize() / (t.n * t.c);
  return SetTiling(ctx, t);
}

// log_softmax over C of x into lp ([N, C, D] layout).
template <typename T>
void LogSoftmaxC(const LossTiling& t, const T* x, std::vector<double>* lp) {
  lp->resize(t.n * t.c * t.d);
  for (int64_t n = 0; n < t.n; ++n)
    for (int64_t d = 0; d < t.d; ++d) {
      const int64_t base = n * t.c * t.d + d;
      double mx = -INFINITY, sum = 0;
      for (int64_t c = 0; c < t.c; ++c) mx = std::max(mx, static_cast<double>(x[base + c * t.d]));
      for (int64_t c = 0; c < t.c; ++c) sum += std::exp(static_cast<double>(x[base + c * t.d]) - mx);
      for (int64_t c = 0; c < t.c; ++c)
        (*lp)[base + c * t.d] = static_cast<double>(x[base + c * t.d]) - mx - std::log(sum);
    }
}

template <typename T>
bool Run(const LossTiling& t, const aclrtKernelArgs* args) {
  void* const* addrs = args->addrs;
  const uint32_t num_addrs = args->numAddrs;
  const T* x = static_cast<const T*>(addrs[0]);
  // Arguments by IR position: input, target, weight (null when absent), loss, log_prob (SCE).
  const T* w = t.has_weight ? static_cast<const T*>(addrs[2]) : nullptr;
  T* loss = static_cast<T*>(addrs[3]);
  T* log_prob = t.softmax && num_addrs > 4 ? static_cast<T*>(addrs[4]) : nullptr;
  std::vector<double> lp;
  if (t.softmax) {
    LogSoftmaxC(t, x, &lp);
    if (log_prob)
      for (size_t i = 0; i < lp.size(); ++i) log_prob[i] = static_cast<T>(lp[i]);
  } else {
    lp.assign(x, x + t.n * t.c * t.d);
  }
  double total = 0, weight_sum = 0;
  for (int64_t n = 0; n < t.n; ++n)
    for (int64_t d = 0; d < t.d; ++d) {
      int64_t target = 0;
      GE_DISPATCH(Numerics, static_cast<ge::DataType>(t.target_dtype),
                  target = static_cast<int64_t>(static_cast<const scalar_t*>(addrs[1])[n * t.d + d]));
      double v = 0, wt = 0;
      const bool ignored = t.has_ignore && target == t.ignore_index;
      if (!ignored && (target < 0 || target >= t.c))  // ONNX: a class in [0, C) or ignore_index
        return ReportBadData(
            args, fmt::format("input 'target' value {} is out of range [0, {}]{}", target, t.c - 1,
                              t.has_ignore ? fmt::format(" and not ignore_index {}", t.ignore_index) : std::string()));
      if (!ignored) {
        wt = w ? static_cast<double>(w[target]) : 1.0;
        v = -lp[(n * t.c + target) * t.d + d] * wt;
      }
      if (t.reduction == 0) loss[n * t.d + d] = static_cast<T>(v);
      total += v;
      weight_sum += wt;
    }
  if (t.reduction == 1) loss[0] = static_cast<T>(total);
  if (t.reduction == 2) loss[0] = static_cast<T>(weight_sum == 0 ? 0.0 : total / weight_sum);
  return true;
}

void Kernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<LossTiling>(args);
  if (args->blockIdx != 0) return;
  GE_DISPATCH(Floats, static_cast<ge::DataType>(t.dtype), Run<scalar_t>(t, args));
}

template <bool kSoftmax>
class LossOpDef : public ::ops::OpDef {
 public:
  explicit LossOpDef(const char* name) : OpDef(name) {
    this->Input("input").ParamType(::ops::REQUIRED).DataType({ge::DT_FLOAT, ge::DT_DOUBLE});
    this->Input("target").ParamType(::ops::REQUIRED).DataType({ge::DT_INT64, ge::DT_INT32});
    this->Input("weight").ParamType(::ops::OPTIONAL).DataType({ge::DT_FLOAT, ge::DT_DOUBLE});
    this->Output("loss").ParamType(::ops::REQUIRED).DataType({ge::DT_FLOAT, ge::DT_DOUBLE});
    if (kSoftmax) this->Output("log_prob").ParamType(::ops::OPTIONAL).DataType({ge::DT_FLOAT, ge::DT_DOUBLE});
    this->Attr("ignore_index").AttrType(::ops::OPTIONAL).Int(0);
    this->Attr("reduction").AttrType(::ops::OPTIONAL).String("mean");
    this->SetInferShape(InferShape);
    this->SetInferDataType(InferDataTypeSameAsInput0);
    this->AICore().SetTiling(Tiling<kSoftmax>).SetKernel(Kernel).AddConfig("ascend910b");
  }
};

}  // namespace ge::ops_loss

namespace ops {
using NegativeLogLikelihoodLoss = ge::ops_loss::LossOpDef<false>;
using SoftmaxCrossEntropyLoss = ge::ops_loss::LossOpDef<true>;
OP_ADD(NegativeLogLikelihoodLoss);
OP_ADD(SoftmaxCrossEntropyLoss);
}  // namespace ops
