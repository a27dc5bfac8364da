// `ge compile MODEL.onnx -o MODEL.gem [--input-shape NAME=D0,D1,...]... [-O0|-O1|-O2] [--mode M]
//  [--streams N] [--output-node NAME[:k]]...`: compiles for offline use and writes the compiled graph (.gem); `ge run`
//  and
// `ge bench` load a .gem without compiling.
#include <chrono>
#include <filesystem>

#include <fmt/format.h>

#include "commands.h"

namespace ge::tool {

int CompileCommand(const CompileArgs& args) {
  ModelOptions opt;
  opt.mode = args.mode;
  opt.opt_level = args.opt_level;
  opt.max_streams = args.streams;
  opt.output_nodes = args.output_nodes;
  if (Status st = ParseInputShapes(args.input_shapes, &opt.input_shapes); !st.ok()) {
    fmt::print(stderr, "error: {}\n", st.message());
    return 2;
  }
  const auto t0 = std::chrono::steady_clock::now();
  if (Status st = Model::CompileToFile(args.model, opt, args.output); !st.ok()) {
    fmt::print(stderr, "error: {}\n", st.message());
    return 1;
  }
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(args.output, ec);
  fmt::print("compiled {} -> {} ({:.1f} MiB) in {:.1f} ms\n", args.model, args.output,
             ec ? 0.0 : static_cast<double>(bytes) / (1 << 20), ms);
  return 0;
}

}  // namespace ge::tool
