// The ONNX backend conformance runner: runs every case of the libonnx-testdata suites (node,
// pytorch-converted, pytorch-operator, simple) through ge::Model and compares the outputs with
// the reference (rtol 1e-3, atol 1e-7, NaN == NaN; shape and dtype exact). Each case runs in a
// forked child with a time limit, so a crash or hang fails that case only.
//
//   onnx_backend_runner [--suite S] [--filter SUB] [--mode host|sink] [--zero-copy] [--opt-level 0|1|2]
//                       [--list-failures-by-reason]
//   --const-inputs: every input but the first becomes a constant of the graph (its test data),
//   so the paths for constant weights are checked against the references too (NHWC layout with
//   packed weights, fusions, folding); one model per data set.
//   --zero-copy: each data set runs three times — on device buffers (Model::RunWithDeviceBuffers),
//   on host tensors, and on fresh device buffers — each checked against the reference, and the
//   input buffers must come back unchanged.
//                       [--data DIR] [--skips FILE] [--pass-floor FILE] [--timeout SEC] [-v]
//                       [--guard-bytes N]
//   --guard-bytes N (default 64; 0 off; GE_GUARD_BYTES in the environment wins): N guard bytes
//   after every kernel output and workspace, checked after each node (host) or run (sink).
//
// Prints "FAIL <suite>/<case>: <reason>" per failure and "N passed, M failed, K skipped" per
// suite and overall (last). With --pass-floor, exits non-zero when the node suite passes fewer
// cases than the number in that file.
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "ge/graph.h"
#include "ge/model.h"
#include "ge/onnx_loader.h"
#include "ge/tensor_seq.h"

namespace fs = std::filesystem;

namespace {

struct Options {
  std::string data = "/usr/share/libonnx-testdata/data";
  std::vector<std::string> suites = {"node", "pytorch-converted", "pytorch-operator", "simple"};
  std::string filter, mode = "host", skips_file, floor_file;
  bool by_reason = false, verbose = false, zero_copy = false;
  int timeout_s = 60;
  int opt_level = 2;  // the graph optimizer's level (ModelOptions::opt_level)
  bool const_inputs = false;
  std::string guard_bytes = "64";  // GE_GUARD_BYTES for every case (unless set in the environment)
};

struct Counts {
  int passed = 0, failed = 0, skipped = 0;
};

// IEEE half and bfloat16 bits as a number (the runner's reading of reference data).
double HalfValue(uint16_t h) {
  const int sign = (h & 0x8000) ? -1 : 1, exp = (h >> 10) & 0x1f, frac = h & 0x3ff;
  if (exp == 0x1f) return frac ? std::nan("") : sign * INFINITY;
  if (exp == 0) return sign * std::ldexp(frac, -24);  // subnormal
  return sign * std::ldexp(frac + 1024, exp - 25);
}
double Bf16Value(uint16_t h) {
  const uint32_t bits = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

double ElementAt(const ge::HostTensor& t, int64_t i) {
  const void* p = t.data();
  switch (t.dtype()) {
    case ge::DT_FLOAT: return static_cast<const float*>(p)[i];
    case ge::DT_DOUBLE: return static_cast<const double*>(p)[i];
    case ge::DT_FLOAT16: return HalfValue(static_cast<const uint16_t*>(p)[i]);
    case ge::DT_BF16: return Bf16Value(static_cast<const uint16_t*>(p)[i]);
    case ge::DT_INT8: return static_cast<const int8_t*>(p)[i];
    case ge::DT_INT16: return static_cast<const int16_t*>(p)[i];
    case ge::DT_INT32: return static_cast<const int32_t*>(p)[i];
    case ge::DT_INT64: return static_cast<double>(static_cast<const int64_t*>(p)[i]);
    case ge::DT_UINT8:
    case ge::DT_BOOL: return static_cast<const uint8_t*>(p)[i];
    case ge::DT_UINT16: return static_cast<const uint16_t*>(p)[i];
    case ge::DT_UINT32: return static_cast<const uint32_t*>(p)[i];
    case ge::DT_UINT64: return static_cast<double>(static_cast<const uint64_t*>(p)[i]);
    default: return 0;
  }
}

bool IsFloat(ge::DataType dt) {
  return dt == ge::DT_FLOAT || dt == ge::DT_DOUBLE || dt == ge::DT_FLOAT16 || dt == ge::DT_BF16;
}

// Older test data stores bfloat16 tensors as uint16: read them as the model declares.
void MatchBf16(ge::DataType declared, ge::HostTensor* t) {
  if (declared == ge::DT_BF16 && t->dtype() == ge::DT_UINT16)
    *t = ge::HostTensor::FromBytes(ge::DT_BF16, t->shape(), t->data(), t->NumBytes());
}

std::string Compare(const ge::HostTensor& got, const ge::HostTensor& want, size_t k);

// Sequences and optionals (packed): equal kind and length, then element by element.
std::string CompareSeq(const ge::HostTensor& got, const ge::HostTensor& want, size_t k) {
  ge::TensorSeq a, b;
  ge::Status st = ge::UnpackSeq(got, &a);
  if (!st.ok()) return "output " + std::to_string(k) + ": " + st.message();
  if (!ge::UnpackSeq(want, &b).ok()) return "output " + std::to_string(k) + ": bad reference sequence";
  if (a.elems.size() != b.elems.size())
    return "output " + std::to_string(k) + ": " + std::to_string(a.elems.size()) + " elements, expected " +
           std::to_string(b.elems.size());
  for (size_t i = 0; i < a.elems.size(); ++i) {
    std::string why = Compare(a.elems[i], b.elems[i], k);
    if (!why.empty()) return why + " (sequence element " + std::to_string(i) + ")";
  }
  return "";
}

// "" when equal, else the reason.
std::string Compare(const ge::HostTensor& got, const ge::HostTensor& want, size_t k) {
  if (ge::IsPacked(want)) return CompareSeq(got, want, k);
  std::ostringstream r;
  if (got.dtype() != want.dtype()) {
    r << "output " << k << ": dtype " << ge::DataTypeName(got.dtype()) << ", expected "
      << ge::DataTypeName(want.dtype());
    return r.str();
  }
  if (got.shape() != want.shape()) {
    r << "output " << k << ": shape " << got.shape().ToString() << ", expected " << want.shape().ToString();
    return r.str();
  }
  if (want.dtype() == ge::DT_STRING)
    return got.strings() == want.strings() ? "" : "output " + std::to_string(k) + ": strings differ";
  int64_t n = want.NumElements();
  if (n > 0 && (got.data() == nullptr || got.NumBytes() < want.NumBytes()))
    return "output " + std::to_string(k) + ": no data";
  for (int64_t i = 0; i < n; ++i) {
    double a = ElementAt(got, i), b = ElementAt(want, i);
    bool ok;
    if (IsFloat(want.dtype())) {
      ok = (std::isnan(a) && std::isnan(b)) || a == b || std::fabs(a - b) <= 1e-7 + 1e-3 * std::fabs(b);
    } else if (want.dtype() == ge::DT_INT64 || want.dtype() == ge::DT_UINT64) {
      ok = std::memcmp(static_cast<const char*>(got.data()) + 8 * i, static_cast<const char*>(want.data()) + 8 * i,
                       8) == 0;
    } else {
      ok = a == b;
    }
    if (!ok) {
      r << "output " << k << ": element " << i << " is " << a << ", expected " << b;
      return r.str();
    }
  }
  return "";
}

std::vector<fs::path> SortedPbs(const fs::path& dir, const std::string& prefix) {
  std::vector<fs::path> files;
  for (int i = 0;; ++i) {
    fs::path p = dir / (prefix + std::to_string(i) + ".pb");
    if (!fs::exists(p)) break;
    files.push_back(p);
  }
  return files;
}

// A zero-copy run: inputs and outputs in fresh device buffers (outputs sized and typed as the
// reference). Fails if the run fails or writes into an input buffer.
std::string RunOnDeviceBuffers(ge::Model& model, const std::vector<ge::HostTensor>& inputs,
                               const std::vector<ge::HostTensor>& want, std::vector<ge::HostTensor>* got) {
  std::vector<void*> owned;
  auto alloc = [&](size_t n) {
    void* p = nullptr;
    if (aclrtMalloc(&p, std::max<size_t>(n, 1), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return p;
    owned.push_back(p);
    return p;
  };
  std::vector<ge::DeviceBuffer> in, out;
  for (const auto& t : inputs) {
    in.push_back({alloc(t.NumBytes()), t.NumBytes()});
    if (t.NumBytes() > 0) std::memcpy(in.back().data, t.data(), t.NumBytes());
  }
  for (const auto& t : want) out.push_back({alloc(t.NumBytes()), t.NumBytes()});
  std::string why;
  ge::Status st = model.RunWithDeviceBuffers(in, out);
  if (!st.ok()) why = "run on device buffers: " + st.message();
  for (size_t i = 0; i < inputs.size() && why.empty(); ++i)
    if (inputs[i].NumBytes() > 0 && std::memcmp(in[i].data, inputs[i].data(), inputs[i].NumBytes()) != 0)
      why = "run on device buffers wrote into input buffer " + std::to_string(i);
  got->clear();
  for (size_t o = 0; o < want.size() && why.empty(); ++o)
    got->push_back(ge::HostTensor::FromBytes(want[o].dtype(), want[o].shape(), out[o].data, want[o].NumBytes()));
  for (void* p : owned) aclrtFree(p);
  return why;
}

// The case's model with every input but the first bound to the data set's tensors as
// constants; *inputs keeps only the first.
ge::Status LoadWithConstInputs(const fs::path& dir, const ge::ModelOptions& mo, std::vector<ge::HostTensor>* inputs,
                               std::unique_ptr<ge::Model>* model) {
  std::shared_ptr<ge::Graph> g;
  GE_RETURN_IF_ERROR(ge::LoadOnnxModel((dir / "model.onnx").string(), &g));
  auto& gin = g->mutable_inputs();
  for (size_t i = 1; i < gin.size() && i < inputs->size(); ++i) {
    ge::Value& v = g->value(gin[i]);
    if (v.desc.kind != ge::ValueKind::kTensor) continue;
    v.constant = (*inputs)[i];
    v.desc = (*inputs)[i].desc();
  }
  std::vector<ge::ValueId> kept;
  std::vector<ge::HostTensor> kept_inputs;
  for (size_t i = 0; i < gin.size(); ++i)
    if (!g->value(gin[i]).constant) {
      kept.push_back(gin[i]);
      if (i < inputs->size()) kept_inputs.push_back((*inputs)[i]);
    }
  gin = kept;
  *inputs = std::move(kept_inputs);
  return ge::Model::FromGraph(g, mo, model);
}

// Runs one case in this process; "" on success, else the reason.
std::string RunCase(const fs::path& dir, const Options& opt) {
  ge::ModelOptions mo;
  mo.mode = opt.mode;
  mo.opt_level = opt.opt_level;
  std::unique_ptr<ge::Model> model;
  ge::Status st = ge::Model::Load((dir / "model.onnx").string(), mo, &model);
  if (!st.ok()) return "load: " + st.message();
  std::vector<fs::path> sets;
  for (auto& e : fs::directory_iterator(dir))
    if (e.is_directory() && e.path().filename().string().rfind("test_data_set_", 0) == 0) sets.push_back(e.path());
  std::sort(sets.begin(), sets.end());
  for (const auto& set : sets) {
    std::vector<ge::HostTensor> inputs, want, got;
    const ge::Graph& g = model->graph();
    auto in_pbs = SortedPbs(set, "input_"), out_pbs = SortedPbs(set, "output_");
    for (size_t i = 0; i < in_pbs.size(); ++i) {
      const ge::TensorDesc* d = i < g.inputs().size() ? &g.value(g.inputs()[i]).desc : nullptr;
      inputs.emplace_back();
      st = ge::LoadTestDataFile(in_pbs[i].string(), d ? d->kind : ge::ValueKind::kTensor, &inputs.back());
      if (!st.ok()) return "input: " + st.message();
      if (d) MatchBf16(d->dtype, &inputs.back());
    }
    for (size_t i = 0; i < out_pbs.size(); ++i) {
      const ge::TensorDesc* d = i < g.outputs().size() ? &g.value(g.outputs()[i]).desc : nullptr;
      want.emplace_back();
      st = ge::LoadTestDataFile(out_pbs[i].string(), d ? d->kind : ge::ValueKind::kTensor, &want.back());
      if (!st.ok()) return "reference output: " + st.message();
      if (d) MatchBf16(d->dtype, &want.back());
    }
    if (opt.const_inputs) {
      st = LoadWithConstInputs(dir, mo, &inputs, &model);
      if (!st.ok()) return "load with constant inputs: " + st.message();
    }
    for (int pass = 0; pass < (opt.zero_copy ? 3 : 1); ++pass) {
      if (opt.zero_copy && pass != 1) {
        std::string why = RunOnDeviceBuffers(*model, inputs, want, &got);
        if (!why.empty()) return why;
      } else {
        st = model->Run(inputs, &got);
        if (!st.ok()) return "run: " + st.message();
      }
      if (got.size() != want.size())
        return "got " + std::to_string(got.size()) + " outputs, expected " + std::to_string(want.size());
      for (size_t k = 0; k < want.size(); ++k) {
        std::string why = Compare(got[k], want[k], k);
        if (!why.empty())
          return set.filename().string() + (pass != 1 && opt.zero_copy ? " (device buffers): " : ": ") + why;
      }
    }
  }
  return "";
}

// Runs one case in a forked child with a time limit; "" on success, else the reason.
std::string RunForked(const fs::path& dir, const Options& opt) {
  int fds[2];
  if (pipe(fds) != 0) return "pipe failed";
  std::cout.flush();
  pid_t pid = fork();
  if (pid < 0) return "fork failed";
  if (pid == 0) {
    close(fds[0]);
    std::string r = RunCase(dir, opt);
    if (r.empty()) r = "OK";
    ssize_t unused = write(fds[1], r.data(), r.size());
    (void)unused;
    close(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  std::string msg;
  char buf[4096];
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(opt.timeout_s);
  bool timed_out = false;
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
    ssize_t n = read(fds[0], buf, sizeof(buf));
    if (n <= 0) break;
    msg.append(buf, n);
  }
  close(fds[0]);
  if (timed_out) kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  if (timed_out) return "timeout after " + std::to_string(opt.timeout_s) + " s";
  if (WIFSIGNALED(status)) return std::string("crashed: ") + strsignal(WTERMSIG(status));
  if (msg.empty()) return "child exited without a result (status " + std::to_string(WEXITSTATUS(status)) + ")";
  return msg == "OK" ? "" : msg;
}

std::map<std::string, std::string> LoadSkips(const std::string& path) {
  std::map<std::string, std::string> skips;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    std::string name, reason;
    ls >> name;
    std::getline(ls, reason);
    reason.erase(0, reason.find_first_not_of(" \t"));
    if (!name.empty()) skips[name] = reason;
  }
  return skips;
}

// Groups reasons by their first words (the part before any case-specific detail).
std::string ReasonKey(const std::string& r) {
  std::string k = r;
  auto pos = k.find("model.onnx: ");
  if (pos != std::string::npos) k = k.substr(0, k.rfind(' ', pos) + 1) + k.substr(pos + 12);
  pos = k.find("unsupported node(s): ");
  if (pos != std::string::npos) {  // "unsupported: A, B" with the op types only
    std::vector<std::string> types;
    for (size_t p = k.find(" (", pos); p != std::string::npos; p = k.find(" (", p + 1)) {
      auto end = k.find(')', p);
      std::string t = k.substr(p + 2, end - p - 2);
      if (std::find(types.begin(), types.end(), t) == types.end()) types.push_back(t);
    }
    std::sort(types.begin(), types.end());
    std::string out = "unsupported:";
    for (const auto& t : types) out += " " + t;
    return out;
  }
  for (const char* cut : {" for inputs", ": element", " shape [", ": shape"}) {
    pos = k.find(cut);
    if (pos != std::string::npos) k = k.substr(0, pos + std::strlen(cut));
  }
  pos = k.find("node '");
  if (pos != std::string::npos) {
    auto end = k.find("' (", pos);
    if (end != std::string::npos) k = k.substr(0, pos) + "node (" + k.substr(end + 3);
  }
  if (k.rfind("test_data_set_", 0) == 0) k = k.substr(k.find(':') + 2);
  return k.substr(0, 160);
}

Counts RunSuite(const std::string& suite, const Options& opt, const std::map<std::string, std::string>& skips,
                std::map<std::string, std::vector<std::string>>* by_reason) {
  Counts c;
  fs::path root = fs::path(opt.data) / suite;
  if (!fs::exists(root)) return c;
  std::vector<fs::path> cases;
  for (auto& e : fs::directory_iterator(root))
    if (fs::exists(e.path() / "model.onnx")) cases.push_back(e.path());
  std::sort(cases.begin(), cases.end());
  for (const auto& dir : cases) {
    std::string name = dir.filename().string();
    if (!opt.filter.empty() && name.find(opt.filter) == std::string::npos) continue;
    if (skips.count(name) || skips.count(suite + "/" + name)) {
      ++c.skipped;
      continue;
    }
    std::string why = RunForked(dir, opt);
    if (why.empty()) {
      ++c.passed;
      if (opt.verbose) std::cout << "PASS " << suite << "/" << name << "\n";
      continue;
    }
    ++c.failed;
    std::replace(why.begin(), why.end(), '\n', ' ');
    std::cout << "FAIL " << suite << "/" << name << ": " << why << std::endl;
    (*by_reason)[ReasonKey(why)].push_back(suite + "/" + name);
  }
  return c;
}

void PrintCounts(const std::string& label, const Counts& c) {
  std::cout << label << c.passed << " passed, " << c.failed << " failed, " << c.skipped << " skipped" << std::endl;
}

bool ParseArgs(int argc, char** argv, Options* o) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--suite")
      o->suites = {next()};
    else if (a == "--filter")
      o->filter = next();
    else if (a == "--mode")
      o->mode = next();
    else if (a == "--data")
      o->data = next();
    else if (a == "--skips")
      o->skips_file = next();
    else if (a == "--pass-floor")
      o->floor_file = next();
    else if (a == "--timeout")
      o->timeout_s = std::max(1, std::atoi(next().c_str()));
    else if (a == "--list-failures-by-reason")
      o->by_reason = true;
    else if (a == "--zero-copy")
      o->zero_copy = true;
    else if (a == "--const-inputs")
      o->const_inputs = true;
    else if (a == "--opt-level")
      o->opt_level = std::atoi(next().c_str());
    else if (a == "--guard-bytes")
      o->guard_bytes = next();
    else if (a == "-v")
      o->verbose = true;
    else {
      std::cerr << "unknown argument '" << a << "'\n";
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
#ifdef GE_ONNX_BACKEND_DIR
  opt.skips_file = GE_ONNX_BACKEND_DIR "/skips.txt";
#endif
  if (!ParseArgs(argc, argv, &opt)) return 2;
  // Guard bytes after every kernel output and workspace (base/guard_bytes.h), checked after each
  // node (host) or run (sink): a kernel writing one element too far fails its case.
  setenv("GE_GUARD_BYTES", opt.guard_bytes.c_str(), 0);
  auto skips = LoadSkips(opt.skips_file);
  std::map<std::string, std::vector<std::string>> by_reason;
  Counts total, node;
  std::vector<std::pair<std::string, Counts>> per_suite;
  for (const auto& s : opt.suites) {
    Counts c = RunSuite(s, opt, skips, &by_reason);
    per_suite.push_back({s, c});
    if (s == "node") node = c;
    total.passed += c.passed;
    total.failed += c.failed;
    total.skipped += c.skipped;
  }
  if (opt.by_reason) {
    std::vector<std::pair<std::string, std::vector<std::string>>> groups(by_reason.begin(), by_reason.end());
    std::sort(groups.begin(), groups.end(), [](auto& a, auto& b) { return a.second.size() > b.second.size(); });
    std::cout << "---- failures by reason ----\n";
    for (const auto& [reason, names] : groups) {
      std::cout << names.size() << "  " << reason << "\n   ";
      for (const auto& n : names) std::cout << " " << n;
      std::cout << "\n";
    }
  }
  for (const auto& [s, c] : per_suite) PrintCounts(s + ": ", c);
  PrintCounts("", total);
  if (!opt.floor_file.empty()) {
    std::ifstream in(opt.floor_file);
    int floor = 0;
    in >> floor;
    if (node.passed < floor) {
      std::cout << "node suite: " << node.passed << " passed, below the recorded floor of " << floor << "\n";
      return 1;
    }
  }
  return 0;
}
