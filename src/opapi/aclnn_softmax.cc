// aclnnSoftmax, a multi-kernel operator: a few long rows over the last axis (fewer rows than
// cores, axis >= 8192) run as three passes that spread each row over several blocks — partial
// max and sum of exp per chunk, combine per row, normalize per chunk; everything else is the
// registered Softmax kernel (one launch).
#include "aclnn/aclnn_softmax.h"
#include "opapi/op_builder.h"
#include "opapi/opapi_kernels.h"

namespace ge::opapi {
namespace {

constexpr int64_t kSplitMinLen = 8192;
constexpr int64_t kMinChunk = 2048;

Status BuildSoftmax(aclOpExecutor* ex, const char* api, const aclTensor* self, int64_t dim, aclTensor* out) {
  Operand x, y;
  GE_RETURN_IF_ERROR(MakeContiguous(ex, api, "self", self, &x));
  GE_RETURN_IF_ERROR(MakeOutput(api, "out", out, &y));
  if (self->dtype != DT_FLOAT && self->dtype != DT_DOUBLE)
    return InvalidArgument("{}: self has dtype {}, expected float32 or float64", api, DataTypeName(self->dtype));
  int64_t rank = static_cast<int64_t>(self->view_dims.size());
  if (rank > 0 && (dim < -rank || dim >= rank))
    return InvalidArgument("{}: dim {} is out of range for a rank-{} tensor", api, dim, rank);
  GE_RETURN_IF_ERROR(CheckTensor(api, "out", out, self->Shape(), self->dtype));
  int64_t axis = dim < 0 ? dim + rank : dim;
  int64_t len = rank > 0 ? self->view_dims[axis] : 1;
  int64_t rows = len > 0 ? self->Numel() / len : 0;
  uint32_t cores = DeviceCoreNum();
  if (rank > 0 && axis == rank - 1 && len >= kSplitMinLen && rows > 0 && rows < cores) {
    SoftmaxSplitTiling t{static_cast<int32_t>(self->dtype), rows, len, 0, 0};
    t.chunks = std::clamp<int64_t>(2 * cores / rows, 2, std::max<int64_t>(2, len / kMinChunk));
    t.chunk = (len + t.chunks - 1) / t.chunks;
    t.chunks = (len + t.chunk - 1) / t.chunk;
    Operand stats = WorkspaceOperand(ex, gert::Shape({rows, t.chunks, 2}), DT_DOUBLE);
    Operand row_stats = WorkspaceOperand(ex, gert::Shape({rows, 2}), DT_DOUBLE);
    uint32_t blocks = static_cast<uint32_t>(std::min<int64_t>(rows * t.chunks, cores));
    ex->AddKernel("softmax_partial", SoftmaxPartialKernel, blocks, t, {x.ref, stats.ref});
    ex->AddKernel("softmax_combine", SoftmaxCombineKernel, 1, t, {stats.ref, row_stats.ref});
    ex->AddKernel("softmax_normalize", SoftmaxNormalizeKernel, blocks, t, {x.ref, row_stats.ref, y.ref});
    return Status::Ok();
  }
  gert::RuntimeAttrs attrs;
  gert::RuntimeAttrValue v;
  v.kind = gert::RuntimeAttrValue::kInt;
  v.i = dim;
  attrs.Append("axis", v, true);
  return AddRegisteredOp(ex, api, "Softmax", {&x}, {&y}, attrs);
}

}  // namespace
}  // namespace ge::opapi

extern "C" aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return ge::opapi::Phase1("aclnnSoftmax", workspaceSize, executor, [&](aclOpExecutor* ex) {
    return ge::opapi::BuildSoftmax(ex, "aclnnSoftmax", self, dim, out);
  });
}
GE_ACLNN_PHASE2(Softmax)
