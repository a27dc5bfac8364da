// Offline models (.gem, src/compiler/gem_file.h): compiled to a file, loaded without compiling.
// * Every bundled model, in sink and host mode: the .gem's outputs are bit-identical to the
//   .onnx's, and within tolerance of PyTorch's (the bundled references).
// * >= 1000 mutated files per model (truncations, bit flips, overwritten words, edited header
//   sizes and offsets; half with the checksum recomputed so the structural checks are reached)
//   give clean errors or, where a mutation is harmless, a model that runs; never a crash (the
//   sanitizer stage runs this under AddressSanitizer).
// * A wrong format version, a truncated file, a non-.gem, and load options that contradict the
//   file are refused with messages naming the problem.
// * A file compiled for another kernel target (ISA, oneDNN, caches: they choose the packed weights
//   layouts) is refused, naming both targets.
// * An aclnn_only operator cannot be compiled offline: the error names the node and the op.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "compiler/compile.h"
#include "compiler/gem_file.h"
#include "ge/graph.h"
#include "ge/model.h"
#include "ge/npy.h"
#include "kernels/kernel_target.h"
#include "register/op_def.h"

namespace ge {
namespace {

const std::string kModels = std::string(GE_SOURCE_DIR) + "/models/";

std::string TempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("ge_offline_test_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

std::vector<uint8_t> ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

void WriteFile(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

HostTensor Input(const std::string& name) {
  HostTensor t;
  EXPECT_TRUE(ReadNpy(kModels + name + "_input.npy", &t).ok());
  return t;
}

std::vector<HostTensor> RunModel(Model& m, const HostTensor& in) {
  std::vector<HostTensor> out;
  Status st = m.Run({in}, &out);
  EXPECT_TRUE(st.ok()) << st.message();
  return out;
}

struct Case {
  const char* model;
  const char* mode;
};

class OfflineRoundTrip : public ::testing::TestWithParam<Case> {};

TEST_P(OfflineRoundTrip, GemOutputsAreIdenticalToTheOnnx) {
  const Case c = GetParam();
  const std::string onnx = kModels + c.model + ".onnx";
  const std::string gem = TempPath(std::string(c.model) + "_" + c.mode + ".gem");
  ModelOptions opt;
  opt.mode = c.mode;
  Status st = Model::CompileToFile(onnx, opt, gem);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_TRUE(IsGemFile(gem));
  std::unique_ptr<Model> online, offline;
  ASSERT_TRUE(Model::Load(onnx, opt, &online).ok());
  st = Model::Load(gem, {}, &offline);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_TRUE(offline->offline());
  EXPECT_EQ(offline->mode(), online->mode());
  EXPECT_EQ(offline->DescribeSegments(), online->DescribeSegments());
  EXPECT_EQ(offline->optimizer_report(), online->optimizer_report());
  const HostTensor in = Input(c.model);
  HostTensor ref;
  ASSERT_TRUE(ReadNpy(kModels + std::string(c.model) + "_output.npy", &ref).ok());
  for (int run = 0; run < 2; ++run) {  // a second run reuses the loaded state
    std::vector<HostTensor> a = RunModel(*online, in), b = RunModel(*offline, in);
    ASSERT_EQ(a.size(), b.size());
    ASSERT_GE(b.size(), 1u);
    for (size_t o = 0; o < a.size(); ++o) {
      ASSERT_EQ(a[o].NumBytes(), b[o].NumBytes());
      EXPECT_EQ(a[o].shape(), b[o].shape());
      EXPECT_EQ(std::memcmp(a[o].data(), b[o].data(), a[o].NumBytes()), 0) << c.model << " output " << o;
    }
    // And against PyTorch's reference for output 0.
    ASSERT_EQ(b[0].NumElements(), ref.NumElements());
    double max_ref = 0, max_diff = 0;
    for (int64_t i = 0; i < ref.NumElements(); ++i) {
      max_ref = std::max(max_ref, std::fabs(static_cast<double>(ref.data_as<float>()[i])));
      max_diff = std::max(max_diff, std::fabs(static_cast<double>(b[0].data_as<float>()[i] - ref.data_as<float>()[i])));
    }
    EXPECT_LE(max_diff, 1e-4 * max_ref + 1e-5) << c.model;
  }
  std::filesystem::remove(gem);
}

INSTANTIATE_TEST_SUITE_P(Bundled, OfflineRoundTrip,
                         ::testing::Values(Case{"small_cnn", "sink"}, Case{"small_cnn", "host"},
                                           Case{"conv_bn_res", "sink"}, Case{"conv_bn_res", "host"},
                                           Case{"mlp", "auto"}, Case{"attention", "sink"}, Case{"attention", "host"},
                                           Case{"layer_norm_mlp", "sink"}, Case{"nhwc_ops", "sink"},
                                           Case{"nhwc_ops", "host"}),
                         [](const auto& info) { return std::string(info.param.model) + "_" + info.param.mode; });

void FixChecksum(std::vector<uint8_t>* f) {
  if (f->size() < kGemHeaderBytes) return;
  const uint64_t sum = GemChecksum(f->data(), f->size());
  std::memcpy(f->data() + 56, &sum, 8);
}

std::vector<uint8_t> Compiled(const std::string& model, const std::string& mode) {
  const std::string gem = TempPath(model + "_" + mode + "_mut.gem");
  ModelOptions opt;
  opt.mode = mode;
  Status st = Model::CompileToFile(kModels + model + ".onnx", opt, gem);
  EXPECT_TRUE(st.ok()) << st.message();
  std::vector<uint8_t> bytes = ReadFile(gem);
  std::filesystem::remove(gem);
  return bytes;
}

// One mutant of `good`: kind 0 truncation, 1 bit flips, 2 a word overwritten with an extreme
// value (sizes, counts, offsets, indices), 3 a header field edited.
std::vector<uint8_t> Mutate(const std::vector<uint8_t>& good, std::mt19937_64& rng, int kind, size_t meta_end) {
  std::vector<uint8_t> f = good;
  auto pick = [&](size_t lo, size_t hi) { return lo + static_cast<size_t>(rng() % (hi - lo)); };
  switch (kind) {
    case 0: f.resize(pick(0, good.size())); break;
    case 1:
      for (int i = 0, n = 1 + static_cast<int>(rng() % 8); i < n; ++i) {
        // mostly within the meta data (where the structure is), sometimes anywhere
        const size_t at = (rng() % 4 != 0) ? pick(kGemHeaderBytes, meta_end) : pick(0, f.size());
        f[at] ^= static_cast<uint8_t>(1u << (rng() % 8));
      }
      break;
    case 2: {
      static const uint64_t kValues[] = {
          0,  1,    0xFF,    0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0xFFFFFFFFFFFFFFFFull, 0x7FFFFFFFFFFFFFFFull,
          64, 4096, 1u << 20};
      const size_t at = pick(kGemHeaderBytes, meta_end - 8);
      const uint64_t v = kValues[rng() % std::size(kValues)];
      std::memcpy(f.data() + at, &v, (rng() % 2) ? 4 : 8);
      break;
    }
    default: {
      static const size_t kFields[] = {8, 12, 16, 24, 32, 40, 48};
      const size_t at = kFields[rng() % std::size(kFields)];
      uint64_t v;
      std::memcpy(&v, f.data() + at, 8);
      v += static_cast<int64_t>(rng() % 9) - 4;
      if (rng() % 4 == 0) v ^= uint64_t{1} << (rng() % 64);
      std::memcpy(f.data() + at, &v, at == 8 || at == 12 ? 4 : 8);
      break;
    }
  }
  return f;
}

class OfflineMutation : public ::testing::TestWithParam<Case> {};

TEST_P(OfflineMutation, MutatedFilesGiveCleanErrors) {
  const Case c = GetParam();
  const std::vector<uint8_t> good = Compiled(c.model, c.mode);
  ASSERT_GT(good.size(), kGemHeaderBytes);
  uint64_t meta_bytes = 0;
  std::memcpy(&meta_bytes, good.data() + 32, 8);
  const size_t meta_end = kGemHeaderBytes + meta_bytes;
  {
    std::unique_ptr<CompiledGraph> cg;
    ASSERT_TRUE(DeserializeCompiledGraph(good.data(), good.size(), "good.gem", &cg, nullptr).ok());
  }
  const HostTensor in = Input(c.model);
  std::mt19937_64 rng(12345);
  constexpr int kMutants = 1200;
  int rejected = 0, loaded = 0, ran = 0, unchecked_loads = 0;
  for (int i = 0; i < kMutants; ++i) {
    const int kind = i % 4;
    const bool fix = (i / 4) % 2 == 1;  // half reach the structural checks
    std::vector<uint8_t> f = Mutate(good, rng, kind, meta_end);
    if (f == good) continue;
    if (fix) FixChecksum(&f);
    std::unique_ptr<CompiledGraph> cg;
    GemInfo info;
    Status st = DeserializeCompiledGraph(f.data(), f.size(), "mutant.gem", &cg, &info);
    if (!st.ok()) {
      ++rejected;
      EXPECT_NE(st.message().find("mutant.gem: not a valid .gem model: "), std::string::npos) << st.message();
      continue;
    }
    ++loaded;
    if (!fix) ++unchecked_loads;  // a change the checksum did not see
    // A mutant that passes every check is a consistent model (e.g. a changed weight value): it
    // loads into executors and runs, or fails cleanly.
    if (i % 8 == 0 || kind != 1) {
      const std::string path = TempPath("mutant.gem");
      WriteFile(path, f);
      std::unique_ptr<Model> m;
      if (Model::Load(path, {}, &m).ok()) {
        std::vector<HostTensor> out;
        if (m->Run({in}, &out).ok()) ++ran;
      }
      std::filesystem::remove(path);
    }
  }
  EXPECT_EQ(unchecked_loads, 0) << "the checksum must catch every unfixed mutation";
  EXPECT_GE(rejected + loaded, 1000);
  EXPECT_GT(rejected, loaded);
  std::cout << c.model << ": " << rejected << " rejected, " << loaded << " loaded (" << ran << " run)\n";
}

INSTANTIATE_TEST_SUITE_P(Bundled, OfflineMutation,
                         ::testing::Values(Case{"small_cnn", "sink"}, Case{"attention", "host"}),
                         [](const auto& info) { return std::string(info.param.model) + "_" + info.param.mode; });

TEST(OfflineModel, WrongVersionTruncatedAndForeignFilesAreRefused) {
  std::vector<uint8_t> good = Compiled("mlp", "auto");
  std::unique_ptr<CompiledGraph> cg;
  {
    std::vector<uint8_t> f = good;
    const uint32_t v = kGemFormatVersion + 1;
    std::memcpy(f.data() + 8, &v, 4);
    FixChecksum(&f);
    Status st = DeserializeCompiledGraph(f.data(), f.size(), "m.gem", &cg, nullptr);
    const std::string want = fmt::format("format version {}, this GE reads version {}", v, kGemFormatVersion);
    EXPECT_NE(st.message().find(want), std::string::npos) << st.message();
  }
  {
    Status st = DeserializeCompiledGraph(good.data(), good.size() - 100, "m.gem", &cg, nullptr);
    EXPECT_NE(st.message().find("truncated"), std::string::npos) << st.message();
  }
  {
    std::vector<uint8_t> f = good;
    f[good.size() / 2] ^= 0x10;
    Status st = DeserializeCompiledGraph(f.data(), f.size(), "m.gem", &cg, nullptr);
    EXPECT_NE(st.message().find("checksum mismatch"), std::string::npos) << st.message();
  }
  {
    const std::string path = TempPath("short.gem");
    WriteFile(path, std::vector<uint8_t>(good.begin(), good.begin() + 20));
    std::unique_ptr<Model> m;
    Status st = Model::Load(path, {}, &m);
    EXPECT_NE(st.message().find("shorter than the 64-byte header"), std::string::npos) << st.message();
    std::filesystem::remove(path);
  }
  {  // a .gem given to CompileToFile, and a .onnx that is not a model
    const std::string path = TempPath("m.gem");
    WriteFile(path, good);
    Status st = Model::CompileToFile(path, {}, TempPath("again.gem"));
    EXPECT_NE(st.message().find("already a compiled (.gem) model"), std::string::npos) << st.message();
    std::filesystem::remove(path);
  }
}

// Weights are read from the mapped file while loading; a loaded model no longer depends on it.
// The .gem `bytes` (header, then the producer and the kernel target strings, as gem_file.cc writes
// them) with `target` as its kernel target (this machine's by default, so that a kept fuzz input
// reaches the check it was kept for on any machine); the weights section moves to the next 4096-byte boundary when the
// meta section outgrows its padding, and the checksum is recomputed.
std::vector<uint8_t> Retargeted(const std::vector<uint8_t>& bytes,
                                const std::string& target = kernels::KernelTarget()) {
  auto u32 = [&](size_t at) {
    uint32_t v = 0;
    std::memcpy(&v, bytes.data() + at, 4);
    return v;
  };
  auto u64 = [&](size_t at) {
    uint64_t v = 0;
    std::memcpy(&v, bytes.data() + at, 8);
    return v;
  };
  EXPECT_GT(bytes.size(), kGemHeaderBytes + 8);
  const size_t target_at = kGemHeaderBytes + 4 + u32(kGemHeaderBytes);
  const size_t target_end = target_at + 4 + u32(target_at);
  const uint64_t meta_end = kGemHeaderBytes + u64(32), weights_at = u64(40);
  EXPECT_LE(target_end, meta_end);
  EXPECT_LE(meta_end, weights_at);
  EXPECT_LE(weights_at, bytes.size());
  std::vector<uint8_t> meta(bytes.begin() + static_cast<std::ptrdiff_t>(kGemHeaderBytes),
                            bytes.begin() + static_cast<std::ptrdiff_t>(target_at));
  const uint32_t n = static_cast<uint32_t>(target.size());
  meta.insert(meta.end(), reinterpret_cast<const uint8_t*>(&n), reinterpret_cast<const uint8_t*>(&n) + 4);
  meta.insert(meta.end(), target.begin(), target.end());
  meta.insert(meta.end(), bytes.begin() + static_cast<std::ptrdiff_t>(target_end),
              bytes.begin() + static_cast<std::ptrdiff_t>(meta_end));
  const uint64_t new_weights_at = std::max<uint64_t>(weights_at, (kGemHeaderBytes + meta.size() + 4095) / 4096 * 4096);
  std::vector<uint8_t> f(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(kGemHeaderBytes));
  f.insert(f.end(), meta.begin(), meta.end());
  f.resize(new_weights_at, 0);
  f.insert(f.end(), bytes.begin() + static_cast<std::ptrdiff_t>(weights_at), bytes.end());
  const uint64_t file_bytes = f.size(), meta_bytes = meta.size();
  std::memcpy(f.data() + 16, &file_bytes, 8);
  std::memcpy(f.data() + 32, &meta_bytes, 8);
  std::memcpy(f.data() + 40, &new_weights_at, 8);
  FixChecksum(&f);
  return f;
}

// A file compiled on a machine with another kernel target (here: this machine's with a note
// appended, 4096 bytes of target so that the weights section moves too) is refused naming both
// targets; given this machine's target back, the same bytes load and run.
TEST(OfflineModel, AFileCompiledForAnotherKernelTargetIsRefused) {
  const std::vector<uint8_t> good = Compiled("small_cnn", "sink");
  const std::string& here = kernels::KernelTarget();
  const std::string bytes(good.begin(), good.end());
  ASSERT_NE(bytes.find(here), std::string::npos) << "the file records the target it was compiled for";
  const std::string other = here + "; another machine" + std::string(4096, '.');
  const std::vector<uint8_t> foreign = Retargeted(good, other);
  ASSERT_GT(foreign.size(), good.size());
  const std::string path = TempPath("other_target.gem");
  WriteFile(path, foreign);
  std::unique_ptr<Model> m;
  Status st = Model::Load(path, {}, &m);
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(m, nullptr);
  EXPECT_NE(st.message().find(path + ": not a valid .gem model: compiled for another kernel target"), std::string::npos)
      << st.message();
  EXPECT_NE(st.message().find(fmt::format("the file's is \"{}\", this machine's \"{}\"", other, here)),
            std::string::npos)
      << st.message();
  EXPECT_NE(st.message().find("compile the model again on this machine"), std::string::npos) << st.message();
  std::filesystem::remove(path);

  const std::vector<uint8_t> back = Retargeted(foreign);
  std::unique_ptr<CompiledGraph> cg;
  st = DeserializeCompiledGraph(back.data(), back.size(), "back.gem", &cg, nullptr);
  EXPECT_TRUE(st.ok()) << st.message();
  WriteFile(path, back);
  ASSERT_TRUE(Model::Load(path, {}, &m).ok());
  std::filesystem::remove(path);
  std::unique_ptr<Model> onnx;
  ASSERT_TRUE(Model::Load(kModels + "small_cnn.onnx", {}, &onnx).ok());
  const HostTensor in = Input("small_cnn");
  const std::vector<HostTensor> a = RunModel(*m, in), b = RunModel(*onnx, in);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i)
    EXPECT_EQ(std::memcmp(a[i].data(), b[i].data(), a[i].NumBytes()), 0) << "output " << i;
}

std::vector<uint8_t> KeptFuzzInput(const std::string& name) {
  const std::string path = std::string(GE_SOURCE_DIR) + "/fuzz/regressions/gem/" + name;
  std::vector<uint8_t> bytes = ReadFile(path);
  EXPECT_GT(bytes.size(), kGemHeaderBytes) << path;
  return bytes.size() > kGemHeaderBytes ? Retargeted(bytes) : bytes;
}

// A mutated .gem whose host-run Softmax reads a constant the file marks as released (no bytes,
// kept only for sink segments): the host executor uploaded one byte for it and the Softmax read
// past it (heap-buffer-overflow, gem harness). Now the load fails naming the value and reader.
TEST(OfflineModel, HostNodeReadingAReleasedConstantIsAnError) {
  const std::vector<uint8_t> bytes = KeptFuzzInput("host_reads_released_constant.gem");
  std::unique_ptr<Model> model;
  Status st = Model::LoadFromMemory(bytes.data(), bytes.size(), ModelOptions{}, &model);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("value 'features.0.weight' (float32[8, 3, 3, 3]) is a constant without bytes "
                              "(released), but node '/Softmax' (Softmax) reads it"),
            std::string::npos)
      << st.message();
}

TEST(OfflineModel, ALoadedModelSurvivesItsFileBeingTruncated) {
  for (const char* mode : {"sink", "host"}) {
    const std::string gem = TempPath(std::string("conv_bn_res_trunc_") + mode + ".gem");
    ModelOptions opt;
    opt.mode = mode;
    ASSERT_TRUE(Model::CompileToFile(kModels + "conv_bn_res.onnx", opt, gem).ok());
    std::unique_ptr<Model> m, online;
    ASSERT_TRUE(Model::Load(gem, {}, &m).ok());
    ASSERT_TRUE(Model::Load(kModels + "conv_bn_res.onnx", opt, &online).ok());
    std::filesystem::resize_file(gem, 0);
    const HostTensor in = Input("conv_bn_res");
    std::vector<HostTensor> a = RunModel(*online, in), b = RunModel(*m, in);
    ASSERT_EQ(a.size(), 1u);
    ASSERT_EQ(b.size(), 1u);
    ASSERT_EQ(a[0].NumBytes(), b[0].NumBytes());
    EXPECT_EQ(std::memcmp(a[0].data(), b[0].data(), a[0].NumBytes()), 0) << mode;
    std::filesystem::remove(gem);
  }
}

TEST(OfflineModel, LoadOptionsMayNotContradictTheFile) {
  const std::string gem = TempPath("small_cnn_opts.gem");
  ModelOptions sink;
  sink.mode = "sink";
  ASSERT_TRUE(Model::CompileToFile(kModels + "small_cnn.onnx", sink, gem).ok());
  std::unique_ptr<Model> m;
  ModelOptions host;
  host.mode = "host";
  Status st = Model::Load(gem, host, &m);
  EXPECT_NE(st.message().find("compiled offline with mode sink"), std::string::npos) << st.message();
  ModelOptions fallback;
  fallback.prefer_fallback = true;
  st = Model::Load(gem, fallback, &m);
  EXPECT_NE(st.message().find("never takes the fallback path"), std::string::npos) << st.message();
  ModelOptions same;
  same.mode = "sink";
  EXPECT_TRUE(Model::Load(gem, same, &m).ok());
  std::filesystem::remove(gem);
}

// ---- aclnn_only: an operator that only runs through its host fallback ----

struct GemOnlyTiling {
  int64_t n;
};
graphStatus GemOnlyTilingFunc(gert::TilingContext* ctx) {
  ctx->GetTilingData<GemOnlyTiling>()->n = ctx->GetInputShape(0)->GetStorageShape().GetShapeSize();
  return GRAPH_SUCCESS;
}
void GemOnlyKernel(const aclrtKernelArgs* args) {
  const auto* t = static_cast<const GemOnlyTiling*>(args->tiling);
  for (int64_t i = 0; i < t->n; ++i)
    static_cast<float*>(args->addrs[1])[i] = static_cast<const float*>(args->addrs[0])[i] + 1.f;
}
graphStatus GemOnlyShape(gert::InferShapeContext* ctx) {
  *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
  return GRAPH_SUCCESS;
}
graphStatus GemOnlyType(gert::InferDataTypeContext* ctx) { return ctx->SetOutputDataType(0, ctx->GetInputDataType(0)); }
class GemAclnnOnlyOp : public ops::OpDef {
 public:
  explicit GemAclnnOnlyOp(const char* name) : OpDef(name) {
    this->Input("x").ParamType(ops::REQUIRED).DataType({DT_FLOAT});
    this->Output("y").ParamType(ops::REQUIRED).DataType({DT_FLOAT});
    this->SetInferShape(GemOnlyShape);
    this->SetInferDataType(GemOnlyType);
    this->AICore().SetTiling(GemOnlyTilingFunc).SetKernel(GemOnlyKernel);
    ops::OpAICoreConfig cfg("ascend910b");
    cfg.ExtendCfgInfo("aclnnSupport.value", "aclnn_only");
    this->AICore().AddConfig("ascend910b", cfg);
    this->EnableFallBack();
  }
};
OP_ADD(GemAclnnOnlyOp);

TEST(OfflineModel, AclnnOnlyOperatorIsRefusedNamingTheNode) {
  onnx::ModelProto mp;
  mp.set_ir_version(8);
  mp.add_opset_import()->set_version(17);
  auto* custom = mp.add_opset_import();
  custom->set_domain("com.example.custom");
  custom->set_version(1);
  auto* g = mp.mutable_graph();
  g->set_name("only");
  for (auto* v : {g->add_input(), g->add_output()}) {
    v->set_name(v == &g->input(0) ? "x" : "y");
    auto* tt = v->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(onnx::TensorProto::FLOAT);
    tt->mutable_shape()->add_dim()->set_dim_value(2);
    tt->mutable_shape()->add_dim()->set_dim_value(3);
  }
  auto* n = g->add_node();
  n->set_op_type("GemAclnnOnlyOp");
  n->set_domain("com.example.custom");
  n->set_name("the_only_node");
  n->add_input("x");
  n->add_output("y");
  const std::string onnx_path = TempPath("aclnn_only.onnx");
  {
    std::ofstream f(onnx_path, std::ios::binary);
    ASSERT_TRUE(mp.SerializeToOstream(&f));
  }
  // Online it runs (through the fallback); offline it is an error naming the node and the op.
  std::unique_ptr<Model> online;
  Status st = Model::Load(onnx_path, {}, &online);
  ASSERT_TRUE(st.ok()) << st.message();
  const std::string gem = TempPath("aclnn_only.gem");
  st = Model::CompileToFile(onnx_path, {}, gem);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("the_only_node"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("aclnn_only"), std::string::npos) << st.message();
  EXPECT_FALSE(std::filesystem::exists(gem));
  std::filesystem::remove(onnx_path);
}

}  // namespace
}  // namespace ge
