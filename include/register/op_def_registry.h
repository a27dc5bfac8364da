// The include users write for operator prototypes (as in Ascend's op_host files).
#ifndef GE_INCLUDE_REGISTER_OP_DEF_REGISTRY_H_
#define GE_INCLUDE_REGISTER_OP_DEF_REGISTRY_H_
#include "exe_graph/runtime/infer_shape_context.h"
#include "exe_graph/runtime/op_execute_context.h"
#include "exe_graph/runtime/tiling_context.h"
#include "register/op_def.h"
#include "register/op_impl_registry.h"
#endif  // GE_INCLUDE_REGISTER_OP_DEF_REGISTRY_H_
