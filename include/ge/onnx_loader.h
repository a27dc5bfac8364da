// The ONNX frontend: file -> ge::Graph. Checks the model with the ONNX checker, upgrades older
// opsets with the ONNX version converter, maps initializers to constants and Constant nodes to
// constants, keeps symbolic/unknown dims as -1, converts attributes (incl. subgraphs).
#ifndef GE_INCLUDE_GE_ONNX_LOADER_H_
#define GE_INCLUDE_GE_ONNX_LOADER_H_

#include <memory>
#include <string>

#include "ge/graph.h"
#include "ge/status.h"

namespace ge {

struct OnnxLoadOptions {
  int64_t target_opset = 17;  // models below it are converted (when the converter can)
  bool run_checker = true;
};

// Errors name the file and, for node problems, the node and op.
Status LoadOnnxModel(const std::string& path, std::shared_ptr<Graph>* graph, const OnnxLoadOptions& options = {});
Status LoadOnnxModelFromBytes(const std::string& bytes, const std::string& base_dir, std::shared_ptr<Graph>* graph,
                              const OnnxLoadOptions& options = {});

// Reads a serialized onnx.TensorProto file (the backend test data's input_K.pb / output_K.pb).
Status LoadTensorProtoFile(const std::string& path, HostTensor* tensor, std::string* name = nullptr);

// Reads a test-data file of the given kind: a TensorProto, or a SequenceProto / OptionalProto,
// which become packed sequences (ge/tensor_seq.h).
Status LoadTestDataFile(const std::string& path, ValueKind kind, HostTensor* tensor);

}  // namespace ge

#endif  // GE_INCLUDE_GE_ONNX_LOADER_H_
