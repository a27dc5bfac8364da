#ifndef AXPY_OPT_TILING_H
#define AXPY_OPT_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AxpyOptTilingData)
  TILING_DATA_FIELD_DEF(int64_t, totalLength);
  TILING_DATA_FIELD_DEF(int64_t, blockFactor);
  TILING_DATA_FIELD_DEF(float, alpha);
  TILING_DATA_FIELD_DEF(uint8_t, hasBias);
  TILING_DATA_FIELD_DEF(uint8_t, withRelu);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AxpyOpt, AxpyOptTilingData)
}  // namespace optiling
#endif  // AXPY_OPT_TILING_H
