// Misuse of the single-op API: every case returns an error code and a message from
// aclGetRecentErrMsg() naming the API and what was wrong — never a crash.
#include "aclnn/aclnn_add.h"
#include "aclnn/aclnn_cat.h"
#include "aclnn/aclnn_matmul.h"
#include "aclnn/aclnn_softmax.h"
#include "opapi_test_util.h"

namespace ge::testing {
namespace {

class AclnnMisuse : public ::testing::Test {
 protected:
  void SetUp() override { EnsureTestDevice(); }
  DeviceBuffer<float> a_{64}, b_{64}, out_{64};
  DeviceBuffer<int32_t> ai_{64};
  uint64_t ws_ = 0;
  aclOpExecutor* ex_ = nullptr;
};

#define EXPECT_MSG(text) \
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find(text), std::string::npos) << aclGetRecentErrMsg()

TEST_F(AclnnMisuse, NullTensor) {
  auto b = MakeTensor({2, 2}, ACL_FLOAT, b_.get()), o = MakeTensor({2, 2}, ACL_FLOAT, out_.get());
  EXPECT_EQ(aclnnMatmulGetWorkspaceSize(nullptr, b.get(), o.get(), 0, &ws_, &ex_), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_MSG("aclnnMatmul: self is null");
  EXPECT_EQ(ex_, nullptr);
}

TEST_F(AclnnMisuse, NullOutPointers) {
  auto a = MakeTensor({2, 2}, ACL_FLOAT, a_.get()), o = MakeTensor({2, 2}, ACL_FLOAT, out_.get());
  EXPECT_EQ(aclnnSoftmaxGetWorkspaceSize(a.get(), -1, o.get(), nullptr, &ex_), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_MSG("workspaceSize is null");
  EXPECT_EQ(aclnnSoftmaxGetWorkspaceSize(a.get(), -1, o.get(), &ws_, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_MSG("executor is null");
}

TEST_F(AclnnMisuse, NullAlpha) {
  auto a = MakeTensor({2, 2}, ACL_FLOAT, a_.get()), o = MakeTensor({2, 2}, ACL_FLOAT, out_.get());
  EXPECT_EQ(aclnnAddGetWorkspaceSize(a.get(), a.get(), nullptr, o.get(), &ws_, &ex_), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_MSG("alpha is null");
}

TEST_F(AclnnMisuse, WrongDtype) {
  auto a = MakeTensor({2, 2}, ACL_FLOAT, a_.get()), bi = MakeTensor({2, 2}, ACL_INT32, ai_.get());
  auto o = MakeTensor({2, 2}, ACL_FLOAT, out_.get());
  EXPECT_EQ(aclnnMatmulGetWorkspaceSize(a.get(), bi.get(), o.get(), 0, &ws_, &ex_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_MSG("mat2 has dtype int32, self has float32");
  auto ii = MakeTensor({2, 2}, ACL_INT32, ai_.get());
  EXPECT_EQ(aclnnSoftmaxGetWorkspaceSize(ii.get(), -1, ii.get(), &ws_, &ex_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_MSG("expected float32 or float64");
}

TEST_F(AclnnMisuse, MismatchedShapes) {
  auto a = MakeTensor({2, 3}, ACL_FLOAT, a_.get()), b = MakeTensor({4, 2}, ACL_FLOAT, b_.get());
  auto o = MakeTensor({2, 2}, ACL_FLOAT, out_.get());
  EXPECT_EQ(aclnnMatmulGetWorkspaceSize(a.get(), b.get(), o.get(), 0, &ws_, &ex_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_MSG("MatMul rejects the input shapes (float32[2, 3], float32[4, 2])");
  auto b2 = MakeTensor({3, 2}, ACL_FLOAT, b_.get()), o2 = MakeTensor({2, 5}, ACL_FLOAT, out_.get());
  EXPECT_EQ(aclnnMatmulGetWorkspaceSize(a.get(), b2.get(), o2.get(), 0, &ws_, &ex_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_MSG("out has shape [2, 5], expected [2, 2]");
}

TEST_F(AclnnMisuse, NonContiguousOutput) {
  auto a = MakeTensor({2, 2}, ACL_FLOAT, a_.get());
  auto o = MakeTensor({2, 2}, ACL_FLOAT, out_.get(), {1, 2});
  EXPECT_EQ(aclnnSoftmaxGetWorkspaceSize(a.get(), -1, o.get(), &ws_, &ex_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_MSG("out must be contiguous");
}

TEST_F(AclnnMisuse, WorkspaceTooSmallOrNull) {
  auto a = MakeTensor({2, 3}, ACL_FLOAT, a_.get(), {1, 2}, {3, 2});  // needs a pack -> workspace
  auto b = MakeTensor({3, 2}, ACL_FLOAT, b_.get()), o = MakeTensor({2, 2}, ACL_FLOAT, out_.get());
  ASSERT_EQ(aclnnMatmulGetWorkspaceSize(a.get(), b.get(), o.get(), 0, &ws_, &ex_), ACLNN_SUCCESS);
  ASSERT_GT(ws_, 0u);
  aclSetAclOpExecutorRepeatable(ex_);
  DeviceBuffer<uint8_t> small(1);
  EXPECT_EQ(aclnnMatmul(small.get(), 1, ex_, nullptr), ACLNN_ERR_PARAM_INVALID);
  EXPECT_MSG("workspace of 1 bytes is too small");
  EXPECT_EQ(aclnnMatmul(nullptr, ws_, ex_, nullptr), ACLNN_ERR_PARAM_INVALID);
  EXPECT_MSG("workspace is null");
  EXPECT_EQ(aclnnAdd(nullptr, ws_, ex_, nullptr), ACLNN_ERR_PARAM_INVALID);
  EXPECT_MSG("built by aclnnMatmulGetWorkspaceSize");
  aclDestroyAclOpExecutor(ex_);
}

TEST_F(AclnnMisuse, NullExecutor) {
  EXPECT_EQ(aclnnMatmul(nullptr, 0, nullptr, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_MSG("executor is null");
}

TEST_F(AclnnMisuse, BadTensorCreation) {
  int64_t dims[] = {4, 4}, storage[] = {2, 2};
  EXPECT_EQ(aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, storage, 2, a_.get()), nullptr);
  EXPECT_MSG("4-element storage");
  EXPECT_EQ(aclCreateTensor(nullptr, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, storage, 2, a_.get()), nullptr);
  EXPECT_MSG("viewDims is null");
  EXPECT_EQ(aclCreateTensor(dims, 2, static_cast<aclDataType>(99), nullptr, 0, ACL_FORMAT_ND, dims, 2, a_.get()),
            nullptr);
  EXPECT_MSG("unsupported data type 99");
  EXPECT_EQ(aclCreateScalar(nullptr, ACL_FLOAT), nullptr);
}

TEST_F(AclnnMisuse, GenericEntryErrors) {
  auto a = MakeTensor({2, 2}, ACL_FLOAT, a_.get()), o = MakeTensor({2, 2}, ACL_FLOAT, out_.get());
  const aclTensor* ins[] = {a.get()};
  aclTensor* outs[] = {o.get()};
  aclTensorList* in = aclCreateTensorList(ins, 1);
  aclTensorList* ol = aclCreateTensorList(outs, 1);
  EXPECT_EQ(aclnnOpGetWorkspaceSize("NoSuchOp", in, ol, nullptr, &ws_, &ex_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_MSG("'NoSuchOp' is not registered");
  EXPECT_EQ(aclnnOpGetWorkspaceSize("Add", in, ol, nullptr, &ws_, &ex_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_MSG("operator Add needs input 'B'");
  aclOpAttrs* attrs = aclCreateOpAttrs();
  aclOpAttrsSetInt(attrs, "no_such_attr", 1);
  EXPECT_EQ(aclnnOpGetWorkspaceSize("Softmax", in, ol, attrs, &ws_, &ex_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_MSG("has no attribute 'no_such_attr'");
  EXPECT_EQ(aclnnOpGetWorkspaceSize(nullptr, in, ol, nullptr, &ws_, &ex_), ACLNN_ERR_PARAM_NULLPTR);
  aclDestroyOpAttrs(attrs);
  aclDestroyTensorList(in);
  aclDestroyTensorList(ol);
}

TEST_F(AclnnMisuse, CatMismatch) {
  auto a = MakeTensor({2, 2}, ACL_FLOAT, a_.get()), b = MakeTensor({3, 3}, ACL_FLOAT, b_.get());
  auto o = MakeTensor({2, 5}, ACL_FLOAT, out_.get());
  const aclTensor* items[] = {a.get(), b.get()};
  aclTensorList* list = aclCreateTensorList(items, 2);
  EXPECT_EQ(aclnnCatGetWorkspaceSize(list, 1, o.get(), &ws_, &ex_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_MSG("tensors[1] has shape [3, 3]");
  EXPECT_EQ(aclnnCatGetWorkspaceSize(list, 5, o.get(), &ws_, &ex_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_MSG("dim 5 is out of range");
  aclDestroyTensorList(list);
}

}  // namespace
// Found by fuzz/aclnn_fuzzer.cc (UBSan): Split copied a 0-row part to its output with memcpy into
// the output's null buffer. An empty part is legal: the other part gets the data, the empty one
// is left alone.
TEST(AclnnGeneric, SplitWithAnEmptyPartCopiesOnlyTheOtherPart) {
  ge::testing::EnsureTestDevice();
  ge::testing::DeviceBuffer<float> x(std::vector<float>{1, 2, 3, 4}), y(4);
  ge::testing::DeviceBuffer<int64_t> split(std::vector<int64_t>{2, 0});
  const int64_t xd[2] = {2, 2}, sd[1] = {2}, ed[2] = {0, 2};
  aclTensor* tx = aclCreateTensor(xd, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, xd, 2, x.get());
  aclTensor* ts = aclCreateTensor(sd, 1, ACL_INT64, nullptr, 0, ACL_FORMAT_ND, sd, 1, split.get());
  aclTensor* ty = aclCreateTensor(xd, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, xd, 2, y.get());
  aclTensor* te = aclCreateTensor(ed, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, ed, 2, nullptr);
  ASSERT_NE(te, nullptr);
  const aclTensor* ins[2] = {tx, ts};
  const aclTensor* outs[2] = {ty, te};
  aclTensorList* in_list = aclCreateTensorList(ins, 2);
  aclTensorList* out_list = aclCreateTensorList(outs, 2);
  int64_t launched = ge::testing::RunTwoPhase(
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnOpGetWorkspaceSize("Split", in_list, out_list, nullptr, ws, ex);
      },
      aclnnOp);
  EXPECT_GE(launched, 1) << aclGetRecentErrMsg();
  EXPECT_EQ(y.Download(), (std::vector<float>{1, 2, 3, 4}));
  aclDestroyTensorList(in_list);
  aclDestroyTensorList(out_list);
  for (aclTensor* t : {tx, ts, ty, te}) aclDestroyTensor(t);
}

// Found by fuzz/aclnn_fuzzer.cc (UBSan): Flatten multiplied the input's dims unchecked. An empty
// tensor may have other dims of 2^40: [0, 2^40, 2^40] flattened at axis 2 would need a 2^80 inner
// dim; that is an error naming the input, not a signed overflow.
TEST(AclnnGeneric, FlattenOfDimsWhoseProductOverflowsIsAnError) {
  ge::testing::EnsureTestDevice();
  const int64_t big = int64_t{1} << 40;
  const int64_t xd[3] = {0, big, big}, yd[2] = {0, 1};
  aclTensor* tx = aclCreateTensor(xd, 3, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, xd, 3, nullptr);
  aclTensor* ty = aclCreateTensor(yd, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, yd, 2, nullptr);
  ASSERT_NE(tx, nullptr);
  ASSERT_NE(ty, nullptr);
  aclOpAttrs* attrs = aclCreateOpAttrs();
  ASSERT_EQ(aclOpAttrsSetInt(attrs, "axis", 1), ACLNN_SUCCESS);
  const aclTensor* ins[1] = {tx};
  const aclTensor* outs[1] = {ty};
  aclTensorList* in_list = aclCreateTensorList(ins, 1);
  aclTensorList* out_list = aclCreateTensorList(outs, 1);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_NE(aclnnOpGetWorkspaceSize("Flatten", in_list, out_list, attrs, &ws, &ex), ACLNN_SUCCESS);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("overflow int64"), std::string::npos) << aclGetRecentErrMsg();
  aclDestroyOpAttrs(attrs);
  aclDestroyTensorList(in_list);
  aclDestroyTensorList(out_list);
  for (aclTensor* t : {tx, ty}) aclDestroyTensor(t);
}

}  // namespace ge::testing

// Found by fuzz/aclnn_fuzzer.cc: dims whose element count or strides overflow int64 were
// multiplied unchecked (signed overflow) before the view-inside-storage check.
TEST(AclnnCreateTensor, RefusesDimsWhoseSizeOverflows) {
  const int64_t huge[3] = {int64_t{1} << 40, int64_t{1} << 40, 8};
  EXPECT_EQ(aclCreateTensor(huge, 3, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, huge, 3, nullptr), nullptr);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("too large"), std::string::npos) << aclGetRecentErrMsg();
  const int64_t zero_but_huge[3] = {0, int64_t{1} << 62, 8};  // no elements, strides would overflow
  aclTensor* t = aclCreateTensor(zero_but_huge, 3, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, zero_but_huge, 3, nullptr);
  EXPECT_NE(t, nullptr) << aclGetRecentErrMsg();
  aclDestroyTensor(t);
  // A negative stride reaching before the storage.
  float data[4] = {};
  const int64_t dims[1] = {3}, stride[1] = {-1}, storage[1] = {4};
  EXPECT_EQ(aclCreateTensor(dims, 1, ACL_FLOAT, stride, 1, ACL_FORMAT_ND, storage, 1, data), nullptr);
  aclTensor* ok = aclCreateTensor(dims, 1, ACL_FLOAT, stride, 2, ACL_FORMAT_ND, storage, 1, data);
  EXPECT_NE(ok, nullptr) << aclGetRecentErrMsg();
  aclDestroyTensor(ok);
}

// Found by fuzz/aclnn_fuzzer.cc: the generic entry took a null list element as an absent input
// anywhere; Concat's (variadic, required) inputs reached its shape function as null.
TEST(AclnnGeneric, NullOnlyForOptionalInputs) {
  ge::testing::EnsureTestDevice();
  float data[2] = {1, 2};
  const int64_t dims[1] = {2};
  aclTensor* a = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, data);
  const int64_t out_dims[1] = {4};
  float out_data[4] = {};
  aclTensor* out = aclCreateTensor(out_dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, out_dims, 1, out_data);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(out, nullptr);
  const aclTensor* ins[2] = {a, nullptr};
  aclTensorList* in_list = aclCreateTensorList(ins, 2);
  const aclTensor* outs[1] = {out};
  aclTensorList* out_list = aclCreateTensorList(outs, 1);
  aclOpAttrs* attrs = aclCreateOpAttrs();
  aclOpAttrsSetInt(attrs, "axis", 0);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_NE(aclnnOpGetWorkspaceSize("Concat", in_list, out_list, attrs, &ws, &ex), ACLNN_SUCCESS);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("is null"), std::string::npos) << aclGetRecentErrMsg();
  aclDestroyOpAttrs(attrs);
  aclDestroyTensorList(in_list);
  aclDestroyTensorList(out_list);
  aclDestroyTensor(a);
  aclDestroyTensor(out);
}

// Found by fuzz/aclnn_fuzzer.cc: Split through the generic entry with no outputs divided by zero.
TEST(AclnnGeneric, SplitWithNoOutputsIsAnError) {
  ge::testing::EnsureTestDevice();
  float data[4] = {1, 2, 3, 4};
  const int64_t dims[1] = {4};
  aclTensor* a = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, data);
  ASSERT_NE(a, nullptr);
  const aclTensor* ins[1] = {a};
  aclTensorList* in_list = aclCreateTensorList(ins, 1);
  aclTensorList* out_list = aclCreateTensorList(nullptr, 0);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_NE(aclnnOpGetWorkspaceSize("Split", in_list, out_list, nullptr, &ws, &ex), ACLNN_SUCCESS);
  aclDestroyTensorList(in_list);
  aclDestroyTensorList(out_list);
  aclDestroyTensor(a);
}

// Found by fuzz/aclnn_fuzzer.cc: Where read its condition (and bool values) as C++ bool, so a
// condition byte of 157 from the caller was undefined behaviour; any nonzero byte is true.
TEST(AclnnGeneric, WhereTakesAnyNonzeroConditionByteAsTrue) {
  ge::testing::EnsureTestDevice();
  ge::testing::DeviceBuffer<uint8_t> cond(std::vector<uint8_t>{157, 0});
  ge::testing::DeviceBuffer<float> x(std::vector<float>{1, 2}), z(std::vector<float>{3, 4}), y(2);
  const int64_t dims[1] = {2};
  aclTensor* tc = aclCreateTensor(dims, 1, ACL_BOOL, nullptr, 0, ACL_FORMAT_ND, dims, 1, cond.get());
  aclTensor* tx = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, x.get());
  aclTensor* tz = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, z.get());
  aclTensor* ty = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, y.get());
  const aclTensor* ins[3] = {tc, tx, tz};
  const aclTensor* outs[1] = {ty};
  aclTensorList* in_list = aclCreateTensorList(ins, 3);
  aclTensorList* out_list = aclCreateTensorList(outs, 1);
  int64_t launched = ge::testing::RunTwoPhase(
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnOpGetWorkspaceSize("Where", in_list, out_list, nullptr, ws, ex);
      },
      aclnnOp);
  EXPECT_GE(launched, 1);
  EXPECT_EQ(y.Download(), (std::vector<float>{1, 4}));
  aclDestroyTensorList(in_list);
  aclDestroyTensorList(out_list);
  for (aclTensor* t : {tc, tx, tz, ty}) aclDestroyTensor(t);
}

// A caller's bool tensor may hold any byte; kernels read bools as C++ bool, for which a byte
// other than 0 or 1 is undefined behaviour (fuzz/README.md's former "known open" class). The API
// copies bool inputs as 0 / 1 first: any nonzero byte is true, contiguous or not.
TEST(AclnnGeneric, BoolInputsWithAnyNonzeroByteAreTrue) {
  ge::testing::EnsureTestDevice();
  ge::testing::DeviceBuffer<uint8_t> a(std::vector<uint8_t>{2, 0, 255, 1}), ones(std::vector<uint8_t>{1, 1, 1, 1});
  ge::testing::DeviceBuffer<uint8_t> not_out(4), and_out(4), strided_out(2);
  const int64_t dims[1] = {4}, two[1] = {2}, stride2[1] = {2};
  auto make = [](const int64_t* d, const int64_t* strides, void* data) {
    const int64_t storage[1] = {4};
    return aclCreateTensor(d, 1, ACL_BOOL, strides, 0, ACL_FORMAT_ND, storage, 1, data);
  };
  aclTensor* ta = make(dims, nullptr, a.get());
  aclTensor* tones = make(dims, nullptr, ones.get());
  aclTensor* tnot = make(dims, nullptr, not_out.get());
  aclTensor* tand = make(dims, nullptr, and_out.get());
  aclTensor* ta_even = make(two, stride2, a.get());  // bytes 2 and 255: a non-contiguous view
  aclTensor* tstrided = aclCreateTensor(two, 1, ACL_BOOL, nullptr, 0, ACL_FORMAT_ND, two, 1, strided_out.get());
  auto run = [](const char* op, std::vector<const aclTensor*> ins, const aclTensor* out) {
    aclTensorList* in_list = aclCreateTensorList(ins.data(), ins.size());
    aclTensorList* out_list = aclCreateTensorList(&out, 1);
    int64_t launched = ge::testing::RunTwoPhase(
        [&](uint64_t* ws, aclOpExecutor** ex) {
          return aclnnOpGetWorkspaceSize(op, in_list, out_list, nullptr, ws, ex);
        },
        aclnnOp);
    EXPECT_GE(launched, 2) << op;  // the 0 / 1 copy, then the op
    aclDestroyTensorList(in_list);
    aclDestroyTensorList(out_list);
  };
  run("Not", {ta}, tnot);
  run("And", {ta, tones}, tand);
  run("Not", {ta_even}, tstrided);
  EXPECT_EQ(not_out.Download(), (std::vector<uint8_t>{0, 1, 0, 0}));
  EXPECT_EQ(and_out.Download(), (std::vector<uint8_t>{1, 0, 1, 1}));
  EXPECT_EQ(strided_out.Download(), (std::vector<uint8_t>{0, 0}));
  for (aclTensor* t : {ta, tones, tnot, tand, ta_even, tstrided}) aclDestroyTensor(t);
}

// Found by fuzz/aclnn_fuzzer.cc (fuzz/regressions/aclnn/clip_int8_min_read_as_float): Clip read
// its min/max inputs as one element of X's type whatever their own type and size, so an int8 min
// at a byte offset was a misaligned float load. Bounds of another type or size are an error now;
// a float min and max of one element each still clip.
TEST(AclnnGeneric, ClipBoundsMustBeOneElementOfTheInputType) {
  ge::testing::EnsureTestDevice();
  ge::testing::DeviceBuffer<float> x(std::vector<float>{-3, 0.5f, 7}), y(3);
  ge::testing::DeviceBuffer<int8_t> bytes(std::vector<int8_t>{1, 2, 3, 4});
  ge::testing::DeviceBuffer<float> lo(std::vector<float>{-1}), hi(std::vector<float>{2, 9});
  const int64_t dims[1] = {3}, one[1] = {1}, two[1] = {2}, four[1] = {4};
  aclTensor* tx = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, x.get());
  aclTensor* ty = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, y.get());
  aclTensor* int8_min = aclCreateTensor(nullptr, 0, ACL_INT8, nullptr, 3, ACL_FORMAT_ND, four, 1, bytes.get());
  aclTensor* tlo = aclCreateTensor(nullptr, 0, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, one, 1, lo.get());
  aclTensor* two_max = aclCreateTensor(two, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, two, 1, hi.get());
  aclTensor* thi = aclCreateTensor(nullptr, 0, ACL_FLOAT, nullptr, 1, ACL_FORMAT_ND, two, 1, hi.get());
  for (aclTensor* t : {tx, ty, int8_min, tlo, two_max, thi}) ASSERT_NE(t, nullptr) << aclGetRecentErrMsg();
  const aclTensor* outs[1] = {ty};
  aclTensorList* out_list = aclCreateTensorList(outs, 1);
  auto expect_refused = [&](const aclTensor* min, const aclTensor* max, const char* what) {
    const aclTensor* ins[3] = {tx, min, max};
    aclTensorList* in_list = aclCreateTensorList(ins, 3);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    EXPECT_NE(aclnnOpGetWorkspaceSize("Clip", in_list, out_list, nullptr, &ws, &ex), ACLNN_SUCCESS);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find(what), std::string::npos) << aclGetRecentErrMsg();
    aclDestroyTensorList(in_list);
  };
  expect_refused(int8_min, thi, "input 'min' must be one element of the input's type float32, got int8 []");
  expect_refused(tlo, two_max, "input 'max' must be one element of the input's type float32, got float32 [2]");
  const aclTensor* ins[3] = {tx, tlo, thi};  // min -1, max 9 (the second element of hi)
  aclTensorList* in_list = aclCreateTensorList(ins, 3);
  int64_t launched = ge::testing::RunTwoPhase(
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnOpGetWorkspaceSize("Clip", in_list, out_list, nullptr, ws, ex);
      },
      aclnnOp);
  EXPECT_GE(launched, 1);
  EXPECT_EQ(y.Download(), (std::vector<float>{-1, 0.5f, 7}));
  aclDestroyTensorList(in_list);
  aclDestroyTensorList(out_list);
  for (aclTensor* t : {tx, ty, int8_min, tlo, two_max, thi}) aclDestroyTensor(t);
}

// Found by fuzz/aclnn_fuzzer.cc: a batched MatMul with an empty batch divided by zero in its
// tiling. An empty batch is an empty result.
TEST(AclnnMatmulEdge, EmptyBatchIsAnEmptyResult) {
  ge::testing::EnsureTestDevice();
  ge::testing::DeviceBuffer<float> a(1), b(12), c(1);
  const int64_t ad[3] = {0, 2, 3}, bd[2] = {3, 4}, cd[3] = {0, 2, 4};
  aclTensor* ta = aclCreateTensor(ad, 3, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, ad, 3, a.get());
  aclTensor* tb = aclCreateTensor(bd, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, bd, 2, b.get());
  aclTensor* tc = aclCreateTensor(cd, 3, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, cd, 3, c.get());
  ASSERT_TRUE(ta && tb && tc) << aclGetRecentErrMsg();
  int64_t launched = ge::testing::RunTwoPhase(
      [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnMatmulGetWorkspaceSize(ta, tb, tc, 0, ws, ex); },
      aclnnMatmul);
  EXPECT_GE(launched, 0);
  for (aclTensor* t : {ta, tb, tc}) aclDestroyTensor(t);
}

// NonMaxSuppression read its optional scalars by value whatever their dtype: a one-byte uint8
// iou_threshold from the single-op API was read as a 4-byte float (past the caller's buffer). The
// counts are read only from int32 / int64 tensors and the thresholds only from float / double
// ones; another dtype is an error naming the input.
TEST(AclnnGeneric, NmsDoesNotReadAByteThresholdAsAFloat) {
  ge::testing::EnsureTestDevice();
  ge::testing::DeviceBuffer<float> boxes(std::vector<float>{0, 0, 1, 1, 0, 0, 1, 1}),
      scores(std::vector<float>{0.9f, 0.8f});
  ge::testing::DeviceBuffer<int64_t> max_out(std::vector<int64_t>{2}), selected(6);
  ge::testing::DeviceBuffer<uint8_t> iou(std::vector<uint8_t>{1});
  const int64_t bd[3] = {1, 2, 4}, sd[3] = {1, 1, 2}, one[1] = {1}, od[2] = {2, 3};
  aclTensor* tb = aclCreateTensor(bd, 3, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, bd, 3, boxes.get());
  aclTensor* ts = aclCreateTensor(sd, 3, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, sd, 3, scores.get());
  aclTensor* tm = aclCreateTensor(one, 1, ACL_INT64, nullptr, 0, ACL_FORMAT_ND, one, 1, max_out.get());
  aclTensor* ti = aclCreateTensor(one, 1, ACL_UINT8, nullptr, 0, ACL_FORMAT_ND, one, 1, iou.get());
  aclTensor* to = aclCreateTensor(od, 2, ACL_INT64, nullptr, 0, ACL_FORMAT_ND, od, 2, selected.get());
  const aclTensor* ins[4] = {tb, ts, tm, ti};
  const aclTensor* outs[1] = {to};
  aclTensorList* in_list = aclCreateTensorList(ins, 4);
  aclTensorList* out_list = aclCreateTensorList(outs, 1);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnOpGetWorkspaceSize("NonMaxSuppression", in_list, out_list, nullptr, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("'iou_threshold' must be float or double, got uint8"),
            std::string::npos)
      << aclGetRecentErrMsg();
  aclDestroyTensorList(in_list);
  aclDestroyTensorList(out_list);
  for (aclTensor* t : {tb, ts, tm, ti, to}) aclDestroyTensor(t);
}
