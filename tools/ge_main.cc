// The `ge` command-line tool: `ge run MODEL ...`, `ge bench MODEL ...`, `ge compile MODEL -o MODEL.gem`.
#include <CLI/CLI.hpp>

#include "commands.h"

int main(int argc, char** argv) {
  CLI::App app{"GE: a graph compiler and executor for neural networks"};
  app.require_subcommand(1);
  ge::tool::RunArgs run;
  auto* run_cmd = app.add_subcommand("run", "run a model once and print its outputs");
  run_cmd->add_option("model", run.model, "model file (.onnx)")->required();
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
  ge::tool::BenchArgs bench;
  auto* bench_cmd =
      app.add_subcommand("bench", "compile once, time repeated runs (min, median, p90 per run and per op)");
  bench_cmd->add_option("model", bench.model, "model file (.onnx)")->required();
  bench_cmd->add_option("--mode", bench.mode, "auto | sink | host")->check(CLI::IsMember({"auto", "sink", "host"}));
  bench_cmd->add_option("--runs", bench.runs, "timed runs")->check(CLI::PositiveNumber);
  bench_cmd->add_option("--warmup", bench.warmup, "untimed runs first")->check(CLI::NonNegativeNumber);
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
  bench_cmd->add_flag("--per-op", bench.per_op,
                      "after the timed runs, profile --runs runs (one model stream): time per op type and the 10 "
                      "slowest nodes");
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
  compile_cmd->add_option_function<std::string>(
      "--custom-op-lib", [](const std::string& p) { setenv("GE_CUSTOM_OP_LIB", p.c_str(), 1); },
      "custom operator library .so (':'-separated; also GE_CUSTOM_OP_LIB)");
  CLI11_PARSE(app, argc, argv);
  if (*compile_cmd) return ge::tool::CompileCommand(compile);
  if (*run_cmd) return ge::tool::RunCommand(run);
  if (*bench_cmd) return ge::tool::BenchCommand(bench);
  return 2;
}
