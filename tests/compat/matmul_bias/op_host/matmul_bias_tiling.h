#ifndef MATMUL_BIAS_TILING_H
#define MATMUL_BIAS_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulShapeInfo)
  TILING_DATA_FIELD_DEF(uint32_t, M);
  TILING_DATA_FIELD_DEF(uint32_t, N);
  TILING_DATA_FIELD_DEF(uint32_t, K);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(MatmulShapeInfoOp, MatmulShapeInfo)

BEGIN_TILING_DATA_DEF(MatmulBlockSplit)
  TILING_DATA_FIELD_DEF(uint32_t, baseM);
  TILING_DATA_FIELD_DEF(uint32_t, baseN);
  TILING_DATA_FIELD_DEF(uint32_t, mBlocks);
  TILING_DATA_FIELD_DEF(uint32_t, nBlocks);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(MatmulBlockSplitOp, MatmulBlockSplit)

BEGIN_TILING_DATA_DEF(MatmulBiasTilingData)
  TILING_DATA_FIELD_DEF_STRUCT(MatmulShapeInfo, shapeInfo);
  TILING_DATA_FIELD_DEF_STRUCT(MatmulBlockSplit, split);
  TILING_DATA_FIELD_DEF(uint8_t, transA);
  TILING_DATA_FIELD_DEF(uint8_t, transB);
  TILING_DATA_FIELD_DEF(uint8_t, hasBias);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(MatmulBiasCustom, MatmulBiasTilingData)
}  // namespace optiling
#endif  // MATMUL_BIAS_TILING_H
