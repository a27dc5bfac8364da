// `ge info MODEL` and `ge dump MODEL --format dot|svg|json [-o FILE]`: what the compiler made of
// a model — its inputs and outputs, node counts by op type before and after the optimizer, the
// segments (sink/host) and why each host node is not sunk, every fallback decision, streams and
// events, the memory plan's figures; and the compiled graph drawn with its nodes coloured by
// segment and stream (SVG through Graphviz's `dot`).
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"

namespace ge::tool {
namespace {

Status LoadForInfo(const InfoArgs& args, std::unique_ptr<Model>* model) {
  ModelOptions options;
  options.mode = args.mode;
  options.opt_level = args.opt_level;
  GE_RETURN_IF_ERROR(ParseInputShapes(args.input_shapes, &options.input_shapes));
  return Model::Load(args.model, options, model);
}

std::string Join(const std::map<std::string, int>& counts) {
  std::string s;
  for (const auto& [op, n] : counts) s += fmt::format("{}{} {}", s.empty() ? "" : ", ", op, n);
  return s.empty() ? "(none)" : s;
}

int Total(const std::map<std::string, int>& counts) {
  int n = 0;
  for (const auto& [op, c] : counts) n += c;
  return n;
}

std::string Mib(int64_t bytes) {
  return fmt::format("{} bytes ({:.2f} MiB)", bytes, static_cast<double>(bytes) / (1 << 20));
}

// Fill colours: sink nodes by model stream, host nodes by placement.
const char* StreamColor(int stream) {
  static const char* kPalette[] = {"#9ecae1", "#a1d99b", "#bcbddc", "#fdd0a2", "#c7e9c0", "#dadaeb", "#c6dbef"};
  return kPalette[(stream < 0 ? 0 : stream) % 7];
}

std::string DotQuote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string ToDot(const ModelReport& r, const std::string& title) {
  std::ostringstream o;
  o << "digraph ge {\n  graph [rankdir=TB, fontname=\"Helvetica\", label=" << DotQuote(title)
    << ", labelloc=t];\n  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10];\n"
    << "  edge [fontname=\"Helvetica\", fontsize=8];\n";
  std::map<std::string, std::string> producer;  // value name -> dot node id
  for (size_t i = 0; i < r.inputs.size(); ++i) {
    const std::string id = fmt::format("in{}", i);
    o << "  " << id << " [shape=ellipse, style=filled, fillcolor=\"#ffffff\", label="
      << DotQuote(r.inputs[i].name + "\n" + r.inputs[i].desc) << "];\n";
    producer[r.inputs[i].name] = id;
  }
  for (size_t i = 0; i < r.node_details.size(); ++i)
    for (const auto& v : r.node_details[i].outputs) producer[v.name] = fmt::format("n{}", i);
  for (size_t s = 0; s < r.segment_details.size(); ++s) {
    const SegmentReport& seg = r.segment_details[s];
    o << "  subgraph cluster_" << s << " {\n    label="
      << DotQuote(fmt::format("segment {}: {} ({} nodes{})", s, seg.sink ? "sink" : "host", seg.nodes,
                              seg.sink ? fmt::format(", {} stream(s)", seg.streams) : std::string()))
      << ";\n    style=\"rounded,dashed\"; color=" << (seg.sink ? "\"#3182bd\"" : "\"#e6550d\"") << ";\n";
    for (size_t i = 0; i < r.node_details.size(); ++i) {
      const NodeReport& n = r.node_details[i];
      if (n.segment != static_cast<int>(s)) continue;
      std::string label = n.name + "\n" + n.op;
      std::string fill;
      if (n.placement == "sink") {
        label += n.stream >= 0 ? fmt::format("\nstream {}", n.stream) : "\n(view)";
        fill = StreamColor(n.stream);
      } else {
        label += "\n" + n.placement;
        fill = n.placement == "host fallback" ? "#fc9272" : "#fdae6b";
      }
      o << "    n" << i << " [label=" << DotQuote(label) << ", fillcolor=\"" << fill
        << "\", tooltip=" << DotQuote(n.reason.empty() ? n.placement : n.placement + ": " + n.reason) << "];\n";
    }
    o << "  }\n";
  }
  for (size_t i = 0; i < r.node_details.size(); ++i)
    for (const auto& v : r.node_details[i].inputs) {
      if (v.constant) continue;
      auto it = producer.find(v.name);
      if (it == producer.end()) continue;
      o << "  " << it->second << " -> n" << i << " [label=" << DotQuote(v.desc) << "];\n";
    }
  for (size_t i = 0; i < r.outputs.size(); ++i) {
    o << "  out" << i << " [shape=ellipse, style=filled, fillcolor=\"#ffffff\", label="
      << DotQuote(r.outputs[i].name + "\n" + r.outputs[i].desc) << "];\n";
    if (auto it = producer.find(r.outputs[i].name); it != producer.end())
      o << "  " << it->second << " -> out" << i << ";\n";
  }
  o << "}\n";
  return o.str();
}

nlohmann::json ValuesJson(const std::vector<ValueReport>& values) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& v : values) a.push_back({{"name", v.name}, {"desc", v.desc}, {"constant", v.constant}});
  return a;
}

std::string ToJson(const ModelReport& r, const std::string& model) {
  nlohmann::json j;
  j["model"] = model;
  j["mode"] = r.mode;
  j["optimizer"] = r.optimizer;
  j["ops_before"] = r.ops_before;
  j["ops_after"] = r.ops_after;
  j["inputs"] = ValuesJson(r.inputs);
  j["outputs"] = ValuesJson(r.outputs);
  j["segments"] = nlohmann::json::array();
  for (size_t s = 0; s < r.segment_details.size(); ++s) {
    const SegmentReport& seg = r.segment_details[s];
    j["segments"].push_back({{"index", s},
                             {"kind", seg.sink ? "sink" : "host"},
                             {"nodes", seg.nodes},
                             {"kernel_tasks", seg.kernel_tasks},
                             {"multi_block_tasks", seg.multi_block_tasks},
                             {"streams", seg.streams},
                             {"events", seg.events}});
  }
  j["nodes"] = nlohmann::json::array();
  for (const NodeReport& n : r.node_details)
    j["nodes"].push_back({{"name", n.name},
                          {"op", n.op},
                          {"segment", n.segment},
                          {"placement", n.placement},
                          {"reason", n.reason},
                          {"stream", n.stream},
                          {"inputs", ValuesJson(n.inputs)},
                          {"outputs", ValuesJson(n.outputs)}});
  j["memory"] = {{"naive_bytes", r.naive_bytes},
                 {"lower_bound_bytes", r.lower_bound_bytes},
                 {"arena_bytes", r.arena_bytes},
                 {"planned_tensors", r.planned_tensors},
                 {"planned_buffers", r.planned_buffers}};
  return j.dump(1) + "\n";
}

bool DotOnPath() {
  const char* path = std::getenv("PATH");
  std::stringstream ss(path ? path : "");
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    if (dir.empty()) continue;
    if (access((dir + "/dot").c_str(), X_OK) == 0) return true;
  }
  return false;
}

// Runs `dot -Tsvg` on `dot_text`, the SVG into *svg.
Status RenderSvg(const std::string& dot_text, std::string* svg) {
  if (!DotOnPath())
    return Error(Status::kNotFound,
                 "--format svg needs Graphviz's 'dot' on PATH (Debian: apt-get install graphviz; "
                 "scripts/install-deps.sh installs it), or use --format dot");
  char tmpl[] = "/tmp/ge_dump_XXXXXX";
  int fd = mkstemp(tmpl);
  if (fd < 0) return Internal("cannot create a temporary file for dot");
  FILE* f = fdopen(fd, "w");
  fwrite(dot_text.data(), 1, dot_text.size(), f);
  fclose(f);
  const std::string cmd = std::string("dot -Tsvg ") + tmpl + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) {
    std::remove(tmpl);
    return Internal("cannot run dot");
  }
  char buf[4096];
  size_t n;
  svg->clear();
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) svg->append(buf, n);
  const int rc = pclose(p);
  std::remove(tmpl);
  if (rc != 0) return Internal("dot -Tsvg failed (exit {}): {}", WEXITSTATUS(rc), svg->substr(0, 500));
  return Status::Ok();
}

}  // namespace

int InfoCommand(const InfoArgs& args) {
  std::unique_ptr<Model> model;
  if (Status st = LoadForInfo(args, &model); !st.ok()) {
    fmt::print(stderr, "error: {}\n", st.message());
    return 1;
  }
  const ModelReport r = model->report();
  fmt::print("model: {}\nmode: {}\n", args.model, r.mode);
  fmt::print("inputs:\n");
  for (const auto& v : r.inputs) fmt::print("  {}: {}\n", v.name, v.desc);
  fmt::print("outputs:\n");
  for (const auto& v : r.outputs) fmt::print("  {}: {}\n", v.name, v.desc);
  fmt::print("optimizer: {}\n", r.optimizer);
  fmt::print("ops before ({} nodes): {}\n", Total(r.ops_before), Join(r.ops_before));
  fmt::print("ops after  ({} nodes): {}\n", Total(r.ops_after), Join(r.ops_after));
  fmt::print("segments: {}\n", r.segments);
  for (size_t s = 0; s < r.segment_details.size(); ++s) {
    const SegmentReport& seg = r.segment_details[s];
    if (seg.sink) {
      fmt::print("segment {}: sink, {} nodes, {} kernel tasks ({} multi-block), {} stream(s), {} event(s)\n", s,
                 seg.nodes, seg.kernel_tasks, seg.multi_block_tasks, seg.streams, seg.events);
      std::map<int, int> per_stream;
      for (const NodeReport& n : r.node_details)
        if (n.segment == static_cast<int>(s) && n.stream >= 0) ++per_stream[n.stream];
      std::string streams;
      for (const auto& [st, cnt] : per_stream)
        streams += fmt::format("{}stream {}: {} task(s)", streams.empty() ? "" : ", ", st, cnt);
      if (!streams.empty()) fmt::print("  {}\n", streams);
    } else {
      fmt::print("segment {}: host, {} nodes; not sunk because:\n", s, seg.nodes);
      std::map<std::string, std::vector<std::string>> why;  // reason -> nodes
      for (const NodeReport& n : r.node_details)
        if (n.segment == static_cast<int>(s)) why[n.reason].push_back(fmt::format("{} ({})", n.name, n.op));
      for (const auto& [reason, nodes] : why) {
        std::string list;
        for (size_t i = 0; i < nodes.size() && i < 8; ++i) list += (i ? ", " : "") + nodes[i];
        if (nodes.size() > 8) list += fmt::format(", ... {} more", nodes.size() - 8);
        fmt::print("  {}: {} node(s): {}\n", reason.empty() ? "(host)" : reason, nodes.size(), list);
      }
    }
  }
  int fallbacks = 0;
  for (const NodeReport& n : r.node_details) fallbacks += n.placement == "host fallback";
  fmt::print("fallback decisions: {}\n",
             fallbacks == 0 ? "none (every host node runs its kernel)" : std::to_string(fallbacks));
  for (const NodeReport& n : r.node_details)
    if (n.placement == "host fallback") fmt::print("  {} ({}): {}\n", n.name, n.op, n.reason);
  if (r.planned_tensors > 0)
    fmt::print("memory plan: naive {}, lower bound {}, arena {}; {} tensors in {} buffers\n", Mib(r.naive_bytes),
               Mib(r.lower_bound_bytes), Mib(r.arena_bytes), r.planned_tensors, r.planned_buffers);
  else
    fmt::print("memory plan: no sink segment (host scheduling allocates per run)\n");
  return 0;
}

int DumpCommand(const InfoArgs& args) {
  std::unique_ptr<Model> model;
  if (Status st = LoadForInfo(args, &model); !st.ok()) {
    fmt::print(stderr, "error: {}\n", st.message());
    return 1;
  }
  const ModelReport r = model->report();
  std::string text;
  if (args.format == "json") {
    text = ToJson(r, args.model);
  } else {
    text = ToDot(r, fmt::format("{} ({})", args.model, r.segments));
    if (args.format == "svg") {
      std::string svg;
      if (Status st = RenderSvg(text, &svg); !st.ok()) {
        fmt::print(stderr, "error: {}\n", st.message());
        return 1;
      }
      text = std::move(svg);
    }
  }
  if (args.output.empty() || args.output == "-") {
    std::cout << text;
    return 0;
  }
  std::ofstream f(args.output, std::ios::binary);
  f << text;
  f.close();
  if (!f) {
    fmt::print(stderr, "error: -o: cannot write '{}'\n", args.output);
    return 1;
  }
  return 0;
}

}  // namespace ge::tool
