// The kernel side of a tiling-data class: a CPU kernel reads the bytes its tiling function wrote
// (aclrtKernelArgs::tiling) into the same class declared with BEGIN_TILING_DATA_DEF, as an Ascend
// C kernel does with GET_TILING_DATA:
//
//   void AddKernel(const aclrtKernelArgs* args) {
//     GET_TILING_DATA_WITH_STRUCT(AddTiling, tiling_data, args->tiling);
//     uint32_t n = tiling_data.totalLength;
//
// The copy is local to the block, as Ascend copies tiling data from global memory.
#ifndef GE_INCLUDE_KERNEL_TILING_KERNEL_TILING_H_
#define GE_INCLUDE_KERNEL_TILING_KERNEL_TILING_H_

#include <cstring>

#define GET_TILING_DATA_WITH_STRUCT(tiling_struct, tiling_data, tiling_arg) \
  tiling_struct tiling_data;                                                \
  tiling_data.SetDataPtr(tiling_arg)

// A pointer to the tiling bytes viewed as the class (no copy; the bytes stay valid for the launch).
#define GET_TILING_DATA_PTR_WITH_STRUCT(tiling_struct, tiling_data, tiling_arg) \
  const tiling_struct* tiling_data = reinterpret_cast<const tiling_struct*>(tiling_arg)

// GE_TILING_DATA_TYPE names the kernel's tiling-data class (Ascend derives it from the op's
// registration at build time; a CPU kernel file defines it before including this header).
#define GET_TILING_DATA(tiling_data, tiling_arg) \
  GET_TILING_DATA_WITH_STRUCT(GE_TILING_DATA_TYPE, tiling_data, tiling_arg)

#endif  // GE_INCLUDE_KERNEL_TILING_KERNEL_TILING_H_
