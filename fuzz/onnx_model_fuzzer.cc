// Fuzz harness: the ONNX loader, the compiler and a capped run. Bytes -> LoadOnnxModelFromBytes
// (protobuf parse, checks, version converter, graph building) -> Model::FromGraph (verify,
// passes, inference, placement, sink programs / host plans, load) -> Model::Run on small inputs
// when every input has at most kMaxInputElements elements (dynamic dims become 1 or 2).
// Integer inputs hold small values in [-2, 2] (valid and invalid indices both).
//
// Under libFuzzer (GE_LIBFUZZER) a structure-aware mutator works on the parsed ModelProto:
// tensor dims, node attributes (ints, floats, lists, tensors), initializer dims/types/raw_data
// and index values, node inputs, op types, opsets; inputs that do not parse, and one time in
// four, fall back to libFuzzer's byte mutation.
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "api/model.h"
#include "onnx/onnx_pb.h"
#include "parser/onnx/onnx_parser.h"
#include "runtime/device_init.h"

namespace {

constexpr int64_t kMaxInputElements = 4096;
std::string g_base_dir;  // an empty folder: external data in a fuzzed model finds nothing

bool HasOp(const ge::Model& m, const char* op) {
  auto counts = m.op_counts_after();
  return counts.count(op) > 0;
}

void RunSmall(ge::Model* model, uint64_t seed) {
  // Loops and Scans may legitimately run for a very long time (their trip counts are data).
  if (HasOp(*model, "Loop") || HasOp(*model, "Scan")) return;
  std::mt19937_64 rng(seed);
  std::vector<ge::HostTensor> inputs;
  for (const auto& info : model->inputs()) {
    if (info.desc.kind != ge::ValueKind::kTensor || info.desc.dtype == ge::DT_STRING) return;
    if (info.desc.shape.IsUnknownRank()) return;
    std::vector<int64_t> dims = info.desc.shape.GetDims();
    int64_t n = 1;
    for (auto& d : dims) {
      if (d < 0) d = 1 + static_cast<int64_t>(rng() % 2);
      if (d > kMaxInputElements) return;
      n *= d;
      if (n > kMaxInputElements) return;
    }
    ge::HostTensor t(info.desc.dtype, ge::Shape(dims));
    auto* p = static_cast<uint8_t*>(t.mutable_data());
    const size_t es = ge::GetSizeByDataType(info.desc.dtype);
    if (p == nullptr && t.NumBytes() > 0) return;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t v = static_cast<int64_t>(rng() % 5) - 2;
      switch (info.desc.dtype) {
        case ge::DT_FLOAT: {
          float f = static_cast<float>(v) * 0.5f;
          std::memcpy(p + i * es, &f, sizeof f);
          break;
        }
        case ge::DT_DOUBLE: {
          double f = static_cast<double>(v) * 0.5;
          std::memcpy(p + i * es, &f, sizeof f);
          break;
        }
        case ge::DT_BOOL: p[i] = static_cast<uint8_t>(v & 1); break;
        default:
          // Integers little-endian, sign-extended to the element size; float16/bf16 get bits.
          for (size_t b = 0; b < es; ++b)
            p[i * es + b] = b < 8 ? static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * b)) : (v < 0 ? 0xff : 0);
      }
    }
    inputs.push_back(std::move(t));
  }
  std::vector<ge::HostTensor> outputs;
  (void)model->Run(inputs, &outputs);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  setenv("GE_LOG_LEVEL", "off", 0);
  // Big allocations fail as GE's clean out-of-memory errors, well below libFuzzer's malloc limit.
  // Device memory bounds a run's work too: kernels do work in proportion to their outputs, and a
  // legitimate 68 MB ConvInteger output (2^16 pads) took over libFuzzer's 30 s under the
  // sanitizers (0.86 s without); so did, at 64 MiB, a 3-D ConvInteger and a Conv with 1000-wide
  // pads (27 and 39 s alone under the sanitizers). The seeds' largest tensor is 2.5 MB (the
  // backend's pytorch-operator conv test): 16 MiB keeps them all.
  setenv("GE_HOST_MEMORY_LIMIT", "1073741824", 0);
  uint32_t cores = 0;
  if (ge::EnsureDevice(&cores).ok()) aclrtSetDeviceMemLimit(size_t{16} << 20);
  char tmpl[] = "/tmp/ge_fuzz_onnx_XXXXXX";
  if (mkdtemp(tmpl) != nullptr) g_base_dir = tmpl;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (g_base_dir.empty()) LLVMFuzzerInitialize(nullptr, nullptr);
  std::shared_ptr<ge::Graph> graph;
  ge::Status st =
      ge::LoadOnnxModelFromBytes(std::string(reinterpret_cast<const char*>(data), size), g_base_dir, &graph);
  if (!st.ok()) return 0;
  ge::ModelOptions options;  // mode auto: sink where shapes are static, host elsewhere
  std::unique_ptr<ge::Model> model;
  st = ge::Model::FromGraph(graph, options, &model);
  if (!st.ok()) return 0;
  uint64_t seed = size;
  for (size_t i = 0; i < size && i < 64; ++i) seed = seed * 131 + data[i];
  RunSmall(model.get(), seed);
  return 0;
}

#ifdef GE_LIBFUZZER
// ---- the structure-aware mutator ----
extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace {

using Rng = std::mt19937_64;

int64_t InterestingInt(Rng& rng) {
  static const int64_t kInts[] = {0,
                                  1,
                                  -1,
                                  2,
                                  -2,
                                  3,
                                  4,
                                  7,
                                  8,
                                  16,
                                  64,
                                  255,
                                  -128,
                                  1000,
                                  65536,
                                  INT32_MAX,
                                  INT32_MIN,
                                  (int64_t{1} << 31),
                                  (int64_t{1} << 40),
                                  INT64_MAX,
                                  INT64_MIN,
                                  INT64_MAX / 2,
                                  -(int64_t{1} << 33)};
  if (rng() % 4 == 0) return static_cast<int64_t>(rng() % 33) - 16;
  return kInts[rng() % (sizeof kInts / sizeof kInts[0])];
}

float InterestingFloat(Rng& rng) {
  static const float kFloats[] = {0.f,
                                  -0.f,
                                  1.f,
                                  -1.f,
                                  0.5f,
                                  2.f,
                                  1e-30f,
                                  1e30f,
                                  3.4e38f,
                                  -3.4e38f,
                                  __builtin_inff(),
                                  -__builtin_inff(),
                                  __builtin_nanf(""),
                                  1e-45f};
  return kFloats[rng() % (sizeof kFloats / sizeof kFloats[0])];
}

template <typename T>
T& Pick(google::protobuf::RepeatedPtrField<T>* f, Rng& rng) {
  return *f->Mutable(static_cast<int>(rng() % f->size()));
}

void CollectGraphs(onnx::GraphProto* g, std::vector<onnx::GraphProto*>* out) {
  out->push_back(g);
  for (auto& n : *g->mutable_node())
    for (auto& a : *n.mutable_attribute()) {
      if (a.has_g()) CollectGraphs(a.mutable_g(), out);
      for (auto& sg : *a.mutable_graphs()) CollectGraphs(&sg, out);
    }
}

void MutateDims(onnx::TypeProto* type, Rng& rng) {
  if (!type->has_tensor_type()) return;
  auto* shape = type->mutable_tensor_type()->mutable_shape();
  switch (rng() % 5) {
    case 0: shape->add_dim()->set_dim_value(1 + rng() % 4); return;
    case 1:
      if (shape->dim_size() > 0) shape->mutable_dim()->RemoveLast();
      return;
    case 2:
      if (shape->dim_size() > 0) Pick(shape->mutable_dim(), rng).set_dim_param("N");
      return;
    case 3: type->mutable_tensor_type()->set_elem_type(static_cast<int>(rng() % 17)); return;
    default:
      if (shape->dim_size() > 0) Pick(shape->mutable_dim(), rng).set_dim_value(InterestingInt(rng));
  }
}

void MutateTensor(onnx::TensorProto* t, Rng& rng) {
  switch (rng() % 7) {
    case 0:
      if (t->dims_size() > 0) t->set_dims(static_cast<int>(rng() % t->dims_size()), InterestingInt(rng));
      return;
    case 1:
      if (rng() % 2 && t->dims_size() > 0)
        t->mutable_dims()->RemoveLast();
      else
        t->add_dims(1 + rng() % 3);
      return;
    case 2: t->set_data_type(static_cast<int>(rng() % 17)); return;
    case 3: {  // raw_data shorter or longer
      std::string* raw = t->mutable_raw_data();
      if (rng() % 2 && !raw->empty())
        raw->resize(rng() % raw->size());
      else
        raw->append(1 + rng() % 16, static_cast<char>(rng()));
      return;
    }
    case 4: {  // an index-like value in the data
      if (t->int64_data_size() > 0) {
        t->set_int64_data(static_cast<int>(rng() % t->int64_data_size()), InterestingInt(rng));
      } else if (t->int32_data_size() > 0) {
        t->set_int32_data(static_cast<int>(rng() % t->int32_data_size()), static_cast<int32_t>(InterestingInt(rng)));
      } else if (!t->raw_data().empty() && t->data_type() == onnx::TensorProto::INT64 && t->raw_data().size() >= 8) {
        int64_t v = InterestingInt(rng);
        size_t at = 8 * (rng() % (t->raw_data().size() / 8));
        std::memcpy(t->mutable_raw_data()->data() + at, &v, 8);
      } else if (!t->raw_data().empty()) {
        (*t->mutable_raw_data())[rng() % t->raw_data().size()] = static_cast<char>(rng());
      }
      return;
    }
    case 5:  // typed data added or dropped
      if (t->float_data_size() > 0 && rng() % 2)
        t->mutable_float_data()->RemoveLast();
      else if (t->data_type() == onnx::TensorProto::INT64)
        t->add_int64_data(InterestingInt(rng));
      else
        t->add_float_data(InterestingFloat(rng));
      return;
    default:
      if (t->float_data_size() > 0)
        t->set_float_data(static_cast<int>(rng() % t->float_data_size()), InterestingFloat(rng));
  }
}

void MutateAttribute(onnx::AttributeProto* a, Rng& rng) {
  switch (a->type()) {
    case onnx::AttributeProto::INT: a->set_i(InterestingInt(rng)); return;
    case onnx::AttributeProto::FLOAT: a->set_f(InterestingFloat(rng)); return;
    case onnx::AttributeProto::INTS:
      if (a->ints_size() > 0 && rng() % 3)
        a->set_ints(static_cast<int>(rng() % a->ints_size()), InterestingInt(rng));
      else if (a->ints_size() > 0 && rng() % 2)
        a->mutable_ints()->RemoveLast();
      else
        a->add_ints(InterestingInt(rng));
      return;
    case onnx::AttributeProto::FLOATS:
      if (a->floats_size() > 0)
        a->set_floats(static_cast<int>(rng() % a->floats_size()), InterestingFloat(rng));
      else
        a->add_floats(InterestingFloat(rng));
      return;
    case onnx::AttributeProto::TENSOR: MutateTensor(a->mutable_t(), rng); return;
    case onnx::AttributeProto::STRING: a->set_s(rng() % 2 ? "" : a->s() + "x"); return;
    default: a->set_type(static_cast<onnx::AttributeProto::AttributeType>(1 + rng() % 10));
  }
}

std::vector<std::string> ValueNames(const onnx::GraphProto& g) {
  std::vector<std::string> names;
  for (const auto& v : g.input()) names.push_back(v.name());
  for (const auto& v : g.initializer()) names.push_back(v.name());
  for (const auto& n : g.node())
    for (const auto& o : n.output()) names.push_back(o);
  return names;
}

void MutateModel(onnx::ModelProto* m, Rng& rng) {
  std::vector<onnx::GraphProto*> graphs;
  CollectGraphs(m->mutable_graph(), &graphs);
  onnx::GraphProto* g = graphs[rng() % graphs.size()];
  switch (rng() % 9) {
    case 0: {  // a declared dim or type of an input, output or value_info
      std::vector<onnx::ValueInfoProto*> values;
      for (auto& v : *g->mutable_input()) values.push_back(&v);
      for (auto& v : *g->mutable_output()) values.push_back(&v);
      for (auto& v : *g->mutable_value_info()) values.push_back(&v);
      if (!values.empty()) MutateDims(values[rng() % values.size()]->mutable_type(), rng);
      return;
    }
    case 1:
    case 2: {  // an attribute
      if (g->node_size() == 0) return;
      auto& n = Pick(g->mutable_node(), rng);
      if (n.attribute_size() == 0) return;
      MutateAttribute(&Pick(n.mutable_attribute(), rng), rng);
      return;
    }
    case 3:
    case 4:  // an initializer: dims, type, raw_data size, index values
      if (g->initializer_size() > 0) MutateTensor(&Pick(g->mutable_initializer(), rng), rng);
      return;
    case 5: {  // a node input names another value, or none
      if (g->node_size() == 0) return;
      auto& n = Pick(g->mutable_node(), rng);
      auto names = ValueNames(*g);
      if (n.input_size() == 0 || names.empty()) return;
      int slot = static_cast<int>(rng() % n.input_size());
      n.set_input(slot, rng() % 8 == 0 ? std::string() : names[rng() % names.size()]);
      return;
    }
    case 6: {  // an op type from elsewhere in the graph, or a node dropped / duplicated
      if (g->node_size() < 1) return;
      auto& n = Pick(g->mutable_node(), rng);
      switch (rng() % 3) {
        case 0: n.set_op_type(Pick(g->mutable_node(), rng).op_type()); break;
        case 1: g->mutable_node()->RemoveLast(); break;
        default: *g->add_node() = n;
      }
      return;
    }
    case 7:  // the opset
      if (m->opset_import_size() > 0)
        Pick(m->mutable_opset_import(), rng).set_version(static_cast<int64_t>(rng() % 21));
      return;
    default: {  // a graph output dropped, or an input's type changed
      if (g->output_size() > 1 && rng() % 2) {
        g->mutable_output()->RemoveLast();
      } else if (g->input_size() > 0) {
        MutateDims(Pick(g->mutable_input(), rng).mutable_type(), rng);
      }
    }
  }
}

}  // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  Rng rng(seed);
  onnx::ModelProto m;
  if (rng() % 4 == 0 || !m.ParseFromArray(data, static_cast<int>(size)) || !m.has_graph())
    return LLVMFuzzerMutate(data, size, max_size);
  const int rounds = 1 + static_cast<int>(rng() % 3);
  for (int i = 0; i < rounds; ++i) MutateModel(&m, rng);
  std::string out;
  if (!m.SerializeToString(&out) || out.size() > max_size) return LLVMFuzzerMutate(data, size, max_size);
  std::memcpy(data, out.data(), out.size());
  return out.size();
}
#endif  // GE_LIBFUZZER
