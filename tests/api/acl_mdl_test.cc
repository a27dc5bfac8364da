// The acl model API (acl/acl.h) on the bundled mlp (PyTorch's outputs as the reference): load
// from a file and from memory, describe, execute synchronously, on a stream and from several
// threads; every bad call returns an ACL error code.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "ge/npy.h"

namespace {

const std::string kModels = std::string(GE_SOURCE_DIR) + "/models/";
constexpr size_t kInBytes = 4 * 64 * sizeof(float);
constexpr size_t kOutBytes = 4 * 10 * sizeof(float);

ge::HostTensor Npy(const std::string& name) {
  ge::HostTensor t;
  ge::Status st = ge::ReadNpy(kModels + name, &t);
  EXPECT_TRUE(st.ok()) << st.message();
  return t;
}

std::string FileBytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Device buffers with their aclDataBuffer and a one-buffer dataset.
struct Io {
  void* dev = nullptr;
  aclDataBuffer* buf = nullptr;
  aclmdlDataset* ds = nullptr;
  explicit Io(size_t bytes) {
    EXPECT_EQ(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    buf = aclCreateDataBuffer(dev, bytes);
    ds = aclmdlCreateDataset();
    EXPECT_EQ(aclmdlAddDatasetBuffer(ds, buf), ACL_SUCCESS);
  }
  ~Io() {
    aclmdlDestroyDataset(ds);
    aclDestroyDataBuffer(buf);
    aclrtFree(dev);
  }
  float* f() { return static_cast<float*>(dev); }
};

class AclMdl : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclmdlLoadFromFile((kModels + "mlp.onnx").c_str(), &id_), ACL_SUCCESS) << aclGetRecentErrMsg();
  }
  void TearDown() override {
    if (id_ != 0) {
      EXPECT_EQ(aclmdlUnload(id_), ACL_SUCCESS);
    }
  }
  uint32_t id_ = 0;
};

void ExpectNear(const float* got, const ge::HostTensor& want) {
  const float* w = want.data_as<float>();
  for (int64_t i = 0; i < want.NumElements(); ++i) ASSERT_NEAR(got[i], w[i], 1e-4f) << "element " << i;
}

TEST_F(AclMdl, DescribesTheModel) {
  aclmdlDesc* desc = aclmdlCreateDesc();
  ASSERT_NE(desc, nullptr);
  ASSERT_EQ(aclmdlGetDesc(desc, id_), ACL_SUCCESS);
  EXPECT_EQ(aclmdlGetNumInputs(desc), 1u);
  EXPECT_EQ(aclmdlGetNumOutputs(desc), 1u);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc, 0), kInBytes);
  EXPECT_EQ(aclmdlGetOutputSizeByIndex(desc, 0), kOutBytes);
  EXPECT_STREQ(aclmdlGetInputNameByIndex(desc, 0), "input");
  EXPECT_STREQ(aclmdlGetOutputNameByIndex(desc, 0), "output");
  EXPECT_EQ(aclmdlGetInputDataType(desc, 0), ACL_FLOAT);
  EXPECT_EQ(aclmdlGetOutputDataType(desc, 0), ACL_FLOAT);
  aclmdlIODims dims;
  ASSERT_EQ(aclmdlGetInputDims(desc, 0, &dims), ACL_SUCCESS);
  EXPECT_STREQ(dims.name, "input");
  ASSERT_EQ(dims.dimCount, 2u);
  EXPECT_EQ(dims.dims[0], 4);
  EXPECT_EQ(dims.dims[1], 64);
  ASSERT_EQ(aclmdlGetOutputDims(desc, 0, &dims), ACL_SUCCESS);
  ASSERT_EQ(dims.dimCount, 2u);
  EXPECT_EQ(dims.dims[1], 10);
  size_t index = 9;
  EXPECT_EQ(aclmdlGetInputIndexByName(desc, "input", &index), ACL_SUCCESS);
  EXPECT_EQ(index, 0u);
  EXPECT_EQ(aclmdlGetOutputIndexByName(desc, "nope", &index), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlDestroyDesc(desc), ACL_SUCCESS);
}

TEST_F(AclMdl, ExecuteMatchesPyTorch) {
  ge::HostTensor x = Npy("mlp_input.npy"), want = Npy("mlp_output.npy");
  ASSERT_EQ(x.NumBytes(), kInBytes);
  Io in(kInBytes), out(kOutBytes);
  ASSERT_EQ(aclrtMemcpy(in.dev, kInBytes, x.data(), kInBytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclmdlExecute(id_, in.ds, out.ds), ACL_SUCCESS) << aclGetRecentErrMsg();
  std::vector<float> host(40);
  ASSERT_EQ(aclrtMemcpy(host.data(), kOutBytes, out.dev, kOutBytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  ExpectNear(host.data(), want);
}

TEST(AclMdlLoad, FromMemoryAndWithMem) {
  const std::string bytes = FileBytes(kModels + "mlp.onnx");
  ge::HostTensor x = Npy("mlp_input.npy"), want = Npy("mlp_output.npy");
  uint32_t a = 0, b = 0;
  ASSERT_EQ(aclmdlLoadFromMem(bytes.data(), bytes.size(), &a), ACL_SUCCESS) << aclGetRecentErrMsg();
  char work[16], weight[16];
  ASSERT_EQ(aclmdlLoadFromFileWithMem((kModels + "mlp.onnx").c_str(), &b, work, sizeof(work), weight, sizeof(weight)),
            ACL_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_NE(a, b);
  for (uint32_t id : {a, b}) {
    Io in(kInBytes), out(kOutBytes);
    std::memcpy(in.dev, x.data(), kInBytes);
    ASSERT_EQ(aclmdlExecute(id, in.ds, out.ds), ACL_SUCCESS) << aclGetRecentErrMsg();
    ExpectNear(out.f(), want);
    EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  }
  uint32_t c = 0;
  EXPECT_EQ(aclmdlLoadFromMemWithMem(bytes.data(), bytes.size(), &c, nullptr, 0, nullptr, 0), ACL_SUCCESS);
  EXPECT_EQ(aclmdlUnload(c), ACL_SUCCESS);
}

// The execution is enqueued, not run by the call: a callback ahead of it on the stream holds the
// stream until the test releases it, and the output is still untouched when the call returns.
TEST_F(AclMdl, ExecuteAsyncRunsInStreamOrder) {
  ge::HostTensor x = Npy("mlp_input.npy"), want = Npy("mlp_output.npy");
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  Io in(kInBytes), out(kOutBytes);
  std::memcpy(in.dev, x.data(), kInBytes);
  std::memset(out.dev, 0, kOutBytes);
  static std::atomic<bool> release{false};
  release = false;
  ASSERT_EQ(aclrtLaunchCallback(
                [](void*) {
                  while (!release.load()) std::this_thread::yield();
                },
                nullptr, ACL_CALLBACK_BLOCK, stream),
            ACL_SUCCESS);
  ASSERT_EQ(aclmdlExecuteAsync(id_, in.ds, out.ds, stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  // The datasets may go right away: their addresses were taken at the call.
  for (int i = 0; i < 40; ++i) EXPECT_EQ(out.f()[i], 0.f);
  release = true;
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  ExpectNear(out.f(), want);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

// Several executions queued on one stream with different inputs equal synchronous ones.
TEST_F(AclMdl, ExecuteAsyncManyOnOneStream) {
  constexpr int kRuns = 16;
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  std::vector<std::unique_ptr<Io>> ins, outs;
  std::vector<std::vector<float>> want(kRuns, std::vector<float>(40));
  for (int r = 0; r < kRuns; ++r) {
    ins.push_back(std::make_unique<Io>(kInBytes));
    outs.push_back(std::make_unique<Io>(kOutBytes));
    for (int i = 0; i < 256; ++i) ins[r]->f()[i] = static_cast<float>((i * 5 + r * 11) % 17) / 8.f - 1.f;
    Io sync_out(kOutBytes);
    ASSERT_EQ(aclmdlExecute(id_, ins[r]->ds, sync_out.ds), ACL_SUCCESS);
    std::memcpy(want[r].data(), sync_out.dev, kOutBytes);
  }
  for (int r = 0; r < kRuns; ++r) ASSERT_EQ(aclmdlExecuteAsync(id_, ins[r]->ds, outs[r]->ds, stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  for (int r = 0; r < kRuns; ++r) EXPECT_EQ(std::memcmp(outs[r]->dev, want[r].data(), kOutBytes), 0) << "run " << r;
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

// Unloading waits for the executions still queued on a stream.
TEST(AclMdlLoad, UnloadWaitsForQueuedExecutions) {
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromFile((kModels + "mlp.onnx").c_str(), &id), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  Io in(kInBytes), out(kOutBytes);
  std::memset(in.dev, 0, kInBytes);
  for (int r = 0; r < 8; ++r) ASSERT_EQ(aclmdlExecuteAsync(id, in.ds, out.ds, stream), ACL_SUCCESS);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(aclmdlExecuteAsync(id, in.ds, out.ds, stream), ACL_ERROR_INVALID_MODEL_ID);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

// Threads executing one model with their own inputs get what a single thread gets.
TEST_F(AclMdl, ConcurrentRunExecute) {
  constexpr int kThreads = 4, kRuns = 100;
  std::atomic<int> bad{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      Io in(kInBytes), out(kOutBytes), ref(kOutBytes);
      for (int i = 0; i < 256; ++i) in.f()[i] = static_cast<float>((i * 3 + t * 7) % 13) / 6.f - 1.f;
      if (aclmdlExecute(id_, in.ds, ref.ds) != ACL_SUCCESS) ++bad;
      for (int r = 0; r < kRuns; ++r) {
        if (aclmdlExecute(id_, in.ds, out.ds) != ACL_SUCCESS || std::memcmp(out.dev, ref.dev, kOutBytes) != 0) ++bad;
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(bad.load(), 0);
}

// y = Gather(data[5], idx[2]): an index out of range fails the execution inside the kernel, after
// aclmdlExecuteAsync returned; the stream's next synchronize reports it, naming the node.
std::string GatherModelBytes() {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(17);
  auto* g = m.mutable_graph();
  g->set_name("gather");
  auto add_value = [](onnx::ValueInfoProto* v, const char* name, int type, int64_t dim) {
    v->set_name(name);
    v->mutable_type()->mutable_tensor_type()->set_elem_type(type);
    v->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(dim);
  };
  add_value(g->add_input(), "data", onnx::TensorProto::FLOAT, 5);
  add_value(g->add_input(), "idx", onnx::TensorProto::INT64, 2);
  add_value(g->add_output(), "y", onnx::TensorProto::FLOAT, 2);
  auto* n = g->add_node();
  n->set_name("the_gather");
  n->set_op_type("Gather");
  n->add_input("data");
  n->add_input("idx");
  n->add_output("y");
  return m.SerializeAsString();
}

TEST(AclMdlAsync, ExecutionErrorIsReportedBySynchronize) {
  const std::string bytes = GatherModelBytes();
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromMem(bytes.data(), bytes.size(), &id), ACL_SUCCESS) << aclGetRecentErrMsg();
  aclmdlDesc* desc = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDesc(desc, id), ACL_SUCCESS);
  ASSERT_EQ(aclmdlGetInputDataType(desc, 1), ACL_INT64);
  ASSERT_EQ(aclmdlGetOutputSizeByIndex(desc, 0), 2 * sizeof(float));
  aclmdlDestroyDesc(desc);
  float data[5] = {10, 11, 12, 13, 14}, y[2] = {0, 0};
  int64_t idx[2] = {4, 1};
  aclDataBuffer* bd = aclCreateDataBuffer(data, sizeof(data));
  aclDataBuffer* bi = aclCreateDataBuffer(idx, sizeof(idx));
  aclDataBuffer* by = aclCreateDataBuffer(y, sizeof(y));
  aclmdlDataset* in = aclmdlCreateDataset();
  aclmdlDataset* out = aclmdlCreateDataset();
  aclmdlAddDatasetBuffer(in, bd);
  aclmdlAddDatasetBuffer(in, bi);
  aclmdlAddDatasetBuffer(out, by);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclmdlExecuteAsync(id, in, out, stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(y[0], 14.f);
  EXPECT_EQ(y[1], 11.f);
  idx[1] = 99;
  ASSERT_EQ(aclmdlExecuteAsync(id, in, out, stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_NE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  const std::string msg = aclGetRecentErrMsg();
  EXPECT_NE(msg.find("the_gather"), std::string::npos) << msg;
  EXPECT_NE(msg.find("99"), std::string::npos) << msg;
  // The synchronous form returns it directly; the stream works again afterwards.
  EXPECT_NE(aclmdlExecute(id, in, out), ACL_SUCCESS);
  idx[1] = 0;
  ASSERT_EQ(aclmdlExecuteAsync(id, in, out, stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(y[1], 10.f);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  aclmdlDestroyDataset(in);
  aclmdlDestroyDataset(out);
  for (aclDataBuffer* b : {bd, bi, by}) aclDestroyDataBuffer(b);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST(AclMdlErrors, Loading) {
  uint32_t id = 0;
  EXPECT_EQ(aclmdlLoadFromFile(nullptr, &id), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlLoadFromFile((kModels + "mlp.onnx").c_str(), nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlLoadFromFile("/nonexistent/model.onnx", &id), ACL_ERROR_READ_MODEL_FAILURE);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("/nonexistent/model.onnx"), std::string::npos);
  // A file that is not a model (the reference outputs).
  EXPECT_EQ(aclmdlLoadFromFile((kModels + "mlp_output.npy").c_str(), &id), ACL_ERROR_PARSE_MODEL);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("mlp_output.npy"), std::string::npos);
  const char garbage[] = "definitely not an onnx model";
  EXPECT_EQ(aclmdlLoadFromMem(garbage, sizeof(garbage), &id), ACL_ERROR_PARSE_MODEL);
  EXPECT_EQ(aclmdlLoadFromMem(nullptr, 10, &id), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlLoadFromMem(garbage, 0, &id), ACL_ERROR_MODEL_SIZE_INVALID);
  EXPECT_EQ(aclmdlLoadFromMem(garbage, sizeof(garbage), nullptr), ACL_ERROR_INVALID_PARAM);
  // A truncated model.
  const std::string bytes = FileBytes(kModels + "mlp.onnx");
  EXPECT_EQ(aclmdlLoadFromMem(bytes.data(), bytes.size() / 2, &id), ACL_ERROR_PARSE_MODEL);
  char mem[8];
  const std::string path = kModels + "mlp.onnx";
  EXPECT_EQ(aclmdlLoadFromFileWithMem(path.c_str(), &id, mem, 0, nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlLoadFromFileWithMem(path.c_str(), &id, nullptr, 8, nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlLoadFromFileWithMem(path.c_str(), &id, nullptr, 0, mem, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlLoadFromMemWithMem(bytes.data(), bytes.size(), &id, nullptr, 0, nullptr, 8), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlUnload(0), ACL_ERROR_INVALID_MODEL_ID);
  EXPECT_EQ(aclmdlUnload(0xdeadbeef), ACL_ERROR_INVALID_MODEL_ID);
}

TEST_F(AclMdl, ErrorsOfExecution) {
  Io in(kInBytes), out(kOutBytes), small(kInBytes - 4), small_out(kOutBytes - 1);
  EXPECT_EQ(aclmdlExecute(id_ + 1000, in.ds, out.ds), ACL_ERROR_INVALID_MODEL_ID);
  EXPECT_EQ(aclmdlExecuteAsync(id_ + 1000, in.ds, out.ds, nullptr), ACL_ERROR_INVALID_MODEL_ID);
  EXPECT_EQ(aclmdlExecute(id_, nullptr, out.ds), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlExecute(id_, in.ds, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlExecute(id_, small.ds, out.ds), ACL_ERROR_MODEL_INPUT_NOT_MATCH);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("input"), std::string::npos);
  EXPECT_EQ(aclmdlExecute(id_, in.ds, small_out.ds), ACL_ERROR_MODEL_OUTPUT_NOT_MATCH);
  EXPECT_EQ(aclmdlExecuteAsync(id_, small.ds, out.ds, nullptr), ACL_ERROR_MODEL_INPUT_NOT_MATCH);
  // Wrong buffer counts: none, two.
  aclmdlDataset* empty = aclmdlCreateDataset();
  EXPECT_EQ(aclmdlExecute(id_, empty, out.ds), ACL_ERROR_MODEL_INPUT_NOT_MATCH);
  EXPECT_EQ(aclmdlExecute(id_, in.ds, empty), ACL_ERROR_MODEL_OUTPUT_NOT_MATCH);
  aclmdlDataset* two = aclmdlCreateDataset();
  ASSERT_EQ(aclmdlAddDatasetBuffer(two, in.buf), ACL_SUCCESS);
  ASSERT_EQ(aclmdlAddDatasetBuffer(two, in.buf), ACL_SUCCESS);
  EXPECT_EQ(aclmdlExecute(id_, two, out.ds), ACL_ERROR_MODEL_INPUT_NOT_MATCH);
  // A buffer of the right size without memory.
  aclDataBuffer* null_buf = aclCreateDataBuffer(nullptr, 0);
  ASSERT_NE(null_buf, nullptr);
  aclmdlDataset* nulls = aclmdlCreateDataset();
  ASSERT_EQ(aclmdlAddDatasetBuffer(nulls, null_buf), ACL_SUCCESS);
  EXPECT_EQ(aclmdlExecute(id_, nulls, out.ds), ACL_ERROR_MODEL_INPUT_NOT_MATCH);
  // A stream that does not exist.
  int not_a_stream = 0;
  EXPECT_NE(aclmdlExecuteAsync(id_, in.ds, out.ds, &not_a_stream), ACL_SUCCESS);
  aclmdlDestroyDataset(empty);
  aclmdlDestroyDataset(two);
  aclmdlDestroyDataset(nulls);
  aclDestroyDataBuffer(null_buf);
}

TEST_F(AclMdl, ErrorsOfDescAndDatasets) {
  EXPECT_EQ(aclmdlGetDesc(nullptr, id_), ACL_ERROR_INVALID_PARAM);
  aclmdlDesc* desc = aclmdlCreateDesc();
  EXPECT_EQ(aclmdlGetDesc(desc, id_ + 1000), ACL_ERROR_INVALID_MODEL_ID);
  ASSERT_EQ(aclmdlGetDesc(desc, id_), ACL_SUCCESS);
  EXPECT_EQ(aclmdlGetNumInputs(nullptr), 0u);
  EXPECT_EQ(aclmdlGetNumOutputs(nullptr), 0u);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc, 1), 0u);
  EXPECT_EQ(aclmdlGetOutputSizeByIndex(desc, 7), 0u);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(nullptr, 0), 0u);
  EXPECT_EQ(aclmdlGetInputNameByIndex(desc, 1), nullptr);
  EXPECT_EQ(aclmdlGetOutputNameByIndex(nullptr, 0), nullptr);
  EXPECT_EQ(aclmdlGetInputDataType(desc, 1), ACL_DT_UNDEFINED);
  EXPECT_EQ(aclmdlGetOutputDataType(nullptr, 0), ACL_DT_UNDEFINED);
  aclmdlIODims dims;
  EXPECT_EQ(aclmdlGetInputDims(desc, 1, &dims), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlGetOutputDims(desc, 0, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlGetInputDims(nullptr, 0, &dims), ACL_ERROR_INVALID_PARAM);
  size_t index = 0;
  EXPECT_EQ(aclmdlGetInputIndexByName(desc, nullptr, &index), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlDestroyDesc(desc), ACL_SUCCESS);
  EXPECT_EQ(aclmdlDestroyDesc(nullptr), ACL_ERROR_INVALID_PARAM);

  EXPECT_EQ(aclCreateDataBuffer(nullptr, 16), nullptr);
  EXPECT_EQ(aclDestroyDataBuffer(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclGetDataBufferAddr(nullptr), nullptr);
  EXPECT_EQ(aclGetDataBufferSizeV2(nullptr), 0u);
  float mem[4];
  aclDataBuffer* b = aclCreateDataBuffer(mem, sizeof(mem));
  EXPECT_EQ(aclGetDataBufferAddr(b), mem);
  EXPECT_EQ(aclGetDataBufferSizeV2(b), sizeof(mem));
  EXPECT_EQ(aclUpdateDataBuffer(b, nullptr, 4), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclUpdateDataBuffer(nullptr, mem, 4), ACL_ERROR_INVALID_PARAM);
  aclmdlDataset* ds = aclmdlCreateDataset();
  EXPECT_EQ(aclmdlAddDatasetBuffer(nullptr, b), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlAddDatasetBuffer(ds, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlGetDatasetNumBuffers(ds), 0u);
  EXPECT_EQ(aclmdlGetDatasetBuffer(ds, 0), nullptr);
  ASSERT_EQ(aclmdlAddDatasetBuffer(ds, b), ACL_SUCCESS);
  EXPECT_EQ(aclmdlGetDatasetNumBuffers(ds), 1u);
  EXPECT_EQ(aclmdlGetDatasetBuffer(ds, 0), b);
  EXPECT_EQ(aclmdlGetDatasetBuffer(ds, 1), nullptr);
  EXPECT_EQ(aclmdlGetDatasetBuffer(nullptr, 0), nullptr);
  EXPECT_EQ(aclmdlGetDatasetNumBuffers(nullptr), 0u);
  EXPECT_EQ(aclmdlDestroyDataset(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlDestroyDataset(ds), ACL_SUCCESS);
  EXPECT_EQ(aclDestroyDataBuffer(b), ACL_SUCCESS);
}

TEST(AclBase, Float16AndDataTypes) {
  EXPECT_EQ(aclFloatToFloat16(1.0f), 0x3C00);
  EXPECT_EQ(aclFloatToFloat16(-2.0f), 0xC000);
  EXPECT_EQ(aclFloatToFloat16(65504.f), 0x7BFF);
  EXPECT_EQ(aclFloatToFloat16(1e6f), 0x7C00);  // overflow to inf
  EXPECT_EQ(aclFloat16ToFloat(0x3555), 0.333251953125f);
  EXPECT_TRUE(std::isnan(aclFloat16ToFloat(0x7E00)));
  for (float v : {0.f, 0.5f, -1.5f, 1024.f, 6.1035156e-05f}) EXPECT_EQ(aclFloat16ToFloat(aclFloatToFloat16(v)), v);
  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT), 4u);
  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT16), 2u);
  EXPECT_EQ(aclDataTypeSize(ACL_INT64), 8u);
  EXPECT_EQ(aclDataTypeSize(ACL_BOOL), 1u);
  EXPECT_EQ(aclDataTypeSize(ACL_DT_UNDEFINED), 0u);
  EXPECT_EQ(aclDataTypeSize(static_cast<aclDataType>(12345)), 0u);
  int32_t major = 0, minor = 0, patch = 0;
  EXPECT_EQ(aclrtGetVersion(&major, &minor, &patch), ACL_SUCCESS);
  EXPECT_EQ(major, ACL_MAJOR_VERSION);
  EXPECT_EQ(aclrtGetVersion(nullptr, &minor, &patch), ACL_ERROR_INVALID_PARAM);
}

}  // namespace
