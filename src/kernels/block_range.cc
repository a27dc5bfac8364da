#include "kernels/block_range.h"

namespace ge::kernels {

uint32_t ChooseBlockDim(const gert::TilingContext* ctx, int64_t work, int64_t min_per_block) {
  if (work <= min_per_block) return 1;
  int64_t blocks = work / min_per_block;
  return static_cast<uint32_t>(std::clamp<int64_t>(blocks, 1, ctx->GetCoreNum()));
}

}  // namespace ge::kernels
