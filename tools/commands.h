// The `ge` tool's subcommands. Each returns the process exit code.
#ifndef GE_TOOLS_COMMANDS_H_
#define GE_TOOLS_COMMANDS_H_

#include <map>
#include <string>
#include <vector>

#include "ge/model.h"

namespace ge::tool {

struct RunArgs {
  std::string model;
  std::vector<std::string> inputs;        // NAME=FILE.npy
  std::vector<std::string> outputs;       // FILE.npy, one per model output, in order
  std::vector<std::string> input_shapes;  // NAME=1,3,224,224 (for dynamic dims)
  std::string mode = "auto";
  bool report = false;                    // print the segments and the memory report
  int opt_level = 2;                      // -O0 / -O1 / -O2, or --opt-level N
  std::string dump_graph;                 // write the compiled graph in the textual IR (graph_text.h) here
  double timeout_s = 0;                   // > 0: exit 124 with an error once this many seconds have passed
  std::string profile;                    // --profile: write a Chrome trace-event JSON file here
  std::string inputs_npz;                 // --inputs FILE.npz: every input by name
  std::string outputs_npz;                // --outputs FILE.npz: every output by name
  std::vector<std::string> output_nodes;  // --output-node NAME[:k]: the graph outputs instead of the model's
  int repeat = 1;                         // --repeat N: run N times; the outputs are the last run's
};

int RunCommand(const RunArgs& args);

struct BenchArgs {
  std::string model;
  std::string mode = "auto";
  int runs = 100;
  int warmup = 10;
  int threads = 0;         // device core count (0 = the machine's cores)
  int streams = 0;         // sink model streams bound (0 = default)
  bool zero_copy = false;  // time Model::RunWithDeviceBuffers on preallocated device buffers
  int opt_level = 2;       // -O0 / -O1 / -O2, or --opt-level N
  std::vector<std::string> input_shapes;
  std::vector<std::string> inputs;        // NAME=FILE.npy, as for `ge run`
  bool per_op = false;                    // profiled runs after the timed ones: time per op type, slowest nodes
  double duration_s = 0;                  // > 0: time runs for this long instead of --runs
  int concurrency = 1;                    // host threads running the one compiled model
  bool progress = false;                  // always show the progress bar (default: stderr a tty, runs past 2 s)
  std::string profile;                    // --profile: write a Chrome trace-event JSON file here
  std::string inputs_npz;                 // --inputs FILE.npz, as for `ge run`
  std::vector<std::string> output_nodes;  // --output-node NAME[:k], as for `ge run`
};

int BenchCommand(const BenchArgs& args);

struct CompileArgs {
  std::string model;   // .onnx
  std::string output;  // .gem
  std::string mode = "auto";
  int opt_level = 2;
  int streams = 0;
  std::vector<std::string> input_shapes;
  std::vector<std::string> output_nodes;  // --output-node NAME[:k]: the compiled model's outputs
};

int CompileCommand(const CompileArgs& args);

// `ge info MODEL` / `ge dump MODEL --format dot|svg|json [-o FILE]`.
struct InfoArgs {
  std::string model;
  std::string mode = "auto";
  int opt_level = 2;
  std::vector<std::string> input_shapes;
  std::string format = "dot";  // dump: dot | svg | json
  std::string output;          // dump: FILE (default stdout)
};

int InfoCommand(const InfoArgs& args);
int DumpCommand(const InfoArgs& args);
// "segments: ..." and "memory: naive ..., lower bound ..., arena ..." lines (`--report`).
void PrintReport(const Model& model);

// Inputs for a model: from --input files, else from the --inputs .npz (`npz`, when given: then
// every input not given by --input must be in it), else deterministic random data (seeded by
// input index) with dynamic dims taken from --input-shape or 1. Errors name the input.
Status PrepareInputs(const std::vector<TensorInfo>& model_inputs, const std::vector<std::string>& input_files,
                     const std::map<std::string, std::vector<int64_t>>& input_shapes, std::vector<HostTensor>* inputs,
                     const std::string& npz = std::string());
// Sum of elements as double, the checksum the tool prints.
double Checksum(const HostTensor& t);

}  // namespace ge::tool

#endif  // GE_TOOLS_COMMANDS_H_
