// Dtype dispatch for kernels: the dtype sets kernels use and GE_DISPATCH, on the one table-driven
// mechanism of base/dtype_table.h (Dispatch<Set>(dt, f) calls f with the C++ type of dt when the
// set holds it). A kernel with its own list writes DtypeSet<...> in place.
//
//   GE_DISPATCH(Floats, dt, { Run(static_cast<const scalar_t*>(x), ...); });
//   Dispatch<Numerics>(dt, [&](auto tag) { using T = TypeOf<decltype(tag)>; ... });
#ifndef GE_SRC_KERNELS_DTYPE_DISPATCH_H_
#define GE_SRC_KERNELS_DTYPE_DISPATCH_H_

#include <cstddef>
#include <cstdint>

#include "base/dtype_table.h"
#include "kernels/float16.h"

namespace ge::kernels {

using ge::Dispatch;
using ge::DtypeEntry;
using ge::DtypeSet;
using ge::TypeOf;
using ge::TypeTag;

using Floats = DtypeSet<DtypeEntry<ge::DT_FLOAT, float>, DtypeEntry<ge::DT_DOUBLE, double>>;
// float, double and the 16-bit floats (which compute as float: ComputeT).
using FloatsAnd16 = DtypeSet<DtypeEntry<ge::DT_FLOAT, float>, DtypeEntry<ge::DT_DOUBLE, double>,
                             DtypeEntry<ge::DT_FLOAT16, Half>, DtypeEntry<ge::DT_BF16, BFloat16>>;
using Numerics =
    DtypeSet<DtypeEntry<ge::DT_FLOAT, float>, DtypeEntry<ge::DT_DOUBLE, double>, DtypeEntry<ge::DT_INT8, int8_t>,
             DtypeEntry<ge::DT_INT16, int16_t>, DtypeEntry<ge::DT_INT32, int32_t>, DtypeEntry<ge::DT_INT64, int64_t>,
             DtypeEntry<ge::DT_UINT8, uint8_t>, DtypeEntry<ge::DT_UINT16, uint16_t>,
             DtypeEntry<ge::DT_UINT32, uint32_t>, DtypeEntry<ge::DT_UINT64, uint64_t>>;
// Numerics, the 16-bit floats and bool.
using AllTypes =
    DtypeSet<DtypeEntry<ge::DT_FLOAT, float>, DtypeEntry<ge::DT_DOUBLE, double>, DtypeEntry<ge::DT_FLOAT16, Half>,
             DtypeEntry<ge::DT_BF16, BFloat16>, DtypeEntry<ge::DT_INT8, int8_t>, DtypeEntry<ge::DT_INT16, int16_t>,
             DtypeEntry<ge::DT_INT32, int32_t>, DtypeEntry<ge::DT_INT64, int64_t>, DtypeEntry<ge::DT_UINT8, uint8_t>,
             DtypeEntry<ge::DT_UINT16, uint16_t>, DtypeEntry<ge::DT_UINT32, uint32_t>,
             DtypeEntry<ge::DT_UINT64, uint64_t>, DtypeEntry<ge::DT_BOOL, bool>>;
// Unsigned integers by element size, for kernels that only move elements: dispatch on
// UIntOfSize(bytes).
using UInts = DtypeSet<DtypeEntry<ge::DT_UINT8, uint8_t>, DtypeEntry<ge::DT_UINT16, uint16_t>,
                       DtypeEntry<ge::DT_UINT32, uint32_t>, DtypeEntry<ge::DT_UINT64, uint64_t>>;
constexpr ge::DataType UIntOfSize(size_t bytes) {
  return bytes == 1   ? ge::DT_UINT8
         : bytes == 2 ? ge::DT_UINT16
         : bytes == 4 ? ge::DT_UINT32
         : bytes == 8 ? ge::DT_UINT64
                      : ge::DT_UNDEFINED;
}

}  // namespace ge::kernels

// Runs the statement(s) with `scalar_t` the C++ type of dtype `dt` in the named set of
// ge::kernels; evaluates to false when the set does not hold dt.
#define GE_DISPATCH(Set, dt, ...)                                                \
  ::ge::kernels::Dispatch<::ge::kernels::Set>((dt), [&](auto ge_dispatch_tag_) { \
    using scalar_t = ::ge::kernels::TypeOf<decltype(ge_dispatch_tag_)>;          \
    __VA_ARGS__;                                                                 \
  })

#endif  // GE_SRC_KERNELS_DTYPE_DISPATCH_H_
