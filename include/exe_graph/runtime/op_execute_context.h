// gert::OpExecuteContext: what an operator's op-execute (host fallback) function sees: device
// tensors with addresses, the stream, workspace allocation, attributes.
#ifndef GE_INCLUDE_EXE_GRAPH_RUNTIME_OP_EXECUTE_CONTEXT_H_
#define GE_INCLUDE_EXE_GRAPH_RUNTIME_OP_EXECUTE_CONTEXT_H_

#include "exe_graph/runtime/extended_kernel_context.h"

namespace gert {

class OpExecuteContext : public ExtendedKernelContext {
 public:
  using ExtendedKernelContext::ExtendedKernelContext;
  const Tensor* GetInputTensor(size_t i) const { return InputAt(i); }
  const Tensor* GetOptionalInputTensor(size_t ir) const { return InputAt(InputInstance(ir)); }
  const Tensor* GetDynamicInputTensor(size_t ir, size_t rel) const { return InputAt(InputInstance(ir, rel)); }
  const Tensor* GetRequiredInputTensor(size_t ir) const { return InputAt(InputInstance(ir)); }
  Tensor* GetOutputTensor(size_t i) const { return OutputAt(i); }
  Tensor* GetRequiredOutputTensor(size_t ir) const { return OutputAt(OutputInstance(ir)); }
  Tensor* GetDynamicOutputTensor(size_t ir, size_t rel) const { return OutputAt(OutputInstance(ir, rel)); }
  void* GetStream() const { return d_->stream; }
  // Execution options: GE's kernels are deterministic; hf32 (a reduced-precision fp32 matmul
  // mode) is never used ("00": neither convolutions nor matmuls); precision mode 0 = as typed.
  bool GetDeterministic() const { return true; }
  const char* GetAllowHf32() const { return "00"; }
  int32_t GetPrecisionMode() const { return 0; }
  void* MallocWorkspace(size_t size) { return d_->malloc_ws ? d_->malloc_ws(d_->ws_owner, size) : nullptr; }
  void FreeWorkspace() { FreeWorkspace(nullptr); }
  // GE: frees one workspace block (null: all blocks this node allocated).
  void FreeWorkspace(void* addr) {
    if (d_->free_ws) d_->free_ws(d_->ws_owner, addr);
  }
};

}  // namespace gert

#endif  // GE_INCLUDE_EXE_GRAPH_RUNTIME_OP_EXECUTE_CONTEXT_H_
