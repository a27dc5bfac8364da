// aclnnConvolution over the registered Conv operator: stride/padding/dilation/groups become its
// ONNX attributes (symmetric padding). Transposed convolution is not supported yet.
#include "aclnn/aclnn_convolution.h"
#include "opapi/op_builder.h"

namespace ge::opapi {
namespace {

gert::RuntimeAttrValue Ints(std::vector<int64_t> v) {
  gert::RuntimeAttrValue a;
  a.kind = gert::RuntimeAttrValue::kListInt;
  a.ints = std::move(v);
  return a;
}

Status BuildConv(aclOpExecutor* ex, const char* api, const aclTensor* input, const aclTensor* weight,
                 const aclTensor* bias, const aclIntArray* stride, const aclIntArray* padding,
                 const aclIntArray* dilation, bool transposed, int64_t groups, aclTensor* output) {
  if (transposed) return Unsupported("{}: transposed convolution is not supported", api);
  if (!stride) return NullArg(api, "stride");
  if (!padding) return NullArg(api, "padding");
  if (!dilation) return NullArg(api, "dilation");
  Operand x, w, b, y;
  GE_RETURN_IF_ERROR(MakeContiguous(ex, api, "input", input, &x));
  GE_RETURN_IF_ERROR(MakeContiguous(ex, api, "weight", weight, &w));
  if (bias) GE_RETURN_IF_ERROR(MakeContiguous(ex, api, "bias", bias, &b));
  GE_RETURN_IF_ERROR(MakeOutput(api, "output", output, &y));
  size_t spatial = input->view_dims.size() >= 2 ? input->view_dims.size() - 2 : 0;
  auto expand = [&](const aclIntArray* a, const char* name, std::vector<int64_t>* out) -> Status {
    if (a->v.size() == 1)
      out->assign(spatial, a->v[0]);
    else if (a->v.size() == spatial)
      *out = a->v;
    else
      return InvalidArgument("{}: {} has {} values, expected 1 or {}", api, name, a->v.size(), spatial);
    return Status::Ok();
  };
  std::vector<int64_t> s, p, d;
  GE_RETURN_IF_ERROR(expand(stride, "stride", &s));
  GE_RETURN_IF_ERROR(expand(padding, "padding", &p));
  GE_RETURN_IF_ERROR(expand(dilation, "dilation", &d));
  std::vector<int64_t> pads = p;
  pads.insert(pads.end(), p.begin(), p.end());
  auto def = ops::GetOpDef("Conv");
  if (def == nullptr) return Unsupported("{}: no Conv operator is registered", api);
  gert::RuntimeAttrValue g;
  g.kind = gert::RuntimeAttrValue::kInt;
  g.i = groups;
  gert::RuntimeAttrs attrs;
  GE_RETURN_IF_ERROR(BuildAttrs(
      api, *def, {{"strides", Ints(s)}, {"pads", Ints(pads)}, {"dilations", Ints(d)}, {"group", g}}, &attrs));
  return AddRegisteredOp(ex, api, "Conv", {&x, &w, bias ? &b : nullptr}, {&y}, attrs);
}

}  // namespace
}  // namespace ge::opapi

extern "C" aclnnStatus aclnnConvolutionGetWorkspaceSize(const aclTensor* input, const aclTensor* weight,
                                                        const aclTensor* bias, const aclIntArray* stride,
                                                        const aclIntArray* padding, const aclIntArray* dilation,
                                                        bool transposed, const aclIntArray* outputPadding,
                                                        int64_t groups, aclTensor* output, int8_t cubeMathType,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  return ge::opapi::Phase1("aclnnConvolution", workspaceSize, executor, [&](aclOpExecutor* ex) {
    return ge::opapi::BuildConv(ex, "aclnnConvolution", input, weight, bias, stride, padding, dilation, transposed,
                                groups, output);
  });
}
GE_ACLNN_PHASE2(Convolution)
