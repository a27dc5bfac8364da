// Regression tests for what the fuzzers (fuzz/) found, one per root cause; the crashing inputs
// themselves are kept in fuzz/regressions/<harness>/ and replayed by CTest (fuzz_replay_*).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "../ops/ops_test_util.h"
#include "ge/model.h"
#include "onnx/onnx_pb.h"

namespace ge {
namespace {

using testing::F32;
using testing::I64;

void AddInput(onnx::GraphProto* g, const std::string& name, int elem_type, std::vector<int64_t> dims) {
  auto* v = g->add_input();
  v->set_name(name);
  auto* tt = v->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(elem_type);
  tt->mutable_shape();
  for (int64_t d : dims) {
    if (d < 0)
      tt->mutable_shape()->add_dim()->set_dim_param("N");
    else
      tt->mutable_shape()->add_dim()->set_dim_value(d);
  }
}

void AddOutput(onnx::GraphProto* g, const std::string& name, int elem_type, int rank = 0) {
  auto* v = g->add_output();
  v->set_name(name);
  auto* tt = v->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(elem_type);
  tt->mutable_shape();
  for (int d = 0; d < rank; ++d) tt->mutable_shape()->add_dim()->set_dim_param("D" + std::to_string(d));
}

onnx::NodeProto* AddNode(onnx::GraphProto* g, const std::string& op, std::vector<std::string> in,
                         std::vector<std::string> out) {
  auto* n = g->add_node();
  n->set_op_type(op);
  n->set_name(op + "_" + std::to_string(g->node_size()));
  for (auto& s : in) n->add_input(s);
  for (auto& s : out) n->add_output(s);
  return n;
}

// Parses and compiles m through the public API.
Status LoadModel(const onnx::ModelProto& m, const ModelOptions& options, std::unique_ptr<Model>* model) {
  const std::string bytes = m.SerializeAsString();
  return Model::LoadFromMemory(bytes.data(), bytes.size(), options, model);
}

// Loads and compiles m in the given scheduling mode ("auto": sink where shapes are static).
std::unique_ptr<Model> Load(const onnx::ModelProto& m, const char* mode = "auto") {
  ModelOptions options;
  options.mode = mode;
  std::unique_ptr<Model> model;
  Status st = LoadModel(m, options, &model);
  EXPECT_TRUE(st.ok()) << st.message();
  return model;
}

// Loads and compiles m; the first failure, or OK.
Status LoadAndCompile(const onnx::ModelProto& m) {
  std::unique_ptr<Model> model;
  return LoadModel(m, ModelOptions{}, &model);
}

// Loads and compiles m: with `error`, expects that to fail with a message holding it and returns
// null; without, expects it to succeed.
std::unique_ptr<Model> LoadOrExpectError(const onnx::ModelProto& m, const char* error) {
  std::unique_ptr<Model> model;
  Status st = LoadModel(m, ModelOptions{}, &model);
  if (error != nullptr) {
    EXPECT_FALSE(st.ok());
    EXPECT_NE(st.message().find(error), std::string::npos) << st.message();
    return nullptr;
  }
  EXPECT_TRUE(st.ok()) << st.message();
  return model;
}

onnx::ModelProto NewModel() {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(17);
  m.mutable_graph()->set_name("g");
  return m;
}

// SplitToSequence copied split sizes as given: negative sizes or sizes not summing to the axis
// length read and wrote past the tensors (SIGSEGV from the backend data's sequence_model8 with
// split values [-2, 1, 2]); a chunk size <= 0 looped forever.
TEST(FuzzRegression, SplitToSequenceChecksTheSplitSizes) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "X", onnx::TensorProto::FLOAT, {-1});
  AddInput(g, "S", onnx::TensorProto::INT64, {3});
  AddNode(g, "SplitToSequence", {"X", "S"}, {"seq"});
  AddNode(g, "SequenceLength", {"seq"}, {"len"});
  AddOutput(g, "len", onnx::TensorProto::INT64);
  auto model = Load(m);
  ASSERT_NE(model, nullptr);
  std::vector<HostTensor> out;
  ASSERT_TRUE(model->Run({F32({3}, {1, 2, 3}), I64({3}, {1, 1, 1})}, &out).ok());
  EXPECT_EQ(out[0].data_as<int64_t>()[0], 3);
  // An empty X in three empty parts: three tensors (each part's copy was a memcpy from null, UBSan,
  // onnx_model harness; fuzz/regressions/onnx_model/split_to_sequence_empty_input.onnx).
  Status empty = model->Run({F32({0}, {}), I64({3}, {0, 0, 0})}, &out);
  ASSERT_TRUE(empty.ok()) << empty.message();
  EXPECT_EQ(out[0].data_as<int64_t>()[0], 3);
  for (auto bad : {std::vector<int64_t>{-2, 1, 2}, {1, 1, 2}, {0, 0, 2}}) {
    Status st = model->Run({F32({3}, {1, 2, 3}), I64({3}, bad)}, &out);
    EXPECT_FALSE(st.ok());
    EXPECT_NE(st.message().find("split sizes"), std::string::npos) << st.message();
  }
}

TEST(FuzzRegression, SplitToSequenceRejectsANonPositiveChunk) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "X", onnx::TensorProto::FLOAT, {-1});
  AddInput(g, "S", onnx::TensorProto::INT64, {});
  AddNode(g, "SplitToSequence", {"X", "S"}, {"seq"});
  AddNode(g, "SequenceLength", {"seq"}, {"len"});
  AddOutput(g, "len", onnx::TensorProto::INT64);
  auto model = Load(m);
  ASSERT_NE(model, nullptr);
  std::vector<HostTensor> out;
  for (int64_t chunk : {0, -1}) {
    Status st = model->Run({F32({3}, {1, 2, 3}), I64({}, {chunk})}, &out);
    EXPECT_FALSE(st.ok());
    EXPECT_NE(st.message().find("positive chunk"), std::string::npos) << st.message();
  }
}

// BatchNormalization read scale, B, mean and var at every channel of X without checking their
// lengths: a fuzzed model (X [2, 64, 4, 5], the others of 3 values or a scalar) read past them
// (heap-buffer-overflow in norm.cc, onnx_model harness; fuzz/regressions/onnx_model/batchnorm_short_scale.onnx).
TEST(FuzzRegression, BatchNormChecksItsPerChannelInputs) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "X", onnx::TensorProto::FLOAT, {-1, 4, 2});
  for (const char* name : {"s", "b", "mean", "var"}) AddInput(g, name, onnx::TensorProto::FLOAT, {-1});
  AddNode(g, "BatchNormalization", {"X", "s", "b", "mean", "var"}, {"Y"});
  AddOutput(g, "Y", onnx::TensorProto::FLOAT, 3);
  auto model = Load(m);
  ASSERT_NE(model, nullptr);
  std::vector<HostTensor> out;
  const HostTensor x = F32({1, 4, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  const HostTensor four = F32({4}, {1, 1, 1, 1}), three = F32({3}, {1, 1, 1});
  Status st = model->Run({x, three, four, four, four}, &out);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("expected input scale to hold 4 values (the channels of X [1, 4, 2]), got [3]"),
            std::string::npos)
      << st.message();
  st = model->Run({x, four, four, four, three}, &out);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("expected input input_var to hold 4 values"), std::string::npos) << st.message();
  // Right lengths: (x - 1) / sqrt(1 + eps) * 1 + 1 = x within float rounding.
  st = model->Run({x, four, four, four, four}, &out);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_NEAR(out[0].data_as<float>()[7], 8.f, 1e-4f);
}

// ConcatFromSequence trusted its axis and the elements' shapes (the sequence's elements may
// differ in any dim).
TEST(FuzzRegression, ConcatFromSequenceChecksAxisAndShapes) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "A", onnx::TensorProto::FLOAT, {-1, -1});
  AddInput(g, "B", onnx::TensorProto::FLOAT, {-1, -1});
  AddNode(g, "SequenceConstruct", {"A", "B"}, {"seq"});
  auto* cat = AddNode(g, "ConcatFromSequence", {"seq"}, {"Y"});
  auto* axis = cat->add_attribute();
  axis->set_name("axis");
  axis->set_type(onnx::AttributeProto::INT);
  axis->set_i(1);
  AddOutput(g, "Y", onnx::TensorProto::FLOAT, 2);
  auto model = Load(m);
  ASSERT_NE(model, nullptr);
  std::vector<HostTensor> out;
  ASSERT_TRUE(model->Run({F32({1, 2}, {1, 2}), F32({1, 1}, {3})}, &out).ok());
  EXPECT_EQ(testing::Floats(out[0]), (std::vector<float>{1, 2, 3}));
  Status st = model->Run({F32({1, 2}, {1, 2}), F32({2, 1}, {3, 4})}, &out);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("cannot concatenate"), std::string::npos) << st.message();
}

// Cast from a floating type to an integer type converted out-of-range values with a plain
// static_cast (undefined behaviour: -1.0 to uint32 under UBSan). Now through int64, as x86 and
// numpy give: -1 -> 4294967295; NaN and beyond int64 -> INT64_MIN's low bits.
TEST(FuzzRegression, CastFloatToIntegerOutOfRangeIsDefined) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "X", onnx::TensorProto::DOUBLE, {4});
  auto* cast = AddNode(g, "Cast", {"X"}, {"Y"});
  auto* to = cast->add_attribute();
  to->set_name("to");
  to->set_type(onnx::AttributeProto::INT);
  to->set_i(onnx::TensorProto::UINT32);
  AddOutput(g, "Y", onnx::TensorProto::UINT32, 1);
  auto model = Load(m);
  ASSERT_NE(model, nullptr);
  HostTensor x(DT_DOUBLE, Shape({4}));
  const double v[4] = {-1.0, 3.5, std::nan(""), 1e30};
  std::memcpy(x.mutable_data(), v, sizeof v);
  std::vector<HostTensor> out;
  ASSERT_TRUE(model->Run({x}, &out).ok());
  const auto* y = out[0].data_as<uint32_t>();
  EXPECT_EQ(y[0], 4294967295u);
  EXPECT_EQ(y[1], 3u);
  EXPECT_EQ(y[2], 0u);
  EXPECT_EQ(y[3], 0u);
}

// QuantizeLinear with scale 0 and x 0 (0 / 0) cast NaN to uint8 (undefined; UBSan, the
// onnx_model harness on the backend data's quantizelinear_axis model). NaN quantizes to 0, as
// onnx.reference's QuantizeLinear (numpy rint, clip, astype) gives on x86; inf saturates.
// DynamicQuantizeLinear over [-inf, inf] had a NaN zero point (inf / inf).
TEST(FuzzRegression, QuantizeNaNIsZero) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "X", onnx::TensorProto::FLOAT, {4});
  AddInput(g, "S", onnx::TensorProto::FLOAT, {});
  AddNode(g, "QuantizeLinear", {"X", "S"}, {"Y"});
  AddOutput(g, "Y", onnx::TensorProto::UINT8, 1);
  auto model = Load(m);
  ASSERT_NE(model, nullptr);
  const float v[4] = {0.f, 1.f, -1.f, std::nanf("")};
  HostTensor x(DT_FLOAT, Shape({4}));
  std::memcpy(x.mutable_data(), v, sizeof v);
  HostTensor s(DT_FLOAT, Shape(std::vector<int64_t>{}));
  *s.mutable_data_as<float>() = 0.f;
  std::vector<HostTensor> out;
  ASSERT_TRUE(model->Run({x, s}, &out).ok());
  const auto* y = out[0].data_as<uint8_t>();
  EXPECT_EQ(y[0], 0u);    // 0 / 0
  EXPECT_EQ(y[1], 255u);  // +inf saturates
  EXPECT_EQ(y[2], 0u);    // -inf saturates
  EXPECT_EQ(y[3], 0u);    // NaN

  auto d = NewModel();
  g = d.mutable_graph();
  AddInput(g, "X", onnx::TensorProto::FLOAT, {3});
  AddNode(g, "DynamicQuantizeLinear", {"X"}, {"Y", "Ys", "Yz"});
  AddOutput(g, "Y", onnx::TensorProto::UINT8, 1);
  AddOutput(g, "Ys", onnx::TensorProto::FLOAT, 0);
  AddOutput(g, "Yz", onnx::TensorProto::UINT8, 0);
  model = Load(d);
  ASSERT_NE(model, nullptr);
  const float w[3] = {-INFINITY, 0.f, INFINITY};
  HostTensor xd(DT_FLOAT, Shape({3}));
  std::memcpy(xd.mutable_data(), w, sizeof w);
  ASSERT_TRUE(model->Run({xd}, &out).ok());
  EXPECT_EQ(*out[2].data_as<uint8_t>(), 0u);
}

// One binary node on two inputs of `elem` type, shape [n].
std::unique_ptr<Model> Binary(const std::string& op, int elem, int64_t n,
                              std::vector<std::pair<std::string, std::string>> str_attrs = {}) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "A", elem, {n});
  AddInput(g, "B", elem, {n});
  auto* node = AddNode(g, op, {"A", "B"}, {"Y"});
  for (auto& [k, v] : str_attrs) {
    auto* a = node->add_attribute();
    a->set_name(k);
    a->set_type(onnx::AttributeProto::STRING);
    a->set_s(v);
  }
  AddOutput(g, "Y", elem, 1);
  return Load(m);
}

// Integer Add/Sub/Mul overflowed signed types (undefined); they wrap as numpy does.
TEST(FuzzRegression, IntegerAddSubMulWrap) {
  for (const char* mode_op : {"Add", "Sub", "Mul"}) {
    auto model = Binary(mode_op, onnx::TensorProto::INT64, 1);
    ASSERT_NE(model, nullptr);
    std::vector<HostTensor> out;
    const int64_t big = INT64_MAX;
    ASSERT_TRUE(model->Run({I64({1}, {big}), I64({1}, {std::string(mode_op) == "Sub" ? -2 : 2})}, &out).ok());
    EXPECT_EQ(out[0].data_as<int64_t>()[0], std::string(mode_op) == "Mul" ? -2 : INT64_MIN + 1) << mode_op;
  }
}

// BitShift by the type's width or more shifted by an undefined amount; it gives 0 (numpy).
TEST(FuzzRegression, BitShiftByTheWidthOrMoreIsZero) {
  for (const char* dir : {"LEFT", "RIGHT"}) {
    auto model = Binary("BitShift", onnx::TensorProto::UINT8, 3, {{"direction", dir}});
    ASSERT_NE(model, nullptr);
    HostTensor x(DT_UINT8, Shape({3})), s(DT_UINT8, Shape({3}));
    const uint8_t xv[3] = {1, 255, 128}, sv[3] = {255, 8, 1};
    std::memcpy(x.mutable_data(), xv, 3);
    std::memcpy(s.mutable_data(), sv, 3);
    std::vector<HostTensor> out;
    ASSERT_TRUE(model->Run({x, s}, &out).ok());
    const auto* y = out[0].data_as<uint8_t>();
    EXPECT_EQ(y[0], 0);
    EXPECT_EQ(y[1], 0);
    EXPECT_EQ(y[2], std::string(dir) == "LEFT" ? 0 : 64);
  }
}

// A GRU whose hidden_size contradicts W/R: the kernel read them by hidden_size (SEGV). Now a
// compile error naming the input and both shapes.
TEST(FuzzRegression, GruWeightsMustMatchHiddenSize) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "X", onnx::TensorProto::FLOAT, {1, 2, 3});
  AddInput(g, "W", onnx::TensorProto::FLOAT, {1, 15, 3});
  AddInput(g, "R", onnx::TensorProto::FLOAT, {1, 15, 5});
  auto* gru = AddNode(g, "GRU", {"X", "W", "R"}, {"", "Y_h"});
  auto* h = gru->add_attribute();
  h->set_name("hidden_size");
  h->set_type(onnx::AttributeProto::INT);
  h->set_i(1000);
  AddOutput(g, "Y_h", onnx::TensorProto::FLOAT, 3);
  std::unique_ptr<Model> model;
  Status st = LoadModel(m, ModelOptions{}, &model);
  if (st.ok()) {  // a host model: the error comes from the run
    HostTensor x(DT_FLOAT, Shape({1, 2, 3})), w(DT_FLOAT, Shape({1, 15, 3})), r(DT_FLOAT, Shape({1, 15, 5}));
    std::vector<HostTensor> out;
    st = model->Run({x, w, r}, &out);
  }
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("W has shape [1, 15, 3], expected [1, 3000, 3]"), std::string::npos) << st.message();
}

// Mean("data_0", ""): an empty name among a variadic op's inputs reached the tiling as a null
// tensor. Every input of a dynamic (variadic) parameter must be given.
TEST(FuzzRegression, VariadicInputsMustNotBeEmpty) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "A", onnx::TensorProto::FLOAT, {3});
  AddNode(g, "Mean", {"A", ""}, {"Y"});
  AddOutput(g, "Y", onnx::TensorProto::FLOAT, 1);
  std::unique_ptr<Model> model;
  Status st = LoadModel(m, ModelOptions{}, &model);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("is empty"), std::string::npos) << st.message();
}

// Shapes above 25 dims (gert::Shape's capacity) were truncated silently; now an error.
TEST(RankLimit, AnOutputAbove25DimsIsAnError) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "X", onnx::TensorProto::FLOAT, std::vector<int64_t>(25, 1));
  auto* axes = g->add_initializer();
  axes->set_name("axes");
  axes->set_data_type(onnx::TensorProto::INT64);
  axes->add_dims(1);
  axes->add_int64_data(0);
  AddNode(g, "Unsqueeze", {"X", "axes"}, {"Y"});
  AddOutput(g, "Y", onnx::TensorProto::FLOAT, 26);
  Status st = LoadAndCompile(m);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("more than 25 dims"), std::string::npos) << st.message();
}

TEST(RankLimit, AnInputAbove25DimsIsAnError) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "X", onnx::TensorProto::FLOAT, {-1});
  AddNode(g, "Relu", {"X"}, {"Y"});
  AddOutput(g, "Y", onnx::TensorProto::FLOAT, 1);
  auto model = Load(m);
  ASSERT_NE(model, nullptr);
  // The declared rank is 1, so a rank-26 tensor is refused by the rank check either way; the
  // message says which limit.
  std::vector<HostTensor> out;
  Status st = model->Run({HostTensor(DT_FLOAT, Shape(std::vector<int64_t>(26, 1)))}, &out);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("rank 26 is above the most GE supports (25)"), std::string::npos) << st.message();
}

void StrAttr(onnx::NodeProto* n, const std::string& name, const std::string& v) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::STRING);
  a->set_s(v);
}

onnx::AttributeProto* IntAttr(onnx::NodeProto* n, const std::string& name, int64_t v) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
  return a;
}

onnx::AttributeProto* IntsAttr(onnx::NodeProto* n, const std::string& name, std::vector<int64_t> v) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (int64_t x : v) a->add_ints(x);
  return a;
}

// TfIdfVectorizer looped up to max_gram_length / max_skip_count as given (2^62: a hang, and an
// overflowing window size); windows longer than the row are now not tried.
TEST(FuzzRegression, TfIdfHugeGramLengthAndSkipFinish) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "X", onnx::TensorProto::INT64, {1, 4});
  auto* n = AddNode(g, "TfIdfVectorizer", {"X"}, {"Y"});
  IntAttr(n, "min_gram_length", 1);
  IntAttr(n, "max_gram_length", int64_t{1} << 62);
  IntAttr(n, "max_skip_count", int64_t{1} << 62);
  IntsAttr(n, "ngram_counts", {0});
  IntsAttr(n, "ngram_indexes", {0});
  IntsAttr(n, "pool_int64s", {1});
  StrAttr(n, "mode", "TF");
  AddOutput(g, "Y", onnx::TensorProto::FLOAT, 2);
  auto model = Load(m);
  ASSERT_NE(model, nullptr);
  std::vector<HostTensor> out;
  ASSERT_TRUE(model->Run({I64({1, 4}, {1, 2, 1, 3})}, &out).ok());
  EXPECT_EQ(testing::Floats(out[0]), (std::vector<float>{2}));
}

// Conv checked X's channels against W's channels * group with a plain multiply (signed overflow).
TEST(FuzzRegression, ConvGroupTimesChannelsOverflowIsAnError) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "X", onnx::TensorProto::FLOAT, {1, 4, 3, 3});
  AddInput(g, "W", onnx::TensorProto::FLOAT, {1, int64_t{1} << 62, 1, 1});
  auto* n = AddNode(g, "Conv", {"X", "W"}, {"Y"});
  IntAttr(n, "group", 4);
  AddOutput(g, "Y", onnx::TensorProto::FLOAT, 4);
  std::unique_ptr<Model> model;
  Status st = LoadModel(m, ModelOptions{}, &model);
  EXPECT_FALSE(st.ok());
}

// MatMul on int32 overflowed in its reference GEMM (signed overflow); it wraps, as numpy does.
TEST(FuzzRegression, IntegerMatMulWraps) {
  auto model = Binary("MatMul", onnx::TensorProto::INT32, 1);
  ASSERT_NE(model, nullptr);
  std::vector<HostTensor> out;
  const int32_t v = -2054847099;
  ASSERT_TRUE(model->Run({testing::I32({1}, {v}), testing::I32({1}, {v})}, &out).ok());
  EXPECT_EQ(out[0].data_as<int32_t>()[0], static_cast<int32_t>(static_cast<uint32_t>(v) * static_cast<uint32_t>(v)));
}

// A pooling window of 2^62 elements with pads of 2^62 passed the per-dim checks; the window's
// element count overflowed in the kernel. Window and padded extents must fit int64 overall.
TEST(FuzzRegression, PoolWindowWhoseElementCountOverflowsIsAnError) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "X", onnx::TensorProto::FLOAT, {1, 1, 3, 3});
  auto* n = AddNode(g, "LpPool", {"X"}, {"Y"});
  const int64_t k = int64_t{1} << 31;
  IntsAttr(n, "kernel_shape", {k, k});
  IntsAttr(n, "pads", {k, k, k, k});
  AddOutput(g, "Y", onnx::TensorProto::FLOAT, 4);
  std::unique_ptr<Model> model;
  Status st = LoadModel(m, ModelOptions{}, &model);
  if (st.ok()) {
    std::vector<HostTensor> out;
    st = model->Run({HostTensor(DT_FLOAT, Shape({1, 1, 3, 3}))}, &out);
  }
  EXPECT_FALSE(st.ok());
}

// ConvTranspose computed its output size with unchecked multiplies of model attributes.
TEST(FuzzRegression, ConvTransposeHugeStrideIsAnError) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "X", onnx::TensorProto::FLOAT, {1, 1, 3, 3});
  AddInput(g, "W", onnx::TensorProto::FLOAT, {1, 1, 2, 2});
  auto* n = AddNode(g, "ConvTranspose", {"X", "W"}, {"Y"});
  IntsAttr(n, "strides", {INT64_MAX, 1});
  AddOutput(g, "Y", onnx::TensorProto::FLOAT, 4);
  std::unique_ptr<Model> model;
  Status st = LoadModel(m, ModelOptions{}, &model);
  EXPECT_FALSE(st.ok());
}

// BitShift(uint32 scalar, uint8 [3, 255]) read the uint8 input as uint32 (heap overflow): the
// elementwise n-ary ops require their data inputs to share one type.
TEST(FuzzRegression, NaryOpsRequireOneInputType) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "X", onnx::TensorProto::UINT32, {});
  AddInput(g, "Y", onnx::TensorProto::UINT8, {3, 255});
  auto* n = AddNode(g, "BitShift", {"X", "Y"}, {"Z"});
  StrAttr(n, "direction", "LEFT");
  AddOutput(g, "Z", onnx::TensorProto::UINT32, 2);
  Status st = LoadAndCompile(m);
  ASSERT_FALSE(st.ok());
}

// MatMul(uint64 [1, 2, 3, 4], float [1, 2, 4, 3]) read the float B as uint64 (heap overflow in
// the reference GEMM): A and B of a product must share a dtype.
TEST(FuzzRegression, MatMulRequiresOneInputType) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "a", onnx::TensorProto::UINT64, {1, 2, 3, 4});
  AddInput(g, "b", onnx::TensorProto::FLOAT, {1, 2, 4, 3});
  AddNode(g, "MatMul", {"a", "b"}, {"c"});
  AddOutput(g, "c", onnx::TensorProto::UINT64, 4);
  Status st = LoadAndCompile(m);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("node 'MatMul_1' (MatMul): data type inference failed for inputs (uint64[1, 2, 3, 4], "
                              "float32[1, 2, 4, 3]): expected A and B of one dtype, got uint64 and float32"),
            std::string::npos)
      << st.message();
}

// Transpose with perm [0, 1, 4, 3, 5, 3] (axis 3 twice) made an output shape that is not a
// permutation of the input's, and the strided copy read past the input: perm must name every
// axis once.
TEST(FuzzRegression, TransposePermMustBeAPermutation) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "x", onnx::TensorProto::FLOAT, {1, 1, 1, 48, 1, 1});
  auto* n = AddNode(g, "Transpose", {"x"}, {"y"});
  auto* perm = n->add_attribute();
  perm->set_name("perm");
  perm->set_type(onnx::AttributeProto::INTS);
  for (int64_t d : {0, 1, 4, 3, 5, 3}) perm->add_ints(d);
  AddOutput(g, "y", onnx::TensorProto::FLOAT, 6);
  Status st = LoadAndCompile(m);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("names axis 3 twice"), std::string::npos) << st.message();
}

// LRN's size attribute was used as given: size INT32_MIN overflowed (size - 1) / 2 (UBSan,
// onnx_model harness). It must be a positive channel count.
TEST(FuzzRegression, LrnSizeMustBePositive) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "X", onnx::TensorProto::FLOAT, {1, 3, 2, 2});
  auto* n = AddNode(g, "LRN", {"X"}, {"Y"});
  IntAttr(n, "size", -2147483648LL);
  AddOutput(g, "Y", onnx::TensorProto::FLOAT, 4);
  Status st = LoadAndCompile(m);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("LRN size -2147483648 must be a positive number of channels"), std::string::npos)
      << st.message();
}

// Graph inputs are checked before anything sizes them: a declared shape whose byte size
// overflows (the memory planner multiplied it unchecked: UBSan, onnx_model harness) and an input
// without an element type (passed the ops' dtype checks; TfIdfVectorizer read it as int64:
// heap-buffer-overflow) are errors naming the input.
TEST(FuzzRegression, GraphInputDeclarationsAreChecked) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "data", onnx::TensorProto::INT64, {int64_t{4611686018427387903}, 2});
  AddNode(g, "Neg", {"data"}, {"y"});
  AddOutput(g, "y", onnx::TensorProto::INT64, 2);
  Status st = LoadAndCompile(m);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("graph input 'data' declares int64[4611686018427387903, 2], whose byte size overflows "
                              "64 bits"),
            std::string::npos)
      << st.message();

  // A negative dim_value (ONNX: >= 0) passed as if it were the -1 of an unknown dim: a Slice
  // of an int64[-128] input overflowed its start arithmetic (UBSan).
  m = NewModel();
  g = m.mutable_graph();
  AddInput(g, "x", onnx::TensorProto::FLOAT, {2});
  g->mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0)->set_dim_value(-128);
  AddNode(g, "Neg", {"x"}, {"y"});
  AddOutput(g, "y", onnx::TensorProto::FLOAT, 1);
  st = LoadAndCompile(m);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("graph input: value 'x': dim 0 is -128 (a dim_value must be >= 0)"), std::string::npos)
      << st.message();

  m = NewModel();
  g = m.mutable_graph();
  AddInput(g, "X", onnx::TensorProto::UNDEFINED, {4});
  AddNode(g, "Identity", {"X"}, {"Y"});
  AddOutput(g, "Y", onnx::TensorProto::FLOAT, 1);
  st = LoadAndCompile(m);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("graph input 'X' has no element type"), std::string::npos) << st.message();
}

// ONNX's version converter adapts an opset < 7 Gemm by reading A's and B's dims 0 and 1
// unchecked: Gemm(b, b, c) with b of rank 1 read past b's dims (heap-buffer-overflow inside
// onnx::version_conversion::Gemm_6_7, onnx_model harness). A and B must be declared rank 2.
TEST(FuzzRegression, OldGemmNeedsRank2Operands) {
  onnx::ModelProto m;
  m.set_ir_version(3);
  m.add_opset_import()->set_version(5);
  auto* g = m.mutable_graph();
  g->set_name("g");
  AddInput(g, "b", onnx::TensorProto::FLOAT, {6});
  AddInput(g, "c", onnx::TensorProto::FLOAT, {});
  AddNode(g, "Gemm", {"b", "b", "c"}, {"y"});
  AddOutput(g, "y", onnx::TensorProto::FLOAT, 2);
  Status st = LoadAndCompile(m);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("an opset 5 Gemm is converted to opset 7's broadcasting, which needs input 0 'b' "
                              "declared with rank 2, got rank 1"),
            std::string::npos)
      << st.message();
}

// Range accepted any dtype for each of start, limit and delta and computed in the first one's:
// a uint64 Range counting down cast -1 to uint64 (UBSan, onnx_model harness). ONNX's types only,
// all three one dtype.
TEST(FuzzRegression, RangeTakesOneSignedOrFloatDtype) {
  for (auto [dt, want] : std::vector<std::pair<int, std::string>>{
           {onnx::TensorProto::UINT64,
            "input 'start' ('start') has dtype uint64, expected one of float32, float64, "
            "int16, int32, int64"},
           {onnx::TensorProto::INT32, "expected start, limit and delta of one dtype, got int32, int64 and int64"}}) {
    auto m = NewModel();
    auto* g = m.mutable_graph();
    AddInput(g, "start", dt, {});
    AddInput(g, "limit", onnx::TensorProto::INT64, {});
    AddInput(g, "delta", onnx::TensorProto::INT64, {});
    AddNode(g, "Range", {"start", "limit", "delta"}, {"y"});
    AddOutput(g, "y", onnx::TensorProto::INT64, 1);
    Status st = LoadAndCompile(m);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message().find(want), std::string::npos) << st.message();
  }
}

// MaxUnpool divided flat indices by output dims computed from kernel_shape, strides and pads as
// given: kernel_shape 0 with a 2^62 stride made a zero dim (division by zero, onnx_model harness).
TEST(FuzzRegression, MaxUnpoolNeedsPositiveOutputDims) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "X", onnx::TensorProto::FLOAT, {1, 1, 2, 1});
  AddInput(g, "I", onnx::TensorProto::INT64, {1, 1, 2, 1});
  auto* n = AddNode(g, "MaxUnpool", {"X", "I"}, {"Y"});
  IntsAttr(n, "kernel_shape", {2, 0});
  IntsAttr(n, "strides", {int64_t{1} << 62, 2});
  AddOutput(g, "Y", onnx::TensorProto::FLOAT, 4);
  Status st = LoadAndCompile(m);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("give no positive output size for the input [1, 1, 2, 1]"), std::string::npos)
      << st.message();
}

// ConvTranspose's tiling multiplied N x C x M/group x kernel x input pixels unchecked: a
// 1x1x2147483647x3 input with an output_shape of 2^40 overflowed int64 (UBSan, onnx_model
// harness). The product is checked and the node fails with the reason.
TEST(FuzzRegression, ConvTransposeWorkOverflowIsAnError) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "X", onnx::TensorProto::FLOAT, {1, 1, 2147483647, 3});
  auto* n = AddNode(g, "ConvTranspose", {"X", "X"}, {"Y"});
  IntsAttr(n, "output_shape", {3, int64_t{1} << 40});
  IntsAttr(n, "strides", {3, 2});
  AddOutput(g, "Y", onnx::TensorProto::FLOAT, 4);
  Status st = LoadAndCompile(m);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("the work of this ConvTranspose (N x C x M/group x kernel x input pixels) exceeds int64"),
            std::string::npos)
      << st.message();
}

// TfIdfVectorizer's tiling made a weights vector of out_dim floats (largest ngram index + 1): an
// index of 2^40 allocated 4 TiB on the host before anything checked it (out of memory under
// ASan, onnx_model harness). Only given weights are kept; the 4 TiB output is the device
// allocator's clean out-of-memory error.
TEST(FuzzRegression, TfIdfHugeIndexIsAnOutOfMemoryError) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "X", onnx::TensorProto::INT32, {7});
  auto* n = AddNode(g, "TfIdfVectorizer", {"X"}, {"Y"});
  IntAttr(n, "min_gram_length", 1);
  IntAttr(n, "max_gram_length", 1);
  IntAttr(n, "max_skip_count", 0);
  IntsAttr(n, "ngram_counts", {0});
  IntsAttr(n, "ngram_indexes", {0, int64_t{1} << 40});
  IntsAttr(n, "pool_int64s", {2, 3});
  StrAttr(n, "mode", "TF");
  AddOutput(g, "Y", onnx::TensorProto::FLOAT, 1);
  Status st = LoadAndCompile(m);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), Status::kOutOfMemory) << st.message();
}

// Add/Sub/Mul/Div computed in A's dtype whatever B's: Div(int64 [1], float [3, 1, 5]) read the
// float B as int64 past its buffer (heap-buffer-overflow, onnx_model harness, from the backend
// data's expanded softmax). A and B must share a dtype.
TEST(FuzzRegression, ArithmeticRequiresOneInputType) {
  for (const char* op : {"Add", "Sub", "Mul", "Div"}) {
    auto m = NewModel();
    auto* g = m.mutable_graph();
    AddInput(g, "A", onnx::TensorProto::INT64, {1});
    AddInput(g, "B", onnx::TensorProto::FLOAT, {3, 1, 5});
    AddNode(g, op, {"A", "B"}, {"C"});
    AddOutput(g, "C", onnx::TensorProto::INT64, 3);
    Status st = LoadAndCompile(m);
    ASSERT_FALSE(st.ok()) << op;
    EXPECT_NE(st.message().find("expected A and B of one dtype, got int64 and float32"), std::string::npos)
        << st.message();
  }
}

// Integer Shrink cast x - bias back to the integer type unchecked: uint8 2 - 1e30 (UBSan,
// onnx_model harness). Out of range it is x86's integer indefinite, as numpy's astype gives
// there: (np.uint8(2) - 1e30).astype(np.uint8) == 0.
TEST(FuzzRegression, IntegerShrinkOutOfRangeIsDefined) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "x", onnx::TensorProto::UINT8, {3});
  auto* n = AddNode(g, "Shrink", {"x"}, {"y"});
  auto* bias = n->add_attribute();
  bias->set_name("bias");
  bias->set_type(onnx::AttributeProto::FLOAT);
  bias->set_f(1e30f);
  auto* lambd = n->add_attribute();
  lambd->set_name("lambd");
  lambd->set_type(onnx::AttributeProto::FLOAT);
  lambd->set_f(1.f);
  AddOutput(g, "y", onnx::TensorProto::UINT8, 1);
  auto model = Load(m);
  ASSERT_NE(model, nullptr);
  HostTensor x(DT_UINT8, Shape({3}));
  const uint8_t v[3] = {0, 2, 5};
  std::memcpy(x.mutable_data(), v, sizeof v);
  std::vector<HostTensor> out;
  ASSERT_TRUE(model->Run({x}, &out).ok());
  const auto* y = out[0].data_as<uint8_t>();
  EXPECT_EQ(y[0], 0u);
  EXPECT_EQ(y[1], 0u);
  EXPECT_EQ(y[2], 0u);
}

// Conv's tiling multiplied the FLOP count unchecked: a Conv of a [1, 1, 3, 3, 2^31 - 1] input
// overflowed it at compile time (UBSan, onnx_model harness).
TEST(FuzzRegression, ConvSizesOverflowIsAnError) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "W", onnx::TensorProto::FLOAT, {1, 1, 3, 3, 2147483647});
  auto* n = AddNode(g, "Conv", {"W", "W"}, {"y"});
  IntsAttr(n, "kernel_shape", {3, 3, 2147483647});
  IntsAttr(n, "pads", {1, 16, int64_t{1} << 31, 0, 0, 0});
  IntsAttr(n, "strides", {2, 2, 2});
  AddOutput(g, "y", onnx::TensorProto::FLOAT, 5);
  Status st = LoadAndCompile(m);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("too large"), std::string::npos) << st.message();
}

// Static inference's partial values multiplied a Reshape target's known dims unchecked: target
// [0, 2^63 - 1, -1] of a [3, N, 2] input overflowed (UBSan, onnx_model harness, from the backend
// data's expanded SoftmaxCrossEntropyLoss). The -1 stays unknown; the run is Reshape's error.
TEST(FuzzRegression, ReshapeTargetProductOverflowIsAnError) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "x", onnx::TensorProto::FLOAT, {3, -1, 2});
  auto* shape = g->add_initializer();
  shape->set_name("shape");
  shape->set_data_type(onnx::TensorProto::INT64);
  shape->add_dims(3);
  for (int64_t d : {int64_t{0}, INT64_MAX, int64_t{-1}}) shape->add_int64_data(d);
  AddNode(g, "Reshape", {"x", "shape"}, {"y"});
  AddOutput(g, "y", onnx::TensorProto::FLOAT, 3);
  auto model = Load(m);
  ASSERT_NE(model, nullptr);
  std::vector<HostTensor> out;
  Status st = model->Run({F32({3, 1, 2}, {1, 2, 3, 4, 5, 6})}, &out);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("the element count of shape overflows"), std::string::npos) << st.message();
}

// Conv checked X's channels against W's times group but not W's output channels against group:
// group 2^31 over 20 output channels (and 0 input channels) made 20 * 2^31 empty work units
// (past 100 s, onnx_model harness). ONNX: M is divisible by group.
TEST(FuzzRegression, ConvOutputChannelsMustSplitIntoGroups) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "X", onnx::TensorProto::FLOAT, {1, 4, 5, 5});
  AddInput(g, "W", onnx::TensorProto::FLOAT, {6, 1, 3, 3});
  auto* n = AddNode(g, "Conv", {"X", "W"}, {"Y"});
  IntAttr(n, "group", 4);
  AddOutput(g, "Y", onnx::TensorProto::FLOAT, 4);
  Status st = LoadAndCompile(m);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("expected W dim 0 (6) divisible by group (4)"), std::string::npos) << st.message();
}

// GridSample read grid n for image n without checking the grid's batch: X of batch 255 with a
// batch-1 grid read past the grid (heap-buffer-overflow, onnx_model harness).
TEST(FuzzRegression, GridSampleBatchesMustMatch) {
  auto m = NewModel();
  m.mutable_opset_import(0)->set_version(16);
  auto* g = m.mutable_graph();
  AddInput(g, "X", onnx::TensorProto::FLOAT, {255, 1, 4, 4});
  AddInput(g, "Grid", onnx::TensorProto::FLOAT, {1, 6, 4, 2});
  AddNode(g, "GridSample", {"X", "Grid"}, {"Y"});
  AddOutput(g, "Y", onnx::TensorProto::FLOAT, 4);
  Status st = LoadAndCompile(m);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("expected X and grid of one batch size, got [255, 1, 4, 4] and [1, 6, 4, 2]"),
            std::string::npos)
      << st.message();
}

// MaxUnpool read I element for element over X without checking I's shape: X [255, 1, 2, 2]
// with I [1, 1, 2, 2, 4] read past I (heap-buffer-overflow, onnx_model harness).
TEST(FuzzRegression, MaxUnpoolIndicesMustMatchX) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "X", onnx::TensorProto::FLOAT, {4, 1, 2, 2});
  AddInput(g, "I", onnx::TensorProto::INT64, {1, 1, 2, 2});
  auto* n = AddNode(g, "MaxUnpool", {"X", "I"}, {"Y"});
  IntsAttr(n, "kernel_shape", {2, 2});
  IntsAttr(n, "strides", {2, 2});
  AddOutput(g, "Y", onnx::TensorProto::FLOAT, 4);
  Status st = LoadAndCompile(m);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("expected I of X's shape [4, 1, 2, 2], got [1, 1, 2, 2]"), std::string::npos)
      << st.message();
}

// SAME_UPPER pads of a 2^63 - 1 kernel overflowed the padded extent (UBSan in ComputeWindow,
// onnx_model harness): an invalid window.
TEST(FuzzRegression, PoolSamePadsOverflowIsAnError) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "x", onnx::TensorProto::FLOAT, {1, 1, 7, 5});
  auto* n = AddNode(g, "AveragePool", {"x"}, {"y"});
  IntsAttr(n, "kernel_shape", {INT64_MAX, 3});
  StrAttr(n, "auto_pad", "SAME_UPPER");
  AddOutput(g, "y", onnx::TensorProto::FLOAT, 4);
  Status st = LoadAndCompile(m);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("invalid window for input [1, 1, 7, 5]: "), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("overflows int64"), std::string::npos) << st.message();
}

// Two MaxPool finds (UBSan, onnx_model harness; fuzz/regressions/onnx_model/maxpool_*): SAME_UPPER
// pads of a spatial dim unknown at compile time (-1) overflowed with an INT64_MAX kernel, and the
// tiling's work estimate (planes x outputs x kernel) overflowed for a 2^40 kernel over 1024
// planes. An unknown spatial dim leaves the window to the run (where this kernel's pads are an
// error); the work estimate saturates.
TEST(FuzzRegression, PoolWindowsOfUnknownDimsAndHugeKernels) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "x", onnx::TensorProto::FLOAT, {1, 1, -1, -1});
  auto* n = AddNode(g, "MaxPool", {"x"}, {"y"});
  IntsAttr(n, "kernel_shape", {INT64_MAX, 3});
  StrAttr(n, "auto_pad", "SAME_UPPER");
  AddOutput(g, "y", onnx::TensorProto::FLOAT, 4);
  auto model = Load(m);
  ASSERT_NE(model, nullptr);
  std::vector<HostTensor> out;
  Status st = model->Run({F32({1, 1, 2, 2}, {1, 2, 3, 4})}, &out);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("invalid window for input [1, 1, 2, 2]: "), std::string::npos) << st.message();

  auto h = NewModel();
  g = h.mutable_graph();
  AddInput(g, "x", onnx::TensorProto::FLOAT, {1024, 1, 32, 32});
  n = AddNode(g, "MaxPool", {"x"}, {"y"});
  IntsAttr(n, "kernel_shape", {int64_t{1} << 40, 16});
  StrAttr(n, "auto_pad", "SAME_UPPER");
  AddOutput(g, "y", onnx::TensorProto::FLOAT, 4);
  st = LoadAndCompile(h);
  EXPECT_TRUE(st.ok()) << st.message();
}

// AveragePool with 5 pads over a 2-D input was accepted, the fifth ignored and the rest read as
// begin / end pads (a 2-hour stretch of the onnx_model harness timed out on one such model). Each
// list attribute of a window holds one value per spatial dim (pads: two).
TEST(FuzzRegression, WindowListsHoldOneValuePerSpatialDim) {
  struct Case {
    const char* op;
    const char* attr;
    std::vector<int64_t> values;
    const char* expect;
  };
  for (const Case& c : {Case{"AveragePool", "pads", {0, 0, 1, 1, 1}, "'pads' has 5 values, expected 4"},
                        Case{"MaxPool", "strides", {1, 1, 1}, "'strides' has 3 values, expected 2"},
                        Case{"MaxPool", "dilations", {1}, "'dilations' has 1 values, expected 2"},
                        Case{"Conv", "pads", {1, 1}, "'pads' has 2 values, expected 4"}}) {
    SCOPED_TRACE(std::string(c.op) + " " + c.attr);
    auto m = NewModel();
    auto* g = m.mutable_graph();
    AddInput(g, "x", onnx::TensorProto::FLOAT, {1, 1, 7, 5});
    std::vector<std::string> inputs = {"x"};
    if (std::string(c.op) == "Conv") {
      AddInput(g, "w", onnx::TensorProto::FLOAT, {1, 1, 3, 3});
      inputs.push_back("w");
    }
    auto* n = AddNode(g, c.op, inputs, {"y"});
    if (std::string(c.op) != "Conv") IntsAttr(n, "kernel_shape", {3, 3});
    IntsAttr(n, c.attr, c.values);
    AddOutput(g, "y", onnx::TensorProto::FLOAT, 4);
    Status st = LoadAndCompile(m);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message().find(c.expect), std::string::npos) << st.message();
  }
}

// ScatterND wrote float updates into double data element for element, reading past the updates
// (heap-buffer-overflow, onnx_model harness): data and updates share a dtype.
TEST(FuzzRegression, ScatterUpdatesMatchData) {
  for (const char* op : {"ScatterND", "ScatterElements"}) {
    auto m = NewModel();
    auto* g = m.mutable_graph();
    AddInput(g, "data", onnx::TensorProto::DOUBLE, {4, 4});
    AddInput(g, "indices", onnx::TensorProto::INT64, {2, 1});
    AddInput(g, "updates", onnx::TensorProto::FLOAT, {2, op == std::string("ScatterND") ? 4 : 1});
    AddNode(g, op, {"data", "indices", "updates"}, {"y"});
    AddOutput(g, "y", onnx::TensorProto::DOUBLE, 2);
    Status st = LoadAndCompile(m);
    ASSERT_FALSE(st.ok()) << op;
    EXPECT_NE(st.message().find("expected data and updates of one dtype, got float64 and float32"), std::string::npos)
        << st.message();
  }
}

// SequenceAt read its position as int64 whatever it held: an empty double position was a null
// read (UBSan, onnx_model harness). A position is one int32 or int64 value.
TEST(FuzzRegression, SequencePositionIsOneInteger) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "X", onnx::TensorProto::FLOAT, {3, 2});
  AddInput(g, "P", onnx::TensorProto::DOUBLE, {0});
  auto* n = AddNode(g, "SplitToSequence", {"X"}, {"seq"});
  IntAttr(n, "axis", 0);
  AddNode(g, "SequenceAt", {"seq", "P"}, {"out"});
  AddOutput(g, "out", onnx::TensorProto::FLOAT, 2);
  Status st = LoadAndCompile(m);
  if (st.ok()) {
    auto model = Load(m);
    ASSERT_NE(model, nullptr);
    std::vector<HostTensor> out;
    st = model->Run({F32({3, 2}, {1, 2, 3, 4, 5, 6}), HostTensor(DT_DOUBLE, Shape({0}))}, &out);
  }
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("position must be one int32 or int64 value, got float64[0]"), std::string::npos)
      << st.message();
}

// MaxPool with a 2^40-tall kernel and SAME_LOWER pads over a 3 x 4 input stepped through every
// padding tap of every window (a timeout, onnx_model harness; minutes without the sanitizers).
// Window loops now visit only the taps inside the input. Each output is the maximum over its
// whole column pair: ONNX's SAME_LOWER puts the one W pad before the input, so the 2-wide window
// of column w covers columns w - 1 and w; AveragePool of the same window (pads excluded) is the
// mean of those columns.
TEST(FuzzRegression, PoolKernelFarWiderThanTheInputVisitsOnlyItsInputTaps) {
  for (const char* mode : {"sink", "host"})
    for (const char* op : {"MaxPool", "AveragePool"}) {
      SCOPED_TRACE(std::string(op) + " " + mode);
      auto m = NewModel();
      auto* g = m.mutable_graph();
      AddInput(g, "x", onnx::TensorProto::FLOAT, {1, 1, 3, 4});
      auto* n = AddNode(g, op, {"x"}, {"y"});
      IntsAttr(n, "kernel_shape", {int64_t{1} << 40, 2});
      StrAttr(n, "auto_pad", "SAME_LOWER");
      AddOutput(g, "y", onnx::TensorProto::FLOAT, 4);
      auto model = Load(m, mode);
      ASSERT_NE(model, nullptr);
      // x[h][w] = 10 h + w, except one large value at (1, 2).
      std::vector<float> x = {0, 1, 2, 3, 10, 11, 99, 13, 20, 21, 22, 23};
      std::vector<HostTensor> out;
      ASSERT_TRUE(model->Run({F32({1, 1, 3, 4}, x)}, &out).ok());
      ASSERT_EQ(out.size(), 1u);
      ASSERT_EQ(out[0].shape(), Shape({1, 1, 3, 4}));
      std::vector<float> row;
      if (std::string(op) == "MaxPool") {
        row = {20, 21, 99, 99};
      } else {  // column means 10, 11, 41, 13; window of column w: columns w - 1 and w
        row = {10, 10.5f, 26, 27};
      }
      const float* y = out[0].data_as<float>();
      for (int h = 0; h < 3; ++h)
        for (int w = 0; w < 4; ++w) EXPECT_FLOAT_EQ(y[h * 4 + w], row[w]) << h << ", " << w;
    }
}

// A Transpose of an empty [0, 3, 1] tensor to [1, 3, 0] took the small-inner-dim transpose path,
// which divides by the output's row length, 0: SIGFPE (onnx_model harness). An empty view copies
// nothing: sunk with the static shape, host-run with a dynamic last dim.
TEST(FuzzRegression, TransposeOfAnEmptyTensorIsEmpty) {
  for (const char* mode : {"sink", "host"}) {
    SCOPED_TRACE(mode);
    const bool sink = std::string(mode) == "sink";
    auto m = NewModel();
    auto* g = m.mutable_graph();
    AddInput(g, "data", onnx::TensorProto::UINT16, {0, 3, sink ? 1 : -1});
    AddNode(g, "Transpose", {"data"}, {"t"});
    AddOutput(g, "t", onnx::TensorProto::UINT16, 3);
    auto model = Load(m, mode);
    ASSERT_NE(model, nullptr);
    for (int64_t n : sink ? std::vector<int64_t>{1} : std::vector<int64_t>{1, 2, 5}) {
      std::vector<HostTensor> out;
      Status st = model->Run({HostTensor(DT_UINT16, Shape({0, 3, n}))}, &out);
      ASSERT_TRUE(st.ok()) << st.message();
      ASSERT_EQ(out.size(), 1u);
      EXPECT_EQ(out[0].shape(), Shape({n, 3, 0}));
    }
  }
}

// Sub of an empty [3, 0, 255] tensor and a [3, 1, 255] one (a mutated LogSoftmax expansion) took
// the row-broadcast path, which divides the block's start by every output dim before looking at
// the range: SIGFPE (onnx_model harness). In sink and host modes the output is empty.
TEST(FuzzRegression, BroadcastOfAnEmptyTensorIsEmpty) {
  for (const char* mode : {"sink", "host"}) {
    SCOPED_TRACE(mode);
    auto m = NewModel();
    auto* g = m.mutable_graph();
    AddInput(g, "x", onnx::TensorProto::FLOAT, {3, 0, 255});
    AddInput(g, "y", onnx::TensorProto::FLOAT, {3, 1, 255});
    AddNode(g, "Sub", {"x", "y"}, {"z"});
    AddOutput(g, "z", onnx::TensorProto::FLOAT, 3);
    ModelOptions options;
    options.mode = mode;
    std::unique_ptr<Model> model;
    Status st = LoadModel(m, options, &model);
    ASSERT_TRUE(st.ok()) << st.message();
    std::vector<HostTensor> out;
    st = model->Run({HostTensor(DT_FLOAT, Shape({3, 0, 255})), F32({3, 1, 255}, std::vector<float>(765, 1.f))}, &out);
    ASSERT_TRUE(st.ok()) << st.message();
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].shape(), Shape({3, 0, 255}));
  }
}

// RoiAlign with spatial_scale 1e30 and the adaptive sampling grid (sampling_ratio <= 0): the
// grid, ceil(roi extent / output extent) points a side, was 3e29, cast to int64 (undefined), then
// looped over (onnx_model harness). A grid over 2^16 points per bin is a run error naming the roi
// row; so is a sampling_ratio asking for one.
TEST(FuzzRegression, RoiAlignSamplingGridIsBounded) {
  for (const char* mode : {"sink", "host"}) {
    SCOPED_TRACE(mode);
    auto build = [](float scale, int64_t ratio) {
      auto m = NewModel();
      auto* g = m.mutable_graph();
      AddInput(g, "X", onnx::TensorProto::FLOAT, {1, 1, 10, 10});
      AddInput(g, "rois", onnx::TensorProto::FLOAT, {1, 4});
      AddInput(g, "batch_indices", onnx::TensorProto::INT64, {1});
      auto* n = AddNode(g, "RoiAlign", {"X", "rois", "batch_indices"}, {"Y"});
      IntAttr(n, "output_height", 5);
      IntAttr(n, "output_width", 5);
      IntAttr(n, "sampling_ratio", ratio);
      auto* a = n->add_attribute();
      a->set_name("spatial_scale");
      a->set_type(onnx::AttributeProto::FLOAT);
      a->set_f(scale);
      AddOutput(g, "Y", onnx::TensorProto::FLOAT, 4);
      return m;
    };
    const std::vector<HostTensor> inputs = {F32({1, 1, 10, 10}, std::vector<float>(100, 1.f)),
                                            F32({1, 4}, {0, 0, 3, 3}), I64({1}, {0})};
    auto model = Load(build(1e30f, 0), mode);
    ASSERT_NE(model, nullptr);
    std::vector<HostTensor> out;
    Status st = model->Run(inputs, &out);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message().find("input 'rois' row 0 needs a"), std::string::npos) << st.message();
    EXPECT_NE(st.message().find("check spatial_scale"), std::string::npos) << st.message();

    st = LoadAndCompile(build(1.f, 1 << 20));
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message().find("sampling_ratio 1048576 asks for more than"), std::string::npos) << st.message();

    // A roi of negative extent (x2 < x1, y2 < y1) samples nothing: zeros, also at that scale (its
    // -3e29-point grid side was cast to int64 too: UBSan, the CI's fuzz smoke replay).
    st = model->Run({inputs[0], F32({1, 4}, {3, 3, 0, 0}), inputs[2]}, &out);
    ASSERT_TRUE(st.ok()) << st.message();
    ASSERT_EQ(out[0].NumElements(), 25);
    for (int64_t i = 0; i < 25; ++i) EXPECT_EQ(out[0].data_as<float>()[i], 0.f) << i;

    // A run's samples are bounded too (2^31): sampling_ratio 200 over 100 rois of 255 x 4 bins
    // (4e9 samples) is refused where it is tiled (sink: at compile time, host: at the run),
    // sampling_ratio 1000 over 3 rois ran 16 s before reporting a bad batch index (onnx_model
    // harness); and an adaptive grid of 256 x 256 points per bin over 700 channels x 7 x 7 bins.
    {
      auto m = build(1.f, 200);
      auto* g = m.mutable_graph();
      for (int i = 1; i <= 2; ++i)
        g->mutable_input(i)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0)->set_dim_value(100);
      for (auto& a : *g->mutable_node(0)->mutable_attribute()) {
        if (a.name() == "output_height") a.set_i(255);
        if (a.name() == "output_width") a.set_i(4);
      }
      ModelOptions options;
      options.mode = mode;
      std::unique_ptr<Model> big;
      st = LoadModel(m, options, &big);
      if (st.ok()) {  // host: tiled at the run
        ASSERT_EQ(std::string(mode), "host");
        st = big->Run(
            {inputs[0], F32({100, 4}, std::vector<float>(400, 1.f)), I64({100}, std::vector<int64_t>(100, 0))}, &out);
      }
      ASSERT_FALSE(st.ok());
      EXPECT_NE(st.message().find("more than the 2.15e+09 RoiAlign takes in one run"), std::string::npos)
          << st.message();
      m = build(1.f, 0);
      g = m.mutable_graph();
      g->mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(1)->set_dim_value(700);
      for (auto& a : *g->mutable_node(0)->mutable_attribute()) {
        if (a.name() == "output_height" || a.name() == "output_width") a.set_i(7);
      }
      big = Load(m, mode);
      ASSERT_NE(big, nullptr);
      st = big->Run({F32({1, 700, 10, 10}, std::vector<float>(70000, 1.f)), F32({1, 4}, {0, 0, 1792, 1792}), inputs[2]},
                    &out);
      ASSERT_FALSE(st.ok());
      EXPECT_NE(st.message().find("the rois need 2.25e+09 samples, more than"), std::string::npos) << st.message();
    }

    // A legitimate roi: the average of a constant image is that constant.
    model = Load(build(1.f, 0), mode);
    ASSERT_NE(model, nullptr);
    st = model->Run(inputs, &out);
    ASSERT_TRUE(st.ok()) << st.message();
    ASSERT_EQ(out[0].NumElements(), 25);
    for (int64_t i = 0; i < 25; ++i) EXPECT_FLOAT_EQ(out[0].data_as<float>()[i], 1.f) << i;
  }
}

// OneHot read its depth as the first element of the depth tensor without checking it had one: an
// empty bool depth from the single-op API read a byte of another tensor, 190, as a C++ bool
// (UBSan, aclnn harness; fuzz/regressions/aclnn/onehot_empty_bool_depth). Scalar operands (OneHot's
// depth, Range's start / limit / delta, Dropout's ratio, MelWeightMatrix's) must hold exactly one
// value: an empty one is an error, at run time (a data input) or at compile time (an initializer),
// and a one-element one works: OneHot([0, 2], depth 3, values [0, 1]) is [[1, 0, 0], [0, 0, 1]];
// Range(2, 11, 3) is [2, 5, 8].
TEST(FuzzRegression, ScalarOperandsMustHoldOneValue) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  AddInput(g, "indices", onnx::TensorProto::INT64, {2});
  AddInput(g, "depth", onnx::TensorProto::INT64, {-1});
  AddInput(g, "values", onnx::TensorProto::FLOAT, {2});
  AddNode(g, "OneHot", {"indices", "depth", "values"}, {"y"});
  AddOutput(g, "y", onnx::TensorProto::FLOAT, 2);
  auto model = Load(m);
  ASSERT_NE(model, nullptr);
  std::vector<HostTensor> out;
  Status st = model->Run({I64({2}, {0, 2}), I64({1}, {3}), F32({2}, {0, 1})}, &out);
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_EQ(out[0].shape(), Shape({2, 3}));
  const std::vector<float> want = {1, 0, 0, 0, 0, 1};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[0].data_as<float>()[i], want[i]) << i;
  st = model->Run({I64({2}, {0, 2}), I64({0}, {}), F32({2}, {0, 1})}, &out);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("'depth' must be one value"), std::string::npos) << st.message();

  // The same with depth an empty initializer: a compile error.
  auto c = NewModel();
  g = c.mutable_graph();
  AddInput(g, "indices", onnx::TensorProto::INT64, {2});
  AddInput(g, "values", onnx::TensorProto::FLOAT, {2});
  auto* depth = g->add_initializer();
  depth->set_name("depth");
  depth->set_data_type(onnx::TensorProto::INT64);
  depth->add_dims(0);
  AddNode(g, "OneHot", {"indices", "depth", "values"}, {"y"});
  AddOutput(g, "y", onnx::TensorProto::FLOAT, 2);
  st = LoadAndCompile(c);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("'depth' must be one value"), std::string::npos) << st.message();

  auto r = NewModel();
  g = r.mutable_graph();
  AddInput(g, "start", onnx::TensorProto::INT64, {});
  AddInput(g, "limit", onnx::TensorProto::INT64, {-1});
  AddInput(g, "delta", onnx::TensorProto::INT64, {});
  AddNode(g, "Range", {"start", "limit", "delta"}, {"y"});
  AddOutput(g, "y", onnx::TensorProto::INT64, 1);
  model = Load(r);
  ASSERT_NE(model, nullptr);
  st = model->Run({I64({}, {2}), I64({1}, {11}), I64({}, {3})}, &out);
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_EQ(out[0].shape(), Shape({3}));
  for (int i = 0; i < 3; ++i) EXPECT_EQ(out[0].data_as<int64_t>()[i], 2 + 3 * i) << i;
  st = model->Run({I64({}, {2}), I64({0}, {}), I64({}, {3})}, &out);
  EXPECT_FALSE(st.ok());
}

// Dropout's optional ratio and training_mode are scalars too: an empty one was read as its default
// (ratio 0.5, not training) and the node ran. Now present means one value; training with a
// non-zero ratio is refused by name (its random mask cannot match a reference), with ratio 0 or
// not training the output is the input.
TEST(FuzzRegression, DropoutScalarsMustHoldOneValue) {
  auto build = [](std::vector<float> ratio, std::vector<bool> training) {
    auto m = NewModel();
    auto* g = m.mutable_graph();
    AddInput(g, "x", onnx::TensorProto::FLOAT, {3});
    auto* r = g->add_initializer();
    r->set_name("ratio");
    r->set_data_type(onnx::TensorProto::FLOAT);
    if (ratio.size() != 1) r->add_dims(static_cast<int64_t>(ratio.size()));
    for (float v : ratio) r->add_float_data(v);
    auto* t = g->add_initializer();
    t->set_name("training");
    t->set_data_type(onnx::TensorProto::BOOL);
    if (training.size() != 1) t->add_dims(static_cast<int64_t>(training.size()));
    for (bool v : training) t->add_int32_data(v);
    AddNode(g, "Dropout", {"x", "ratio", "training"}, {"y"});
    AddOutput(g, "y", onnx::TensorProto::FLOAT, 1);
    return m;
  };
  struct Case {
    std::vector<float> ratio;
    std::vector<bool> training;
    const char* error;  // nullptr: runs as the identity
  };
  for (const Case& c :
       {Case{{}, {false}, "'ratio' must be one value"}, Case{{0.5f}, {}, "'training_mode' must be one value"},
        Case{{0.5f}, {true}, "training_mode with ratio 0.5 draws random numbers"}, Case{{0.f}, {true}, nullptr},
        Case{{0.5f}, {false}, nullptr}}) {
    SCOPED_TRACE(::testing::Message() << "ratio " << c.ratio.size() << " training " << c.training.size());
    auto model = LoadOrExpectError(build(c.ratio, c.training), c.error);
    if (model == nullptr) continue;
    std::vector<HostTensor> out;
    Status st = model->Run({F32({3}, {1.5f, -2.f, 3.f})}, &out);
    ASSERT_TRUE(st.ok()) << st.message();
    ASSERT_EQ(out[0].NumElements(), 3);
    EXPECT_EQ(out[0].data_as<float>()[0], 1.5f);
    EXPECT_EQ(out[0].data_as<float>()[1], -2.f);
    EXPECT_EQ(out[0].data_as<float>()[2], 3.f);
  }
}

// Einsum read every operand as input 0's dtype: a double x with an int32 y read y as doubles, past
// its end (heap-buffer-overflow, onnx_model harness;
// fuzz/regressions/onnx_model/einsum_mixed_dtypes_repeated_unknown_labels.onnx). Its output
// labels were not checked either: 'x' in no input ran as a dim of 1 and "bikk" gave a [5, 2, 4,
// 1] output. Each is a compile error naming the rule, as in NumPy; the valid equation still runs.
TEST(FuzzRegression, EinsumOperandsShareADtypeAndOutputLabelsAreInputLabels) {
  struct Case {
    const char* equation;
    onnx::TensorProto::DataType y_type;
    const char* error;
  };
  for (const Case& c :
       {Case{"bij,bjk->bikx", onnx::TensorProto::FLOAT, "output label 'x' is in no input in equation 'bij,bjk->bikx'"},
        Case{"bij,bjk->bikk", onnx::TensorProto::FLOAT, "output label 'k' appears more than once"},
        Case{"bij,bjk->bik", onnx::TensorProto::INT32,
             "expected every input of one dtype, got float32 (input 0) and int32 (input 1)"},
        Case{"bij,bjk->bik", onnx::TensorProto::FLOAT, nullptr}}) {
    SCOPED_TRACE(c.equation);
    auto m = NewModel();
    auto* g = m.mutable_graph();
    AddInput(g, "x", onnx::TensorProto::FLOAT, {1, 2, 3});
    AddInput(g, "y", c.y_type, {1, 3, 2});
    StrAttr(AddNode(g, "Einsum", {"x", "y"}, {"z"}), "equation", c.equation);
    AddOutput(g, "z", onnx::TensorProto::FLOAT, 3);
    auto model = LoadOrExpectError(m, c.error);
    if (model == nullptr) continue;
    std::vector<HostTensor> out;
    // [[1, 2, 3], [4, 5, 6]] x [[1, 0], [0, 1], [1, 1]] = [[4, 5], [10, 11]]
    Status st = model->Run({F32({1, 2, 3}, {1, 2, 3, 4, 5, 6}), F32({1, 3, 2}, {1, 0, 0, 1, 1, 1})}, &out);
    ASSERT_TRUE(st.ok()) << st.message();
    ASSERT_EQ(out[0].shape(), Shape({1, 2, 2}));
    const std::vector<float> want = {4, 5, 10, 11};
    for (int i = 0; i < 4; ++i) EXPECT_EQ(out[0].data_as<float>()[i], want[i]) << i;
  }
}

// Slice's static inference added a negative start to the dim before knowing it: a start of
// INT64_MIN on a dim unknown at compile time (-1) overflowed (UBSan, onnx_model harness;
// fuzz/regressions/onnx_model/slice_int64_min_start_unknown_dim.onnx). The length stays unknown
// until the run, where INT64_MIN clamps to the first element: all of x.
TEST(FuzzRegression, SliceOfAnUnknownDimWithAnExtremeStart) {
  for (const char* mode : {"auto", "host"}) {
    SCOPED_TRACE(mode);
    auto m = NewModel();
    auto* g = m.mutable_graph();
    AddInput(g, "x", onnx::TensorProto::FLOAT, {1, -1});
    for (auto [name, v] : {std::pair<const char*, int64_t>{"starts", INT64_MIN}, {"ends", INT64_MAX}, {"axes", -1}}) {
      auto* t = g->add_initializer();
      t->set_name(name);
      t->set_data_type(onnx::TensorProto::INT64);
      t->add_dims(1);
      t->add_int64_data(v);
    }
    AddNode(g, "Slice", {"x", "starts", "ends", "axes"}, {"y"});
    AddOutput(g, "y", onnx::TensorProto::FLOAT, 2);
    auto model = Load(m, mode);
    ASSERT_NE(model, nullptr);
    std::vector<HostTensor> out;
    Status st = model->Run({F32({1, 3}, {1, 2, 3})}, &out);
    ASSERT_TRUE(st.ok()) << st.message();
    ASSERT_EQ(out[0].shape(), Shape({1, 3}));
    for (int i = 0; i < 3; ++i) EXPECT_EQ(out[0].data_as<float>()[i], i + 1.f) << i;
  }
}

// Two onnx_model harness finds, each now a compile error instead of a crash:
// - MelWeightMatrix with a lower edge of -1e30 Hz: the mel bins were NaN, cast to int64 (UBSan).
//   Edges must be finite with 0 <= lower <= upper.
// - Conv with a 2^40 left pad: oneDNN's primitive-descriptor creation divided by zero (SIGFPE)
//   on dims past its 32-bit offsets. Such convolutions are not handed to oneDNN.
TEST(FuzzRegression, MelEdgesAndHugeConvPadsAreCompileErrors) {
  auto m = NewModel();
  auto* g = m.mutable_graph();
  auto scalar = [&](const std::string& name, int type, double v) {
    auto* t = g->add_initializer();
    t->set_name(name);
    t->set_data_type(type);
    if (type == onnx::TensorProto::FLOAT)
      t->add_float_data(static_cast<float>(v));
    else
      t->add_int32_data(static_cast<int32_t>(v));
  };
  scalar("bins", onnx::TensorProto::INT32, 8);
  scalar("dft", onnx::TensorProto::INT32, 64);
  scalar("rate", onnx::TensorProto::INT32, 16000);
  scalar("lower", onnx::TensorProto::FLOAT, -1e30);
  scalar("upper", onnx::TensorProto::FLOAT, 8000);
  AddNode(g, "MelWeightMatrix", {"bins", "dft", "rate", "lower", "upper"}, {"y"});
  AddOutput(g, "y", onnx::TensorProto::FLOAT, 2);
  Status mel = LoadAndCompile(m);
  ASSERT_FALSE(mel.ok());
  EXPECT_NE(mel.message().find("the edges must be finite with 0 <= lower <= upper, got lower_edge_hertz -1e+30"),
            std::string::npos)
      << mel.message();

  auto c = NewModel();
  g = c.mutable_graph();
  AddInput(g, "x", onnx::TensorProto::FLOAT, {1, 2, 4, 2});
  auto* w = g->add_initializer();  // packed for oneDNN at compile time, as in the find
  w->set_name("w");
  w->set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : {3, 2, 3, 3}) w->add_dims(d);
  for (int i = 0; i < 54; ++i) w->add_float_data(0.5f);
  auto* n = AddNode(g, "Conv", {"x", "w"}, {"y"});
  IntsAttr(n, "pads", {0, int64_t{1} << 40, 0, 0});
  AddOutput(g, "y", onnx::TensorProto::FLOAT, 4);
  std::unique_ptr<Model> model;
  Status st = LoadModel(c, ModelOptions{}, &model);
  if (st.ok()) {
    std::vector<HostTensor> out;
    st = model->Run({HostTensor(DT_FLOAT, Shape({1, 2, 4, 2}))}, &out);
  }
  EXPECT_FALSE(st.ok());
}

// Pad computed an unknown mode ('reflectxx', from the onnx_model harness) as "constant" and
// exited 0: a silent wrong answer. Only constant, reflect and edge are accepted; reflect still
// mirrors ([1, 2, 3] padded by 2 at the front: [3, 2, 1, 2, 3]).
TEST(FuzzRegression, PadRejectsAnUnknownMode) {
  for (auto [mode, error] :
       {std::pair<const char*, const char*>{"reflectxx", "mode 'reflectxx' is not one of constant, reflect, edge"},
        {"reflect", nullptr}}) {
    SCOPED_TRACE(mode);
    auto m = NewModel();
    auto* g = m.mutable_graph();
    AddInput(g, "x", onnx::TensorProto::FLOAT, {3});
    auto* pads = g->add_initializer();
    pads->set_name("pads");
    pads->set_data_type(onnx::TensorProto::INT64);
    pads->add_dims(2);
    pads->add_int64_data(2);
    pads->add_int64_data(0);
    StrAttr(AddNode(g, "Pad", {"x", "pads"}, {"y"}), "mode", mode);
    AddOutput(g, "y", onnx::TensorProto::FLOAT, 1);
    auto model = LoadOrExpectError(m, error);
    if (model == nullptr) continue;
    std::vector<HostTensor> out;
    Status st = model->Run({F32({3}, {1, 2, 3})}, &out);
    ASSERT_TRUE(st.ok()) << st.message();
    ASSERT_EQ(out[0].shape(), Shape({5}));
    const std::vector<float> want = {3, 2, 1, 2, 3};
    for (int i = 0; i < 5; ++i) EXPECT_EQ(out[0].data_as<float>()[i], want[i]) << i;
  }
}

// The same class as Pad's mode: ops took any string attribute they did not know as their
// default (BitShift "UP" shifted right, DepthToSpace "XYZ" ran DCR, MaxPool auto_pad "SAME" ran
// VALID, ScatterElements reduction "avg" replaced, ...). Each unknown value is now an error naming
// the attribute, the value and what is accepted: at compile time in sink mode, at the latest
// when the node runs in host mode.
TEST(FuzzRegression, UnknownStringAttributeValuesAreErrors) {
  constexpr int kF = onnx::TensorProto::FLOAT, kI = onnx::TensorProto::INT64, kU8 = onnx::TensorProto::UINT8;
  struct In {
    const char* name;
    int type;
    std::vector<int64_t> dims;
  };
  struct Case {
    const char* op;
    std::vector<In> inputs;
    const char* attr;
    const char* value;
    int out_type, out_rank;
    const char* error;
  };
  const std::vector<Case> cases = {
      {"BitShift",
       {{"a", kU8, {2}}, {"b", kU8, {2}}},
       "direction",
       "UP",
       kU8,
       1,
       "direction 'UP' is not one of RIGHT, LEFT"},
      {"DepthToSpace", {{"x", kF, {1, 4, 1, 1}}}, "mode", "XYZ", kF, 4, "mode 'XYZ' is not one of DCR, CRD"},
      {"ScatterElements",
       {{"d", kF, {3}}, {"i", kI, {1}}, {"u", kF, {1}}},
       "reduction",
       "avg",
       kF,
       1,
       "reduction 'avg' is not one of none, add, mul, max, min"},
      {"NegativeLogLikelihoodLoss",
       {{"x", kF, {2, 3}}, {"t", kI, {2}}},
       "reduction",
       "avg",
       kF,
       0,
       "reduction 'avg' is not one of mean, none, sum"},
      {"MaxPool",
       {{"x", kF, {1, 1, 4, 4}}},
       "auto_pad",
       "SAME",
       kF,
       4,
       "auto_pad 'SAME' is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID"},
      {"ConvTranspose",
       {{"x", kF, {1, 1, 2, 2}}, {"w", kF, {1, 1, 2, 2}}},
       "auto_pad",
       "SAME",
       kF,
       4,
       "auto_pad 'SAME' is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID"},
      {"RoiAlign",
       {{"x", kF, {1, 1, 4, 4}}, {"r", kF, {1, 4}}, {"b", kI, {1}}},
       "mode",
       "min",
       kF,
       4,
       "mode 'min' is not one of avg, max"},
      {"GridSample",
       {{"x", kF, {1, 1, 2, 2}}, {"g", kF, {1, 2, 2, 2}}},
       "padding_mode",
       "wrap\x1b[2J",
       kF,
       4,
       "padding_mode 'wrap\\x1b[2J' is not one of zeros, border, reflection"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.op);
    auto m = NewModel();
    auto* g = m.mutable_graph();
    std::vector<std::string> names;
    std::vector<HostTensor> inputs;  // zeros: for host mode, where tiling may wait for the run
    for (const In& in : c.inputs) {
      AddInput(g, in.name, in.type, in.dims);
      names.push_back(in.name);
      inputs.emplace_back(in.type == kF ? DT_FLOAT : in.type == kI ? DT_INT64 : DT_UINT8, Shape(in.dims));
    }
    auto* n = AddNode(g, c.op, names, {"y"});
    StrAttr(n, c.attr, c.value);
    if (std::string(c.op) == "DepthToSpace") IntAttr(n, "blocksize", 2);
    if (std::string(c.op) == "MaxPool") IntsAttr(n, "kernel_shape", {2, 2});
    AddOutput(g, "y", c.out_type, c.out_rank);
    EXPECT_EQ(LoadOrExpectError(m, c.error), nullptr);  // sink: every node is tiled at compile time
    ModelOptions host;
    host.mode = "host";
    std::unique_ptr<Model> model;
    Status st = LoadModel(m, host, &model);
    if (st.ok()) {
      std::vector<HostTensor> out;
      st = model->Run(inputs, &out);
    }
    EXPECT_FALSE(st.ok()) << "host mode";
    EXPECT_NE(st.message().find(c.error), std::string::npos) << "host mode: " << st.message();
  }
}

}  // namespace
}  // namespace ge
