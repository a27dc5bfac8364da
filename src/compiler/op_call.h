// OpCall: one node's operator functions wired to concrete tensors — infer dtype, infer shape,
// tiling. Used at compile time (static shapes, constant folding, sink task generation) and at
// run time by the host executor. Kernel launch is the executors' business.
#ifndef GE_SRC_COMPILER_OP_CALL_H_
#define GE_SRC_COMPILER_OP_CALL_H_

#include <vector>

#include "base/dims_string.h"
#include "base/status.h"
#include "compiler/node_binding.h"
#include "exe_graph/runtime/extended_kernel_context.h"
#include "graph/graph.h"

namespace ge {

class OpCall {
 public:
  // Sizes the tensors and wires the context data to the node and its binding. `node` and
  // `binding` must outlive the OpCall.
  void Prepare(const Node& node, const NodeBinding& binding);

  gert::Tensor& input(size_t i) { return inputs_[i]; }
  gert::Tensor& output(size_t i) { return outputs_[i]; }
  size_t num_inputs() const { return inputs_.size(); }
  size_t num_outputs() const { return outputs_.size(); }
  // An absent optional input is a null pointer in the context.
  void SetInputPresent(size_t i, bool present) { data_.inputs[i] = present ? &inputs_[i] : nullptr; }

  // Each returns an error naming the node, op and inputs on failure.
  Status InferDataType();
  Status InferShape();
  Status Tiling(uint32_t core_num);
  // Runs the op's check-support function when its AI-core config asks for it
  // (NeedCheckSupportFlag); "not supported" is an error with the function's reason.
  Status CheckSupport() const;

  gert::OpContextData& data() { return data_; }
  gert::TilingData& tiling() { return tiling_; }
  const Node& node() const { return *node_; }
  const NodeBinding& binding() const { return *binding_; }
  std::string DescribeInputs() const;  // "float32[1, 3], int64[2]"

 private:
  const Node* node_ = nullptr;
  const NodeBinding* binding_ = nullptr;
  std::vector<gert::Tensor> inputs_;
  std::vector<gert::Tensor> outputs_;
  gert::OpContextData data_;
  gert::TilingData tiling_;
};

}  // namespace ge

#endif  // GE_SRC_COMPILER_OP_CALL_H_
