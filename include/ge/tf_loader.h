// The TensorFlow frontend: a frozen inference GraphDef (binary .pb or text .pbtxt) -> ge::Graph.
// Each TF node becomes one or more ONNX-style nodes of the graph IR (NHWC ops are wrapped in
// Transposes to the NCHW ONNX forms; the layout pass removes the pairs between convolutions).
// Placeholders become graph inputs named after the node; the graph outputs are the outputs of
// the nodes nothing consumes (Const/NoOp/Assert excluded), named "node" for output 0 and
// "node:k" for output k. Shape-like inputs (perm, axes, paddings, ...) must fold to constants
// at parse time (Const, Shape/Rank of statically known tensors, Range, integer arithmetic, Pack,
// ConcatV2, StridedSlice, Cast, Fill on constants are folded).
#ifndef GE_INCLUDE_GE_TF_LOADER_H_
#define GE_INCLUDE_GE_TF_LOADER_H_

#include <memory>
#include <string>
#include <vector>

#include "ge/graph.h"
#include "ge/status.h"

namespace ge {

// Errors name the file and, for node problems, the node and op. Never throws.
// outputs: `node` or `node:k` names that become the graph outputs, in order, instead of the
// unconsumed nodes' outputs.
Status LoadTensorFlowModel(const std::string& path, std::shared_ptr<Graph>* graph,
                           const std::vector<std::string>& outputs = {});
// text: protobuf text format (.pbtxt) rather than binary.
Status LoadTensorFlowModelFromBytes(const std::string& bytes, bool text, std::shared_ptr<Graph>* graph,
                                    const std::vector<std::string>& outputs = {});

// True when the bytes look like a GraphDef rather than an ONNX ModelProto: a binary GraphDef
// starts with field 1 (node, LEN) holding a NodeDef that starts with field 1 (name, LEN); a
// text one starts with "node {" (after comments/space). An ONNX model starts with ir_version
// (field 1, varint: 0x08).
bool LooksLikeTensorFlowGraph(const std::string& head);
// Reads the file's first bytes and applies LooksLikeTensorFlowGraph; a .pbtxt extension also
// counts. False when the file cannot be read.
bool IsTensorFlowFile(const std::string& path);

}  // namespace ge

#endif  // GE_INCLUDE_GE_TF_LOADER_H_
