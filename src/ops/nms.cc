// NonMaxSuppression: greedy per (batch, class) selection by score with IoU suppression; boxes as
// corners (any order) or centers. The output's row count depends on the data, so all inputs are
// value-depend: shape inference runs the selection on the host; the kernel runs it again (it is
// deterministic) and writes the rows.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "ops/op_util.h"

namespace ge::ops_nms {
using namespace ge::ops_util;

enum In { kBoxes, kScores, kMaxOut, kIouThreshold, kScoreThreshold };

struct NmsParams {
  int64_t batches, classes, boxes, max_out;
  float iou_threshold, score_threshold;
  int32_t has_score_threshold, center_point_box;
};

// Corners (y1, x1, y2, x2) with y1 <= y2, x1 <= x2.
std::array<float, 4> Corners(const float* b, bool center) {
  if (center) return {b[1] - b[3] / 2, b[0] - b[2] / 2, b[1] + b[3] / 2, b[0] + b[2] / 2};
  return {std::min(b[0], b[2]), std::min(b[1], b[3]), std::max(b[0], b[2]), std::max(b[1], b[3])};
}

bool Suppresses(const std::array<float, 4>& a, const std::array<float, 4>& b, float threshold) {
  float ih = std::min(a[2], b[2]) - std::max(a[0], b[0]), iw = std::min(a[3], b[3]) - std::max(a[1], b[1]);
  if (ih <= 0 || iw <= 0) return false;
  float inter = ih * iw;
  float uni = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter;
  if (uni <= 0) return false;
  return inter / uni > threshold;
}

std::vector<std::array<int64_t, 3>> Select(const NmsParams& p, const float* boxes, const float* scores) {
  std::vector<std::array<int64_t, 3>> out;
  if (p.max_out <= 0) return out;
  std::vector<int64_t> order;
  std::vector<std::array<float, 4>> kept;
  for (int64_t b = 0; b < p.batches; ++b) {
    const float* bb = boxes + b * p.boxes * 4;
    for (int64_t c = 0; c < p.classes; ++c) {
      const float* s = scores + (b * p.classes + c) * p.boxes;
      order.clear();
      for (int64_t i = 0; i < p.boxes; ++i)
        if (!p.has_score_threshold || s[i] > p.score_threshold) order.push_back(i);
      std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) { return s[x] > s[y]; });
      kept.clear();
      for (int64_t i : order) {
        if (static_cast<int64_t>(kept.size()) >= p.max_out) break;
        auto box = Corners(bb + i * 4, p.center_point_box != 0);
        bool drop = false;
        for (const auto& k : kept) drop = drop || Suppresses(k, box, p.iou_threshold);
        if (drop) continue;
        kept.push_back(box);
        out.push_back({b, c, i});
      }
    }
  }
  return out;
}

// An optional scalar input's value (dflt when absent or empty): an integer count from an int64 /
// int32 tensor, a threshold from a floating-point one (another dtype is read as neither: a uint8
// tensor read as float would read past its one byte).
template <typename T>
T Scalar(const gert::Tensor* t, T dflt) {
  if (t == nullptr || t->GetAddr() == nullptr || t->GetShapeSize() < 1) return dflt;
  if constexpr (std::is_integral_v<T>) {
    if (t->GetDataType() == ge::DT_INT64) return static_cast<T>(*t->GetData<int64_t>());
    if (t->GetDataType() == ge::DT_INT32) return static_cast<T>(*t->GetData<int32_t>());
  } else {
    if (t->GetDataType() == ge::DT_FLOAT) return static_cast<T>(*t->GetData<float>());
    if (t->GetDataType() == ge::DT_DOUBLE) return static_cast<T>(*t->GetData<double>());
  }
  return dflt;
}

// Params from the inputs; false when the data is not known yet or shapes are wrong, with the
// reason in *why for an optional scalar of a dtype ONNX does not allow (the single-op API takes
// any: a uint8 threshold was read as a float before Scalar checked dtypes).
template <typename Ctx>
bool ReadParams(const Ctx* ctx, NmsParams* p, std::string* why) {
  const gert::Tensor* boxes = ctx->GetInputTensor(kBoxes);
  const gert::Tensor* scores = ctx->GetInputTensor(kScores);
  if (!boxes || !scores || !boxes->GetAddr() || !scores->GetAddr()) return false;
  const gert::Shape& bs = boxes->GetStorageShape();
  const gert::Shape& ss = scores->GetStorageShape();
  if (bs.GetDimNum() != 3 || bs.GetDim(2) != 4 || ss.GetDimNum() != 3 || ss.GetDim(0) != bs.GetDim(0) ||
      ss.GetDim(2) != bs.GetDim(1))
    return false;
  for (int i = kMaxOut; i <= kScoreThreshold; ++i) {
    const gert::Tensor* t = ctx->GetInputTensor(i);
    if (t == nullptr || t->GetShapeSize() == 0) continue;  // absent or empty: the default
    const ge::DataType dt = t->GetDataType();
    const bool ok =
        i == kMaxOut ? (dt == ge::DT_INT64 || dt == ge::DT_INT32) : (dt == ge::DT_FLOAT || dt == ge::DT_DOUBLE);
    if (!ok) {
      static const char* const kNames[] = {"", "", "max_output_boxes_per_class", "iou_threshold", "score_threshold"};
      *why = fmt::format("'{}' must be {}, got {}", kNames[i], i == kMaxOut ? "int32 or int64" : "float or double",
                         ge::DataTypeName(dt));
      return false;
    }
    if (t->GetShapeSize() > 0 && t->GetAddr() == nullptr) return false;
  }
  p->batches = bs.GetDim(0);
  p->boxes = bs.GetDim(1);
  p->classes = ss.GetDim(1);
  p->max_out = Scalar<int64_t>(ctx->GetInputTensor(kMaxOut), 0);
  p->iou_threshold = Scalar<float>(ctx->GetInputTensor(kIouThreshold), 0.f);
  const gert::Tensor* st = ctx->GetInputTensor(kScoreThreshold);
  p->has_score_threshold = st && st->GetShapeSize() > 0;
  p->score_threshold = Scalar<float>(st, 0.f);
  p->center_point_box = static_cast<int32_t>(AttrInt(ctx->GetAttrs(), 0, 0));
  return true;
}

ge::graphStatus InferShape(gert::InferShapeContext* ctx) {
  NmsParams p{};
  std::string why;
  if (!ReadParams(ctx, &p, &why)) return InferFail(why);
  auto rows = Select(p, ctx->GetInputTensor(kBoxes)->template GetData<float>(),
                     ctx->GetInputTensor(kScores)->template GetData<float>());
  SetDims(ctx->GetOutputShape(0), {static_cast<int64_t>(rows.size()), 3});
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx) { return ctx->SetOutputDataType(0, ge::DT_INT64); }

ge::graphStatus Tiling(gert::TilingContext* ctx) {
  NmsParams p{};
  std::string why;
  if (!ReadParams(ctx, &p, &why)) return InferFail(why);
  ctx->SetBlockDim(1);
  return SetTiling(ctx, p);
}

void Kernel(const aclrtKernelArgs* args) {
  const auto& p = GetTiling<NmsParams>(args);
  auto rows =
      Select(p, static_cast<const float*>(args->addrs[kBoxes]), static_cast<const float*>(args->addrs[kScores]));
  auto* y = static_cast<int64_t*>(args->addrs[5]);
  for (size_t r = 0; r < rows.size(); ++r) std::copy(rows[r].begin(), rows[r].end(), y + 3 * r);
}

}  // namespace ge::ops_nms

namespace ops {
using namespace ge::ops_nms;
class NonMaxSuppression : public OpDef {
 public:
  explicit NonMaxSuppression(const char* name) : OpDef(name) {
    this->Input("boxes").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).ValueDepend(REQUIRED);
    this->Input("scores").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).ValueDepend(REQUIRED);
    this->Input("max_output_boxes_per_class").ParamType(OPTIONAL).DataType({ge::DT_INT64}).ValueDepend(OPTIONAL);
    this->Input("iou_threshold").ParamType(OPTIONAL).DataType({ge::DT_FLOAT}).ValueDepend(OPTIONAL);
    this->Input("score_threshold").ParamType(OPTIONAL).DataType({ge::DT_FLOAT}).ValueDepend(OPTIONAL);
    this->Output("selected_indices").ParamType(REQUIRED).DataType({ge::DT_INT64});
    this->Attr("center_point_box").AttrType(OPTIONAL).Int(0);
    this->SetInferShape(InferShape);
    this->SetInferDataType(InferDataType);
    this->AICore().SetTiling(Tiling).SetKernel(Kernel).AddConfig("ascend910b");
  }
};
OP_ADD(NonMaxSuppression);
}  // namespace ops
