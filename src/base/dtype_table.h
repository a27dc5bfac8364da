// The table-driven dtype dispatch: a dtype set lists (DataType, C++ type) pairs, and
// Dispatch<Set>(dt, f) calls f(TypeTag<T>{}) with the C++ type of dt when the set holds it. The
// kernels' sets and the GE_DISPATCH macro are in kernels/dtype_dispatch.h; code below the kernel
// layer (the graph IR's tensors) writes its own small sets with the same mechanism.
#ifndef GE_SRC_BASE_DTYPE_TABLE_H_
#define GE_SRC_BASE_DTYPE_TABLE_H_

#include <cstdint>
#include <vector>

#include "graph/types.h"

namespace ge {

// One row of a dtype table: the DataType and the C++ type its elements are seen as.
template <DataType kDt, typename T>
struct DtypeEntry {
  static constexpr DataType kDtype = kDt;
  using type = T;
};

template <typename T>
struct TypeTag {
  using type = T;
};
template <typename Tag>
using TypeOf = typename Tag::type;

// A dtype table. Contains(dt); List() for OpDef DataType lists.
template <typename... Entries>
struct DtypeSet {
  static constexpr bool Contains(DataType dt) { return ((dt == Entries::kDtype) || ...); }
  static std::vector<DataType> List() { return {Entries::kDtype...}; }
  // Calls f(TypeTag<T>{}) for dt's entry; false when the set does not hold dt.
  template <typename F>
  static bool Dispatch(DataType dt, F&& f) {
    return ((dt == Entries::kDtype ? (f(TypeTag<typename Entries::type>{}), true) : false) || ...);
  }
};

template <typename Set, typename F>
bool Dispatch(DataType dt, F&& f) {
  return Set::Dispatch(dt, static_cast<F&&>(f));
}
template <typename Set, typename F>
bool Dispatch(int32_t dt, F&& f) {  // the dtype as tiling data stores it
  return Set::Dispatch(static_cast<DataType>(dt), static_cast<F&&>(f));
}

}  // namespace ge

#endif  // GE_SRC_BASE_DTYPE_TABLE_H_
