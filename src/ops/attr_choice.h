// String attributes that take one of a few values: modes, directions, reductions.
#ifndef GE_SRC_OPS_ATTR_CHOICE_H_
#define GE_SRC_OPS_ATTR_CHOICE_H_

#include <cstddef>
#include <initializer_list>
#include <string>

#include "exe_graph/runtime/runtime_attrs.h"

namespace ge::ops_util {

// Attribute i as its position in `allowed` (absent: 0, the first of them, which is the ONNX
// default). Any other value returns -1 with the reason "<name> '<value>' is not one of a, b" in
// *why, or, without `why`, through InferFail: an unknown value taken as the default is a silent
// wrong answer (Pad computed mode 'reflectxx' as 'constant', found by the onnx_model harness).
int AttrChoice(const gert::RuntimeAttrs* a, size_t i, const char* name, std::initializer_list<const char*> allowed,
               std::string* why = nullptr);

}  // namespace ge::ops_util

#endif  // GE_SRC_OPS_ATTR_CHOICE_H_
