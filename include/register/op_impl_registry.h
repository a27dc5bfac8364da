// The op-implementation registry: per op type, the functions the engine calls (infer shape,
// infer dtype, tiling, kernel, op-execute). gert::OpImplSpaceRegistryV2 is the lookup; IMPL_OP
// registers functions directly (OpDef registers through the same path).
#ifndef GE_INCLUDE_REGISTER_OP_IMPL_REGISTRY_H_
#define GE_INCLUDE_REGISTER_OP_IMPL_REGISTRY_H_

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "acl/acl_rt.h"
#include "exe_graph/runtime/infer_shape_context.h"
#include "exe_graph/runtime/op_execute_context.h"
#include "exe_graph/runtime/tiling_context.h"

namespace ops {
class OpDef;
}

namespace gert {

using InferShapeKernelFunc = ge::graphStatus (*)(InferShapeContext*);
using InferDataTypeKernelFunc = ge::graphStatus (*)(InferDataTypeContext*);
using TilingKernelFunc = ge::graphStatus (*)(TilingContext*);
using OpExecuteFunc = ge::graphStatus (*)(OpExecuteContext*);

struct OpImplFunctionsV2 {
  InferShapeKernelFunc infer_shape = nullptr;
  InferDataTypeKernelFunc infer_datatype = nullptr;
  TilingKernelFunc tiling = nullptr;
  aclrtKernelFunc kernel = nullptr;         // GE: the device kernel launched after tiling
  OpExecuteFunc op_execute_func = nullptr;  // host fallback (generated or hand-written)
  bool op_execute_is_generated = false;
  // GE: output shapes are only known by running (control flow): the op-execute function
  // allocates its outputs with MallocWorkspace and sets their shapes; no inference is done.
  bool outputs_by_execute = false;
  size_t max_tiling_data_size = 2048;
  std::shared_ptr<const ops::OpDef> op_def;  // the prototype, when registered through OP_ADD
};

class OpImplSpaceRegistryV2 {
 public:
  // nullptr when the op type is unknown.
  const OpImplFunctionsV2* GetOpImpl(const char* op_type) const;
  OpImplFunctionsV2& CreateOrGetOpImpl(const char* op_type);
  std::vector<std::string> GetRegisteredOpTypes() const;

 private:
  mutable std::mutex mu_;
  std::map<std::string, OpImplFunctionsV2, std::less<>> impls_;
};

class DefaultOpImplSpaceRegistryV2 {
 public:
  static DefaultOpImplSpaceRegistryV2& GetInstance();
  const std::shared_ptr<OpImplSpaceRegistryV2>& GetSpaceRegistry() const { return registry_; }

 private:
  DefaultOpImplSpaceRegistryV2();
  std::shared_ptr<OpImplSpaceRegistryV2> registry_;
};

class OpImplRegisterV2 {
 public:
  explicit OpImplRegisterV2(const char* op_type);
  OpImplRegisterV2& InferShape(InferShapeKernelFunc f);
  OpImplRegisterV2& InferDataType(InferDataTypeKernelFunc f);
  OpImplRegisterV2& Tiling(TilingKernelFunc f, size_t max_tiling_data_size = 2048);
  OpImplRegisterV2& Kernel(aclrtKernelFunc f);
  OpImplRegisterV2& OpExecuteFunc(gert::OpExecuteFunc f);
  OpImplRegisterV2& OutputsByExecute();

 private:
  OpImplFunctionsV2* impl_;
};

}  // namespace gert

#define GE_IMPL_OP_CONCAT_(a, b) a##b
#define GE_IMPL_OP_CONCAT(a, b) GE_IMPL_OP_CONCAT_(a, b)
#define IMPL_OP(op_type)                                                                   \
  static ::gert::OpImplRegisterV2 GE_IMPL_OP_CONCAT(g_impl_op_##op_type##_, __COUNTER__) = \
      ::gert::OpImplRegisterV2(#op_type)

#endif  // GE_INCLUDE_REGISTER_OP_IMPL_REGISTRY_H_
