// Building executors in phase 1: operands (a tensor description plus where its data will be),
// packing non-contiguous views, running a registered operator's infer/tiling to add its kernel,
// checking caller-supplied outputs. Every typed aclnn entry and the generic one use these.
#ifndef GE_SRC_OPAPI_OP_BUILDER_H_
#define GE_SRC_OPAPI_OP_BUILDER_H_

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "exe_graph/runtime/runtime_attrs.h"
#include "exe_graph/runtime/tensor.h"
#include "opapi/acl_meta_impl.h"
#include "opapi/op_executor.h"
#include "register/op_def.h"

namespace ge::opapi {

// A kernel operand: shape/dtype (and data address when it is known in phase 1) plus its ref.
struct Operand {
  gert::Tensor desc;
  ArgRef ref;
};

// A contiguous operand for `t`: the tensor itself, or a "pack" kernel copying it into workspace.
Status MakeContiguous(aclOpExecutor* ex, const char* api, const char* name, const aclTensor* t, Operand* out);
// An output operand; outputs must be contiguous.
Status MakeOutput(const char* api, const char* name, const aclTensor* t, Operand* out);
// A workspace tensor of the given shape/dtype.
Operand WorkspaceOperand(aclOpExecutor* ex, const gert::Shape& shape, ge::DataType dt);

// The operator's attributes in OpDef order: `given` by name override defaults; unknown names,
// wrong kinds and missing required attributes are errors naming the operator.
Status BuildAttrs(const char* api, const ops::OpDef& def, const std::map<std::string, gert::RuntimeAttrValue>& given,
                  gert::RuntimeAttrs* out);

// Runs `op_type`'s registered dtype/shape inference on `inputs` (by instance; null = absent).
// `out_descs` receives the inferred outputs.
Status InferRegisteredOp(const char* api, const std::string& op_type, const std::vector<const Operand*>& inputs,
                         const gert::RuntimeAttrs& attrs, size_t num_outputs, std::vector<gert::Tensor>* out_descs);
// Infers, checks `outputs` against the inference, tiles and appends the op's kernel.
Status AddRegisteredOp(aclOpExecutor* ex, const char* api, const std::string& op_type,
                       const std::vector<const Operand*>& inputs, const std::vector<const Operand*>& outputs,
                       const gert::RuntimeAttrs& attrs);

// Fails unless `t` has shape `shape` and dtype `dt`: "aclnnAdd: out has shape [2], expected [3]".
Status CheckTensor(const char* api, const char* name, const aclTensor* t, const gert::Shape& shape, ge::DataType dt);
// Blocks for `work` units of about `per_block` each, at most the core count.
uint32_t Blocks(int64_t work, int64_t per_block);

}  // namespace ge::opapi

#endif  // GE_SRC_OPAPI_OP_BUILDER_H_
