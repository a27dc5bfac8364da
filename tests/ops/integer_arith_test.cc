// Integer Div and Mod edge cases never trap (SIGFPE): x / 0 and x mod 0 are defined as 0,
// INT_MIN / -1 wraps to INT_MIN and INT_MIN mod -1 is 0. Other values follow ONNX: Div truncates
// toward zero (C, as ONNX Runtime), Mod with fmod=0 takes the divisor's sign (Python's %).
// Neg and Abs of INT_MIN wrap (no signed overflow).
#include <gtest/gtest.h>

#include <limits>

#include "ops_test_util.h"

namespace ge::testing {
namespace {

template <typename T>
HostTensor Ints(std::vector<T> v) {
  constexpr DataType dt = sizeof(T) == 4 ? DT_INT32 : DT_INT64;
  const int64_t n = static_cast<int64_t>(v.size());
  return Tensor(dt, {n}, std::move(v));
}

template <typename T>
void CheckDivMod() {
  constexpr T kMin = std::numeric_limits<T>::min();
  const std::vector<T> a = {kMin, 7, -7, 5, kMin, 9};
  const std::vector<T> b = {-1, 0, 2, -3, 0, 4};
  for (const char* mode : {"sink", "host"}) {
    auto div = RunOne({"Div", {Ints(a), Ints(b)}, {}, {6}}, mode);
    ASSERT_EQ(div.size(), 1u);
    EXPECT_EQ(Values<T>(div[0]), (std::vector<T>{kMin, 0, -3, -1, 0, 2})) << mode;
    auto mod = RunOne({"Mod", {Ints(a), Ints(b)}, {}, {6}}, mode);
    ASSERT_EQ(mod.size(), 1u);
    EXPECT_EQ(Values<T>(mod[0]), (std::vector<T>{0, 0, 1, -1, 0, 1})) << mode;
    auto fmod = RunOne({"Mod", {Ints(a), Ints(b)}, {{"fmod", int64_t{1}}}, {6}}, mode);
    ASSERT_EQ(fmod.size(), 1u);
    EXPECT_EQ(Values<T>(fmod[0]), (std::vector<T>{0, 0, -1, 2, 0, 1})) << mode;
  }
}

TEST(IntegerArith, Int32DivModNeverTrap) { CheckDivMod<int32_t>(); }
TEST(IntegerArith, Int64DivModNeverTrap) { CheckDivMod<int64_t>(); }

// Neg and Abs of INT_MIN wrap to INT_MIN, as numpy's np.negative / np.abs on int32 and int64
// (two's complement), instead of a signed overflow.
template <typename T>
void CheckNegAbs() {
  constexpr T kMin = std::numeric_limits<T>::min();
  constexpr T kMax = std::numeric_limits<T>::max();
  const std::vector<T> a = {kMin, kMax, -7, 0, 3};
  for (const char* mode : {"sink", "host"}) {
    auto neg = RunOne({"Neg", {Ints(a)}, {}, {5}}, mode);
    ASSERT_EQ(neg.size(), 1u);
    EXPECT_EQ(Values<T>(neg[0]), (std::vector<T>{kMin, T(-kMax), 7, 0, -3})) << mode;
    auto abs = RunOne({"Abs", {Ints(a)}, {}, {5}}, mode);
    ASSERT_EQ(abs.size(), 1u);
    EXPECT_EQ(Values<T>(abs[0]), (std::vector<T>{kMin, kMax, 7, 0, 3})) << mode;
  }
}

TEST(IntegerArith, Int32NegAbsOfMinWrap) { CheckNegAbs<int32_t>(); }
TEST(IntegerArith, Int64NegAbsOfMinWrap) { CheckNegAbs<int64_t>(); }

}  // namespace
}  // namespace ge::testing
