// Softmax pattern recognition: before/after in the textual IR.

#include "pass_test_util.h"

namespace ge {
namespace {

// The numerically stable form, as TensorFlow graphs and hand-written models compute it.
const char* kStable = R"(graph g
input x: float32[2, 5]
const last: int64[1] = [-1]
node max: m = ReduceMax(x) {axes=[1], keepdims=1}
node sub: d = Sub(x, m)
node exp: e = Exp(d)
node sum: s = ReduceSum(e, last) {keepdims=1}
node div: y = Div(e, s)
node neg: z = Neg(y)
output z
)";

TEST(SoftmaxFusionTest, StableForm) {
  EXPECT_EQ(test::RunPass("softmax-fusion", kStable), R"(graph g
input x: float32[2, 5]
node div: y = Softmax(x) {axis=1}
node neg: z = Neg(y)
output z
)");
}

TEST(SoftmaxFusionTest, NaiveFormWithAxesInput) {
  // Opset-13 ReduceSum (axes input, keepdims defaults to 1) over axis 0.
  EXPECT_EQ(test::RunPass("softmax-fusion", R"(graph g
input x: float32[3, 4]
const ax: int64[1] = [0]
node exp: e = Exp(x)
node sum: s = ReduceSum(e, ax)
node div: y = Div(e, s)
output y
)"),
            R"(graph g
input x: float32[3, 4]
node div: y = Softmax(x) {axis=0}
output y
)");
}

TEST(SoftmaxFusionTest, MustNotFire) {
  auto unchanged = [](const std::string& text) { test::ExpectUnchanged("softmax-fusion", text); };
  auto with = [](const std::string& from, const std::string& to) { return test::Replaced(kStable, from, to); };
  // The sum over all axes (ReduceSum reads axes from its input: an axes attribute is not
  // opset 13's and GE ignores it); over two axes; the exponentials also a graph output; the max
  // over another axis than the sum; keepdims=0.
  std::string attr_axes = with("ReduceSum(e, last) {keepdims=1}", "ReduceSum(e) {axes=[-1], keepdims=1}");
  attr_axes.erase(attr_axes.find("const last"), std::string("const last: int64[1] = [-1]\n").size());
  unchanged(attr_axes);
  unchanged(with("const last: int64[1] = [-1]", "const last: int64[2] = [0, 1]"));
  unchanged(with("output z", "output z, e"));
  unchanged(with("ReduceMax(x) {axes=[1], keepdims=1}", "ReduceMax(x) {axes=[0], keepdims=1}"));
  unchanged(with("ReduceSum(e, last) {keepdims=1}", "ReduceSum(e, last) {keepdims=0}"));
}

}  // namespace
}  // namespace ge
