// NodeBinding: what a graph node needs before any executor can run it — its registered
// implementation, its attributes in OpDef order (defaults filled, required ones checked) and
// the IR-to-instance map of its inputs/outputs. Built once per node at compile time.
#ifndef GE_SRC_COMPILER_NODE_BINDING_H_
#define GE_SRC_COMPILER_NODE_BINDING_H_

#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "exe_graph/runtime/extended_kernel_context.h"
#include "graph/graph.h"
#include "register/op_def.h"

namespace ge {

struct NodeBinding {
  const gert::OpImplFunctionsV2* impl = nullptr;
  std::shared_ptr<const ops::OpDef> op_def;  // may be null (IMPL_OP-only registration)
  gert::RuntimeAttrs attrs;
  std::vector<std::pair<size_t, size_t>> input_ir;
  std::vector<std::pair<size_t, size_t>> output_ir;
  std::vector<bool> value_depend;  // per input instance: its data is needed by infer/tiling
};

// Fails with "node 'x' (Op): ..." when the op is unknown, a required attribute is missing or
// the input count does not fit the OpDef.
Status BindNode(const Node& node, NodeBinding* binding);

// "node 'name' (Type)" — the prefix every node error starts with.
std::string NodeLabel(const Node& node);

// Converts a graph attribute to the OpDef-declared kind; false if it cannot.
bool ToRuntimeAttr(const AttrValue& v, gert::RuntimeAttrValue::Kind kind, gert::RuntimeAttrValue* out);

}  // namespace ge

#endif  // GE_SRC_COMPILER_NODE_BINDING_H_
