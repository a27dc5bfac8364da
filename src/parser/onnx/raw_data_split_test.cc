// Large initializers' raw_data stays outside the protobuf message while loading
// (parser/onnx/raw_data_split.h): the split itself, and models loaded through it from a file and
// from bytes give the tensors they were written with; wrong sizes, duplicate names and malformed
// bytes are reported as before.
#include "parser/onnx/raw_data_split.h"

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "base/page_map.h"
#include "ge/onnx_loader.h"

namespace ge {
namespace {

// y = x + big + small: big has n floats k * 0.25 (raw_data), small 2 floats (raw_data).
onnx::ModelProto TwoInitializers(int64_t n) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(17);
  auto* g = m.mutable_graph();
  g->set_name("g");
  auto value = [&](onnx::ValueInfoProto* v, const char* name) {
    v->set_name(name);
    v->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
    v->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(n);
  };
  value(g->add_input(), "x");
  value(g->add_output(), "y");
  std::vector<float> big(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) big[static_cast<size_t>(k)] = 0.25f * static_cast<float>(k);
  auto* b = g->add_initializer();
  b->set_name("big");
  b->set_data_type(onnx::TensorProto::FLOAT);
  b->add_dims(n);
  b->set_raw_data(std::string(reinterpret_cast<const char*>(big.data()), big.size() * sizeof(float)));
  const float two[] = {3.f, -1.5f};
  auto* s = g->add_initializer();
  s->set_name("small");
  s->set_data_type(onnx::TensorProto::FLOAT);
  s->add_dims(2);
  s->set_raw_data(std::string(reinterpret_cast<const char*>(two), sizeof(two)));
  auto node = [&](const char* a, const char* c, const char* out) {
    auto* nd = g->add_node();
    nd->set_op_type("Add");
    nd->set_name(out);
    nd->add_input(a);
    nd->add_input(c);
    nd->add_output(out);
  };
  node("x", "big", "y");
  return m;
}

const HostTensor* Constant(const Graph& g, const std::string& name) {
  ValueId v = g.FindValue(name);
  return v == kNoValue || !g.value(v).constant ? nullptr : &*g.value(v).constant;
}

TEST(RawDataSplit, StripsLargeRawDataAndKeepsTheRest) {
  const std::string bytes = TwoInitializers(40000).SerializeAsString();  // big: 160,000 bytes
  SplitModel split;
  ASSERT_TRUE(SplitLargeRawData(bytes, 64 << 10, &split));
  ASSERT_EQ(split.raw.size(), 1u);
  ASSERT_TRUE(split.raw.count("big"));
  EXPECT_EQ(split.raw.at("big").size(), 160000u);
  EXPECT_LT(split.message.size(), 1000u);
  onnx::ModelProto parsed;
  ASSERT_TRUE(parsed.ParseFromString(split.message));
  ASSERT_EQ(parsed.graph().initializer_size(), 2);
  EXPECT_EQ(parsed.graph().initializer(0).name(), "big");
  EXPECT_EQ(parsed.graph().initializer(0).raw_data(), std::string("\0", 1));  // the placeholder
  EXPECT_EQ(parsed.graph().initializer(1).raw_data().size(), 8u);             // small: as it was
  EXPECT_EQ(parsed.graph().node_size(), 1);
  EXPECT_EQ(parsed.opset_import(0).version(), 17);
  float third;
  std::memcpy(&third, split.raw.at("big").data() + 3 * sizeof(float), sizeof(float));
  EXPECT_EQ(third, 0.75f);
}

TEST(RawDataSplit, MalformedBytesAndDuplicateNamesAreLeftToTheParser) {
  const std::string bytes = TwoInitializers(40000).SerializeAsString();
  SplitModel split;
  EXPECT_FALSE(SplitLargeRawData(bytes.substr(0, bytes.size() / 2), 64 << 10, &split));  // truncated
  EXPECT_TRUE(split.raw.empty());
  auto m = TwoInitializers(40000);
  *m.mutable_graph()->add_initializer() = m.graph().initializer(0);  // "big" twice
  EXPECT_FALSE(SplitLargeRawData(m.SerializeAsString(), 64 << 10, &split));
}

// Loaded from a file and from bytes, the large initializer holds what was written.
TEST(RawDataSplit, LoadedTensorsHoldTheirValues) {
  constexpr int64_t kBig = 600000;  // 2.4 MB: one huge-page block for the large initializers
  const auto m = TwoInitializers(kBig);
  const auto path = std::filesystem::path(::testing::TempDir()) / "raw_split_model.onnx";
  std::ofstream(path, std::ios::binary) << m.SerializeAsString();
  std::shared_ptr<Graph> from_file, from_bytes;
  Status st = LoadOnnxModel(path.string(), &from_file);
  ASSERT_TRUE(st.ok()) << st.message();
  st = LoadOnnxModelFromBytes(m.SerializeAsString(), ".", &from_bytes);
  ASSERT_TRUE(st.ok()) << st.message();
  for (const auto& g : {from_file, from_bytes}) {
    const HostTensor* big = Constant(*g, "big");
    ASSERT_NE(big, nullptr);
    ASSERT_EQ(big->NumElements(), kBig);
    if (static_cast<size_t>(kBig) * sizeof(float) >= kPageMapMinBytes) {  // not under ASan: no block there
      EXPECT_EQ(reinterpret_cast<uintptr_t>(big->data()) % 64, 0u);
    }
    for (int64_t k : {int64_t{0}, int64_t{1}, int64_t{12345}, kBig - 1})
      EXPECT_EQ(big->data_as<float>()[k], 0.25f * static_cast<float>(k)) << k;
    const HostTensor* small = Constant(*g, "small");
    ASSERT_NE(small, nullptr);
    EXPECT_EQ(small->data_as<float>()[0], 3.f);
    EXPECT_EQ(small->data_as<float>()[1], -1.5f);
  }
}

TEST(RawDataSplit, WrongSizeIsStillAnError) {
  auto m = TwoInitializers(40000);
  m.mutable_graph()->mutable_initializer(0)->set_dims(0, 40001);
  std::shared_ptr<Graph> g;
  Status st = LoadOnnxModelFromBytes(m.SerializeAsString(), ".", &g);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("initializer 'big': tensor 'big': raw_data has 160000 bytes, shape [40001] of float32 "
                              "needs 160004"),
            std::string::npos)
      << st.message();
}

}  // namespace
}  // namespace ge
