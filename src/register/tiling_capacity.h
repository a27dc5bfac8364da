// The tiling-data buffer an op's tiling function gets: large enough for the op's declared maximum
// (IMPL_OP(...).Tiling(f, max)) and for its registered tiling-data class
// (REGISTER_TILING_DATA_CLASS), whose SaveToBuffer writes nothing into a smaller buffer.
#ifndef GE_SRC_REGISTER_TILING_CAPACITY_H_
#define GE_SRC_REGISTER_TILING_CAPACITY_H_

#include <cstddef>

#include "register/op_impl_registry.h"

namespace gert {
size_t TilingDataCapacity(const char* op_type, const OpImplFunctionsV2& impl);
}  // namespace gert

#endif  // GE_SRC_REGISTER_TILING_CAPACITY_H_
