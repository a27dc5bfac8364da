// aclnnAdd (out = self + alpha * other) and aclnnMul over the registered Add/Mul kernels.
// alpha != 1 adds a scale kernel in front of the Add (two launches).
#include "aclnn/aclnn_add.h"
#include "aclnn/aclnn_mul.h"
#include "opapi/op_builder.h"
#include "opapi/opapi_kernels.h"

namespace ge::opapi {
namespace {

Status CheckSameDtype(const char* api, const aclTensor* self, const aclTensor* other) {
  if (self->dtype != other->dtype)
    return InvalidArgument("{}: other has dtype {}, self has {} (no type promotion)", api, DataTypeName(other->dtype),
                           DataTypeName(self->dtype));
  return Status::Ok();
}

Status BuildBinary(aclOpExecutor* ex, const char* api, const char* op_type, const aclTensor* self,
                   const aclTensor* other, const aclScalar* alpha, aclTensor* out) {
  Operand a, b, y;
  GE_RETURN_IF_ERROR(MakeContiguous(ex, api, "self", self, &a));
  GE_RETURN_IF_ERROR(MakeContiguous(ex, api, "other", other, &b));
  GE_RETURN_IF_ERROR(MakeOutput(api, "out", out, &y));
  GE_RETURN_IF_ERROR(CheckSameDtype(api, self, other));
  if (alpha != nullptr && alpha->ToDouble() != 1.0) {
    ScaleTiling t{static_cast<int32_t>(other->dtype), other->Numel(), alpha->ToDouble()};
    Operand scaled = WorkspaceOperand(ex, b.desc.GetStorageShape(), other->dtype);
    ex->AddKernel("scale", ScaleKernel, Blocks(t.numel, 1 << 15), t, {b.ref, scaled.ref});
    b = scaled;
  }
  gert::RuntimeAttrs attrs;
  return AddRegisteredOp(ex, api, op_type, {&a, &b}, {&y}, attrs);
}

}  // namespace
}  // namespace ge::opapi

extern "C" aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor* self, const aclTensor* other, const aclScalar* alpha,
                                                aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return ge::opapi::Phase1("aclnnAdd", workspaceSize, executor, [&](aclOpExecutor* ex) -> ge::Status {
    if (alpha == nullptr) return ge::opapi::NullArg("aclnnAdd", "alpha");
    return ge::opapi::BuildBinary(ex, "aclnnAdd", "Add", self, other, alpha, out);
  });
}
GE_ACLNN_PHASE2(Add)

extern "C" aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  return ge::opapi::Phase1("aclnnMul", workspaceSize, executor, [&](aclOpExecutor* ex) {
    return ge::opapi::BuildBinary(ex, "aclnnMul", "Mul", self, other, nullptr, out);
  });
}
GE_ACLNN_PHASE2(Mul)
