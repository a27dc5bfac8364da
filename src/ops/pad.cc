// Pad (opset 13): data, pads (value-depend, [begin..., end...], may be negative), optional
// constant_value; mode constant | reflect | edge. create: padded shape; tiling = dims and pads.
// run: each output element maps back to one input element or the constant.
#include <fmt/format.h>

#include "base/checked_math.h"
#include "ops/attr_choice.h"
#include "ops/op_util.h"

namespace ge::ops_pad {
using namespace ge::ops_util;

struct PadTiling {
  int32_t elem_size;
  int32_t rank;
  int32_t mode;  // 0 constant, 1 reflect, 2 edge
  int64_t numel;
  int64_t in_dims[kMaxRank], out_dims[kMaxRank], pad_begin[kMaxRank];
};

// The mode as 0 constant, 1 reflect, 2 edge; -1 (with the reason) for any other.
template <typename Ctx>
int32_t Mode(const Ctx* ctx) {
  return AttrChoice(ctx->GetAttrs(), 0, "mode", {"constant", "reflect", "edge"});
}

template <typename Ctx>
bool Pads(const Ctx* ctx, size_t rank, std::vector<int64_t>* pads) {
  return ReadInt64s(ctx->GetInputTensor(1), pads) && pads->size() == 2 * rank;
}

ge::graphStatus InferShape(gert::InferShapeContext* ctx) {
  const gert::Shape& x = *ctx->GetInputShape(0);
  std::vector<int64_t> pads;
  if (Mode(ctx) < 0) return ge::GRAPH_FAILED;
  if (!Pads(ctx, x.GetDimNum(), &pads)) return ge::GRAPH_FAILED;
  gert::Shape* y = ctx->GetOutputShape(0);
  *y = x;
  for (size_t d = 0; d < x.GetDimNum(); ++d) {
    int64_t n = x.GetDim(d);  // an unknown dim stays unknown
    if (n >= 0 && (!ge::CheckedAdd(n, pads[d], &n) || !ge::CheckedAdd(n, pads[d + x.GetDimNum()], &n) || n < 0))
      return InferFail(
          fmt::format("pads {} and {} do not fit dim {} of size {}", pads[d], pads[d + x.GetDimNum()], d, x.GetDim(d)));
    y->SetDim(d, n);
  }
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus Tiling(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  const gert::Shape& y = ctx->GetOutputShape(0)->GetStorageShape();
  std::vector<int64_t> pads;
  if (x.GetDimNum() > static_cast<size_t>(kMaxRank) || !Pads(ctx, x.GetDimNum(), &pads)) return ge::GRAPH_FAILED;
  PadTiling t{};
  t.elem_size = static_cast<int32_t>(ge::GetSizeByDataType(ctx->GetInputDesc(0)->GetDataType()));
  t.rank = static_cast<int32_t>(x.GetDimNum());
  t.mode = Mode(ctx);
  if (t.mode < 0) return ge::GRAPH_FAILED;
  t.numel = y.GetShapeSize();
  for (int d = 0; d < t.rank; ++d) {
    t.in_dims[d] = x.GetDim(d);
    t.out_dims[d] = y.GetDim(d);
    t.pad_begin[d] = pads[d];
  }
  ctx->SetBlockDim(ChooseBlockDim(ctx, t.numel, 1 << 15));
  return SetTiling(ctx, t);
}

// Input coordinate for output coordinate o along one dim; -1 for the constant.
int64_t MapCoord(const PadTiling& t, int d, int64_t o) {
  int64_t c = o - t.pad_begin[d], n = t.in_dims[d];
  if (c >= 0 && c < n) return c;
  if (t.mode == 0 || n == 0) return -1;
  if (t.mode == 2) return c < 0 ? 0 : n - 1;
  if (n == 1) return 0;
  int64_t period = 2 * (n - 1);
  c = ((c % period) + period) % period;
  return c < n ? c : period - c;
}

void Kernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<PadTiling>(args);
  int64_t b, e;
  BlockRange(t.numel, args->blockIdx, args->blockDim, &b, &e);
  int64_t in_strides[kMaxRank];
  ContiguousStrides(t.in_dims, t.rank, in_strides);
  const void* cv = args->addrs[2];
  GE_DISPATCH(UInts, kernels::UIntOfSize(t.elem_size), {
    const auto* x = static_cast<const scalar_t*>(args->addrs[0]);
    auto* y = static_cast<scalar_t*>(args->addrs[3]);
    scalar_t fill = cv ? *static_cast<const scalar_t*>(cv) : scalar_t(0);
    for (int64_t i = b; i < e; ++i) {
      int64_t rem = i, src = 0;
      for (int d = t.rank - 1; d >= 0 && src >= 0; --d) {
        int64_t c = MapCoord(t, d, rem % t.out_dims[d]);
        rem /= t.out_dims[d];
        src = c < 0 ? -1 : src + c * in_strides[d];
      }
      y[i] = src < 0 ? fill : x[src];
    }
  });
}

}  // namespace ge::ops_pad

namespace ops {
struct Pad : OpDef {
  explicit Pad(const char* n) : OpDef(n) {
    Input("data").ParamType(REQUIRED).DataType(ge::ops_util::kAllTypes);
    Input("pads").ParamType(REQUIRED).DataType({ge::DT_INT64}).ValueDepend(REQUIRED);
    Input("constant_value").ParamType(OPTIONAL).DataType(ge::ops_util::kAllTypes);
    Output("output").ParamType(REQUIRED).DataType(ge::ops_util::kAllTypes);
    Attr("mode").AttrType(OPTIONAL).String("constant");
    SetInferShape(ge::ops_pad::InferShape).SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    AICore().SetTiling(ge::ops_pad::Tiling).SetKernel(ge::ops_pad::Kernel).AddConfig("ascend910b");
  }
};
OP_ADD(Pad);
}  // namespace ops
