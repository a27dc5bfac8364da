#ifndef LAYER_NORM_CUSTOM_TILING_H
#define LAYER_NORM_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RowSplitInfo)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tailCoreRows);
  TILING_DATA_FIELD_DEF(uint32_t, usedCoreNum);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(RowSplitInfoOp, RowSplitInfo)

BEGIN_TILING_DATA_DEF(LayerNormCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rowNum);
  TILING_DATA_FIELD_DEF(uint32_t, colNum);
  TILING_DATA_FIELD_DEF(float, epsilon);
  TILING_DATA_FIELD_DEF(uint32_t, hasBeta);
  TILING_DATA_FIELD_DEF_STRUCT(RowSplitInfo, rowSplit);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(LayerNormCustom, LayerNormCustomTilingData)

struct LayerNormCustomCompileInfo {
    uint32_t coreNum = 0;
    uint64_t ubSize = 0;
};
}  // namespace optiling
#endif  // LAYER_NORM_CUSTOM_TILING_H
