// aclnnCat: one strided-copy kernel per non-empty input, each writing its slice of `out` (so
// the kernel count is the number of non-empty inputs). Inputs may be non-contiguous views.
#include "aclnn/aclnn_cat.h"
#include "opapi/op_builder.h"
#include "opapi/opapi_kernels.h"

namespace ge::opapi {
namespace {

Status BuildCat(aclOpExecutor* ex, const char* api, const aclTensorList* tensors, int64_t dim, aclTensor* out) {
  if (tensors == nullptr) return NullArg(api, "tensors");
  if (tensors->v.empty()) return InvalidArgument("{}: tensors is empty", api);
  Operand y;
  GE_RETURN_IF_ERROR(MakeOutput(api, "out", out, &y));
  const aclTensor* first = tensors->v[0];
  if (first == nullptr) return NullArg(api, "tensors[0]");
  int64_t rank = static_cast<int64_t>(first->view_dims.size());
  if (rank == 0 || rank > kMaxKernelRank)
    return InvalidArgument("{}: tensors[0] has rank {}, expected 1..{}", api, rank, kMaxKernelRank);
  if (dim < -rank || dim >= rank) return InvalidArgument("{}: dim {} is out of range for rank {}", api, dim, rank);
  int64_t axis = dim < 0 ? dim + rank : dim;
  std::vector<int64_t> out_dims = first->view_dims;
  out_dims[axis] = 0;
  for (size_t i = 0; i < tensors->v.size(); ++i) {
    const aclTensor* t = tensors->v[i];
    if (t == nullptr) return InvalidArgument("{}: tensors[{}] is null", api, i);
    if (t->dtype != first->dtype)
      return InvalidArgument("{}: tensors[{}] has dtype {}, tensors[0] has {}", api, i, DataTypeName(t->dtype),
                             DataTypeName(first->dtype));
    bool ok = static_cast<int64_t>(t->view_dims.size()) == rank;
    for (int64_t d = 0; ok && d < rank; ++d) ok = d == axis || t->view_dims[d] == first->view_dims[d];
    if (!ok)
      return InvalidArgument("{}: tensors[{}] has shape {}, which does not match tensors[0] {} outside dim {}", api, i,
                             DimsToString(t->view_dims), DimsToString(first->view_dims), axis);
    out_dims[axis] += t->view_dims[axis];
  }
  gert::Shape want;
  for (int64_t d : out_dims) want.AppendDim(d);
  GE_RETURN_IF_ERROR(CheckTensor(api, "out", out, want, first->dtype));
  auto out_strides = ContiguousStrides(out_dims);
  int64_t along = 0;
  for (size_t i = 0; i < tensors->v.size(); ++i) {
    const aclTensor* t = tensors->v[i];
    if (t->Numel() == 0) continue;
    if (t->data == nullptr) return InvalidArgument("{}: tensors[{}] has no data (null address)", api, i);
    CopyTiling c{};
    c.elem_size = static_cast<int32_t>(t->ElemSize());
    c.rank = static_cast<int32_t>(rank);
    c.numel = t->Numel();
    for (int64_t d = 0; d < rank; ++d) {
      c.dims[d] = t->view_dims[d];
      c.src_strides[d] = t->strides[d];
      c.dst_strides[d] = out_strides[d];
    }
    void* dst = static_cast<char*>(out->Addr()) + along * out_strides[axis] * static_cast<int64_t>(c.elem_size);
    ex->AddKernel("copy", CopyKernel, Blocks(c.numel, 1 << 16), c, {ArgRef::Addr(t->Addr()), ArgRef::Addr(dst)});
    along += t->view_dims[axis];
  }
  return Status::Ok();
}

}  // namespace
}  // namespace ge::opapi

extern "C" aclnnStatus aclnnCatGetWorkspaceSize(const aclTensorList* tensors, int64_t dim, aclTensor* out,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  return ge::opapi::Phase1("aclnnCat", workspaceSize, executor,
                           [&](aclOpExecutor* ex) { return ge::opapi::BuildCat(ex, "aclnnCat", tensors, dim, out); });
}
GE_ACLNN_PHASE2(Cat)
