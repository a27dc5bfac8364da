// aclnnOpGetWorkspaceSize / aclnnOp: any registered operator by type, through its registered
// infer, tiling and kernel (one launch, plus a pack per non-contiguous input). The entry that
// generated fallback functions use for operators without a typed entry.
#include "opapi/op_builder.h"

namespace ge::opapi {
namespace {

Status BuildGeneric(aclOpExecutor* ex, const char* api, const char* op_type, const aclTensorList* inputs,
                    const aclTensorList* outputs, const aclOpAttrs* attrs) {
  if (op_type == nullptr) return NullArg(api, "opType");
  if (inputs == nullptr) return NullArg(api, "inputs");
  if (outputs == nullptr) return NullArg(api, "outputs");
  auto def = ops::GetOpDef(op_type);
  gert::RuntimeAttrs rt_attrs;
  static const std::map<std::string, gert::RuntimeAttrValue> kNone;
  if (def)
    GE_RETURN_IF_ERROR(BuildAttrs(api, *def, attrs ? attrs->v : kNone, &rt_attrs));
  else if (attrs && !attrs->v.empty())
    return InvalidArgument("{}: operator '{}' declares no attributes", api, op_type);
  if (def) {  // a null element stands for an absent optional input only (kernels read the others)
    const auto& params = def->GetInputs();
    const size_t n = inputs->v.size();
    size_t pos = 0;
    for (size_t p = 0; p < params.size(); ++p) {
      size_t fixed_after = 0;
      for (size_t q = p + 1; q < params.size(); ++q) fixed_after += params[q].GetParamType() != ops::DYNAMIC;
      const bool dynamic = params[p].GetParamType() == ops::DYNAMIC;
      const size_t take = dynamic ? (n > pos + fixed_after ? n - pos - fixed_after : 0) : (pos < n ? 1 : 0);
      if (params[p].GetParamType() != ops::OPTIONAL)
        for (size_t k = 0; k < take; ++k)
          if (inputs->v[pos + k] == nullptr)
            return InvalidArgument("{}: {} input '{}' (inputs[{}]) is null; only optional inputs may be", api,
                                   op_type, params[p].GetName(), pos + k);
      pos += take;
    }
  }
  std::vector<Operand> in(inputs->v.size()), out(outputs->v.size());
  std::vector<const Operand*> in_ptrs, out_ptrs;
  for (size_t i = 0; i < inputs->v.size(); ++i) {
    if (inputs->v[i] == nullptr) {
      in_ptrs.push_back(nullptr);
      continue;
    }
    std::string name = fmt::format("inputs[{}]", i);
    GE_RETURN_IF_ERROR(MakeContiguous(ex, api, name.c_str(), inputs->v[i], &in[i]));
    in_ptrs.push_back(&in[i]);
  }
  for (size_t o = 0; o < outputs->v.size(); ++o) {
    std::string name = fmt::format("outputs[{}]", o);
    GE_RETURN_IF_ERROR(MakeOutput(api, name.c_str(), outputs->v[o], &out[o]));
    out_ptrs.push_back(&out[o]);
  }
  return AddRegisteredOp(ex, api, op_type, in_ptrs, out_ptrs, rt_attrs);
}

}  // namespace
}  // namespace ge::opapi

extern "C" aclnnStatus aclnnOpGetWorkspaceSize(const char* opType, const aclTensorList* inputs,
                                               const aclTensorList* outputs, const aclOpAttrs* attrs,
                                               uint64_t* workspaceSize, aclOpExecutor** executor) {
  return ge::opapi::Phase1("aclnnOp", workspaceSize, executor, [&](aclOpExecutor* ex) {
    return ge::opapi::BuildGeneric(ex, "aclnnOp", opType, inputs, outputs, attrs);
  });
}
GE_ACLNN_PHASE2(Op)
