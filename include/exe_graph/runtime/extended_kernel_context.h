// The data every operator-function context wraps, and the accessors they share (node name and
// type, attributes, IR-indexed inputs). Input/output *instance* indices are the node's input
// positions (for ONNX: the position in the node's input list; an absent optional input is null).
#ifndef GE_INCLUDE_EXE_GRAPH_RUNTIME_EXTENDED_KERNEL_CONTEXT_H_
#define GE_INCLUDE_EXE_GRAPH_RUNTIME_EXTENDED_KERNEL_CONTEXT_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "exe_graph/runtime/runtime_attrs.h"
#include "exe_graph/runtime/tensor.h"
#include "graph/ge_error_codes.h"

namespace gert {

class TilingData {
 public:
  explicit TilingData(size_t capacity = 0) : buf_(capacity) {}
  void* GetData() { return buf_.data(); }
  const void* GetData() const { return buf_.data(); }
  size_t GetCapacity() const { return buf_.size(); }
  size_t GetDataSize() const { return size_; }
  void SetDataSize(size_t n) { size_ = n <= buf_.size() ? n : buf_.size(); }
  // Appends a POD value; fails when the capacity would be exceeded.
  template <typename T>
  ge::graphStatus Append(const T& v) {
    if (size_ + sizeof(T) > buf_.size()) return ge::GRAPH_FAILED;
    __builtin_memcpy(buf_.data() + size_, &v, sizeof(T));
    size_ += sizeof(T);
    return ge::GRAPH_SUCCESS;
  }

 private:
  std::vector<uint8_t> buf_;
  size_t size_ = 0;
};

// Filled by the executor/compiler; contexts are views on it.
struct OpContextData {
  const char* node_name = "";
  const char* node_type = "";
  const void* compute_node = nullptr;  // GE internal: the graph node (control flow reads subgraphs)
  const RuntimeAttrs* attrs = nullptr;
  // For each IR input/output of the OpDef: (first instance index, instance count).
  std::vector<std::pair<size_t, size_t>> input_ir;
  std::vector<std::pair<size_t, size_t>> output_ir;
  std::vector<Tensor*> inputs;   // by instance; null = absent optional input
  std::vector<Tensor*> outputs;  // by instance
  // Tiling results.
  TilingData* tiling = nullptr;
  uint32_t block_dim = 1;
  uint64_t tiling_key = 0;
  std::vector<size_t> workspace_sizes;
  uint32_t core_num = 1;
  // Set by tiling functions and recorded only: the kernel's scheduling mode and whether it
  // accumulates into its outputs (neither changes how GE launches it).
  uint32_t schedule_mode = 0;
  bool need_atomic = false;
  int32_t tiling_cond = -1;
  // Execution (host fallback path).
  void* stream = nullptr;
  void* (*malloc_ws)(void* owner, size_t size) = nullptr;
  void (*free_ws)(void* owner, void* addr) = nullptr;
  void* ws_owner = nullptr;
};

class ExtendedKernelContext {
 public:
  explicit ExtendedKernelContext(OpContextData* d) : d_(d) {}
  const char* GetNodeName() const { return d_->node_name; }
  const char* GetNodeType() const { return d_->node_type; }
  const RuntimeAttrs* GetAttrs() const { return d_->attrs; }
  size_t GetComputeNodeInputNum() const { return d_->inputs.size(); }
  size_t GetComputeNodeOutputNum() const { return d_->outputs.size(); }
  // IR-indexed views: instance index of an optional/dynamic input.
  const std::pair<size_t, size_t>* GetInputInstanceInfo(size_t ir_index) const {
    return ir_index < d_->input_ir.size() ? &d_->input_ir[ir_index] : nullptr;
  }
  const std::pair<size_t, size_t>* GetOutputInstanceInfo(size_t ir_index) const {
    return ir_index < d_->output_ir.size() ? &d_->output_ir[ir_index] : nullptr;
  }
  OpContextData* GetData() const { return d_; }
  // Instance count of IR input `ir` (0 for an absent optional input).
  size_t GetIrInputInstanceNum(size_t ir) const {
    auto* info = GetInputInstanceInfo(ir);
    return info == nullptr ? 0 : info->second;
  }

 protected:
  const Tensor* InputAt(size_t i) const { return i < d_->inputs.size() ? d_->inputs[i] : nullptr; }
  Tensor* OutputAt(size_t i) const { return i < d_->outputs.size() ? d_->outputs[i] : nullptr; }
  // Instance index of IR input `ir` (+ relative index for dynamic ones); SIZE_MAX if none.
  size_t InputInstance(size_t ir, size_t rel = 0) const {
    auto* info = GetInputInstanceInfo(ir);
    return (info == nullptr || rel >= info->second) ? SIZE_MAX : info->first + rel;
  }
  size_t OutputInstance(size_t ir, size_t rel = 0) const {
    auto* info = GetOutputInstanceInfo(ir);
    return (info == nullptr || rel >= info->second) ? SIZE_MAX : info->first + rel;
  }
  OpContextData* d_;
};

}  // namespace gert

#endif  // GE_INCLUDE_EXE_GRAPH_RUNTIME_EXTENDED_KERNEL_CONTEXT_H_
