// Cast (target dtype from the ONNX `to` code) and CastLike (target dtype of input 1), between
// all numeric dtypes, the 16-bit floats, bool and strings (numbers print as the shortest text
// that reads back to the same value, as numpy does; NaN/INF/-INF; strings parse with strtod).
// define: OpDef. create: same shape, dtype from the attribute or the second input; tiling holds
// both dtypes. run: one SPMD kernel, a double dtype dispatch.
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "base/defined_arith.h"
#include "ops/op_util.h"

namespace ge::ops_cast {
using namespace ge::ops_util;

struct CastTiling {
  int32_t src;
  int32_t dst;
  int64_t numel;
};

// ---- create ----------------------------------------------------------------------------------
ge::graphStatus InferDataTypeCast(gert::InferDataTypeContext* ctx) {
  ge::DataType dt = FromOnnxDtype(AttrInt(ctx->GetAttrs(), 0, 0));
  if (dt == ge::DT_UNDEFINED) return ge::GRAPH_FAILED;
  return ctx->SetOutputDataType(0, dt);
}

ge::graphStatus InferDataTypeCastLike(gert::InferDataTypeContext* ctx) {
  return ctx->SetOutputDataType(0, ctx->GetInputDataType(1));
}

ge::graphStatus Tiling(gert::TilingContext* ctx) {
  CastTiling t{};
  t.src = ctx->GetInputDesc(0)->GetDataType();
  t.dst = ctx->GetOutputDesc(0)->GetDataType();
  t.numel = ctx->GetInputShape(0)->GetStorageShape().GetShapeSize();
  ctx->SetBlockDim(ChooseBlockDim(ctx, t.numel, 1 << 15));
  return SetTiling(ctx, t);
}

// ---- run -------------------------------------------------------------------------------------
template <typename S, typename D>
void Convert(const S* x, D* y, int64_t b, int64_t e) {
  for (int64_t i = b; i < e; ++i) {
    auto v = static_cast<ComputeT<S>>(x[i]);
    if constexpr (std::is_same_v<D, bool>) {
      y[i] = v != ComputeT<S>(0);
    } else if constexpr (std::is_same_v<D, BFloat16>) {  // ONNX's reference truncates
      float f = static_cast<float>(v);
      uint32_t u;
      std::memcpy(&u, &f, 4);
      y[i].v = static_cast<uint16_t>(std::isnan(f) ? 0x7fc0u : u >> 16);
    } else if constexpr (std::is_same_v<D, Half>) {
      y[i] = D(static_cast<float>(v));
    } else if constexpr (std::is_integral_v<D> && std::is_floating_point_v<ComputeT<S>>) {
      y[i] = FloatToInt<D>(v);
    } else {
      y[i] = static_cast<D>(v);
    }
  }
}

// One number as text in a string slot.
template <typename V>
void ToText(V v, char* slot) {
  char* end = slot + ge::kStringSlotBytes - 1;
  if constexpr (std::is_floating_point_v<V>) {
    if (std::isnan(v)) {
      std::strcpy(slot, "NaN");
      return;
    }
    if (std::isinf(v)) {
      std::strcpy(slot, v > 0 ? "INF" : "-INF");
      return;
    }
  }
  if constexpr (std::is_same_v<V, bool>) {
    std::strcpy(slot, v ? "1" : "0");
  } else {
    auto r = std::to_chars(slot, end, v);  // shortest round trip for floating types
    *(r.ec == std::errc() ? r.ptr : slot) = '\0';
  }
}

template <typename S>
void NumbersToStrings(const S* x, char* y, int64_t b, int64_t e) {
  for (int64_t i = b; i < e; ++i) ToText(static_cast<ComputeT<S>>(x[i]), y + i * ge::kStringSlotBytes);
}

template <typename D>
void StringsToNumbers(const char* x, D* y, int64_t b, int64_t e) {
  for (int64_t i = b; i < e; ++i) {
    const char* text = x + i * ge::kStringSlotBytes;
    if constexpr (std::is_integral_v<D> && !std::is_same_v<D, bool>) {
      y[i] = static_cast<D>(std::strtoll(text, nullptr, 10));
    } else {
      const double v = std::strtod(text, nullptr);  // also NaN, INF, +INF, -INF
      Convert(&v, y + i, 0, 1);
    }
  }
}

void Kernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<CastTiling>(args);
  int64_t b, e;
  BlockRange(t.numel, args->blockIdx, args->blockDim, &b, &e);
  const bool from_text = t.src == ge::DT_STRING, to_text = t.dst == ge::DT_STRING;
  if (from_text || to_text) {
    void* y = args->addrs[args->numAddrs - 1];
    if (from_text && to_text) {
      std::memcpy(static_cast<char*>(y) + b * ge::kStringSlotBytes,
                  static_cast<const char*>(args->addrs[0]) + b * ge::kStringSlotBytes, (e - b) * ge::kStringSlotBytes);
    } else if (to_text) {
      GE_DISPATCH(AllTypes, static_cast<ge::DataType>(t.src),
                  NumbersToStrings(static_cast<const scalar_t*>(args->addrs[0]), static_cast<char*>(y), b, e));
    } else {
      GE_DISPATCH(AllTypes, static_cast<ge::DataType>(t.dst),
                  StringsToNumbers(static_cast<const char*>(args->addrs[0]), static_cast<scalar_t*>(y), b, e));
    }
    return;
  }
  GE_DISPATCH(AllTypes, static_cast<ge::DataType>(t.src), {
    using S = scalar_t;
    const S* x = static_cast<const S*>(args->addrs[0]);
    void* y = args->addrs[args->numAddrs - 1];
    GE_DISPATCH(AllTypes, static_cast<ge::DataType>(t.dst), Convert(x, static_cast<scalar_t*>(y), b, e));
  });
}

// ---- define ----------------------------------------------------------------------------------
std::vector<ge::DataType> AllTypesAndString() {
  std::vector<ge::DataType> t = kAllTypes;
  t.push_back(ge::DT_STRING);
  return t;
}

class Cast : public ::ops::OpDef {
 public:
  explicit Cast(const char* name) : OpDef(name) {
    this->Input("input").ParamType(::ops::REQUIRED).DataType(AllTypesAndString());
    this->Output("output").ParamType(::ops::REQUIRED).DataType(AllTypesAndString());
    this->Attr("to").AttrType(::ops::REQUIRED).Int();
    this->SetInferShape(InferShapeSameAsInput0);
    this->SetInferDataType(InferDataTypeCast);
    this->AICore().SetTiling(Tiling).SetKernel(Kernel).AddConfig("ascend910b");
  }
};

class CastLike : public ::ops::OpDef {
 public:
  explicit CastLike(const char* name) : OpDef(name) {
    this->Input("input").ParamType(::ops::REQUIRED).DataType(AllTypesAndString());
    this->Input("target_type").ParamType(::ops::REQUIRED).DataType(AllTypesAndString());
    this->Output("output").ParamType(::ops::REQUIRED).DataType(AllTypesAndString());
    this->SetInferShape(InferShapeSameAsInput0);
    this->SetInferDataType(InferDataTypeCastLike);
    this->AICore().SetTiling(Tiling).SetKernel(Kernel).AddConfig("ascend910b");
  }
};

}  // namespace ge::ops_cast

namespace ops {
using ge::ops_cast::Cast;
using ge::ops_cast::CastLike;
OP_ADD(Cast);
OP_ADD(CastLike);
}  // namespace ops
