// The `ge` command-line tool: `ge run MODEL ...`, `ge bench MODEL ...`, `ge compile MODEL -o MODEL.gem`,
// `ge info MODEL`, `ge dump MODEL`.
#include <CLI/CLI.hpp>

#include "commands.h"

int main(int argc, char** argv) {
  CLI::App app{"GE: a graph compiler and executor for neural networks"};
  app.require_subcommand(1);
  ge::tool::RunArgs run;
  auto* run_cmd = app.add_subcommand("run", "run a model once and print its outputs");
  run_cmd->add_option("model", run.model, "model file (.onnx, .gem, TensorFlow .pb/.pbtxt)")->required();
  run_cmd->add_option("--input", run.inputs, "NAME=FILE.npy (repeatable)");
  run_cmd->add_option("--output", run.outputs, "FILE.npy, one per model output in order (repeatable)");
  run_cmd->add_option("--input-shape", run.input_shapes, "NAME=D0,D1,... for inputs with dynamic dims");
  run_cmd->add_option("--mode", run.mode, "auto | sink | host")->check(CLI::IsMember({"auto", "sink", "host"}));
  run_cmd->add_option_function<std::string>(
      "--custom-op-lib", [](const std::string& p) { setenv("GE_CUSTOM_OP_LIB", p.c_str(), 1); },
      "custom operator library .so (':'-separated; also GE_CUSTOM_OP_LIB)");
  run_cmd
      ->add_option("-O,--opt-level", run.opt_level, "graph optimizer level: -O0 none, -O1 basic, -O2 fusions (default)")
      ->check(CLI::Range(0, 2));
  run_cmd->add_option("--dump-graph", run.dump_graph, "write the optimized graph as text (the textual IR) to FILE");
  run_cmd->add_flag("--report", run.report, "print the segments and the memory report (naive, lower bound, arena)");
  run_cmd
      ->add_option("--timeout", run.timeout_s,
                   "give up after SECONDS (load, compile and run): prints an error, exits 124 (a model whose Loop "
                   "never ends is not a hang)")
      ->check(CLI::PositiveNumber);
  run_cmd->add_option("--profile", run.profile,
                      "write a Chrome trace-event JSON file (compile steps, host steps, stream tasks, core blocks); "
                      "open it in ui.perfetto.dev or chrome://tracing");
  run_cmd->add_option("--inputs", run.inputs_npz, "FILE.npz holding the inputs by name (np.savez)");
  run_cmd->add_option("--outputs", run.outputs_npz, "write every output by name to FILE.npz");
  const char* output_node_help =
      "NAME[:k]: make this value a graph output (repeatable, in order; a TensorFlow graph's node or node:k, an "
      "ONNX graph's value name) instead of the model's outputs";
  run_cmd->add_option("--output-node", run.output_nodes, output_node_help);
  run_cmd
      ->add_option("--repeat", run.repeat,
                   "run N times with the same inputs; the outputs are the last run's (a host-run model takes its "
                   "tensors from a planned arena from the third run at one shape on)")
      ->check(CLI::PositiveNumber);
  ge::tool::BenchArgs bench;
  auto* bench_cmd =
      app.add_subcommand("bench", "compile once, time repeated runs (min, median, p90 per run and per op)");
  bench_cmd->add_option("model", bench.model, "model file (.onnx)")->required();
  bench_cmd->add_option("--mode", bench.mode, "auto | sink | host")->check(CLI::IsMember({"auto", "sink", "host"}));
  auto* runs_opt = bench_cmd->add_option("--runs", bench.runs, "timed runs (default 100)")->check(CLI::PositiveNumber);
  bench_cmd->add_option("--duration", bench.duration_s, "time runs for SECONDS instead of --runs")
      ->check(CLI::PositiveNumber)
      ->excludes(runs_opt);
  bench_cmd->add_option("--concurrency", bench.concurrency, "host threads running the one compiled model (default 1)")
      ->check(CLI::Range(1, 1024));
  bench_cmd->add_flag("--progress", bench.progress,
                      "always draw the progress bar on stderr (default: when stderr is a terminal and the timed "
                      "runs last over 2 s)");
  bench_cmd->add_option("--profile", bench.profile,
                        "write a Chrome trace-event JSON file of the compile and every run (warm-up and timed)");
  bench_cmd->add_option("--warmup", bench.warmup, "untimed runs first (on each --concurrency thread)")
      ->check(CLI::NonNegativeNumber);
  bench_cmd->add_option("--threads", bench.threads, "device core threads (default: the machine's cores)");
  bench_cmd->add_option(
      "--streams", bench.streams,
      "most model streams per sink segment (default: up to 2, one when the branches are too small to gain)");
  bench_cmd->add_flag("--zero-copy", bench.zero_copy,
                      "run on preallocated device buffers (no input/output copies for a sink model)");
  bench_cmd
      ->add_option("-O,--opt-level", bench.opt_level,
                   "graph optimizer level: -O0 none, -O1 basic, -O2 fusions (default)")
      ->check(CLI::Range(0, 2));
  bench_cmd->add_option("--input-shape", bench.input_shapes, "NAME=D0,D1,... for inputs with dynamic dims");
  bench_cmd->add_option("--input", bench.inputs, "NAME=FILE.npy (repeatable; default: random data)");
  bench_cmd->add_option("--inputs", bench.inputs_npz, "FILE.npz holding the inputs by name (np.savez)");
  bench_cmd->add_flag("--per-op", bench.per_op,
                      "after the timed runs, profile --runs runs (one model stream): time per op type and the 10 "
                      "slowest nodes");
  bench_cmd->add_option("--output-node", bench.output_nodes, output_node_help);
  ge::tool::CompileArgs compile;
  auto* compile_cmd = app.add_subcommand(
      "compile", "compile a model for offline use and write it as a .gem (ge run/bench load it without compiling)");
  compile_cmd->add_option("model", compile.model, "model file (.onnx)")->required();
  compile_cmd->add_option("-o,--output", compile.output, "the .gem file to write")->required();
  compile_cmd->add_option("--input-shape", compile.input_shapes, "NAME=D0,D1,... fixes an input's dims (repeatable)");
  compile_cmd->add_option("--mode", compile.mode, "auto | sink | host")->check(CLI::IsMember({"auto", "sink", "host"}));
  compile_cmd
      ->add_option("-O,--opt-level", compile.opt_level,
                   "graph optimizer level: -O0 none, -O1 basic, -O2 fusions (default)")
      ->check(CLI::Range(0, 2));
  compile_cmd->add_option("--streams", compile.streams, "most model streams per sink segment (default: automatic)");
  compile_cmd->add_option("--output-node", compile.output_nodes, output_node_help);
  compile_cmd->add_option_function<std::string>(
      "--custom-op-lib", [](const std::string& p) { setenv("GE_CUSTOM_OP_LIB", p.c_str(), 1); },
      "custom operator library .so (':'-separated; also GE_CUSTOM_OP_LIB)");
  // `ge info` / `ge dump`: what the compiler made of a model.
  ge::tool::InfoArgs info;
  auto* info_cmd = app.add_subcommand(
      "info", "compile a model and print its inputs/outputs, op counts, segments, fallbacks, streams, memory plan");
  ge::tool::InfoArgs dump;
  auto* dump_cmd = app.add_subcommand("dump", "draw the compiled graph (nodes coloured by segment and stream)");
  for (auto [cmd, a] : {std::pair{info_cmd, &info}, std::pair{dump_cmd, &dump}}) {
    cmd->add_option("model", a->model, "model file (.onnx)")->required();
    cmd->add_option("--mode", a->mode, "auto | sink | host")->check(CLI::IsMember({"auto", "sink", "host"}));
    cmd->add_option("-O,--opt-level", a->opt_level, "graph optimizer level (default 2)")->check(CLI::Range(0, 2));
    cmd->add_option("--input-shape", a->input_shapes, "NAME=D0,D1,... for inputs with dynamic dims");
  }
  dump_cmd->add_option("--format", dump.format, "dot (default) | svg (runs Graphviz's dot) | json")
      ->check(CLI::IsMember({"dot", "svg", "json"}));
  dump_cmd->add_option("-o,--output", dump.output, "write to FILE (default: standard output)");
  CLI11_PARSE(app, argc, argv);
  if (*compile_cmd) return ge::tool::CompileCommand(compile);
  if (*info_cmd) return ge::tool::InfoCommand(info);
  if (*dump_cmd) return ge::tool::DumpCommand(dump);
  if (*run_cmd) return ge::tool::RunCommand(run);
  if (*bench_cmd) return ge::tool::BenchCommand(bench);
  return 2;
}
