// The default op-implementation registry and IMPL_OP's registrar.
#include "register/op_impl_registry.h"

namespace gert {

const OpImplFunctionsV2* OpImplSpaceRegistryV2::GetOpImpl(const char* op_type) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = impls_.find(op_type);
  return it == impls_.end() ? nullptr : &it->second;
}

OpImplFunctionsV2& OpImplSpaceRegistryV2::CreateOrGetOpImpl(const char* op_type) {
  std::lock_guard<std::mutex> lock(mu_);
  return impls_[op_type];  // std::map: references stay valid as the map grows
}

std::vector<std::string> OpImplSpaceRegistryV2::GetRegisteredOpTypes() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> types;
  for (const auto& [k, v] : impls_) types.push_back(k);
  return types;
}

DefaultOpImplSpaceRegistryV2::DefaultOpImplSpaceRegistryV2() : registry_(std::make_shared<OpImplSpaceRegistryV2>()) {}

DefaultOpImplSpaceRegistryV2& DefaultOpImplSpaceRegistryV2::GetInstance() {
  static DefaultOpImplSpaceRegistryV2 instance;
  return instance;
}

OpImplRegisterV2::OpImplRegisterV2(const char* op_type)
    : impl_(&DefaultOpImplSpaceRegistryV2::GetInstance().GetSpaceRegistry()->CreateOrGetOpImpl(op_type)) {}

OpImplRegisterV2& OpImplRegisterV2::InferShape(InferShapeKernelFunc f) {
  impl_->infer_shape = f;
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::InferDataType(InferDataTypeKernelFunc f) {
  impl_->infer_datatype = f;
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::Tiling(TilingKernelFunc f, size_t max_tiling_data_size) {
  impl_->tiling = f;
  impl_->max_tiling_data_size = max_tiling_data_size;
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::Kernel(aclrtKernelFunc f) {
  impl_->kernel = f;
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::OpExecuteFunc(gert::OpExecuteFunc f) {
  impl_->op_execute_func = f;
  impl_->op_execute_is_generated = false;
  return *this;
}

OpImplRegisterV2& OpImplRegisterV2::OutputsByExecute() {
  impl_->outputs_by_execute = true;
  return *this;
}

}  // namespace gert
