#include "kernels/block_range.h"

namespace ge::kernels {

uint32_t BlocksFor(int64_t work, int64_t min_per_block, int64_t core_num) {
  if (work <= min_per_block) return 1;
  int64_t blocks = work / min_per_block;
  return static_cast<uint32_t>(std::clamp<int64_t>(blocks, 1, core_num));
}

}  // namespace ge::kernels
