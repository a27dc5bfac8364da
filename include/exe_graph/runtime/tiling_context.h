// gert::TilingContext: what an operator's tiling function sees and sets (block dim, tiling data,
// tiling key, workspace sizes). Shapes are final here.
#ifndef GE_INCLUDE_EXE_GRAPH_RUNTIME_TILING_CONTEXT_H_
#define GE_INCLUDE_EXE_GRAPH_RUNTIME_TILING_CONTEXT_H_

#include "exe_graph/runtime/extended_kernel_context.h"
#include "platform/platform_infos_def.h"

namespace gert {

// The compile info an op's TilingParse function filled (once per op type and core count), or
// null when the op has none or its TilingParse failed.
const void* GetOpCompileInfo(const char* op_type, uint32_t core_num);

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
  // IR-indexed views (`ir` is the OpDef's input/output position; `rel` the instance within a
  // dynamic one).
  const StorageShape* GetRequiredInputShape(size_t ir) const { return GetInputShape(InputInstance(ir)); }
  const Tensor* GetRequiredInputTensor(size_t ir) const { return InputAt(InputInstance(ir)); }
  const Tensor* GetDynamicInputTensor(size_t ir, size_t rel) const { return InputAt(InputInstance(ir, rel)); }
  const Tensor* GetRequiredInputDesc(size_t ir) const { return InputAt(InputInstance(ir)); }
  const Tensor* GetOptionalInputDesc(size_t ir) const { return InputAt(InputInstance(ir)); }
  const Tensor* GetDynamicInputDesc(size_t ir, size_t rel) const { return InputAt(InputInstance(ir, rel)); }
  const StorageShape* GetRequiredOutputShape(size_t ir) const {
    Tensor* t = OutputAt(OutputInstance(ir));
    return t ? &t->GetShape() : nullptr;
  }
  const Tensor* GetRequiredOutputDesc(size_t ir) const { return OutputAt(OutputInstance(ir)); }

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
  // The device's description (platform_ascendc::PlatformAscendC reads it).
  fe::PlatFormInfos* GetPlatformInfo() const { return ge::GetDevicePlatformInfos(d_->core_num); }
  // What the op's TilingParse function (IMPL_OP_OPTILING(...).TilingParse<T>) filled.
  const void* GetCompileInfo() const { return GetOpCompileInfo(d_->node_type, d_->core_num); }
  template <typename T>
  const T* GetCompileInfo() const {
    return static_cast<const T*>(GetCompileInfo());
  }
  // Ascend's batch scheduling mode: no CPU meaning; recorded, and read back by GetScheduleMode.
  ge::graphStatus SetScheduleMode(uint32_t mode) {
    d_->schedule_mode = mode;
    return ge::GRAPH_SUCCESS;
  }
  uint32_t GetScheduleMode() const { return d_->schedule_mode; }
  // The kernel accumulates into its outputs (Ascend zeroes them first). Recorded only: GE does
  // not zero outputs before a launch, so a CPU kernel that accumulates clears its output itself.
  ge::graphStatus SetNeedAtomic(bool atomic) {
    d_->need_atomic = atomic;
    return ge::GRAPH_SUCCESS;
  }
  bool NeedAtomic() const { return d_->need_atomic; }
  // Ascend's tiling condition (which precompiled kernel variant applies): recorded; -1 unset.
  ge::graphStatus SetTilingCond(int32_t tiling_cond) {
    d_->tiling_cond = tiling_cond;
    return ge::GRAPH_SUCCESS;
  }
  int32_t GetTilingCond() const { return d_->tiling_cond; }
  // Deterministic computation requested: GE's kernels always are, so 1.
  int32_t GetDeterministic() const { return 1; }
};

}  // namespace gert

#endif  // GE_INCLUDE_EXE_GRAPH_RUNTIME_TILING_CONTEXT_H_
