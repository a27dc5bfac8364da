// The `ge` command-line tool: `ge run MODEL ...` (later: bench, compile, report).
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
  CLI11_PARSE(app, argc, argv);
  if (*run_cmd) return ge::tool::RunCommand(run);
  return 2;
}
