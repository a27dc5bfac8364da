#ifndef GE_GLU_TILING_H
#define GE_GLU_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
constexpr uint32_t GE_GLU_MAX_BLOCKS = 64;

BEGIN_TILING_DATA_DEF(GeGluTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rowNum);
  TILING_DATA_FIELD_DEF(uint32_t, halfColNum);
  TILING_DATA_FIELD_DEF(uint32_t, approximate);
  TILING_DATA_FIELD_DEF(uint32_t, usedCoreNum);
  TILING_DATA_FIELD_DEF(uint32_t, dtypeSize);
  TILING_DATA_FIELD_DEF_ARR(uint32_t, 65, rowStart);  // GE_GLU_MAX_BLOCKS + 1 bounds
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GeGluCustom, GeGluTilingData)

struct GeGluCompileInfo {
    uint32_t totalCoreNum = 0;
    uint64_t ubSizePlatForm = 0;
};
}  // namespace optiling
#endif  // GE_GLU_TILING_H
