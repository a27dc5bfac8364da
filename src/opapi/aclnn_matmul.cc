// aclnnMatmul, a multi-kernel operator: the kernels are chosen from the shapes and layouts.
//   non-contiguous operand (e.g. a transposed view)  -> a pack kernel for it
//   2-D, K large against M x N (K >= 1024, K >= 4*M*N) -> split-K partial GEMMs (one block per
//                                                        K chunk) + a reduction kernel
//   otherwise                                         -> the registered MatMul kernel (one GEMM)
// so a call launches 1 to 4 kernels. The split-K path sums in a different order than the
// single GEMM: results agree to rounding, not bit for bit.
#include "aclnn/aclnn_matmul.h"
#include "opapi/op_builder.h"
#include "opapi/opapi_kernels.h"

namespace ge::opapi {
namespace {

constexpr int64_t kSplitKMinK = 1024;
constexpr int64_t kSplitKChunk = 512;
constexpr int64_t kSplitKMaxSplits = 64;

bool SplitKSupports(DataType dt) { return dt == DT_FLOAT || dt == DT_DOUBLE || dt == DT_INT32 || dt == DT_INT64; }

Status BuildMatmul(aclOpExecutor* ex, const char* api, const aclTensor* self, const aclTensor* mat2, aclTensor* out) {
  Operand a, b, y;
  if (self == nullptr) return NullArg(api, "self");
  if (mat2 == nullptr) return NullArg(api, "mat2");
  if (self->dtype != mat2->dtype)
    return InvalidArgument("{}: mat2 has dtype {}, self has {}", api, DataTypeName(mat2->dtype),
                           DataTypeName(self->dtype));
  GE_RETURN_IF_ERROR(MakeOutput(api, "out", out, &y));
  GE_RETURN_IF_ERROR(MakeContiguous(ex, api, "self", self, &a));
  GE_RETURN_IF_ERROR(MakeContiguous(ex, api, "mat2", mat2, &b));
  gert::RuntimeAttrs attrs;
  std::vector<gert::Tensor> inferred;
  GE_RETURN_IF_ERROR(InferRegisteredOp(api, "MatMul", {&a, &b}, attrs, 1, &inferred));
  GE_RETURN_IF_ERROR(CheckTensor(api, "out", out, inferred[0].GetStorageShape(), inferred[0].GetDataType()));
  const bool two_d = self->view_dims.size() == 2 && mat2->view_dims.size() == 2;
  if (two_d && SplitKSupports(self->dtype)) {
    int64_t m = self->view_dims[0], k = self->view_dims[1], n = mat2->view_dims[1];
    if (k >= kSplitKMinK && k >= 4 * m * n) {
      SplitKTiling t{static_cast<int32_t>(self->dtype), m, n, k, 0, 0};
      t.splits = std::clamp<int64_t>(k / kSplitKChunk, 2, kSplitKMaxSplits);
      t.chunk = (k + t.splits - 1) / t.splits;
      t.splits = (k + t.chunk - 1) / t.chunk;
      Operand partial = WorkspaceOperand(ex, gert::Shape({t.splits, m, n}), self->dtype);
      ex->AddKernel("splitk_gemm", SplitKGemmKernel, std::min<uint32_t>(t.splits, DeviceCoreNum()), t,
                    {a.ref, b.ref, partial.ref});
      ReduceSumTiling r{t.dtype, t.splits, m * n};
      ex->AddKernel("reduce_sum", ReduceSumKernel, Blocks(m * n, 1 << 14), r, {partial.ref, y.ref});
      return Status::Ok();
    }
  }
  return AddRegisteredOp(ex, api, "MatMul", {&a, &b}, {&y}, attrs);
}

}  // namespace
}  // namespace ge::opapi

extern "C" aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out,
                                                   int8_t cubeMathType, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  return ge::opapi::Phase1("aclnnMatmul", workspaceSize, executor, [&](aclOpExecutor* ex) {
    return ge::opapi::BuildMatmul(ex, "aclnnMatmul", self, mat2, out);
  });
}
GE_ACLNN_PHASE2(Matmul)
