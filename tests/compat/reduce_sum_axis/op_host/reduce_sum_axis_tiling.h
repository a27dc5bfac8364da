#ifndef REDUCE_SUM_AXIS_TILING_H
#define REDUCE_SUM_AXIS_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ReduceSumAxisTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, outerNum);
  TILING_DATA_FIELD_DEF(uint64_t, reduceNum);
  TILING_DATA_FIELD_DEF(uint64_t, innerNum);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ReduceSumAxisCustom, ReduceSumAxisTilingData)
}  // namespace optiling
#endif  // REDUCE_SUM_AXIS_TILING_H
