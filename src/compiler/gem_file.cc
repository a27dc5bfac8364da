// The .gem offline model file: writer, bounds-checked reader and the load-time validation.
#include "compiler/gem_file.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <fstream>
#include <limits>
#include <type_traits>
#include <unordered_map>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "base/checked_math.h"
#include "base/log.h"
#include "compiler/check_supported.h"
#include "compiler/memory_checker.h"
#include "compiler/node_binding.h"
#include "compiler/op_call.h"
#include "kernels/kernel_target.h"

namespace ge {
namespace {

static_assert(std::endian::native == std::endian::little, "the .gem format is little-endian");

constexpr char kMagic[8] = {'G', 'E', 'M', 'O', 'D', 'E', 'L', '\0'};
constexpr size_t kChecksumOffset = 56;
constexpr uint64_t kWeightsAlign = 4096;  // the section starts on a page
constexpr uint64_t kBlobAlign = 64;       // each weight within it
constexpr int kMaxGraphDepth = 16;        // subgraphs within subgraphs
constexpr int kMaxStreams = 64;
constexpr uint32_t kMaxBlockDim = 1u << 16;
constexpr size_t kMaxTilingBytes = 1u << 20;
constexpr int64_t kMaxArenaBytes = int64_t{1} << 42;
constexpr int64_t kMaxTensorBytes = int64_t{1} << 42;

// ---- writing ----

class Writer {
 public:
  std::vector<uint8_t> buf;

  template <typename T>
  void Pod(T v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const size_t n = buf.size();
    buf.resize(n + sizeof(T));
    std::memcpy(buf.data() + n, &v, sizeof(T));
  }
  void U8(uint8_t v) { Pod(v); }
  void U32(uint32_t v) { Pod(v); }
  void I32(int32_t v) { Pod(v); }
  void U64(uint64_t v) { Pod(v); }
  void I64(int64_t v) { Pod(v); }
  void Count(size_t n) { U32(static_cast<uint32_t>(n)); }
  void Str(const std::string& s) {
    Count(s.size());
    buf.insert(buf.end(), s.begin(), s.end());
  }
  template <typename T>
  void Vec(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    Count(v.size());
    const size_t n = buf.size();
    buf.resize(n + v.size() * sizeof(T));
    if (!v.empty()) std::memcpy(buf.data() + n, v.data(), v.size() * sizeof(T));
  }
  void Bytes(const void* p, size_t n) {
    U64(n);
    const auto* b = static_cast<const uint8_t*>(p);
    buf.insert(buf.end(), b, b + n);
  }
};

// Weights by the address of their bytes: a constant shared by several graphs is stored once.
struct WeightTable {
  std::unordered_map<const void*, uint32_t> index;
  std::vector<const HostTensor*> blobs;
  uint32_t Add(const HostTensor& t) {
    auto [it, fresh] = index.emplace(t.data(), static_cast<uint32_t>(blobs.size()));
    if (fresh) blobs.push_back(&t);
    return it->second;
  }
};

void WriteDesc(Writer& w, const TensorDesc& d) {
  w.U32(static_cast<uint32_t>(d.dtype));
  w.I32(static_cast<int32_t>(d.format));
  w.U8(static_cast<uint8_t>(d.kind));
  w.U8(d.shape.IsUnknownRank() ? 1 : 0);
  w.Vec(d.shape.GetDims());
}

void WriteTensorInline(Writer& w, const HostTensor& t) {
  WriteDesc(w, t.desc());
  w.Bytes(t.data(), t.NumBytes());
}

enum ConstKind : uint8_t { kNotConstant = 0, kBlob = 1, kReleased = 2 };

enum AttrTag : uint8_t {
  kAttrInt,
  kAttrFloat,
  kAttrString,
  kAttrInts,
  kAttrFloats,
  kAttrStrings,
  kAttrTensor,
  kAttrGraph,
  kAttrGraphs,
  kNumAttrTags
};
static_assert(std::variant_size_v<AttrValue> == kNumAttrTags);

void WriteGraph(Writer& w, const Graph& g, WeightTable& weights);

void WriteAttr(Writer& w, const AttrValue& a, WeightTable& weights) {
  w.U8(static_cast<uint8_t>(a.index()));
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, int64_t>) {
          w.I64(v);
        } else if constexpr (std::is_same_v<T, float>) {
          w.Pod(v);
        } else if constexpr (std::is_same_v<T, std::string>) {
          w.Str(v);
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>> || std::is_same_v<T, std::vector<float>>) {
          w.Vec(v);
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
          w.Count(v.size());
          for (const auto& s : v) w.Str(s);
        } else if constexpr (std::is_same_v<T, HostTensor>) {
          WriteTensorInline(w, v);
        } else if constexpr (std::is_same_v<T, std::shared_ptr<Graph>>) {
          WriteGraph(w, *v, weights);
        } else {
          w.Count(v.size());
          for (const auto& g : v) WriteGraph(w, *g, weights);
        }
      },
      a);
}

void WriteGraph(Writer& w, const Graph& g, WeightTable& weights) {
  w.Str(g.name());
  w.Count(g.num_values());
  for (size_t i = 0; i < g.num_values(); ++i) {
    const Value& v = g.value(static_cast<ValueId>(i));
    w.Str(v.name);
    WriteDesc(w, v.desc);
    if (!v.constant) {
      w.U8(kNotConstant);
    } else if (v.constant->data() == nullptr && v.constant->NumElements() != 0) {
      w.U8(kReleased);
      WriteDesc(w, v.constant->desc());
    } else {
      w.U8(kBlob);
      WriteDesc(w, v.constant->desc());
      w.U32(weights.Add(*v.constant));
    }
  }
  w.Count(g.num_nodes());
  for (size_t i = 0; i < g.num_nodes(); ++i) {
    const Node& n = g.node(static_cast<NodeId>(i));
    w.Str(n.name);
    w.Str(n.type);
    w.Str(n.domain);
    w.Vec(n.inputs);
    w.Vec(n.outputs);
    w.Count(n.attrs.size());
    for (const auto& [key, value] : n.attrs) {
      w.Str(key);
      WriteAttr(w, value, weights);
    }
  }
  w.Vec(g.inputs());
  w.Vec(g.outputs());
}

void WriteOptions(Writer& w, const CompileOptions& o) {
  w.Str(o.mode);
  w.U8(o.offline ? 1 : 0);
  w.U8(o.prefer_fallback ? 1 : 0);
  w.I32(o.max_streams);
  w.I32(o.opt_level);
  w.Count(o.input_shapes.size());
  for (const auto& [name, dims] : o.input_shapes) {
    w.Str(name);
    w.Vec(dims);
  }
}

void WriteProgram(Writer& w, const SinkProgram& p) {
  w.Vec(p.order);
  w.Count(p.tasks.size());
  for (const SinkTask& t : p.tasks) {
    w.I32(t.position);
    w.I32(t.node);
    w.U32(t.block_dim);
    w.Vec(t.tiling);
    w.Count(t.args.size());
    for (const KernelArg& a : t.args) {
      w.U8(a.kind);
      w.I64(a.offset);
      w.I32(a.value);
    }
  }
  const StreamAssignment& s = p.streams;
  w.I32(s.num_streams);
  w.I32(s.num_events);
  w.Vec(s.stream);
  w.Vec(s.index);
  w.Vec(s.event);
  w.Count(s.syncs.size());
  for (const StreamSync& y : s.syncs) {
    w.I32(y.producer);
    w.I32(y.consumer);
  }
  w.Vec(s.clock);
  const PlannerInput& pi = p.planner_input;
  w.Vec(pi.value_bytes);
  w.Count(pi.nodes.size());
  for (const PlannerNode& n : pi.nodes) {
    w.Vec(n.inputs);
    w.Vec(n.outputs);
    w.U8(n.is_view ? 1 : 0);
    w.Vec(n.in_place);
    w.Vec(n.workspaces);
    w.Vec(n.absent_output_bytes);
  }
  w.Vec(pi.graph_inputs);
  w.Vec(pi.graph_outputs);
  const MemoryPlan& m = p.memory;
  w.Count(m.buffers.size());
  for (const PlannedBuffer& b : m.buffers) {
    w.I64(b.size);
    w.I32(b.def);
    w.Vec(b.uses);
    w.I64(b.offset);
    w.U8(b.is_workspace ? 1 : 0);
    w.I64(b.used);
  }
  w.Vec(m.value_buffer);
  w.Count(m.workspace_buffer.size());
  for (const auto& v : m.workspace_buffer) w.Vec(v);
  w.Count(m.scratch_buffer.size());
  for (const auto& v : m.scratch_buffer) w.Vec(v);
  w.I64(m.arena_bytes);
  w.I64(m.guard_bytes);
  w.I64(m.report.naive_bytes);
  w.I64(m.report.lower_bound_bytes);
  w.I64(m.report.arena_bytes);
  w.I32(m.report.num_tensors);
  w.I32(m.report.num_buffers);
  w.Count(p.values.size());
  for (const gert::Tensor& t : p.values) {
    w.U32(static_cast<uint32_t>(t.GetDataType()));
    const gert::Shape& s = t.GetStorageShape();
    w.Count(s.GetDimNum());
    for (size_t i = 0; i < s.GetDimNum(); ++i) w.I64(s.GetDim(i));
  }
  w.Vec(p.constants);
  w.Vec(p.input_offsets);
  w.Vec(p.output_offsets);
  w.Vec(p.value_root);
}

// ---- reading ----

class Reader {
 public:
  Reader(const uint8_t* p, size_t n) : p_(p), begin_(p), end_(p + n) {}
  bool ok() const { return ok_; }
  const std::string& error() const { return error_; }
  size_t left() const { return static_cast<size_t>(end_ - p_); }
  void Fail(const std::string& what) {
    if (!ok_) return;
    ok_ = false;
    error_ = fmt::format("{} (meta byte {})", what, p_ - begin_);
  }
  template <typename T>
  T Pod() {
    T v{};
    if (!ok_) return v;
    if (left() < sizeof(T)) {
      Fail("truncated");
      return v;
    }
    std::memcpy(&v, p_, sizeof(T));
    p_ += sizeof(T);
    return v;
  }
  uint8_t U8() { return Pod<uint8_t>(); }
  uint32_t U32() { return Pod<uint32_t>(); }
  int32_t I32() { return Pod<int32_t>(); }
  uint64_t U64() { return Pod<uint64_t>(); }
  int64_t I64() { return Pod<int64_t>(); }
  bool Bool(const char* what) {
    const uint8_t b = U8();
    if (b > 1) Fail(fmt::format("{}: {} is not a boolean", what, b));
    return b == 1;
  }
  // A count of items of at least `min_item` bytes each: never more than the bytes left allow.
  uint32_t Count(size_t min_item, const char* what) {
    const uint32_t n = U32();
    if (ok_ && static_cast<uint64_t>(n) * std::max<size_t>(min_item, 1) > left()) {
      Fail(fmt::format("{}: count {} exceeds the {} bytes left", what, n, left()));
      return 0;
    }
    return ok_ ? n : 0;
  }
  std::string Str(const char* what) {
    const uint32_t n = Count(1, what);
    std::string s(reinterpret_cast<const char*>(p_), n);
    p_ += n;
    return s;
  }
  template <typename T>
  std::vector<T> Vec(const char* what) {
    const uint32_t n = Count(sizeof(T), what);
    std::vector<T> v(n);
    if (n > 0) std::memcpy(v.data(), p_, n * sizeof(T));
    p_ += static_cast<size_t>(n) * sizeof(T);
    return v;
  }
  // Bytes with a 64-bit length.
  const uint8_t* Bytes(uint64_t* n, const char* what) {
    *n = U64();
    if (!ok_) return nullptr;
    if (*n > left()) {
      Fail(fmt::format("{}: {} bytes exceed the {} left", what, *n, left()));
      *n = 0;
      return nullptr;
    }
    const uint8_t* b = p_;
    p_ += *n;
    return b;
  }

 private:
  const uint8_t* p_;
  const uint8_t* begin_;
  const uint8_t* end_;
  bool ok_ = true;
  std::string error_;
};

bool ValidDataType(uint32_t dt) {
  return dt < static_cast<uint32_t>(DT_MAX) &&
         (GetSizeByDataType(static_cast<DataType>(dt)) > 0 || dt == static_cast<uint32_t>(DT_UNDEFINED));
}

bool ValidDims(const std::vector<int64_t>& dims) {
  if (dims.size() > gert::Shape::kMaxDimNum) return false;
  for (int64_t d : dims)
    if (d < -1) return false;
  return true;
}

TensorDesc ReadDesc(Reader& r, const char* what) {
  TensorDesc d;
  const uint32_t dt = r.U32();
  const int32_t format = r.I32();
  const uint8_t kind = r.U8();
  const bool unknown_rank = r.Bool(what);
  std::vector<int64_t> dims = r.Vec<int64_t>(what);
  if (!r.ok()) return d;
  if (!ValidDataType(dt)) r.Fail(fmt::format("{}: data type {} is not one GE knows", what, dt));
  if (format < 0 || format >= static_cast<int32_t>(FORMAT_MAX))
    r.Fail(fmt::format("{}: format {} is not one GE knows", what, format));
  if (kind > static_cast<uint8_t>(ValueKind::kOptional)) r.Fail(fmt::format("{}: value kind {}", what, kind));
  if (!ValidDims(dims) || (unknown_rank && !dims.empty()))
    r.Fail(
        fmt::format("{}: invalid dims (rank {}, at most {}, each >= -1)", what, dims.size(), gert::Shape::kMaxDimNum));
  if (!r.ok()) return d;
  d.dtype = static_cast<DataType>(dt);
  d.format = static_cast<Format>(format);
  d.kind = static_cast<ValueKind>(kind);
  d.shape = unknown_rank ? Shape::UnknownRank() : Shape(std::move(dims));
  return d;
}

// The bytes a tensor of `d` holds; -1 when the shape is not static or the size is out of range.
int64_t DescBytes(const TensorDesc& d) {
  if (d.shape.IsUnknownRank()) return -1;
  const int64_t n = d.shape.GetShapeSize();
  if (n < 0) return -1;
  const auto bytes = CheckedByteSize(n, GetSizeByDataType(d.dtype));
  if (!bytes || *bytes > static_cast<size_t>(kMaxTensorBytes)) return -1;
  return static_cast<int64_t>(*bytes);
}

HostTensor ReadTensorInline(Reader& r, const char* what) {
  TensorDesc d = ReadDesc(r, what);
  uint64_t n = 0;
  const uint8_t* bytes = r.Bytes(&n, what);
  if (!r.ok()) return {};
  const int64_t want = DescBytes(d);
  if (want < 0 || static_cast<uint64_t>(want) != n) {
    r.Fail(fmt::format("{}: {} bytes for {} (expected {})", what, n, d.ToString(), want));
    return {};
  }
  return HostTensor::FromBytes(d.dtype, d.shape, bytes, n);
}

struct WeightSection {
  std::shared_ptr<void> owner;  // the mapped file: weights alias it instead of being copied
  const uint8_t* base = nullptr;
  std::vector<std::pair<uint64_t, uint64_t>> blobs;  // offset, bytes
  std::vector<std::vector<HostTensor>> made;         // per blob: the tensors made from it (shared bytes)
};

HostTensor WeightTensor(Reader& r, WeightSection& ws, const TensorDesc& d, uint32_t blob, const std::string& what) {
  if (blob >= ws.blobs.size()) {
    r.Fail(fmt::format("{}: weight {} of {}", what, blob, ws.blobs.size()));
    return {};
  }
  const int64_t want = DescBytes(d);
  const auto [offset, size] = ws.blobs[blob];
  if (want < 0 || static_cast<uint64_t>(want) != size) {
    r.Fail(fmt::format("{}: weight {} has {} bytes, {} needs {}", what, blob, size, d.ToString(), want));
    return {};
  }
  for (const HostTensor& t : ws.made[blob])
    if (t.dtype() == d.dtype && t.shape() == d.shape) return t;
  HostTensor t = ws.owner ? HostTensor::Aliasing(d, ws.owner, const_cast<uint8_t*>(ws.base + offset), size)
                          : HostTensor::FromBytes(d.dtype, d.shape, ws.base + offset, size);
  ws.made[blob].push_back(t);
  return t;
}

std::shared_ptr<Graph> ReadGraph(Reader& r, WeightSection& ws, int depth);

AttrValue ReadAttr(Reader& r, WeightSection& ws, int depth, const std::string& what) {
  const uint8_t tag = r.U8();
  switch (tag) {
    case kAttrInt: return r.I64();
    case kAttrFloat: return r.Pod<float>();
    case kAttrString: return r.Str(what.c_str());
    case kAttrInts: return r.Vec<int64_t>(what.c_str());
    case kAttrFloats: return r.Vec<float>(what.c_str());
    case kAttrStrings: {
      std::vector<std::string> v(r.Count(4, what.c_str()));
      for (auto& s : v) s = r.Str(what.c_str());
      return v;
    }
    case kAttrTensor: return ReadTensorInline(r, what.c_str());
    case kAttrGraph: return ReadGraph(r, ws, depth + 1);
    case kAttrGraphs: {
      std::vector<std::shared_ptr<Graph>> v(r.Count(16, what.c_str()));
      for (auto& g : v) g = ReadGraph(r, ws, depth + 1);
      return v;
    }
    default: r.Fail(fmt::format("{}: attribute type {}", what, tag)); return int64_t{0};
  }
}

bool InRange(int64_t id, size_t n, bool absent_ok) {
  return (absent_ok && id == kNoValue) || (id >= 0 && static_cast<uint64_t>(id) < n);
}

std::shared_ptr<Graph> ReadGraph(Reader& r, WeightSection& ws, int depth) {
  if (depth > kMaxGraphDepth) {
    r.Fail(fmt::format("subgraphs nested deeper than {}", kMaxGraphDepth));
    return nullptr;
  }
  auto g = std::make_shared<Graph>(r.Str("graph name"));
  const uint32_t nv = r.Count(16, "values");
  for (uint32_t i = 0; i < nv && r.ok(); ++i) {
    std::string name = r.Str("value name");
    const std::string what = fmt::format("graph '{}' value {} '{}'", g->name(), i, name);
    TensorDesc desc = ReadDesc(r, what.c_str());
    const uint8_t kind = r.U8();
    std::optional<HostTensor> constant;
    if (kind == kBlob || kind == kReleased) {
      TensorDesc cd = ReadDesc(r, what.c_str());
      // Kernels read a constant by the value's desc: it must be the constant's (a mutated file
      // gave a Softmax a [1, 10] desc over a smaller constant: a heap read past its bytes).
      if (r.ok() && (cd.dtype != desc.dtype || !(cd.shape == desc.shape)))
        r.Fail(fmt::format("{}: the value is {} but its constant is {}", what, desc.ToString(), cd.ToString()));
      if (kind == kBlob) {
        constant = WeightTensor(r, ws, cd, r.U32(), what);
      } else if (r.ok()) {
        if (DescBytes(cd) < 0) r.Fail(what + ": a released constant without a static shape");
        if (r.ok()) constant = HostTensor::WithoutBytes(cd);
      }
    } else if (kind != kNotConstant) {
      r.Fail(fmt::format("{}: constant kind {}", what, kind));
    }
    if (!r.ok()) break;
    const ValueId id = g->AddValue(std::move(name), std::move(desc));
    g->value(id).constant = std::move(constant);
  }
  const uint32_t nn = r.Count(20, "nodes");
  std::vector<bool> produced(g->num_values(), false);
  for (uint32_t i = 0; i < nn && r.ok(); ++i) {
    std::string name = r.Str("node name");
    std::string type = r.Str("node type");
    std::string domain = r.Str("node domain");
    const std::string what = fmt::format("graph '{}' node {} '{}' ({})", g->name(), i, name, type);
    std::vector<ValueId> inputs = r.Vec<ValueId>(what.c_str());
    std::vector<ValueId> outputs = r.Vec<ValueId>(what.c_str());
    AttrMap attrs;
    const uint32_t na = r.Count(2, what.c_str());
    for (uint32_t a = 0; a < na && r.ok(); ++a) {
      std::string key = r.Str(what.c_str());
      AttrValue v = ReadAttr(r, ws, depth, what + " attribute " + key);
      attrs.emplace(std::move(key), std::move(v));
    }
    if (!r.ok()) break;
    for (ValueId v : inputs)
      if (!InRange(v, g->num_values(), true)) r.Fail(fmt::format("{}: input value {} of {}", what, v, g->num_values()));
    for (ValueId v : outputs) {
      if (!InRange(v, g->num_values(), true)) {
        r.Fail(fmt::format("{}: output value {} of {}", what, v, g->num_values()));
      } else if (v != kNoValue) {
        if (produced[v] || g->value(v).constant) r.Fail(fmt::format("{}: output value {} is written twice", what, v));
        produced[v] = true;
      }
    }
    if (!r.ok()) break;
    const NodeId id =
        g->AddNode(std::move(name), std::move(type), std::move(inputs), std::move(outputs), std::move(attrs));
    g->node(id).domain = std::move(domain);
  }
  std::vector<ValueId> gin = r.Vec<ValueId>("graph inputs");
  std::vector<ValueId> gout = r.Vec<ValueId>("graph outputs");
  for (ValueId v : gin)
    if (!InRange(v, g->num_values(), false) || produced[v] || g->value(v).constant)
      r.Fail(fmt::format("graph '{}': input value {} is not an input", g->name(), v));
  for (ValueId v : gout)
    if (!InRange(v, g->num_values(), false)) r.Fail(fmt::format("graph '{}': output value {}", g->name(), v));
  if (!r.ok()) return nullptr;
  g->mutable_inputs() = std::move(gin);
  g->mutable_outputs() = std::move(gout);
  return g;
}

CompileOptions ReadOptions(Reader& r) {
  CompileOptions o;
  o.mode = r.Str("mode");
  o.offline = r.Bool("offline");
  o.prefer_fallback = r.Bool("prefer_fallback");
  o.max_streams = r.I32();
  o.opt_level = r.I32();
  const uint32_t n = r.Count(8, "input shapes");
  for (uint32_t i = 0; i < n && r.ok(); ++i) {
    std::string name = r.Str("input shape name");
    o.input_shapes[name] = r.Vec<int64_t>("input shape");
  }
  if (r.ok() && o.mode != "auto" && o.mode != "sink" && o.mode != "host") r.Fail("mode '" + o.mode + "'");
  return o;
}

void ReadProgram(Reader& r, SinkProgram* p) {
  p->order = r.Vec<NodeId>("schedule");
  const uint32_t nt = r.Count(24, "tasks");
  p->tasks.resize(nt);
  for (SinkTask& t : p->tasks) {
    t.position = r.I32();
    t.node = r.I32();
    t.block_dim = r.U32();
    t.tiling = r.Vec<uint8_t>("tiling data");
    t.args.resize(r.Count(13, "kernel arguments"));
    for (KernelArg& a : t.args) {
      const uint8_t kind = r.U8();
      if (kind > KernelArg::kConstant) r.Fail(fmt::format("kernel argument kind {}", kind));
      a.kind = static_cast<KernelArg::Kind>(kind);
      a.offset = r.I64();
      a.value = r.I32();
    }
    if (!r.ok()) return;
  }
  StreamAssignment& s = p->streams;
  s.num_streams = r.I32();
  s.num_events = r.I32();
  s.stream = r.Vec<int>("streams");
  s.index = r.Vec<int>("stream indices");
  s.event = r.Vec<int>("events");
  s.syncs.resize(r.Count(8, "stream syncs"));
  for (StreamSync& y : s.syncs) {
    y.producer = r.I32();
    y.consumer = r.I32();
  }
  s.clock = r.Vec<int>("stream clocks");
  PlannerInput& pi = p->planner_input;
  pi.value_bytes = r.Vec<int64_t>("value bytes");
  pi.nodes.resize(r.Count(21, "planner nodes"));
  for (PlannerNode& n : pi.nodes) {
    n.inputs = r.Vec<ValueId>("planner inputs");
    n.outputs = r.Vec<ValueId>("planner outputs");
    n.is_view = r.Bool("is_view");
    n.in_place = r.Vec<ValueId>("in-place inputs");
    n.workspaces = r.Vec<int64_t>("workspaces");
    n.absent_output_bytes = r.Vec<int64_t>("absent output bytes");
    if (!r.ok()) return;
  }
  pi.graph_inputs = r.Vec<ValueId>("planner graph inputs");
  pi.graph_outputs = r.Vec<ValueId>("planner graph outputs");
  MemoryPlan& m = p->memory;
  m.buffers.resize(r.Count(33, "buffers"));
  for (PlannedBuffer& b : m.buffers) {
    b.size = r.I64();
    b.def = r.I32();
    b.uses = r.Vec<int>("buffer uses");
    b.offset = r.I64();
    b.is_workspace = r.Bool("is_workspace");
    b.used = r.I64();
    if (!r.ok()) return;
  }
  m.value_buffer = r.Vec<int>("value buffers");
  m.workspace_buffer.resize(r.Count(4, "workspace buffers"));
  for (auto& v : m.workspace_buffer) v = r.Vec<int>("workspace buffers");
  m.scratch_buffer.resize(r.Count(4, "scratch buffers"));
  for (auto& v : m.scratch_buffer) v = r.Vec<int>("scratch buffers");
  m.arena_bytes = r.I64();
  m.guard_bytes = r.I64();
  m.report.naive_bytes = r.I64();
  m.report.lower_bound_bytes = r.I64();
  m.report.arena_bytes = r.I64();
  m.report.num_tensors = r.I32();
  m.report.num_buffers = r.I32();
  p->values.resize(r.Count(8, "program values"));
  for (gert::Tensor& t : p->values) {
    const uint32_t dt = r.U32();
    const uint32_t rank = r.Count(8, "program value dims");
    if (r.ok() && (!ValidDataType(dt) || rank > gert::Shape::kMaxDimNum)) r.Fail("program value type or rank");
    gert::StorageShape ss;
    for (uint32_t i = 0; i < rank && r.ok(); ++i) ss.MutableStorageShape().AppendDim(r.I64());
    ss.MutableOriginShape() = ss.GetStorageShape();
    if (!r.ok()) return;
    t = gert::Tensor(ss, static_cast<DataType>(dt), FORMAT_ND, nullptr);
  }
  p->constants = r.Vec<ValueId>("program constants");
  p->input_offsets = r.Vec<int64_t>("input offsets");
  p->output_offsets = r.Vec<int64_t>("output offsets");
  p->value_root = r.Vec<ValueId>("value roots");
}

// ---- validation of what was read ----

Status Bad(const std::string& what) { return InvalidArgument("{}", what); }

int64_t ProgramValueBytes(const SinkProgram& p, ValueId v) {
  const gert::Tensor& t = p.values[v];
  const gert::Shape& s = t.GetStorageShape();
  const auto n = CheckedElementCount(s.GetDims(), s.GetDimNum());
  if (!n) return -1;
  const auto bytes = CheckedByteSize(*n, GetSizeByDataType(t.GetDataType()));
  if (!bytes || *bytes > static_cast<size_t>(kMaxTensorBytes)) return -1;
  return static_cast<int64_t>(*bytes);
}

bool InArena(int64_t offset, int64_t bytes, int64_t arena) {
  return offset >= 0 && bytes >= 0 && offset <= arena && bytes <= arena - offset;
}

Status ValidateStreams(const StreamAssignment& s, size_t npos) {
  if (s.num_streams < 1 || s.num_streams > kMaxStreams)
    return Bad(fmt::format("{} streams (expected 1 to {})", s.num_streams, kMaxStreams));
  if (s.num_events < 0 || static_cast<size_t>(s.num_events) > npos) return Bad(fmt::format("{} events", s.num_events));
  if (s.stream.size() != npos || s.index.size() != npos || s.event.size() != npos ||
      s.clock.size() != npos * static_cast<size_t>(s.num_streams))
    return Bad("stream assignment sizes do not match the schedule");
  std::vector<int> next(static_cast<size_t>(s.num_streams), 0);
  std::vector<bool> event_used(static_cast<size_t>(s.num_events), false);
  for (size_t p = 0; p < npos; ++p) {
    if (s.stream[p] < -1 || s.stream[p] >= s.num_streams)
      return Bad(fmt::format("position {}: stream {}", p, s.stream[p]));
    if (s.stream[p] >= 0 && s.index[p] != next[s.stream[p]]++)
      return Bad(fmt::format("position {}: index {} on its stream", p, s.index[p]));
    if (s.event[p] < -1 || s.event[p] >= s.num_events ||
        (s.event[p] >= 0 && (s.stream[p] < 0 || event_used[s.event[p]])))
      return Bad(fmt::format("position {}: event {}", p, s.event[p]));
    if (s.event[p] >= 0) event_used[s.event[p]] = true;
    for (int st = 0; st < s.num_streams; ++st) {
      const int c = s.clock[p * s.num_streams + st];
      if (c < -1 || c >= static_cast<int>(npos)) return Bad(fmt::format("position {}: clock {}", p, c));
    }
  }
  int last_consumer = -1;
  for (const StreamSync& y : s.syncs) {
    // Waits only on earlier positions' recorded events, in consumer order: no wait can block forever.
    if (y.producer < 0 || y.consumer < 0 || static_cast<size_t>(y.consumer) >= npos || y.producer >= y.consumer ||
        s.event[y.producer] < 0 || s.stream[y.consumer] < 0 || y.consumer < last_consumer)
      return Bad(fmt::format("stream sync {} -> {}", y.producer, y.consumer));
    last_consumer = y.consumer;
  }
  return Status::Ok();
}

Status ValidateProgram(const Graph& g, const SinkProgram& p) {
  const size_t nv = g.num_values(), npos = p.order.size();
  if (npos != g.num_nodes()) return Bad("the schedule does not cover the segment's nodes");
  std::vector<int> position(g.num_nodes(), -1);
  for (size_t i = 0; i < npos; ++i) {
    const NodeId n = p.order[i];
    if (!InRange(n, g.num_nodes(), false) || position[n] >= 0)
      return Bad(fmt::format("schedule entry {}: node {}", i, n));
    position[n] = static_cast<int>(i);
  }
  for (size_t i = 0; i < npos; ++i)  // topological: producers first
    for (ValueId v : g.node(p.order[i]).inputs)
      if (v != kNoValue && g.value(v).producer >= 0 && position[g.value(v).producer] >= static_cast<int>(i))
        return Bad(fmt::format("schedule: {} runs before its input's producer", NodeLabel(g.node(p.order[i]))));
  GE_RETURN_IF_ERROR(ValidateStreams(p.streams, npos));
  if (p.values.size() != nv || p.value_root.size() != nv || p.planner_input.value_bytes.size() != nv ||
      p.memory.value_buffer.size() != nv)
    return Bad("per-value tables do not match the segment's values");
  for (size_t v = 0; v < nv; ++v) {
    if (!InRange(p.value_root[v], nv, false)) return Bad(fmt::format("value {}: root {}", v, p.value_root[v]));
    if (p.memory.value_buffer[v] < -1 || p.memory.value_buffer[v] >= static_cast<int>(p.memory.buffers.size()))
      return Bad(fmt::format("value {}: buffer {}", v, p.memory.value_buffer[v]));
  }
  const MemoryPlan& m = p.memory;
  if (m.arena_bytes < 0 || m.arena_bytes > kMaxArenaBytes) return Bad(fmt::format("arena of {} bytes", m.arena_bytes));
  if (m.guard_bytes < 0 || m.guard_bytes > (int64_t{1} << 20)) return Bad(fmt::format("{} guard bytes", m.guard_bytes));
  for (const PlannedBuffer& b : m.buffers) {
    if (!InArena(b.offset, b.size, m.arena_bytes) || b.used < 0 || b.used > b.size)
      return Bad(fmt::format("buffer at {} of {} bytes outside the {}-byte arena", b.offset, b.size, m.arena_bytes));
    if (b.def != kBeforeAll && (b.def < 0 || static_cast<size_t>(b.def) >= npos)) return Bad("buffer definition");
    for (int u : b.uses)
      if (u != kAfterAll && (u < 0 || static_cast<size_t>(u) >= npos)) return Bad("buffer use");
  }
  if (m.workspace_buffer.size() != npos || m.scratch_buffer.size() != npos || p.planner_input.nodes.size() != npos)
    return Bad("per-position tables do not match the schedule");
  for (size_t i = 0; i < npos; ++i) {
    for (int b : m.workspace_buffer[i])
      if (!InRange(b, m.buffers.size(), false)) return Bad("workspace buffer");
    for (int b : m.scratch_buffer[i])
      if (b < -1 || b >= static_cast<int>(m.buffers.size())) return Bad("scratch buffer");
    const PlannerNode& pn = p.planner_input.nodes[i];
    for (const auto* ids : {&pn.inputs, &pn.outputs, &pn.in_place})
      for (ValueId v : *ids)
        if (!InRange(v, nv, true)) return Bad("planner value");
    for (int64_t w : pn.workspaces)
      if (w < 0 || w > kMaxArenaBytes) return Bad("workspace size");
    for (int64_t w : pn.absent_output_bytes)
      if (w < 0 || w > kMaxArenaBytes) return Bad("absent output size");
  }
  for (const auto* ids : {&p.planner_input.graph_inputs, &p.planner_input.graph_outputs})
    for (ValueId v : *ids)
      if (!InRange(v, nv, false)) return Bad("planner graph value");
  // The memory plan is proved again: in the arena, aligned, no two live buffers overlapping.
  GE_RETURN_IF_ERROR(CheckMemoryPlan(m, p.streams, &p.planner_input));
  std::vector<int64_t> bytes(nv, -1);
  for (size_t v = 0; v < nv; ++v) {
    const Value& val = g.value(static_cast<ValueId>(v));
    if (val.constant) continue;
    bytes[v] = ProgramValueBytes(p, static_cast<ValueId>(v));
    if (m.value_buffer[v] >= 0 && (bytes[v] < 0 || p.planner_input.value_bytes[v] != bytes[v]))
      return Bad(fmt::format("value '{}': {} planned bytes, its shape needs {}", val.name,
                             p.planner_input.value_bytes[v], bytes[v]));
  }
  // Every argument a kernel gets lies inside the arena with its tensor's bytes, or is a weight.
  int last = -1;
  for (const SinkTask& t : p.tasks) {
    if (t.position <= last || static_cast<size_t>(t.position) >= npos || p.order[t.position] != t.node)
      return Bad(fmt::format("task at position {} for node {}", t.position, t.node));
    last = t.position;
    const Node& node = g.node(t.node);
    const std::string label = NodeLabel(node);
    if (p.streams.stream[t.position] < 0) return Bad(label + ": a task without a stream");
    if (t.block_dim < 1 || t.block_dim > kMaxBlockDim) return Bad(fmt::format("{}: block dim {}", label, t.block_dim));
    if (t.tiling.size() > kMaxTilingBytes)
      return Bad(fmt::format("{}: {} bytes of tiling data", label, t.tiling.size()));
    const PlannerNode& pn = p.planner_input.nodes[t.position];
    if (t.args.size() != node.inputs.size() + node.outputs.size() + pn.workspaces.size() ||
        pn.absent_output_bytes.size() != node.outputs.size())
      return Bad(fmt::format("{}: {} kernel arguments", label, t.args.size()));
    for (size_t k = 0; k < t.args.size(); ++k) {
      const KernelArg& a = t.args[k];
      ValueId v = kNoValue;
      int64_t need = 0;
      if (k < node.inputs.size()) {
        v = node.inputs[k];
      } else if (k < node.inputs.size() + node.outputs.size()) {
        v = node.outputs[k - node.inputs.size()];
        if (v == kNoValue) need = pn.absent_output_bytes[k - node.inputs.size()];
      } else {
        need = pn.workspaces[k - node.inputs.size() - node.outputs.size()];
      }
      const bool is_input = k < node.inputs.size();
      if (v != kNoValue && g.value(v).constant) {
        if (a.kind != KernelArg::kConstant || a.value != v || g.value(v).constant->data() == nullptr)
          return Bad(fmt::format("{}: argument {} is not its weight", label, k));
        continue;
      }
      if (is_input && v == kNoValue) {
        if (a.kind != KernelArg::kNull) return Bad(fmt::format("{}: argument {} should be absent", label, k));
        continue;
      }
      if (v != kNoValue) need = bytes[v];
      if (a.kind != KernelArg::kArena || need < 0 || !InArena(a.offset, need, m.arena_bytes) ||
          (v != kNoValue && a.value != p.value_root[v]) || (v == kNoValue && a.value != kNoValue))
        return Bad(fmt::format("{}: argument {} at {} ({} bytes) is outside the {}-byte arena or misbound", label, k,
                               a.offset, need, m.arena_bytes));
    }
  }
  for (ValueId v : p.constants)
    if (!InRange(v, nv, false) || !g.value(v).constant || g.value(v).constant->data() == nullptr)
      return Bad(fmt::format("program constant {}", v));
  if (p.input_offsets.size() != g.inputs().size() || p.output_offsets.size() != g.outputs().size())
    return Bad("graph input/output offsets");
  for (size_t i = 0; i < g.inputs().size(); ++i) {
    const ValueId v = g.inputs()[i];
    if (bytes[v] < 0 || bytes[v] != DescBytes(g.value(v).desc) || !InArena(p.input_offsets[i], bytes[v], m.arena_bytes))
      return Bad(fmt::format("input '{}' at {} outside the arena or mis-sized", g.value(v).name, p.input_offsets[i]));
  }
  for (size_t o = 0; o < g.outputs().size(); ++o) {
    const ValueId v = g.outputs()[o];
    if (p.output_offsets[o] < 0) {
      if (p.output_offsets[o] != -1 || !g.value(v).constant) return Bad("constant output");
      continue;
    }
    if (g.value(v).constant || bytes[v] < 0 || !InArena(p.output_offsets[o], bytes[v], m.arena_bytes))
      return Bad(fmt::format("output '{}' at {} outside the arena", g.value(v).name, p.output_offsets[o]));
  }
  return Status::Ok();
}

}  // namespace

uint64_t GemChecksum(const uint8_t* data, size_t size) {
  constexpr uint64_t k1 = 0x9E3779B185EBCA87ull, k2 = 0xC2B2AE3D27D4EB4Full, k3 = 0x165667B19E3779F9ull;
  auto rotl = [](uint64_t x, int r) { return (x << r) | (x >> (64 - r)); };
  auto load = [](const uint8_t* p) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  };
  uint64_t h[4] = {k1 + k2, k2, 0, 0 - k1};
  auto mix = [&](const uint8_t* p, size_t n) {  // whole 32-byte stripes
    for (size_t i = 0; i + 32 <= n; i += 32)
      for (int l = 0; l < 4; ++l) h[l] = rotl(h[l] + load(p + i + 8 * l) * k2, 31) * k1;
  };
  // [0, 56) as one stripe plus a tail, then [64, size).
  const size_t head = std::min<size_t>(size, kChecksumOffset);
  uint8_t first[64] = {};
  std::memcpy(first, data, head);
  mix(first, 64);
  size_t body = size > kGemHeaderBytes ? size - kGemHeaderBytes : 0;
  const uint8_t* p = data + kGemHeaderBytes;
  mix(p, body);
  uint64_t acc = rotl(h[0], 1) + rotl(h[1], 7) + rotl(h[2], 12) + rotl(h[3], 18) + static_cast<uint64_t>(size);
  for (size_t i = body / 32 * 32; i < body; ++i) acc = rotl(acc ^ (p[i] * k3), 11) * k1;
  acc ^= acc >> 33;
  acc *= k2;
  acc ^= acc >> 29;
  acc *= k3;
  acc ^= acc >> 32;
  return acc;
}

bool HasGemMagic(const void* data, size_t size) {
  return data != nullptr && size >= sizeof(kMagic) && std::memcmp(data, kMagic, sizeof(kMagic)) == 0;
}

bool IsGemFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  char head[sizeof(kMagic)] = {};
  return f.read(head, sizeof(head)) && HasGemMagic(head, sizeof(head));
}

Status SerializeCompiledGraph(const CompiledGraph& compiled, const GemInfo& info, std::vector<uint8_t>* out) {
  Writer w;
  WeightTable weights;
  w.Str(info.producer);
  w.Str(kernels::KernelTarget());
  w.Str(info.source);
  WriteOptions(w, info.options);
  w.U32(info.core_num);
  // Graphs: the compiled graph first, then each segment graph that is not it.
  std::vector<const Graph*> graphs{compiled.graph.get()};
  std::vector<uint32_t> seg_graph;
  for (const CompiledSegment& s : compiled.segments) {
    auto it = std::find(graphs.begin(), graphs.end(), s.graph.get());
    seg_graph.push_back(static_cast<uint32_t>(it - graphs.begin()));
    if (it == graphs.end()) graphs.push_back(s.graph.get());
  }
  Writer gw;  // graphs go after the weight table, which they fill
  gw.Count(graphs.size());
  for (const Graph* g : graphs) WriteGraph(gw, *g, weights);
  gw.Count(compiled.segments.size());
  for (size_t i = 0; i < compiled.segments.size(); ++i) {
    const CompiledSegment& s = compiled.segments[i];
    gw.U8(s.sink ? 1 : 0);
    gw.Vec(s.nodes);
    gw.Vec(s.inputs);
    gw.Vec(s.outputs);
    gw.U32(seg_graph[i]);
    if (s.sink) {
      if (!s.program) return Internal("sink segment {} has no program", i);
      WriteProgram(gw, *s.program);
    } else {
      if (!s.host_plan) return Internal("host segment {} has no plan", i);
      gw.Count(s.host_plan->placement.size());
      for (Placement pl : s.host_plan->placement) {
        if (pl == Placement::kHostFallback)
          return Internal("segment {}: a host-fallback placement cannot be saved offline", i);
        gw.U8(static_cast<uint8_t>(pl));
      }
    }
  }
  gw.U8(compiled.whole_graph ? 1 : 0);
  gw.Str(compiled.optimizer_report);
  gw.Count(compiled.op_counts_before.size());
  for (const auto& [op, count] : compiled.op_counts_before) {
    gw.Str(op);
    gw.I32(count);
  }
  for (const auto* strings : {&compiled.placement, &compiled.placement_reason}) {
    gw.Count(strings->size());
    for (const std::string& s : *strings) gw.Str(s);
  }
  // Weight table: offsets within the weights section.
  std::vector<uint64_t> offsets;
  uint64_t weights_bytes = 0;
  w.Count(weights.blobs.size());
  for (const HostTensor* t : weights.blobs) {
    offsets.push_back(weights_bytes);
    w.U64(weights_bytes);
    w.U64(t->NumBytes());
    weights_bytes += (t->NumBytes() + kBlobAlign - 1) / kBlobAlign * kBlobAlign;
  }
  w.buf.insert(w.buf.end(), gw.buf.begin(), gw.buf.end());
  gw.buf.clear();
  gw.buf.shrink_to_fit();

  const uint64_t meta_offset = kGemHeaderBytes, meta_bytes = w.buf.size();
  const uint64_t weights_offset = (meta_offset + meta_bytes + kWeightsAlign - 1) / kWeightsAlign * kWeightsAlign;
  const uint64_t file_bytes = weights_offset + weights_bytes;
  out->assign(file_bytes, 0);
  uint8_t* f = out->data();
  std::memcpy(f, kMagic, sizeof(kMagic));
  auto put32 = [&](size_t at, uint32_t v) { std::memcpy(f + at, &v, 4); };
  auto put64 = [&](size_t at, uint64_t v) { std::memcpy(f + at, &v, 8); };
  put32(8, kGemFormatVersion);
  put32(12, static_cast<uint32_t>(kGemHeaderBytes));
  put64(16, file_bytes);
  put64(24, meta_offset);
  put64(32, meta_bytes);
  put64(40, weights_offset);
  put64(48, weights_bytes);
  std::memcpy(f + meta_offset, w.buf.data(), meta_bytes);
  for (size_t i = 0; i < weights.blobs.size(); ++i)
    if (weights.blobs[i]->NumBytes() > 0)
      std::memcpy(f + weights_offset + offsets[i], weights.blobs[i]->data(), weights.blobs[i]->NumBytes());
  put64(kChecksumOffset, GemChecksum(f, file_bytes));
  return Status::Ok();
}

Status SaveCompiledGraph(const CompiledGraph& compiled, const GemInfo& info, const std::string& path) {
  std::vector<uint8_t> bytes;
  GE_RETURN_IF_ERROR(SerializeCompiledGraph(compiled, info, &bytes));
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) return InvalidArgument("{}: cannot open for writing: {}", path, std::strerror(errno));
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  f.flush();
  if (!f) return InvalidArgument("{}: cannot write {} bytes: {}", path, bytes.size(), std::strerror(errno));
  return Status::Ok();
}

namespace {

Status Deserialize(const uint8_t* data, size_t size, const std::string& source, std::unique_ptr<CompiledGraph>* out,
                   GemInfo* info_out, std::shared_ptr<void> owner) {
  auto fail = [&](const std::string& what) { return InvalidArgument("{}: not a valid .gem model: {}", source, what); };
  if (size < kGemHeaderBytes || !HasGemMagic(data, size))
    return fail(size < kGemHeaderBytes ? fmt::format("{} bytes, shorter than the {}-byte header", size, kGemHeaderBytes)
                                       : "no GEMODEL magic");
  auto get32 = [&](size_t at) {
    uint32_t v;
    std::memcpy(&v, data + at, 4);
    return v;
  };
  auto get64 = [&](size_t at) {
    uint64_t v;
    std::memcpy(&v, data + at, 8);
    return v;
  };
  GemInfo info;
  info.format_version = get32(8);
  if (info.format_version != kGemFormatVersion)
    return fail(fmt::format("format version {}, this GE reads version {} (compile the model again with this GE)",
                            info.format_version, kGemFormatVersion));
  const uint64_t file_bytes = get64(16), meta_offset = get64(24), meta_bytes = get64(32);
  const uint64_t weights_offset = get64(40), weights_bytes = get64(48);
  if (get32(12) != kGemHeaderBytes) return fail(fmt::format("header size {}", get32(12)));
  if (file_bytes != size)
    return fail(fmt::format("the header says {} bytes, the file has {} (truncated or extended)", file_bytes, size));
  if (meta_offset != kGemHeaderBytes || meta_bytes > size - meta_offset || weights_offset < meta_offset + meta_bytes ||
      weights_offset > size || weights_bytes != size - weights_offset)
    return fail("section offsets and sizes do not fit the file");
  const uint64_t sum = GemChecksum(data, size);
  if (sum != get64(kChecksumOffset))
    return fail(
        fmt::format("checksum mismatch (stored {:016x}, computed {:016x}): the file is corrupted or was modified",
                    get64(kChecksumOffset), sum));
  info.meta_bytes = meta_bytes;
  info.weights_bytes = weights_bytes;

  Reader r(data + meta_offset, meta_bytes);
  info.producer = r.Str("producer");
  info.target = r.Str("target");
  if (r.ok() && info.target != kernels::KernelTarget())
    return fail(
        fmt::format("compiled for another kernel target: the file's is \"{}\", this machine's \"{}\" (packed "
                    "weights layouts depend on it: compile the model again on this machine)",
                    info.target, kernels::KernelTarget()));
  info.source = r.Str("source");
  info.options = ReadOptions(r);
  info.core_num = r.U32();
  if (r.ok() && (info.core_num < 1 || info.core_num > 4096)) r.Fail(fmt::format("{} device cores", info.core_num));
  WeightSection ws;
  ws.owner = std::move(owner);
  ws.base = data + weights_offset;
  const uint32_t nb = r.Count(16, "weights");
  for (uint32_t i = 0; i < nb && r.ok(); ++i) {
    const uint64_t off = r.U64(), bytes = r.U64();
    if (r.ok() && (off % kBlobAlign != 0 || off > weights_bytes || bytes > weights_bytes - off))
      r.Fail(fmt::format("weight {} at [{}, +{}) outside the {}-byte weights section", i, off, bytes, weights_bytes));
    ws.blobs.emplace_back(off, bytes);
  }
  ws.made.resize(ws.blobs.size());
  auto compiled = std::make_unique<CompiledGraph>();
  std::vector<std::shared_ptr<Graph>> graphs(r.Count(16, "graphs"));
  for (auto& g : graphs) {
    g = ReadGraph(r, ws, 0);
    if (!r.ok()) break;
  }
  if (r.ok() && graphs.empty()) r.Fail("no graph");
  if (!r.ok()) return fail(r.error());
  for (const auto& g : graphs) {
    Status st = g->Verify();
    if (!st.ok()) return fail(st.message());
  }
  compiled->graph = graphs[0];
  const Graph& main = *graphs[0];
  const uint32_t ns = r.Count(17, "segments");
  for (uint32_t i = 0; i < ns && r.ok(); ++i) {
    CompiledSegment seg;
    seg.sink = r.Bool("sink");
    seg.nodes = r.Vec<NodeId>("segment nodes");
    seg.inputs = r.Vec<ValueId>("segment inputs");
    seg.outputs = r.Vec<ValueId>("segment outputs");
    const uint32_t gi = r.U32();
    if (!r.ok()) break;
    if (gi >= graphs.size()) return fail(fmt::format("segment {}: graph {} of {}", i, gi, graphs.size()));
    seg.graph = graphs[gi];
    for (NodeId n : seg.nodes)
      if (!InRange(n, main.num_nodes(), false)) return fail(fmt::format("segment {}: node {}", i, n));
    if (seg.inputs.size() != seg.graph->inputs().size() || seg.outputs.size() != seg.graph->outputs().size())
      return fail(fmt::format("segment {}: its I/O does not match its graph's", i));
    for (const auto* ids : {&seg.inputs, &seg.outputs})
      for (ValueId v : *ids)
        if (!InRange(v, main.num_values(), false)) return fail(fmt::format("segment {}: value {}", i, v));
    if (seg.sink) {
      auto program = std::make_shared<SinkProgram>();
      ReadProgram(r, program.get());
      if (!r.ok()) break;
      Status st = ValidateProgram(*seg.graph, *program);
      if (st.ok()) st = RetileSinkProgram(*seg.graph, info.core_num, program.get());
      if (!st.ok()) return fail(fmt::format("segment {}: {}", i, st.message()));
      seg.program = std::move(program);
    } else {
      std::vector<Placement> placement(r.Count(1, "placement"));
      for (Placement& pl : placement) {
        const uint8_t v = r.U8();
        if (r.ok() && v > static_cast<uint8_t>(Placement::kHostKernel))
          r.Fail(fmt::format("placement {} (an offline model never takes the host fallback)", v));
        pl = static_cast<Placement>(v);
      }
      if (!r.ok()) break;
      if (placement.size() != seg.graph->num_nodes()) return fail(fmt::format("segment {}: placement size", i));
      auto plan = std::make_shared<HostPlan>();
      Status st = BuildHostPlan(*seg.graph, &placement, plan.get());
      if (!st.ok()) return fail(fmt::format("segment {}: {}", i, st.message()));
      seg.host_plan = std::move(plan);
    }
    compiled->segments.push_back(std::move(seg));
  }
  compiled->whole_graph = r.Bool("whole_graph");
  compiled->optimizer_report = r.Str("optimizer report");
  const uint32_t nops = r.Count(8, "op counts");
  for (uint32_t i = 0; i < nops && r.ok(); ++i) {
    std::string op = r.Str("op");
    compiled->op_counts_before[op] = r.I32();
  }
  for (auto* strings : {&compiled->placement, &compiled->placement_reason}) {
    strings->resize(r.Count(4, "placement notes"));
    for (std::string& s : *strings) s = r.Str("placement note");
    if (r.ok() && !strings->empty() && strings->size() != main.num_nodes()) r.Fail("placement notes per node");
  }
  if (!r.ok()) return fail(r.error());
  if (r.left() != 0) return fail(fmt::format("{} unread bytes after the meta data", r.left()));
  if (compiled->segments.empty()) return fail("no segment");
  if (compiled->whole_graph && (compiled->segments.size() != 1 || compiled->segments[0].inputs != main.inputs() ||
                                compiled->segments[0].outputs != main.outputs()))
    return fail("a whole-graph model whose segment is not the graph");
  if (!info.options.offline) return fail("not compiled for offline use");
  *out = std::move(compiled);
  if (info_out) *info_out = std::move(info);
  return Status::Ok();
}

}  // namespace

// Exceptions (an allocation a forged shape makes too large; a kernel library refusing a tiling)
// become errors naming the file.
Status DeserializeCompiledGraph(const uint8_t* data, size_t size, const std::string& source,
                                std::unique_ptr<CompiledGraph>* out, GemInfo* info_out, std::shared_ptr<void> owner) {
  try {
    return Deserialize(data, size, source, out, info_out, std::move(owner));
  } catch (const std::bad_alloc&) {
    return Error(Status::kOutOfMemory, "{}: not a valid .gem model: out of host memory while loading it", source);
  } catch (const std::exception& e) {
    return InvalidArgument("{}: not a valid .gem model: {}", source, e.what());
  }
}

Status LoadCompiledGraph(const std::string& path, std::unique_ptr<CompiledGraph>* out, GemInfo* info) {
  // Mapped, not read: the weights are copied once, from the page cache to where they run.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return InvalidArgument("{}: cannot open: {}", path, std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return InvalidArgument("{}: not a regular file", path);
  }
  const size_t size = static_cast<size_t>(st.st_size);
  if (size == 0) {
    ::close(fd);
    return DeserializeCompiledGraph(nullptr, 0, path, out, info);
  }
  // Private and writable: a kernel never sees the file change under it through its own writes.
  void* map = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) return InvalidArgument("{}: cannot map {} bytes: {}", path, size, std::strerror(errno));
  ::madvise(map, size, MADV_SEQUENTIAL);
  std::shared_ptr<void> owner(map, [size](void* p) { ::munmap(p, size); });
  if (info) {
    info->mapped_begin = reinterpret_cast<uintptr_t>(map);
    info->mapped_end = info->mapped_begin + size;
  }
  return DeserializeCompiledGraph(static_cast<const uint8_t*>(map), size, path, out, info, std::move(owner));
}

namespace {

void DetachGraph(Graph* g, uintptr_t begin, uintptr_t end, std::unordered_map<const void*, HostTensor>* copies) {
  for (size_t v = 0; v < g->num_values(); ++v) {
    auto& c = g->value(static_cast<ValueId>(v)).constant;
    if (c) {
      const auto at = reinterpret_cast<uintptr_t>(c->data());
      if (c->data() != nullptr && at >= begin && at < end) {
        auto it = copies->find(c->data());
        if (it == copies->end() || !(it->second.shape() == c->shape()) || it->second.dtype() != c->dtype())
          it =
              copies
                  ->insert_or_assign(c->data(), HostTensor::FromBytes(c->dtype(), c->shape(), c->data(), c->NumBytes()))
                  .first;
        *c = it->second;
      }
    }
  }
  for (size_t n = 0; n < g->num_nodes(); ++n)
    for (auto& [key, attr] : g->node(static_cast<NodeId>(n)).attrs) {
      if (auto* sub = std::get_if<std::shared_ptr<Graph>>(&attr); sub && *sub)
        DetachGraph(sub->get(), begin, end, copies);
      if (auto* subs = std::get_if<std::vector<std::shared_ptr<Graph>>>(&attr))
        for (auto& sg : *subs)
          if (sg) DetachGraph(sg.get(), begin, end, copies);
    }
}

}  // namespace

void DetachFromFile(CompiledGraph* compiled, const GemInfo& info) {
  if (info.mapped_begin == info.mapped_end) return;
  std::unordered_map<const void*, HostTensor> copies;
  std::vector<Graph*> seen;
  for (CompiledSegment& s : compiled->segments) {
    if (s.sink || !s.graph || std::find(seen.begin(), seen.end(), s.graph.get()) != seen.end()) continue;
    seen.push_back(s.graph.get());
    DetachGraph(s.graph.get(), info.mapped_begin, info.mapped_end, &copies);
  }
  // The compiled graph's references to those constants share the copies; the rest (read by sink
  // segments only) keep aliasing the file until the sink executors have them on the device.
  Graph& g = *compiled->graph;
  for (size_t v = 0; v < g.num_values(); ++v) {
    auto& c = g.value(static_cast<ValueId>(v)).constant;
    if (!c || c->data() == nullptr) continue;
    auto it = copies.find(c->data());
    if (it != copies.end() && it->second.shape() == c->shape() && it->second.dtype() == c->dtype()) *c = it->second;
  }
}

}  // namespace ge
