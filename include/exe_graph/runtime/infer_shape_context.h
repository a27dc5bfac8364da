// gert::InferShapeContext and gert::InferDataTypeContext: what an operator's shape and dtype
// inference functions see.
#ifndef GE_INCLUDE_EXE_GRAPH_RUNTIME_INFER_SHAPE_CONTEXT_H_
#define GE_INCLUDE_EXE_GRAPH_RUNTIME_INFER_SHAPE_CONTEXT_H_

#include "exe_graph/runtime/extended_kernel_context.h"

namespace gert {

class InferShapeContext : public ExtendedKernelContext {
 public:
  using ExtendedKernelContext::ExtendedKernelContext;
  const Shape* GetInputShape(size_t i) const {
    const Tensor* t = InputAt(i);
    return t ? &t->GetStorageShape() : nullptr;
  }
  // The input's data when it is known (a constant at compile time, any input at run time);
  // the tensor's address is null otherwise.
  const Tensor* GetInputTensor(size_t i) const { return InputAt(i); }
  const Shape* GetOptionalInputShape(size_t ir) const { return GetInputShape(InputInstance(ir)); }
  const Tensor* GetOptionalInputTensor(size_t ir) const { return InputAt(InputInstance(ir)); }
  const Shape* GetDynamicInputShape(size_t ir, size_t rel) const { return GetInputShape(InputInstance(ir, rel)); }
  const Shape* GetRequiredInputShape(size_t ir) const { return GetInputShape(InputInstance(ir)); }
  const Tensor* GetRequiredInputTensor(size_t ir) const { return InputAt(InputInstance(ir)); }
  const Tensor* GetDynamicInputTensor(size_t ir, size_t rel) const { return InputAt(InputInstance(ir, rel)); }
  // Dtype and format of an input (its shape and address may not be known yet).
  const Tensor* GetInputDesc(size_t i) const { return InputAt(i); }
  const Tensor* GetRequiredInputDesc(size_t ir) const { return InputAt(InputInstance(ir)); }
  const Tensor* GetOptionalInputDesc(size_t ir) const { return InputAt(InputInstance(ir)); }
  const Tensor* GetDynamicInputDesc(size_t ir, size_t rel) const { return InputAt(InputInstance(ir, rel)); }
  Shape* GetRequiredOutputShape(size_t ir) const { return GetOutputShape(OutputInstance(ir)); }
  Shape* GetOutputShape(size_t i) const {
    Tensor* t = OutputAt(i);
    return t ? &t->MutableStorageShape() : nullptr;
  }
  // GE: dtypes are inferred before shapes, so shape functions may read them.
  ge::DataType GetInputDataType(size_t i) const {
    const Tensor* t = InputAt(i);
    return t ? t->GetDataType() : ge::DT_UNDEFINED;
  }
};

class InferDataTypeContext : public ExtendedKernelContext {
 public:
  using ExtendedKernelContext::ExtendedKernelContext;
  ge::DataType GetInputDataType(size_t i) const {
    const Tensor* t = InputAt(i);
    return t ? t->GetDataType() : ge::DT_UNDEFINED;
  }
  ge::DataType GetOptionalInputDataType(size_t ir) const { return GetInputDataType(InputInstance(ir)); }
  ge::DataType GetDynamicInputDataType(size_t ir, size_t rel) const { return GetInputDataType(InputInstance(ir, rel)); }
  ge::DataType GetRequiredInputDataType(size_t ir) const { return GetInputDataType(InputInstance(ir)); }
  ge::graphStatus SetRequiredOutputDataType(size_t ir, ge::DataType dt) {
    return SetOutputDataType(OutputInstance(ir), dt);
  }
  ge::DataType GetOutputDataType(size_t i) const {
    Tensor* t = OutputAt(i);
    return t ? t->GetDataType() : ge::DT_UNDEFINED;
  }
  ge::graphStatus SetOutputDataType(size_t i, ge::DataType dt) {
    Tensor* t = OutputAt(i);
    if (t == nullptr) return ge::GRAPH_FAILED;
    t->SetDataType(dt);
    return ge::GRAPH_SUCCESS;
  }
  const Tensor* GetInputTensor(size_t i) const { return InputAt(i); }
};

}  // namespace gert

#endif  // GE_INCLUDE_EXE_GRAPH_RUNTIME_INFER_SHAPE_CONTEXT_H_
