#ifndef CONCAT_LIST_TILING_H
#define CONCAT_LIST_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
constexpr uint32_t MAX_INPUT_NUM = 16;

BEGIN_TILING_DATA_DEF(ConcatListTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, inputNum);
  TILING_DATA_FIELD_DEF(uint32_t, outerNum);        // product of the dims before the concat dim
  TILING_DATA_FIELD_DEF(uint64_t, outRowLength);     // elements of one output row
  TILING_DATA_FIELD_DEF_ARR(uint64_t, 16, rowLength);  // elements of one row of each input
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConcatListCustom, ConcatListTilingData)
}  // namespace optiling
#endif  // CONCAT_LIST_TILING_H
