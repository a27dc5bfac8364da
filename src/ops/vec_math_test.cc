// VecSigmoid and VecSilu (ops/vec_math.cc) in both forms (dividing by 1 + e^-x, or multiplying by
// its reciprocal estimate) against the functions computed in double, over the range activations
// take and past the exponent's clamp, lengths with and without a scalar tail.
#include "ops/vec_math.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace ge::ops_util {
namespace {

std::vector<float> Inputs() {
  std::vector<float> x;
  for (int i = -4000; i <= 4000; ++i) x.push_back(static_cast<float>(i) * 0.0123f);  // [-49.2, 49.2]
  for (float v : {0.f, -0.f, 1e-30f, -1e-30f, 80.f, -80.f, 88.f, -88.f, 100.f, -100.f, 1e4f, -1e4f, 3e38f})
    x.push_back(v);
  x.push_back(std::numeric_limits<float>::infinity());
  x.push_back(0.5f);  // 8016 inputs: a tail after the last full vector of 16 (and of 8)
  return x;
}

double Sigmoid(double v) { return 1.0 / (1.0 + std::exp(-v)); }

// The forms' accuracy: a relative error of 3e-7 plus 1e-7 |x| (e^-x = 2^t with t = -x log2(e)
// rounded to float: 6e-8 |t| of relative error), and below x = -87 (where e^-x passes the
// exponent's clamp, 2^126) a result of at most 1e-30 |x|, zero to any model.
void ExpectClose(float x, float y, double want, bool divide) {
  if (x < -87.f) {
    EXPECT_LE(std::fabs(y), 1e-30 * std::fabs(x)) << "x=" << x << " divide=" << divide;
    return;
  }
  EXPECT_NEAR(y, want, (3e-7 + 1e-7 * std::fabs(x)) * std::fabs(want)) << "x=" << x << " divide=" << divide;
}

TEST(VecMathTest, SigmoidBothForms) {
  const std::vector<float> x = Inputs();
  for (bool divide : {false, true}) {
    std::vector<float> y(x.size());
    VecSigmoidForm(x.data(), y.data(), static_cast<int64_t>(x.size()), divide);
    for (size_t i = 0; i < x.size(); ++i) {
      ExpectClose(x[i], y[i], Sigmoid(x[i]), divide);
    }
  }
}

TEST(VecMathTest, SiluBothForms) {
  const std::vector<float> x = Inputs();
  for (bool divide : {false, true}) {
    std::vector<float> y(x.size());
    VecSiluForm(x.data(), y.data(), static_cast<int64_t>(x.size()), divide);
    for (size_t i = 0; i < x.size(); ++i) {
      if (std::isinf(x[i])) {
        EXPECT_EQ(y[i], x[i]) << "divide=" << divide;
        continue;
      }
      ExpectClose(x[i], y[i], x[i] * Sigmoid(x[i]), divide);
    }
  }
}

// The default form (the one the CPU is fast at) is one of the two, value for value.
TEST(VecMathTest, DefaultIsOneOfTheForms) {
  const std::vector<float> x = Inputs();
  const auto n = static_cast<int64_t>(x.size());
  std::vector<float> y(x.size()), a(x.size()), b(x.size());
  VecSilu(x.data(), y.data(), n);
  VecSiluForm(x.data(), a.data(), n, false);
  VecSiluForm(x.data(), b.data(), n, true);
  EXPECT_TRUE(y == a || y == b);
}

}  // namespace
}  // namespace ge::ops_util
