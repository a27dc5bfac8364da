// The op-implementation registry: per op type, the functions the engine calls (infer shape,
// infer dtype, tiling, kernel, op-execute). gert::OpImplSpaceRegistryV2 is the lookup; IMPL_OP
// registers functions directly (OpDef registers through the same path).
#ifndef GE_INCLUDE_REGISTER_OP_IMPL_REGISTRY_H_
#define GE_INCLUDE_REGISTER_OP_IMPL_REGISTRY_H_

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "exe_graph/runtime/infer_shape_context.h"
#include "exe_graph/runtime/op_execute_context.h"
#include "exe_graph/runtime/tiling_context.h"
#include "platform/platform_infos_def.h"

namespace ops {
class OpDef;
}

namespace gert {

// A [min, max] range of T (shape ranges: per dim, -1 max = unbounded).
template <typename T>
class Range {
 public:
  Range() = default;
  Range(T* min, T* max) : min_(min), max_(max) {}
  const T* GetMin() const { return min_; }
  const T* GetMax() const { return max_; }
  T* GetMin() { return min_; }
  T* GetMax() { return max_; }
  void SetMin(T* min) { min_ = min; }
  void SetMax(T* max) { max_ = max; }

 private:
  T* min_ = nullptr;
  T* max_ = nullptr;
};

// What an InferShapeRange function sees: the inputs' shape ranges, the outputs' to fill.
class InferShapeRangeContext : public ExtendedKernelContext {
 public:
  InferShapeRangeContext(OpContextData* d, std::vector<Range<Shape>>* inputs, std::vector<Range<Shape>>* outputs)
      : ExtendedKernelContext(d), in_(inputs), out_(outputs) {}
  const Range<Shape>* GetInputShapeRange(size_t i) const { return i < in_->size() ? &(*in_)[i] : nullptr; }
  const Range<Shape>* GetOptionalInputShapeRange(size_t ir) const { return GetInputShapeRange(InputInstance(ir)); }
  const Range<Shape>* GetDynamicInputShapeRange(size_t ir, size_t rel) const {
    return GetInputShapeRange(InputInstance(ir, rel));
  }
  Range<Shape>* GetOutputShapeRange(size_t i) const { return i < out_->size() ? &(*out_)[i] : nullptr; }

 private:
  std::vector<Range<Shape>>* in_;
  std::vector<Range<Shape>>* out_;
};

// What a TilingParse function sees: the device and the op's compile info to fill. Runs once per
// op type (and device core count) before the op's first tiling.
class TilingParseContext {
 public:
  TilingParseContext(const char* op_type, void* compile_info, fe::PlatFormInfos* platform)
      : op_type_(op_type), compile_info_(compile_info), platform_(platform) {}
  const char* GetNodeType() const { return op_type_; }
  const char* GetNodeName() const { return op_type_; }
  // Ascend's compiler writes a JSON of compile-time facts; GE has none to add: "{}".
  const char* GetCompiledJson() const { return "{}"; }
  template <typename T>
  T* GetCompiledInfo() const {
    return static_cast<T*>(compile_info_);
  }
  fe::PlatFormInfos* GetPlatformInfo() const { return platform_; }

 private:
  const char* op_type_;
  void* compile_info_;
  fe::PlatFormInfos* platform_;
};

using InferShapeKernelFunc = ge::graphStatus (*)(InferShapeContext*);
using InferDataTypeKernelFunc = ge::graphStatus (*)(InferDataTypeContext*);
using TilingKernelFunc = ge::graphStatus (*)(TilingContext*);
using OpExecuteFunc = ge::graphStatus (*)(OpExecuteContext*);
using InferShapeRangeKernelFunc = ge::graphStatus (*)(InferShapeRangeContext*);
using TilingParseFunc = ge::graphStatus (*)(TilingParseContext*);
using CompileInfoCreatorFunc = void* (*)();
using CompileInfoDeleterFunc = void (*)(void*);

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
  InferShapeRangeKernelFunc infer_shape_range = nullptr;
  // TilingParse<T>: fills a T once (GetOpCompileInfo) that tiling reads with GetCompileInfo.
  TilingParseFunc tiling_parse = nullptr;
  CompileInfoCreatorFunc compile_info_creator = nullptr;
  CompileInfoDeleterFunc compile_info_deleter = nullptr;
  // Inputs whose values shape inference / tiling read (InputsDataDependency): the compiler
  // keeps them on the host side and hands their data to the functions.
  std::vector<int32_t> inputs_data_dependency;
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
  using InferShapeKernelFunc = gert::InferShapeKernelFunc;
  using InferDataTypeKernelFunc = gert::InferDataTypeKernelFunc;
  using InferShapeRangeKernelFunc = gert::InferShapeRangeKernelFunc;
  using TilingKernelFunc = gert::TilingKernelFunc;
  using TilingParseFunc = gert::TilingParseFunc;
  using OpExecFunc = gert::OpExecuteFunc;
  using CompileInfoCreatorFunc = gert::CompileInfoCreatorFunc;
  using CompileInfoDeleterFunc = gert::CompileInfoDeleterFunc;

  explicit OpImplRegisterV2(const char* op_type);
  OpImplRegisterV2& InferShape(InferShapeKernelFunc f);
  OpImplRegisterV2& InferShapeRange(InferShapeRangeKernelFunc f);
  OpImplRegisterV2& InputsDataDependency(std::initializer_list<int32_t> inputs);
  // Registers `f` to fill a CompileInfoT (default-constructed) before the op's first tiling.
  template <typename CompileInfoT>
  OpImplRegisterV2& TilingParse(TilingParseFunc f) {
    return TilingParse(f, &NewCompileInfo<CompileInfoT>, &DeleteCompileInfo<CompileInfoT>);
  }
  OpImplRegisterV2& TilingParse(TilingParseFunc f, CompileInfoCreatorFunc creator, CompileInfoDeleterFunc deleter);
  OpImplRegisterV2& InferDataType(InferDataTypeKernelFunc f);
  OpImplRegisterV2& Tiling(TilingKernelFunc f, size_t max_tiling_data_size = 2048);
  OpImplRegisterV2& Kernel(aclrtKernelFunc f);
  OpImplRegisterV2& OpExecuteFunc(gert::OpExecuteFunc f);
  OpImplRegisterV2& OutputsByExecute();

 private:
  template <typename T>
  static void* NewCompileInfo() {
    return new T();
  }
  template <typename T>
  static void DeleteCompileInfo(void* p) {
    delete static_cast<T*>(p);
  }
  OpImplFunctionsV2* impl_;
};

}  // namespace gert

#define GE_IMPL_OP_CONCAT_(a, b) a##b
#define GE_IMPL_OP_CONCAT(a, b) GE_IMPL_OP_CONCAT_(a, b)
#define IMPL_OP(op_type)                                                                   \
  static ::gert::OpImplRegisterV2 GE_IMPL_OP_CONCAT(g_impl_op_##op_type##_, __COUNTER__) = \
      ::gert::OpImplRegisterV2(#op_type)
// Ascend's per-purpose spellings of IMPL_OP: all register into the same entry.
#define IMPL_OP_INFERSHAPE(op_type) IMPL_OP(op_type)
#define IMPL_OP_OPTILING(op_type) IMPL_OP(op_type)
#define IMPL_OP_DEFAULT() IMPL_OP(DefaultImpl)

#endif  // GE_INCLUDE_REGISTER_OP_IMPL_REGISTRY_H_
