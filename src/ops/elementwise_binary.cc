// Binary elementwise arithmetic with ONNX (numpy) broadcasting: Add, Sub, Mul, Div.
// define: OpDef per op. create: infer (broadcast shape) + tiling (strides per input, block
// split of the output). setup/run: one SPMD kernel, fast paths for same-shape and scalar.
#include <cstring>

#include <fmt/format.h>

#include "base/defined_arith.h"
#include "ops/op_util.h"

namespace ge::ops_binary {
using namespace ge::ops_util;

enum class BinOp : int32_t { kAdd, kSub, kMul, kDiv };

struct BinaryTiling {
  int32_t op;
  int32_t dtype;
  int32_t rank;
  int32_t mode;  // 0: same shape, 1: b is a scalar, 2: a is a scalar, 3: general broadcast
  int64_t numel;
  int64_t out_dims[kMaxRank];
  int64_t a_strides[kMaxRank];
  int64_t b_strides[kMaxRank];
};

// ---- create ----------------------------------------------------------------------------------
ge::graphStatus InferShape(gert::InferShapeContext* ctx) {
  const gert::Shape* a = ctx->GetInputShape(0);
  const gert::Shape* b = ctx->GetInputShape(1);
  if (a == nullptr || b == nullptr) return InferFail("missing input A or B");
  if (!BroadcastShape(*a, *b, ctx->GetOutputShape(0)))
    return InferFail(fmt::format("shapes {} and {} do not broadcast", ShapeToString(*a), ShapeToString(*b)));
  return ge::GRAPH_SUCCESS;
}

template <BinOp kOp>
ge::graphStatus Tiling(gert::TilingContext* ctx) {
  const gert::Shape& a = ctx->GetInputShape(0)->GetStorageShape();
  const gert::Shape& b = ctx->GetInputShape(1)->GetStorageShape();
  const gert::Shape& out = ctx->GetOutputShape(0)->GetStorageShape();
  if (out.GetDimNum() > static_cast<size_t>(kMaxRank))
    return InferFail(fmt::format("expected at most {} dims, got {}", kMaxRank, ShapeToString(out)));
  BinaryTiling t{};
  t.op = static_cast<int32_t>(kOp);
  t.dtype = ctx->GetInputDesc(0)->GetDataType();
  t.rank = static_cast<int32_t>(out.GetDimNum());
  t.numel = out.GetShapeSize();
  for (int i = 0; i < t.rank; ++i) t.out_dims[i] = out.GetDim(i);
  BroadcastStrides(a, out, t.a_strides);
  BroadcastStrides(b, out, t.b_strides);
  if (a == b)
    t.mode = 0;
  else if (b.GetShapeSize() == 1 && a.GetShapeSize() == t.numel)
    t.mode = 1;
  else if (a.GetShapeSize() == 1 && b.GetShapeSize() == t.numel)
    t.mode = 2;
  else
    t.mode = 3;
  ctx->SetBlockDim(ChooseBlockDim(ctx, t.numel, 1 << 15));
  return SetTiling(ctx, t);
}

// ---- run -------------------------------------------------------------------------------------
template <typename T>
inline T Apply(BinOp op, T x, T y) {
  switch (op) {
    // Integers wrap (as numpy and ONNX Runtime) instead of overflowing (undefined): base/defined_arith.h.
    case BinOp::kAdd: return WrapAdd(x, y);
    case BinOp::kSub: return WrapSub(x, y);
    case BinOp::kMul: return WrapMul(x, y);
    case BinOp::kDiv:
      // Integers: x / 0 is defined as 0; x / -1 is -x wrapping (the minimum value divided by -1
      // traps in hardware, so it is computed as an unsigned negation: INT_MIN / -1 = INT_MIN).
      if constexpr (std::is_integral_v<T>) {
        if (y == 0) return T(0);
        if constexpr (std::is_signed_v<T>) {
          using U = std::make_unsigned_t<T>;
          if (y == T(-1)) return static_cast<T>(static_cast<U>(U(0) - static_cast<U>(x)));
        }
        return T(x / y);
      } else
        return x / y;
  }
  return x;
}

// Broadcasting with a contiguous or broadcast innermost dim (e.g. [N, H, W, C] * [1, 1, 1, C]):
// one vectorizable loop per innermost row, the odometer only between rows.
template <typename T, BinOp kOp>
void RunRows(const BinaryTiling& t, const T* a, const T* b, T* out, int64_t begin, int64_t end) {
  // An empty output ([3, 0, 255] - [3, 1, 255]) has a 0 among the dims the start index is
  // divided by (SIGFPE, onnx_model fuzz harness): nothing to do.
  if (begin >= end) return;
  const int last = t.rank - 1;
  const int64_t inner = t.out_dims[last], sa = t.a_strides[last], sb = t.b_strides[last];
  int64_t idx[kMaxRank] = {};
  int64_t rem = begin;
  for (int d = last; d >= 0; --d) {
    idx[d] = rem % t.out_dims[d];
    rem /= t.out_dims[d];
  }
  int64_t ao = 0, bo = 0;
  for (int d = 0; d <= last; ++d) {
    ao += idx[d] * t.a_strides[d];
    bo += idx[d] * t.b_strides[d];
  }
  for (int64_t i = begin; i < end;) {
    int64_t n = std::min(end - i, inner - idx[last]);
    const T* ap = a + ao;
    const T* bp = b + bo;
    T* op = out + i;
    if (sa == 1 && sb == 1) {
      for (int64_t k = 0; k < n; ++k) op[k] = Apply(kOp, ap[k], bp[k]);
    } else if (sa == 1) {
      const T y = *bp;
      for (int64_t k = 0; k < n; ++k) op[k] = Apply(kOp, ap[k], y);
    } else if (sb == 1) {
      const T x = *ap;
      for (int64_t k = 0; k < n; ++k) op[k] = Apply(kOp, x, bp[k]);
    } else {
      const T v = Apply(kOp, *ap, *bp);
      for (int64_t k = 0; k < n; ++k) op[k] = v;
    }
    i += n;
    ao += sa * n;
    bo += sb * n;
    idx[last] += n;
    if (idx[last] < inner) break;  // the range ended inside this row
    ao -= sa * inner;
    bo -= sb * inner;
    idx[last] = 0;
    for (int d = last - 1; d >= 0; --d) {  // odometer over the outer dims
      ao += t.a_strides[d];
      bo += t.b_strides[d];
      if (++idx[d] < t.out_dims[d]) break;
      ao -= t.a_strides[d] * t.out_dims[d];
      bo -= t.b_strides[d] * t.out_dims[d];
      idx[d] = 0;
    }
  }
}

template <typename T, BinOp kOp>
void RunTyped(const BinaryTiling& t, const T* a, const T* b, T* out, int64_t begin, int64_t end) {
  if (t.mode == 0) {
    for (int64_t i = begin; i < end; ++i) out[i] = Apply(kOp, a[i], b[i]);
  } else if (t.mode == 1) {
    const T y = b[0];
    for (int64_t i = begin; i < end; ++i) out[i] = Apply(kOp, a[i], y);
  } else if (t.mode == 2) {
    const T x = a[0];
    for (int64_t i = begin; i < end; ++i) out[i] = Apply(kOp, x, b[i]);
  } else if (t.rank > 0 && t.out_dims[t.rank - 1] >= 8 && t.a_strides[t.rank - 1] <= 1 &&
             t.b_strides[t.rank - 1] <= 1) {
    RunRows<T, kOp>(t, a, b, out, begin, end);
  } else {
    int64_t strides[2][kMaxRank];
    std::memcpy(strides[0], t.a_strides, sizeof(t.a_strides));
    std::memcpy(strides[1], t.b_strides, sizeof(t.b_strides));
    ForEachBroadcast<2>(t.rank, t.out_dims, strides, begin, end,
                        [&](int64_t i, const int64_t* offs) { out[i] = Apply(kOp, a[offs[0]], b[offs[1]]); });
  }
}

template <typename T>
void RunOp(const BinaryTiling& t, const T* a, const T* b, T* out, int64_t begin, int64_t end) {
  switch (static_cast<BinOp>(t.op)) {
    case BinOp::kAdd: RunTyped<T, BinOp::kAdd>(t, a, b, out, begin, end); break;
    case BinOp::kSub: RunTyped<T, BinOp::kSub>(t, a, b, out, begin, end); break;
    case BinOp::kMul: RunTyped<T, BinOp::kMul>(t, a, b, out, begin, end); break;
    case BinOp::kDiv: RunTyped<T, BinOp::kDiv>(t, a, b, out, begin, end); break;
  }
}

void Kernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<BinaryTiling>(args);
  int64_t begin, end;
  BlockRange(t.numel, args->blockIdx, args->blockDim, &begin, &end);
  GE_DISPATCH(
      Numerics, static_cast<ge::DataType>(t.dtype),
      RunOp<scalar_t>(t, static_cast<const scalar_t*>(args->addrs[0]), static_cast<const scalar_t*>(args->addrs[1]),
                      static_cast<scalar_t*>(args->addrs[2]), begin, end));
}

// ---- define ----------------------------------------------------------------------------------
const std::vector<ge::DataType> kNumeric = {ge::DT_FLOAT, ge::DT_DOUBLE, ge::DT_INT8,   ge::DT_INT16,  ge::DT_INT32,
                                            ge::DT_INT64, ge::DT_UINT8,  ge::DT_UINT16, ge::DT_UINT32, ge::DT_UINT64};

template <BinOp kOp>
class BinaryOpDef : public ::ops::OpDef {
 public:
  explicit BinaryOpDef(const char* name) : OpDef(name) {
    this->Input("A").ParamType(::ops::REQUIRED).DataType(kNumeric);
    this->Input("B").ParamType(::ops::REQUIRED).DataType(kNumeric);
    this->Output("C").ParamType(::ops::REQUIRED).DataType(kNumeric);
    this->SetInferShape(InferShape);
    this->SetInferDataType(InferDataTypeSameAsAB);
    this->AICore().SetTiling(Tiling<kOp>).SetKernel(Kernel).AddConfig("ascend910b");
    this->OutputInplace(0, 0).OutputInplace(0, 1);
  }
};

}  // namespace ge::ops_binary

namespace ops {
using Add = ge::ops_binary::BinaryOpDef<ge::ops_binary::BinOp::kAdd>;
using Sub = ge::ops_binary::BinaryOpDef<ge::ops_binary::BinOp::kSub>;
using Mul = ge::ops_binary::BinaryOpDef<ge::ops_binary::BinOp::kMul>;
using Div = ge::ops_binary::BinaryOpDef<ge::ops_binary::BinOp::kDiv>;
OP_ADD(Add);
OP_ADD(Sub);
OP_ADD(Mul);
OP_ADD(Div);
}  // namespace ops
