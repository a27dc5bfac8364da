// aclnnLayerNorm: normalizes over the trailing normalizedShape dims with optional weight, bias,
// mean and rstd outputs (shape: input's leading dims, then 1s). One kernel (opapi's own: no
// LayerNormalization operator is registered yet).
#include "aclnn/aclnn_layer_norm.h"
#include "opapi/op_builder.h"
#include "opapi/opapi_kernels.h"

namespace ge::opapi {
namespace {

Status BuildLayerNorm(aclOpExecutor* ex, const char* api, const aclTensor* input, const aclIntArray* normalized,
                      const aclTensor* weight, const aclTensor* bias, double eps, aclTensor* out, aclTensor* mean,
                      aclTensor* rstd) {
  if (normalized == nullptr) return NullArg(api, "normalizedShape");
  Operand x, w, b, y, mo, ro;
  GE_RETURN_IF_ERROR(MakeContiguous(ex, api, "input", input, &x));
  GE_RETURN_IF_ERROR(MakeOutput(api, "out", out, &y));
  if (input->dtype != DT_FLOAT && input->dtype != DT_DOUBLE)
    return InvalidArgument("{}: input has dtype {}, expected float32 or float64", api, DataTypeName(input->dtype));
  size_t rank = input->view_dims.size(), nrank = normalized->v.size();
  if (nrank == 0 || nrank > rank)
    return InvalidArgument("{}: normalizedShape {} does not fit input {}", api, DimsToString(normalized->v),
                           input->ToString());
  int64_t cols = 1;
  gert::Shape norm_shape, stat_shape;
  for (size_t i = 0; i < rank; ++i) {
    if (i >= rank - nrank) {
      if (input->view_dims[i] != normalized->v[i - (rank - nrank)])
        return InvalidArgument("{}: normalizedShape {} does not match the trailing dims of input {}", api,
                               DimsToString(normalized->v), input->ToString());
      cols *= input->view_dims[i];
      norm_shape.AppendDim(input->view_dims[i]);
      stat_shape.AppendDim(1);
    } else {
      stat_shape.AppendDim(input->view_dims[i]);
    }
  }
  GE_RETURN_IF_ERROR(CheckTensor(api, "out", out, input->Shape(), input->dtype));
  if (weight) {
    GE_RETURN_IF_ERROR(MakeContiguous(ex, api, "weight", weight, &w));
    GE_RETURN_IF_ERROR(CheckTensor(api, "weight", weight, norm_shape, input->dtype));
  }
  if (bias) {
    GE_RETURN_IF_ERROR(MakeContiguous(ex, api, "bias", bias, &b));
    GE_RETURN_IF_ERROR(CheckTensor(api, "bias", bias, norm_shape, input->dtype));
  }
  if (mean) {
    GE_RETURN_IF_ERROR(MakeOutput(api, "meanOut", mean, &mo));
    GE_RETURN_IF_ERROR(CheckTensor(api, "meanOut", mean, stat_shape, input->dtype));
  }
  if (rstd) {
    GE_RETURN_IF_ERROR(MakeOutput(api, "rstdOut", rstd, &ro));
    GE_RETURN_IF_ERROR(CheckTensor(api, "rstdOut", rstd, stat_shape, input->dtype));
  }
  LayerNormTiling t{static_cast<int32_t>(input->dtype), cols > 0 ? input->Numel() / cols : 0, cols, eps};
  ex->AddKernel("layer_norm", LayerNormKernel, Blocks(t.rows * cols, 1 << 14), t,
                {x.ref, weight ? w.ref : ArgRef{}, bias ? b.ref : ArgRef{}, y.ref, mean ? mo.ref : ArgRef{},
                 rstd ? ro.ref : ArgRef{}});
  return Status::Ok();
}

}  // namespace
}  // namespace ge::opapi

extern "C" aclnnStatus aclnnLayerNormGetWorkspaceSize(const aclTensor* input, const aclIntArray* normalizedShape,
                                                      const aclTensor* weightOptional, const aclTensor* biasOptional,
                                                      double eps, aclTensor* out, aclTensor* meanOutOptional,
                                                      aclTensor* rstdOutOptional, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  return ge::opapi::Phase1("aclnnLayerNorm", workspaceSize, executor, [&](aclOpExecutor* ex) {
    return ge::opapi::BuildLayerNorm(ex, "aclnnLayerNorm", input, normalizedShape, weightOptional, biasOptional, eps,
                                     out, meanOutOptional, rstdOutOptional);
  });
}
GE_ACLNN_PHASE2(LayerNorm)
