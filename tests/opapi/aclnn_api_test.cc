// The single-op API: typed entries against independent references (plain loops written here),
// aclnnMatmul's kernel choice per shape class, the generic entry, and misuse.
#include <cmath>

#include "aclnn/aclnn_add.h"
#include "aclnn/aclnn_cat.h"
#include "aclnn/aclnn_convolution.h"
#include "aclnn/aclnn_layer_norm.h"
#include "aclnn/aclnn_matmul.h"
#include "aclnn/aclnn_mul.h"
#include "aclnn/aclnn_softmax.h"
#include "opapi_test_util.h"

namespace ge::testing {
namespace {

class AclnnTest : public ::testing::Test {
 protected:
  void SetUp() override { EnsureTestDevice(); }
};

void ExpectNear(const std::vector<float>& got, const std::vector<double>& want, double tol = 1e-4) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) ASSERT_NEAR(got[i], want[i], tol * (1 + std::abs(want[i]))) << "at " << i;
}

// C[m,n] = sum_k A(i,k) B(k,j) with element accessors, accumulated in double.
template <typename FA, typename FB>
std::vector<double> NaiveGemm(int64_t m, int64_t n, int64_t k, FA a, FB b) {
  std::vector<double> c(m * n, 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t kk = 0; kk < k; ++kk) s += static_cast<double>(a(i, kk)) * b(kk, j);
      c[i * n + j] = s;
    }
  return c;
}

struct MatmulCase {
  const char* name;
  int64_t m, n, k;
  bool trans_a, trans_b;  // operand given as a transposed (non-contiguous) view
  int64_t kernels;
  const char* names;
};

class MatmulKernelChoice : public AclnnTest, public ::testing::WithParamInterface<MatmulCase> {};

TEST_P(MatmulKernelChoice, CountsAndMatchesNaiveGemm) {
  const MatmulCase& c = GetParam();
  auto av = RandomFloats(c.m * c.k, 1), bv = RandomFloats(c.k * c.n, 2);
  DeviceBuffer<float> a(av), b(bv), out(c.m * c.n);
  // A transposed view of A[m,k] is stored as [k,m] with strides {1, m}.
  auto ta = c.trans_a ? MakeTensor({c.m, c.k}, ACL_FLOAT, a.get(), {1, c.m}, {c.k, c.m})
                      : MakeTensor({c.m, c.k}, ACL_FLOAT, a.get());
  auto tb = c.trans_b ? MakeTensor({c.k, c.n}, ACL_FLOAT, b.get(), {1, c.k}, {c.n, c.k})
                      : MakeTensor({c.k, c.n}, ACL_FLOAT, b.get());
  auto to = MakeTensor({c.m, c.n}, ACL_FLOAT, out.get());
  auto phase1 = [&](uint64_t* ws, aclOpExecutor** ex) {
    aclnnStatus rc = aclnnMatmulGetWorkspaceSize(ta.get(), tb.get(), to.get(), 0, ws, ex);
    if (rc != ACLNN_SUCCESS) return rc;
    EXPECT_STREQ(aclnnGetKernelNames(*ex), c.names);
    uint64_t planned = 0;
    aclnnGetPlannedKernelCount(*ex, &planned);
    EXPECT_EQ(planned, static_cast<uint64_t>(c.kernels));
    return rc;
  };
  EXPECT_EQ(RunTwoPhase(phase1, aclnnMatmul), c.kernels);
  auto A = [&](int64_t i, int64_t k) { return c.trans_a ? av[k * c.m + i] : av[i * c.k + k]; };
  auto B = [&](int64_t k, int64_t j) { return c.trans_b ? bv[j * c.k + k] : bv[k * c.n + j]; };
  ExpectNear(out.Download(), NaiveGemm(c.m, c.n, c.k, A, B), 1e-4);
}

INSTANTIATE_TEST_SUITE_P(
    ShapeClasses, MatmulKernelChoice,
    ::testing::Values(MatmulCase{"plain", 33, 40, 48, false, false, 1, "MatMul"},
                      MatmulCase{"transposed_self", 33, 40, 48, true, false, 2, "pack(self),MatMul"},
                      MatmulCase{"both_transposed", 33, 40, 48, true, true, 3, "pack(self),pack(mat2),MatMul"},
                      MatmulCase{"split_k", 4, 5, 8192, false, false, 2, "splitk_gemm,reduce_sum"},
                      MatmulCase{"split_k_transposed", 4, 5, 8192, false, true, 3, "pack(mat2),splitk_gemm,reduce_sum"},
                      MatmulCase{"large_k_but_large_mn", 64, 64, 2048, false, false, 1, "MatMul"}),
    [](const ::testing::TestParamInfo<MatmulCase>& i) { return std::string(i.param.name); });

TEST_F(AclnnTest, MatmulBatchedBroadcastUsesOneGemm) {
  auto av = RandomFloats(2 * 3 * 4 * 5, 3), bv = RandomFloats(5 * 6, 4);
  DeviceBuffer<float> a(av), b(bv), out(2 * 3 * 4 * 6);
  auto ta = MakeTensor({2, 3, 4, 5}, ACL_FLOAT, a.get());
  auto tb = MakeTensor({5, 6}, ACL_FLOAT, b.get());
  auto to = MakeTensor({2, 3, 4, 6}, ACL_FLOAT, out.get());
  EXPECT_EQ(
      RunTwoPhase([&](uint64_t* w,
                      aclOpExecutor** e) { return aclnnMatmulGetWorkspaceSize(ta.get(), tb.get(), to.get(), 0, w, e); },
                  aclnnMatmul),
      1);
  std::vector<double> want;
  for (int64_t bi = 0; bi < 6; ++bi) {
    auto part = NaiveGemm(
        4, 6, 5, [&](int64_t i, int64_t k) { return av[bi * 20 + i * 5 + k]; },
        [&](int64_t k, int64_t j) { return bv[k * 6 + j]; });
    want.insert(want.end(), part.begin(), part.end());
  }
  ExpectNear(out.Download(), want);
}

TEST_F(AclnnTest, AddWithAlphaAndBroadcast) {
  auto av = RandomFloats(2 * 3, 5), bv = RandomFloats(3, 6);
  DeviceBuffer<float> a(av), b(bv), out(6);
  auto ta = MakeTensor({2, 3}, ACL_FLOAT, a.get()), tb = MakeTensor({3}, ACL_FLOAT, b.get());
  auto to = MakeTensor({2, 3}, ACL_FLOAT, out.get());
  float alpha_v = 2.5f;
  aclScalar* alpha = aclCreateScalar(&alpha_v, ACL_FLOAT);
  EXPECT_EQ(RunTwoPhase(
                [&](uint64_t* w, aclOpExecutor** e) {
                  return aclnnAddGetWorkspaceSize(ta.get(), tb.get(), alpha, to.get(), w, e);
                },
                aclnnAdd),
            2);
  std::vector<double> want(6);
  for (int i = 0; i < 6; ++i) want[i] = av[i] + 2.5 * bv[i % 3];
  ExpectNear(out.Download(), want);
  aclDestroyScalar(alpha);
}

TEST_F(AclnnTest, MulOfTransposedView) {
  auto av = RandomFloats(12, 7), bv = RandomFloats(12, 8);
  DeviceBuffer<float> a(av), b(bv), out(12);
  auto ta = MakeTensor({3, 4}, ACL_FLOAT, a.get(), {1, 3}, {4, 3});  // a^T view of [4,3]
  auto tb = MakeTensor({3, 4}, ACL_FLOAT, b.get()), to = MakeTensor({3, 4}, ACL_FLOAT, out.get());
  EXPECT_EQ(RunTwoPhase([&](uint64_t* w,
                            aclOpExecutor** e) { return aclnnMulGetWorkspaceSize(ta.get(), tb.get(), to.get(), w, e); },
                        aclnnMul),
            2);
  std::vector<double> want(12);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) want[i * 4 + j] = av[j * 3 + i] * bv[i * 4 + j];
  ExpectNear(out.Download(), want);
}

std::vector<double> NaiveSoftmaxRows(const std::vector<float>& x, int64_t rows, int64_t len) {
  std::vector<double> y(x.size());
  for (int64_t r = 0; r < rows; ++r) {
    double mx = -1e300, s = 0;
    for (int64_t j = 0; j < len; ++j) mx = std::max<double>(mx, x[r * len + j]);
    for (int64_t j = 0; j < len; ++j) s += std::exp(x[r * len + j] - mx);
    for (int64_t j = 0; j < len; ++j) y[r * len + j] = std::exp(x[r * len + j] - mx) / s;
  }
  return y;
}

TEST_F(AclnnTest, SoftmaxKernelChoice) {
  for (auto [rows, len] : {std::pair<int64_t, int64_t>{8, 16}, {1, 40000}}) {
    auto xv = RandomFloats(rows * len, 9, -5, 5);
    DeviceBuffer<float> x(xv), y(rows * len);
    auto tx = MakeTensor({rows, len}, ACL_FLOAT, x.get()), ty = MakeTensor({rows, len}, ACL_FLOAT, y.get());
    bool split = len >= 8192 && rows < static_cast<int64_t>(std::max(
                                           1u,
                                           [] {
                                             uint32_t n = 0;
                                             aclrtGetDeviceCoreNum(&n);
                                             return n;
                                           }()));
    EXPECT_EQ(RunTwoPhase([&](uint64_t* w,
                              aclOpExecutor** e) { return aclnnSoftmaxGetWorkspaceSize(tx.get(), -1, ty.get(), w, e); },
                          aclnnSoftmax),
              split ? 3 : 1);
    ExpectNear(y.Download(), NaiveSoftmaxRows(xv, rows, len), 1e-5);
  }
}

TEST_F(AclnnTest, CatOfContiguousAndStridedInputs) {
  auto av = RandomFloats(2 * 3, 10), bv = RandomFloats(2 * 2, 11);
  DeviceBuffer<float> a(av), b(bv), out(2 * 5);
  auto ta = MakeTensor({2, 3}, ACL_FLOAT, a.get());
  auto tb = MakeTensor({2, 2}, ACL_FLOAT, b.get(), {1, 2}, {2, 2});  // b^T
  auto to = MakeTensor({2, 5}, ACL_FLOAT, out.get());
  const aclTensor* items[] = {ta.get(), tb.get()};
  aclTensorList* list = aclCreateTensorList(items, 2);
  EXPECT_EQ(
      RunTwoPhase([&](uint64_t* w, aclOpExecutor** e) { return aclnnCatGetWorkspaceSize(list, 1, to.get(), w, e); },
                  aclnnCat),
      2);
  std::vector<double> want = {av[0], av[1], av[2], bv[0], bv[2], av[3], av[4], av[5], bv[1], bv[3]};
  ExpectNear(out.Download(), want);
  aclDestroyTensorList(list);
}

TEST_F(AclnnTest, LayerNormWithAllOutputs) {
  const int64_t rows = 3, cols = 8;
  auto xv = RandomFloats(rows * cols, 12), wv = RandomFloats(cols, 13), bv = RandomFloats(cols, 14);
  DeviceBuffer<float> x(xv), w(wv), b(bv), y(rows * cols), mean(rows), rstd(rows);
  auto tx = MakeTensor({rows, cols}, ACL_FLOAT, x.get()), tw = MakeTensor({cols}, ACL_FLOAT, w.get());
  auto tb = MakeTensor({cols}, ACL_FLOAT, b.get()), ty = MakeTensor({rows, cols}, ACL_FLOAT, y.get());
  auto tm = MakeTensor({rows, 1}, ACL_FLOAT, mean.get()), tr = MakeTensor({rows, 1}, ACL_FLOAT, rstd.get());
  int64_t norm[] = {cols};
  aclIntArray* ns = aclCreateIntArray(norm, 1);
  EXPECT_EQ(RunTwoPhase(
                [&](uint64_t* w, aclOpExecutor** e) {
                  return aclnnLayerNormGetWorkspaceSize(tx.get(), ns, tw.get(), tb.get(), 1e-5, ty.get(), tm.get(),
                                                        tr.get(), w, e);
                },
                aclnnLayerNorm),
            1);
  std::vector<double> want(rows * cols), want_mean(rows);
  for (int64_t r = 0; r < rows; ++r) {
    double m = 0, v = 0;
    for (int64_t j = 0; j < cols; ++j) m += xv[r * cols + j] / double(cols);
    for (int64_t j = 0; j < cols; ++j) v += (xv[r * cols + j] - m) * (xv[r * cols + j] - m) / double(cols);
    for (int64_t j = 0; j < cols; ++j)
      want[r * cols + j] = (xv[r * cols + j] - m) / std::sqrt(v + 1e-5) * wv[j] + bv[j];
    want_mean[r] = m;
  }
  ExpectNear(y.Download(), want);
  ExpectNear(mean.Download(), want_mean);
  aclDestroyIntArray(ns);
}

TEST_F(AclnnTest, ConvolutionMatchesDirectLoop) {
  const int64_t c = 2, h = 5, wd = 5, oc = 3, kh = 3;
  auto xv = RandomFloats(c * h * wd, 15), wv = RandomFloats(oc * c * kh * kh, 16), bv = RandomFloats(oc, 17);
  DeviceBuffer<float> x(xv), w(wv), b(bv), y(oc * h * wd);
  auto tx = MakeTensor({1, c, h, wd}, ACL_FLOAT, x.get()), tw = MakeTensor({oc, c, kh, kh}, ACL_FLOAT, w.get());
  auto tb = MakeTensor({oc}, ACL_FLOAT, b.get()), ty = MakeTensor({1, oc, h, wd}, ACL_FLOAT, y.get());
  int64_t one[] = {1, 1};
  aclIntArray* s = aclCreateIntArray(one, 2);
  aclIntArray* p = aclCreateIntArray(one, 2);
  aclIntArray* d = aclCreateIntArray(one, 2);
  EXPECT_EQ(RunTwoPhase(
                [&](uint64_t* w, aclOpExecutor** e) {
                  return aclnnConvolutionGetWorkspaceSize(tx.get(), tw.get(), tb.get(), s, p, d, false, nullptr, 1,
                                                          ty.get(), 0, w, e);
                },
                aclnnConvolution),
            1);
  std::vector<double> want(oc * h * wd);
  for (int64_t o = 0; o < oc; ++o)
    for (int64_t i = 0; i < h; ++i)
      for (int64_t j = 0; j < wd; ++j) {
        double acc = bv[o];
        for (int64_t ci = 0; ci < c; ++ci)
          for (int64_t u = 0; u < kh; ++u)
            for (int64_t v = 0; v < kh; ++v) {
              int64_t ii = i + u - 1, jj = j + v - 1;
              if (ii >= 0 && ii < h && jj >= 0 && jj < wd)
                acc += xv[(ci * h + ii) * wd + jj] * wv[((o * c + ci) * kh + u) * kh + v];
            }
        want[(o * h + i) * wd + j] = acc;
      }
  ExpectNear(y.Download(), want);
  aclDestroyIntArray(s);
  aclDestroyIntArray(p);
  aclDestroyIntArray(d);
}

TEST_F(AclnnTest, GenericEntryRunsGemmWithAttributes) {
  auto av = RandomFloats(3 * 4, 18), bv = RandomFloats(5 * 4, 19);
  DeviceBuffer<float> a(av), b(bv), out(3 * 5);
  auto ta = MakeTensor({3, 4}, ACL_FLOAT, a.get()), tb = MakeTensor({5, 4}, ACL_FLOAT, b.get());
  auto to = MakeTensor({3, 5}, ACL_FLOAT, out.get());
  const aclTensor* ins[] = {ta.get(), tb.get()};
  aclTensor* outs[] = {to.get()};
  aclTensorList* in = aclCreateTensorList(ins, 2);
  aclTensorList* ol = aclCreateTensorList(outs, 1);
  aclOpAttrs* attrs = aclCreateOpAttrs();
  aclOpAttrsSetInt(attrs, "transB", 1);
  aclOpAttrsSetFloat(attrs, "alpha", 0.5f);
  EXPECT_EQ(
      RunTwoPhase([&](uint64_t* w, aclOpExecutor** e) { return aclnnOpGetWorkspaceSize("Gemm", in, ol, attrs, w, e); },
                  aclnnOp),
      1);
  auto want = NaiveGemm(
      3, 5, 4, [&](int64_t i, int64_t k) { return av[i * 4 + k]; },
      [&](int64_t k, int64_t j) { return bv[j * 4 + k]; });
  for (auto& v : want) v *= 0.5;
  ExpectNear(out.Download(), want);
  aclDestroyOpAttrs(attrs);
  aclDestroyTensorList(in);
  aclDestroyTensorList(ol);
}

}  // namespace
}  // namespace ge::testing
