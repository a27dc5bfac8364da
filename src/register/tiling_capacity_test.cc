// Unit test of register/tiling_capacity.h: the tiling-data buffer holds the larger of the op's
// declared maximum and its registered tiling-data class.
#include "register/tiling_capacity.h"

#include <gtest/gtest.h>

#include "register/tilingdata_base.h"

namespace capacity_test {
BEGIN_TILING_DATA_DEF(Big)
TILING_DATA_FIELD_DEF_ARR(uint32_t, 1024, table);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(CapacityBigTilingOp, Big)
}  // namespace capacity_test

namespace gert {
namespace {

ge::graphStatus BigTiling(TilingContext*) { return ge::GRAPH_SUCCESS; }
IMPL_OP(CapacityBigTilingOp).Tiling(BigTiling);

TEST(TilingDataTest, BufferHoldsTheRegisteredClass) {
  auto registry = DefaultOpImplSpaceRegistryV2::GetInstance().GetSpaceRegistry();
  const OpImplFunctionsV2* big = registry->GetOpImpl("CapacityBigTilingOp");
  ASSERT_NE(big, nullptr);
  EXPECT_EQ(big->max_tiling_data_size, 2048u);
  EXPECT_EQ(TilingDataCapacity("CapacityBigTilingOp", *big), 4096u);  // 1024 x uint32
  EXPECT_EQ(TilingDataCapacity("NoClassOp", *big), 2048u);
}

}  // namespace
}  // namespace gert
