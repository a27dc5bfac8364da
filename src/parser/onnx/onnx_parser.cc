// ONNX ModelProto -> ge::Graph.
#include "parser/onnx/onnx_parser.h"

#include <onnx/checker.h>
#include <onnx/onnx_pb.h>
#include <onnx/version_converter/convert.h>

#include <climits>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string_view>

#include <onnx/onnx-data.pb.h>
#include "base/host_memory.h"
#include "base/log.h"
#include "base/page_map.h"
#include "base/trace.h"

#include "ge/tensor_seq.h"
#include "parser/onnx/gradient_expansion.h"
#include "parser/onnx/raw_data_split.h"
#include "parser/onnx/tensor_proto.h"

namespace ge {
namespace {

std::string DirOf(const std::string& path) {
  auto pos = path.find_last_of('/');
  return pos == std::string::npos ? "." : path.substr(0, pos);
}

Status ParseValueInfo(const onnx::ValueInfoProto& vi, TensorDesc* desc) {
  if (vi.type().value_case() == onnx::TypeProto::VALUE_NOT_SET) {  // untyped (allowed in subgraphs)
    *desc = TensorDesc{};
    return Status::Ok();
  }
  if (vi.type().has_sequence_type() || vi.type().has_optional_type()) {
    *desc = TensorDesc{DT_UINT8, FORMAT_ND, Shape({Shape::kUnknownDim}),
                       vi.type().has_sequence_type() ? ValueKind::kSequence : ValueKind::kOptional};
    return Status::Ok();
  }
  if (!vi.type().has_tensor_type()) return Unsupported("value '{}': map types are not supported", vi.name());
  const auto& tt = vi.type().tensor_type();
  desc->dtype = FromOnnxDataType(tt.elem_type());
  if (!tt.has_shape()) {
    desc->shape = Shape::UnknownRank();
    return Status::Ok();
  }
  std::vector<int64_t> dims;
  for (const auto& d : tt.shape().dim()) {
    // A negative dim_value is no size (ONNX: >= 0); read as one it passed every check that
    // takes -1 for "unknown" (a Slice of a [-128] input overflowed its start arithmetic).
    if (d.has_dim_value() && d.dim_value() < 0)
      return InvalidArgument("value '{}': dim {} is {} (a dim_value must be >= 0)", vi.name(), dims.size(),
                             d.dim_value());
    dims.push_back(d.has_dim_value() ? d.dim_value() : Shape::kUnknownDim);
  }
  desc->shape = Shape(dims);
  return Status::Ok();
}

Status ParseGraph(const onnx::GraphProto& gp, const std::string& base_dir, bool is_subgraph,
                  std::shared_ptr<Graph>* out, onnx::GraphProto* release = nullptr, const RawDataMap* raw = nullptr);

Status ParseAttr(const onnx::AttributeProto& a, const std::string& base_dir, AttrValue* v) {
  using A = onnx::AttributeProto;
  switch (a.type()) {
    case A::INT: *v = static_cast<int64_t>(a.i()); break;
    case A::FLOAT: *v = a.f(); break;
    case A::STRING: *v = a.s(); break;
    case A::INTS: *v = std::vector<int64_t>(a.ints().begin(), a.ints().end()); break;
    case A::FLOATS: *v = std::vector<float>(a.floats().begin(), a.floats().end()); break;
    case A::STRINGS: *v = std::vector<std::string>(a.strings().begin(), a.strings().end()); break;
    case A::TENSOR: {
      HostTensor t;
      GE_RETURN_IF_ERROR(TensorFromProto(a.t(), base_dir, &t));
      *v = std::move(t);
      break;
    }
    case A::GRAPH: {
      std::shared_ptr<Graph> g;
      GE_RETURN_IF_ERROR(ParseGraph(a.g(), base_dir, true, &g));
      *v = g;
      break;
    }
    case A::GRAPHS: {
      std::vector<std::shared_ptr<Graph>> gs;
      for (const auto& gp : a.graphs()) {
        std::shared_ptr<Graph> g;
        GE_RETURN_IF_ERROR(ParseGraph(gp, base_dir, true, &g));
        gs.push_back(g);
      }
      *v = std::move(gs);
      break;
    }
    case A::TYPE_PROTO: *v = std::string("type_proto"); break;  // Optional's 'type': not needed to run
    default: return Unsupported("attribute '{}': unsupported attribute type {}", a.name(), static_cast<int>(a.type()));
  }
  return Status::Ok();
}

// Names a subgraph reads from enclosing scopes: used by its nodes (or nested subgraphs) but
// defined by none of its inputs, initializers or node outputs.
void CollectOuterRefs(const onnx::GraphProto& g, std::set<std::string>* refs) {
  std::set<std::string> defined;
  for (const auto& i : g.input()) defined.insert(i.name());
  for (const auto& i : g.initializer()) defined.insert(i.name());
  for (const auto& n : g.node())
    for (const auto& o : n.output()) defined.insert(o);
  for (const auto& n : g.node()) {
    for (const auto& in : n.input())
      if (!in.empty() && !defined.count(in)) refs->insert(in);
    for (const auto& a : n.attribute()) {
      std::set<std::string> inner;
      if (a.has_g()) CollectOuterRefs(a.g(), &inner);
      for (const auto& sg : a.graphs()) CollectOuterRefs(sg, &inner);
      for (const auto& r : inner)
        if (!defined.count(r)) refs->insert(r);
    }
  }
}

// A Constant node becomes a graph constant.
Status ConstantValue(const onnx::NodeProto& n, const std::string& base_dir, HostTensor* t) {
  for (const auto& a : n.attribute()) {
    if (a.name() == "value") return TensorFromProto(a.t(), base_dir, t);
    if (a.name() == "value_float") {
      *t = HostTensor(DT_FLOAT, Shape());
      *t->mutable_data_as<float>() = a.f();
      return Status::Ok();
    }
    if (a.name() == "value_int") {
      *t = HostTensor(DT_INT64, Shape());
      *t->mutable_data_as<int64_t>() = a.i();
      return Status::Ok();
    }
    if (a.name() == "value_floats") {
      *t = HostTensor(DT_FLOAT, Shape({static_cast<int64_t>(a.floats_size())}));
      for (int i = 0; i < a.floats_size(); ++i) t->mutable_data_as<float>()[i] = a.floats(i);
      return Status::Ok();
    }
    if (a.name() == "value_ints") {
      *t = HostTensor(DT_INT64, Shape({static_cast<int64_t>(a.ints_size())}));
      for (int i = 0; i < a.ints_size(); ++i) t->mutable_data_as<int64_t>()[i] = a.ints(i);
      return Status::Ok();
    }
    if (a.name() == "value_string") {
      *t = HostTensor(DT_STRING, Shape());
      return t->SetString(0, a.s()) ? Status::Ok() : Unsupported("string constant too long");
    }
    if (a.name() == "value_strings") {
      *t = HostTensor(DT_STRING, Shape({static_cast<int64_t>(a.strings_size())}));
      for (int i = 0; i < a.strings_size(); ++i)
        if (!t->SetString(i, a.strings(i))) return Unsupported("string constant too long");
      return Status::Ok();
    }
  }
  return InvalidArgument("node '{}' (Constant): no value attribute", n.name());
}

// A value referenced by name: defined in this graph, or (in a subgraph) from an outer scope,
// which becomes a value with no producer that the control-flow op binds by name.
ValueId Lookup(Graph* g, const std::string& name) {
  ValueId v = g->FindValue(name);
  return v != kNoValue ? v : g->AddValue(name);
}

Status ParseNode(const onnx::NodeProto& n, size_t index, const std::string& base_dir, Graph* g) {
  std::string name = n.name().empty() ? fmt::format("{}_{}", n.op_type(), index) : n.name();
  if (n.op_type() == "Constant" && (n.domain().empty() || n.domain() == "ai.onnx") && n.output_size() == 1) {
    HostTensor t;
    Status st = ConstantValue(n, base_dir, &t);
    if (!st.ok()) return st.Prepend(fmt::format("node '{}' (Constant): ", name));
    g->AddConstant(n.output(0), std::move(t));
    return Status::Ok();
  }
  std::vector<ValueId> inputs, outputs;
  for (const auto& in : n.input()) inputs.push_back(in.empty() ? kNoValue : Lookup(g, in));
  // Control flow: values its subgraphs read from this scope become explicit trailing inputs,
  // so that ordering and lifetimes see them; "__outer_refs" names them.
  std::set<std::string> refs;
  for (const auto& a : n.attribute()) {
    if (a.has_g()) CollectOuterRefs(a.g(), &refs);
    for (const auto& sg : a.graphs()) CollectOuterRefs(sg, &refs);
  }
  for (const auto& r : refs) inputs.push_back(Lookup(g, r));
  for (const auto& o : n.output()) outputs.push_back(o.empty() ? kNoValue : g->AddValue(o));
  AttrMap attrs;
  for (const auto& a : n.attribute()) {
    AttrValue v;
    Status st = ParseAttr(a, base_dir, &v);
    if (!st.ok()) return st.Prepend(fmt::format("node '{}' ({}): ", name, n.op_type()));
    attrs[a.name()] = std::move(v);
  }
  if (!refs.empty()) attrs["__outer_refs"] = std::vector<std::string>(refs.begin(), refs.end());
  NodeId id = g->AddNode(name, n.op_type(), inputs, outputs, std::move(attrs));
  g->node(id).domain = n.domain() == "ai.onnx" ? "" : n.domain();
  return Status::Ok();
}

Status ParseGraph(const onnx::GraphProto& gp, const std::string& base_dir, bool is_subgraph,
                  std::shared_ptr<Graph>* out, onnx::GraphProto* release, const RawDataMap* raw) {
  auto g = std::make_shared<Graph>(gp.name().empty() ? "main" : gp.name());
  // Raw bytes kept outside the message (raw_data_split.h), where the placeholder stands for them,
  // are copied into one block for all of them: one huge-page mapping populated at once
  // (base/page_map.h) instead of a buffer each, first touched 4 KiB at a time.
  std::vector<OutsideRawData> outside(static_cast<size_t>(gp.initializer_size()));
  std::vector<bool> has_outside(outside.size(), false);
  size_t block_bytes = 0;
  constexpr size_t kAlign = 64;
  for (int i = 0; raw != nullptr && i < gp.initializer_size(); ++i) {
    const auto& init = gp.initializer(i);
    if (init.raw_data().size() != 1 || init.raw_data()[0] != '\0') continue;
    auto it = raw->find(init.name());
    if (it == raw->end()) continue;
    outside[i].bytes = it->second;
    has_outside[i] = true;
    block_bytes += (it->second.size() + kAlign - 1) / kAlign * kAlign;
  }
  if (block_bytes >= kPageMapMinBytes) {                   // else each tensor its own buffer (and ASan its redzones)
    ReserveHostMemory(static_cast<int64_t>(block_bytes));  // accounted like any tensor's bytes
    auto* block = static_cast<uint8_t*>(MapPages(block_bytes));
    if (block == nullptr) {
      ReleaseHostMemory(static_cast<int64_t>(block_bytes));
      throw std::bad_alloc();
    }
    std::shared_ptr<void> owner(block, [block_bytes](void* p) {
      UnmapPages(p, block_bytes);
      ReleaseHostMemory(static_cast<int64_t>(block_bytes));
    });
    size_t offset = 0;
    for (size_t i = 0; i < outside.size(); ++i) {
      if (!has_outside[i]) continue;
      outside[i].owner = owner;
      outside[i].dest = block + offset;
      offset += (outside[i].bytes.size() + kAlign - 1) / kAlign * kAlign;
    }
  }
  for (int i = 0; i < gp.initializer_size(); ++i) {
    const auto& init = gp.initializer(i);
    HostTensor t;
    GE_RETURN_IF_ERROR(TensorFromProto(init, base_dir, &t, has_outside[i] ? &outside[i] : nullptr)
                           .Prepend(fmt::format("initializer '{}': ", init.name())));
    g->AddConstant(init.name(), std::move(t));
    if (release != nullptr) {  // swapped out, so that its buffers are freed, not kept as capacity
      onnx::TensorProto emptied;
      emptied.set_name(init.name());
      release->mutable_initializer(i)->Swap(&emptied);
    }
  }
  for (const auto& in : gp.input()) {
    if (g->FindValue(in.name()) != kNoValue) continue;  // an initializer listed as input
    TensorDesc desc;
    GE_RETURN_IF_ERROR(ParseValueInfo(in, &desc).Prepend("graph input: "));
    g->AddInput(in.name(), desc);
  }
  size_t num_values_before_nodes = g->num_values();
  for (int i = 0; i < gp.node_size(); ++i) GE_RETURN_IF_ERROR(ParseNode(gp.node(i), i, base_dir, g.get()));
  // In a subgraph, names from enclosing scopes become trailing graph inputs (type unknown);
  // the control-flow op binds them by name.
  for (ValueId v = static_cast<ValueId>(num_values_before_nodes);
       is_subgraph && v < static_cast<ValueId>(g->num_values()); ++v) {
    const Value& val = g->value(v);
    if (val.producer < 0 && !val.constant) g->mutable_inputs().push_back(v);
  }
  for (const auto& o : gp.output()) {
    ValueId v = g->FindValue(o.name());
    if (v == kNoValue) return InvalidArgument("graph output '{}' is produced by no node", o.name());
    TensorDesc desc;
    if (ParseValueInfo(o, &desc).ok() && g->value(v).desc.dtype == DT_UNDEFINED) g->value(v).desc = desc;
    g->AddOutput(v);
  }
  *out = std::move(g);
  return Status::Ok();
}

int64_t OnnxOpset(const onnx::ModelProto& m) {
  for (const auto& o : m.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx") return o.version();
  return 0;
}

// Before anything else reads the graph (the version converter dereferences what it assumes
// exists): every node input and graph output names a graph input, an initializer or a node
// output of this graph. Subgraphs may refer to outer values and are checked by the parser.
Status CheckGraphRefs(const onnx::GraphProto& g) {
  std::set<std::string> defined;
  for (const auto& vi : g.input()) defined.insert(vi.name());
  for (const auto& t : g.initializer()) defined.insert(t.name());
  for (const auto& n : g.node())
    for (const auto& o : n.output()) defined.insert(o);
  for (const auto& n : g.node())
    for (const auto& i : n.input())
      if (!i.empty() && !defined.count(i))
        return InvalidArgument("node '{}' ({}): input '{}' is not a graph input, an initializer or a node output",
                               n.name(), n.op_type(), i);
  for (const auto& o : g.output())
    if (!defined.count(o.name()))
      return InvalidArgument("graph output '{}' is not produced by any node, graph input or initializer", o.name());
  return Status::Ok();
}

// ONNX's version converter, made once: its constructor copies every operator schema (the fuzzer's
// loads of backend-test models spent 72% of their time in it when ConvertVersion made one per
// model). convert_version is const: concurrent loads share it.
const onnx::version_conversion::DefaultVersionConverter& VersionConverter() {
  static const auto* converter = new onnx::version_conversion::DefaultVersionConverter();
  return *converter;
}

// Before the version converter adapts an opset < 7 Gemm (its broadcast rule changed): the
// adapter indexes A's and B's declared dims 0 and 1 unchecked (a rank-1 B read past its dims:
// heap-buffer-overflow in onnx::version_conversion::Gemm_6_7, onnx_model harness). A and B must
// be declared rank 2 (graph inputs, value_info or initializers).
Status CheckBeforeConversion(const onnx::GraphProto& g, int64_t opset) {
  // The converter's IR round trip turned a dim_value of INT64_MIN into 0: refuse negative dims
  // before it, as the parser does after.
  for (const auto& vi : g.input()) {
    if (!vi.type().has_tensor_type()) continue;
    const auto& dims = vi.type().tensor_type().shape().dim();
    for (int i = 0; i < dims.size(); ++i)
      if (dims[i].has_dim_value() && dims[i].dim_value() < 0)
        return InvalidArgument("graph input: value '{}': dim {} is {} (a dim_value must be >= 0)", vi.name(), i,
                               dims[i].dim_value());
  }
  if (opset >= 7) return Status::Ok();
  std::map<std::string, int> rank;
  auto note = [&](const onnx::ValueInfoProto& vi) {
    if (vi.type().has_tensor_type() && vi.type().tensor_type().has_shape())
      rank[vi.name()] = vi.type().tensor_type().shape().dim_size();
  };
  for (const auto& vi : g.input()) note(vi);
  for (const auto& vi : g.value_info()) note(vi);
  for (const auto& vi : g.output()) note(vi);
  for (const auto& t : g.initializer()) rank[t.name()] = t.dims_size();
  for (const auto& n : g.node()) {
    if (n.op_type() != "Gemm" || !(n.domain().empty() || n.domain() == "ai.onnx")) continue;
    for (int i = 0; i < 2 && i < n.input_size(); ++i) {
      auto it = rank.find(n.input(i));
      if (it == rank.end() || it->second != 2)
        return InvalidArgument(
            "node '{}' (Gemm): an opset {} Gemm is converted to opset 7's broadcasting, which needs input {} '{}' "
            "declared with rank 2, got {}",
            n.name(), opset, i, n.input(i),
            it == rank.end() ? std::string("no declared shape") : fmt::format("rank {}", it->second));
    }
  }
  return Status::Ok();
}

Status CheckAndConvert(onnx::ModelProto* model, const OnnxLoadOptions& opt, const std::string& base_dir) {
  GE_RETURN_IF_ERROR(CheckGraphRefs(model->graph()));
  if (opt.run_checker) {
    try {
      onnx::checker::CheckerContext ctx;
      ctx.set_ir_version(model->ir_version());
      std::unordered_map<std::string, int> opsets;
      for (const auto& o : model->opset_import()) opsets[o.domain()] = static_cast<int>(o.version());
      ctx.set_opset_imports(opsets);
      ctx.set_model_dir(base_dir);
      onnx::checker::LexicalScopeContext lex;
      onnx::checker::check_graph(model->graph(), ctx, lex);
    } catch (const std::exception& e) {
      return InvalidArgument("the ONNX checker rejects the model: {}", e.what());
    }
  }
  int64_t opset = OnnxOpset(*model);
  // A model of training-domain operators only (ai.onnx.preview.training: Adam, Momentum, Adagrad)
  // imports no ai.onnx opset: there is nothing to convert.
  bool training_only = !model->opset_import().empty();
  for (const auto& o : model->opset_import()) training_only &= o.domain() == "ai.onnx.preview.training";
  if (opset == 0 && training_only) opset = opt.target_opset;
  if (opset == 0) return InvalidArgument("model imports no ai.onnx opset");
  if (opset > opt.target_opset) return Unsupported("opset {} is newer than the supported {}", opset, opt.target_opset);
  if (opset < opt.target_opset) {
    GE_RETURN_IF_ERROR(CheckBeforeConversion(model->graph(), opset));
    try {
      // The converter's IR round trip loses sequence/optional types of graph inputs/outputs:
      // put the original types back by name.
      std::map<std::string, onnx::TypeProto> types;
      for (const auto& vi : model->graph().input()) types[vi.name()] = vi.type();
      for (const auto& vi : model->graph().output()) types[vi.name()] = vi.type();
      *model = VersionConverter().convert_version(*model, onnx::OpSetID(opset), onnx::OpSetID(opt.target_opset));
      auto restore = [&](onnx::ValueInfoProto* vi) {
        auto it = types.find(vi->name());
        if (it != types.end() && !it->second.has_tensor_type()) *vi->mutable_type() = it->second;
      };
      for (auto& vi : *model->mutable_graph()->mutable_input()) restore(&vi);
      for (auto& vi : *model->mutable_graph()->mutable_output()) restore(&vi);
      GELOGD("converted model from opset {} to {}", opset, opt.target_opset);
    } catch (const std::exception& e) {
      GELOGW("opset {} model kept as is: the ONNX version converter failed: {}", opset, e.what());
    }
  }
  return Status::Ok();
}

}  // namespace

namespace {

// Runs f, turning any exception into an error: no exception leaves the loader.
template <typename F>
Status Guarded(F&& f) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return Error(Status::kOutOfMemory, "out of host memory while loading the model");
  } catch (const std::exception& e) {
    return InvalidArgument("cannot load the model: {}", e.what());
  }
}

Status LoadParsedModel(onnx::ModelProto* model, const std::string& base_dir, std::shared_ptr<Graph>* graph,
                       const OnnxLoadOptions& options, const RawDataMap* raw = nullptr) {
  if (!model->has_graph()) return InvalidArgument("the model has no graph");
  {
    trace::Step step("check and convert");
    GE_RETURN_IF_ERROR(CheckAndConvert(model, options, base_dir));
  }
  GE_RETURN_IF_ERROR(ExpandGradientNodes(model->mutable_graph()));
  trace::Step step("graph");
  // The main graph's initializers, each freed from the message once converted: a model's
  // weights are not held twice (message and graph) while loading.
  GE_RETURN_IF_ERROR(ParseGraph(model->graph(), base_dir, false, graph, model->mutable_graph(), raw));
  return Status::Ok();
}

// Initializers' raw_data of at least this many bytes stays outside the message (raw_data_split.h).
constexpr size_t kOutsideRawBytes = size_t{64} << 10;

// Parses a serialized ModelProto (its large raw_data kept in `bytes`, which must outlive the
// call) and converts it into a graph.
Status ParseAndLoad(std::string_view bytes, const std::string& base_dir, std::shared_ptr<Graph>* graph,
                    const OnnxLoadOptions& options) {
  onnx::ModelProto model;
  SplitModel split;
  bool outside = false, parsed = false;
  {
    trace::Step step("protobuf parse");
    outside = SplitLargeRawData(bytes, kOutsideRawBytes, &split);
    parsed = outside ? model.ParseFromString(split.message)
                     : bytes.size() <= static_cast<size_t>(INT_MAX) &&
                           model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()));
  }
  if (!parsed) return InvalidArgument("not a valid ONNX model (protobuf parse failed; truncated or corrupted file?)");
  split.message = std::string();
  return LoadParsedModel(&model, base_dir, graph, options, outside ? &split.raw : nullptr);
}

}  // namespace

Status LoadOnnxModelFromBytes(const std::string& bytes, const std::string& base_dir, std::shared_ptr<Graph>* graph,
                              const OnnxLoadOptions& options) {
  return Guarded([&] {
    if (bytes.empty()) return InvalidArgument("the file is empty");
    return ParseAndLoad(bytes, base_dir, graph, options);
  });
}

// The file is read into one huge-page buffer (base/page_map.h) and parsed with its large
// raw_data left there (raw_data_split.h): a model's weights are held twice at most while loading
// (the file's bytes and the graph).
Status LoadOnnxModel(const std::string& path, std::shared_ptr<Graph>* graph, const OnnxLoadOptions& options) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return InvalidArgument("{}: is a directory, not a model file", path);
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  if (!f) return InvalidArgument("{}: cannot open file", path);
  Status st = Guarded([&] {
    const std::streamoff size = f.tellg();
    if (size == 0) return InvalidArgument("the file is empty");
    if (size < 0 || size > INT_MAX) {  // protobuf's limit: streamed, it says what it can
      f.clear();
      f.seekg(0);
      onnx::ModelProto model;
      if (!model.ParseFromIstream(&f))
        return InvalidArgument("not a valid ONNX model (protobuf parse failed; truncated or corrupted file?)");
      return LoadParsedModel(&model, DirOf(path), graph, options);
    }
    const size_t n = static_cast<size_t>(size);
    std::unique_ptr<char, std::function<void(char*)>> buf =
        n >= kPageMapMinBytes
            ? std::unique_ptr<char, std::function<void(char*)>>(static_cast<char*>(MapPages(n)),
                                                                [n](char* p) { UnmapPages(p, n); })
            : std::unique_ptr<char, std::function<void(char*)>>(new char[n], [](char* p) { delete[] p; });
    if (buf == nullptr) throw std::bad_alloc();
    f.seekg(0);
    {
      trace::Step step("read file");
      if (!f.read(buf.get(), size)) return InvalidArgument("cannot read the file");
    }
    return ParseAndLoad(std::string_view(buf.get(), n), DirOf(path), graph, options);
  });
  if (!st.ok()) st.Prepend(path + ": ");
  return st;
}

Status LoadTensorProtoFile(const std::string& path, HostTensor* tensor, std::string* name) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return InvalidArgument("{}: cannot open file", path);
  std::stringstream ss;
  ss << f.rdbuf();
  onnx::TensorProto p;
  if (!p.ParseFromString(ss.str())) return InvalidArgument("{}: not a valid TensorProto", path);
  if (name) *name = p.name();
  Status st = TensorFromProto(p, DirOf(path), tensor);
  if (!st.ok()) st.Prepend(path + ": ");
  return st;
}

}  // namespace ge

namespace ge {
namespace {

Status SeqFromProto(const onnx::SequenceProto& p, const std::string& dir, HostTensor* out);

Status OptFromProto(const onnx::OptionalProto& p, const std::string& dir, HostTensor* out) {
  TensorSeq opt;
  opt.kind = ValueKind::kOptional;
  if (p.elem_type() == onnx::OptionalProto::TENSOR && p.has_tensor_value()) {
    HostTensor t;
    GE_RETURN_IF_ERROR(TensorFromProto(p.tensor_value(), dir, &t));
    opt.elems.push_back(std::move(t));
  } else if (p.elem_type() == onnx::OptionalProto::SEQUENCE && p.has_sequence_value()) {
    HostTensor t;
    GE_RETURN_IF_ERROR(SeqFromProto(p.sequence_value(), dir, &t));
    opt.elems.push_back(std::move(t));
  }
  *out = PackSeq(opt);
  return Status::Ok();
}

Status SeqFromProto(const onnx::SequenceProto& p, const std::string& dir, HostTensor* out) {
  TensorSeq seq;
  for (const auto& t : p.tensor_values()) {
    HostTensor h;
    GE_RETURN_IF_ERROR(TensorFromProto(t, dir, &h));
    seq.elems.push_back(std::move(h));
  }
  for (const auto& sv : p.sequence_values()) {
    HostTensor h;
    GE_RETURN_IF_ERROR(SeqFromProto(sv, dir, &h));
    seq.elems.push_back(std::move(h));
  }
  for (const auto& ov : p.optional_values()) {
    HostTensor h;
    GE_RETURN_IF_ERROR(OptFromProto(ov, dir, &h));
    seq.elems.push_back(std::move(h));
  }
  if (!seq.elems.empty()) seq.elem_dtype = seq.elems[0].dtype();
  *out = PackSeq(seq);
  return Status::Ok();
}

}  // namespace

Status LoadTestDataFile(const std::string& path, ValueKind kind, HostTensor* tensor) {
  if (kind == ValueKind::kTensor) return LoadTensorProtoFile(path, tensor);
  std::ifstream f(path, std::ios::binary);
  if (!f) return InvalidArgument("{}: cannot open file", path);
  std::stringstream ss;
  ss << f.rdbuf();
  Status st;
  if (kind == ValueKind::kSequence) {
    onnx::SequenceProto p;
    if (!p.ParseFromString(ss.str())) return InvalidArgument("{}: not a valid SequenceProto", path);
    st = SeqFromProto(p, DirOf(path), tensor);
  } else {
    onnx::OptionalProto p;
    if (!p.ParseFromString(ss.str())) return InvalidArgument("{}: not a valid OptionalProto", path);
    st = OptFromProto(p, DirOf(path), tensor);
  }
  if (!st.ok()) st.Prepend(path + ": ");
  return st;
}

}  // namespace ge
