// gert::TilingContext: what an operator's tiling function sees and sets (block dim, tiling data,
// tiling key, workspace sizes). Shapes are final here.
#ifndef GE_INCLUDE_EXE_GRAPH_RUNTIME_TILING_CONTEXT_H_
#define GE_INCLUDE_EXE_GRAPH_RUNTIME_TILING_CONTEXT_H_

#include "exe_graph/runtime/extended_kernel_context.h"

namespace gert {

class TilingContext : public ExtendedKernelContext {
 public:
  using ExtendedKernelContext::ExtendedKernelContext;
  const StorageShape* GetInputShape(size_t i) const {
    const Tensor* t = InputAt(i);
    return t ? &t->GetShape() : nullptr;
  }
  const StorageShape* GetOptionalInputShape(size_t ir) const { return GetInputShape(InputInstance(ir)); }
  const StorageShape* GetDynamicInputShape(size_t ir, size_t rel) const {
    return GetInputShape(InputInstance(ir, rel));
  }
  const StorageShape* GetOutputShape(size_t i) const {
    Tensor* t = OutputAt(i);
    return t ? &t->GetShape() : nullptr;
  }
  // Shape, dtype and format of an input/output (the address may be null at compile time).
  const Tensor* GetInputDesc(size_t i) const { return InputAt(i); }
  const Tensor* GetOutputDesc(size_t i) const { return OutputAt(i); }
  const Tensor* GetInputTensor(size_t i) const { return InputAt(i); }
  const Tensor* GetOptionalInputTensor(size_t ir) const { return InputAt(InputInstance(ir)); }

  ge::graphStatus SetBlockDim(uint32_t n) {
    d_->block_dim = n == 0 ? 1 : n;
    return ge::GRAPH_SUCCESS;
  }
  uint32_t GetBlockDim() const { return d_->block_dim; }
  ge::graphStatus SetTilingKey(uint64_t k) {
    d_->tiling_key = k;
    return ge::GRAPH_SUCCESS;
  }
  uint64_t GetTilingKey() const { return d_->tiling_key; }
  TilingData* GetRawTilingData() const { return d_->tiling; }
  template <typename T>
  T* GetTilingData() const {
    if (d_->tiling == nullptr || d_->tiling->GetCapacity() < sizeof(T)) return nullptr;
    d_->tiling->SetDataSize(sizeof(T));
    return static_cast<T*>(d_->tiling->GetData());
  }
  size_t* GetWorkspaceSizes(size_t num) const {
    if (d_->workspace_sizes.size() < num) d_->workspace_sizes.resize(num, 0);
    return d_->workspace_sizes.data();
  }
  size_t GetWorkspaceNum() const { return d_->workspace_sizes.size(); }
  // GE: the number of device cores, the natural upper bound for the block dim.
  uint32_t GetCoreNum() const { return d_->core_num; }
};

}  // namespace gert

#endif  // GE_INCLUDE_EXE_GRAPH_RUNTIME_TILING_CONTEXT_H_
