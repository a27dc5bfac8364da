#ifndef ATTR_MIX_TILING_H
#define ATTR_MIX_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
constexpr uint32_t ATTR_MIX_MAX_LIST = 8;

BEGIN_TILING_DATA_DEF(AttrMixTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, rowNum);
  TILING_DATA_FIELD_DEF(uint32_t, colNum);
  TILING_DATA_FIELD_DEF(uint32_t, scaleNum);
  TILING_DATA_FIELD_DEF_ARR(float, 8, scales);
  TILING_DATA_FIELD_DEF(uint32_t, shiftNum);
  TILING_DATA_FIELD_DEF_ARR(int64_t, 8, shifts);
  TILING_DATA_FIELD_DEF(uint32_t, maskNum);
  TILING_DATA_FIELD_DEF_ARR(uint8_t, 8, mask);
  TILING_DATA_FIELD_DEF(uint8_t, negate);
  TILING_DATA_FIELD_DEF(uint8_t, clipMode);
  TILING_DATA_FIELD_DEF(float, lo);
  TILING_DATA_FIELD_DEF(float, hi);
  TILING_DATA_FIELD_DEF(float, factor);  // repeat x number of groups
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AttrMixCustom, AttrMixTilingData)
}  // namespace optiling
#endif  // ATTR_MIX_TILING_H
