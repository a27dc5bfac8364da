// Dead-code elimination: before/after in the textual IR.

#include "pass_test_util.h"

namespace ge {
namespace {

TEST(DeadCodeEliminationTest, RemovesUnreadChainsAndKeepsGraphOutputs) {
  bool changed = false;
  EXPECT_EQ(test::RunPass("dead-code-elimination", R"(graph g
input x: float32[4]
node a: y = Relu(x)
node dead1: d1 = Neg(x)
node dead2: d2 = Abs(d1)
node b: z, _ = Dropout(y)
node c: w = Sigmoid(x)
output y, w
)",
                          &changed),
            R"(graph g
input x: float32[4]
node a: y = Relu(x)
node c: w = Sigmoid(x)
output y, w
)");
  EXPECT_TRUE(changed);
}

TEST(DeadCodeEliminationTest, MustNotFireWhenEveryNodeIsRead) {
  const std::string text = R"(graph g
input x: float32[4]
node a: y = Relu(x)
node b: z = Neg(y)
output z
)";
  bool changed = true;
  EXPECT_EQ(test::RunPass("dead-code-elimination", text, &changed), text);
  EXPECT_FALSE(changed);
}

}  // namespace
}  // namespace ge
