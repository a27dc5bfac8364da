// The default op-implementation registry and IMPL_OP's registrar.
#include "register/op_impl_registry.h"

#include <algorithm>

#include "register/tiling_capacity.h"
#include "register/tilingdata_base.h"

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

namespace gert {

OpImplRegisterV2& OpImplRegisterV2::InferShapeRange(InferShapeRangeKernelFunc f) {
  impl_->infer_shape_range = f;
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::InputsDataDependency(std::initializer_list<int32_t> inputs) {
  impl_->inputs_data_dependency.assign(inputs.begin(), inputs.end());
  return *this;
}
OpImplRegisterV2& OpImplRegisterV2::TilingParse(TilingParseFunc f, CompileInfoCreatorFunc creator,
                                                CompileInfoDeleterFunc deleter) {
  impl_->tiling_parse = f;
  impl_->compile_info_creator = creator;
  impl_->compile_info_deleter = deleter;
  return *this;
}

namespace {
struct CompileInfoSlot {
  void* info = nullptr;
  CompileInfoDeleterFunc deleter = nullptr;
  bool ok = false;
  ~CompileInfoSlot() {
    if (info != nullptr && deleter != nullptr) deleter(info);
  }
};
}  // namespace

// Parsed once per (op type, core count) and kept for the process: tiling functions hold the
// pointer only for their call, but sink programs re-tile on load.
const void* GetOpCompileInfo(const char* op_type, uint32_t core_num) {
  static std::mutex mu;
  static std::map<std::pair<std::string, uint32_t>, CompileInfoSlot> slots;
  if (op_type == nullptr) return nullptr;
  const OpImplFunctionsV2* impl = DefaultOpImplSpaceRegistryV2::GetInstance().GetSpaceRegistry()->GetOpImpl(op_type);
  if (impl == nullptr || impl->tiling_parse == nullptr || impl->compile_info_creator == nullptr) return nullptr;
  std::lock_guard<std::mutex> lock(mu);
  auto [it, fresh] = slots.try_emplace({op_type, core_num});
  CompileInfoSlot& slot = it->second;
  if (fresh) {
    slot.info = impl->compile_info_creator();
    slot.deleter = impl->compile_info_deleter;
    TilingParseContext ctx(op_type, slot.info, ge::GetDevicePlatformInfos(core_num));
    slot.ok = impl->tiling_parse(&ctx) == ge::GRAPH_SUCCESS;
  }
  return slot.ok ? slot.info : nullptr;
}

}  // namespace gert

namespace gert {
size_t TilingDataCapacity(const char* op_type, const OpImplFunctionsV2& impl) {
  return std::max(impl.max_tiling_data_size,
                  optiling::CTilingDataClassFactory::GetInstance().GetTilingDataSize(op_type ? op_type : ""));
}
}  // namespace gert
