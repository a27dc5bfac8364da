// Phase-1 building blocks shared by the aclnn entries (see op_builder.h).
#include "opapi/op_builder.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/error_message.h"
#include "kernels/block_range.h"
#include "opapi/opapi_kernels.h"
#include "register/tiling_capacity.h"

namespace ge::opapi {

namespace {
// ": <reason>" when the op's shape or tiling function said why it failed (InferFail), else "".
std::string Why() {
  const std::string& why = RecentErrMsg();
  return why.empty() ? std::string() : ": " + why;
}
}  // namespace

uint32_t Blocks(int64_t work, int64_t per_block) { return kernels::BlocksFor(work, per_block, DeviceCoreNum()); }

Status MakeContiguous(aclOpExecutor* ex, const char* api, const char* name, const aclTensor* t, Operand* out) {
  if (t == nullptr) return InvalidArgument("{}: {} is null", api, name);
  if (t->data == nullptr && t->Numel() > 0) return InvalidArgument("{}: {} has no data (null address)", api, name);
  // A bool input is copied as 0 / 1 whatever its bytes: kernels read it as C++ bool, for which
  // any other byte is undefined behaviour.
  const bool to_bool = t->dtype == ge::DT_BOOL && t->Numel() > 0;
  if (t->IsContiguous() && !to_bool) {
    out->desc = t->AsGert();
    out->ref = ArgRef::Addr(t->Addr());
    return Status::Ok();
  }
  if (t->view_dims.size() > static_cast<size_t>(kMaxKernelRank))
    return InvalidArgument("{}: {} is a {} of rank {}, at most {} supported", api, name,
                           to_bool ? "bool tensor" : "non-contiguous view", t->view_dims.size(), kMaxKernelRank);
  CopyTiling c{};
  c.to_bool = to_bool;
  c.elem_size = static_cast<int32_t>(t->ElemSize());
  c.rank = static_cast<int32_t>(t->view_dims.size());
  c.numel = t->Numel();
  auto dst = ContiguousStrides(t->view_dims);
  for (int d = 0; d < c.rank; ++d) {
    c.dims[d] = t->view_dims[d];
    c.src_strides[d] = t->strides[d];
    c.dst_strides[d] = dst[d];
  }
  out->ref = ex->AllocWorkspace(static_cast<uint64_t>(c.numel) * c.elem_size);
  out->desc = t->AsGert();
  out->desc.SetAddr(nullptr);  // data exists only in phase 2
  ex->AddKernel(fmt::format("{}({})", to_bool ? "to_bool" : "pack", name), CopyKernel, Blocks(c.numel, 1 << 16), c,
                {ArgRef::Addr(t->Addr()), out->ref});
  return Status::Ok();
}

Status MakeOutput(const char* api, const char* name, const aclTensor* t, Operand* out) {
  if (t == nullptr) return InvalidArgument("{}: {} is null", api, name);
  if (t->data == nullptr && t->Numel() > 0) return InvalidArgument("{}: {} has no data (null address)", api, name);
  if (!t->IsContiguous()) return InvalidArgument("{}: {} must be contiguous, got {}", api, name, t->ToString());
  out->desc = t->AsGert();
  out->ref = ArgRef::Addr(t->Addr());
  return Status::Ok();
}

Operand WorkspaceOperand(aclOpExecutor* ex, const gert::Shape& shape, ge::DataType dt) {
  Operand o;
  o.desc.MutableShape().SetShape(shape);
  o.desc.SetDataType(dt);
  int64_t n = shape.GetShapeSize();
  o.ref = ex->AllocWorkspace(static_cast<uint64_t>(std::max<int64_t>(n, 0)) * ge::GetSizeByDataType(dt));
  return o;
}

Status CheckTensor(const char* api, const char* name, const aclTensor* t, const gert::Shape& shape, ge::DataType dt) {
  if (t->dtype != dt)
    return InvalidArgument("{}: {} has dtype {}, expected {}", api, name, DataTypeName(t->dtype), DataTypeName(dt));
  if (t->Shape() != shape)
    return InvalidArgument("{}: {} has shape {}, expected {}", api, name, DimsToString(t->view_dims),
                           ShapeToString(shape));
  return Status::Ok();
}

Status BuildAttrs(const char* api, const ops::OpDef& def, const std::map<std::string, gert::RuntimeAttrValue>& given,
                  gert::RuntimeAttrs* out) {
  for (const auto& [name, v] : given) {
    bool known = false;
    for (const auto& a : def.GetAttrs()) known |= a.GetName() == name;
    if (!known) return InvalidArgument("{}: operator {} has no attribute '{}'", api, def.GetOpType(), name);
  }
  for (const auto& a : def.GetAttrs()) {
    auto it = given.find(a.GetName());
    if (it == given.end()) {
      if (a.IsRequired())
        return InvalidArgument("{}: operator {} needs attribute '{}'", api, def.GetOpType(), a.GetName());
      out->Append(a.GetName(), a.GetDefault(), false);
      continue;
    }
    gert::RuntimeAttrValue v = it->second;
    using K = gert::RuntimeAttrValue;
    K::Kind want = a.GetDefault().kind;
    if (v.kind != want) {  // the obvious conversions: int <-> bool, int -> float, int -> [int]
      if (want == K::kBool && v.kind == K::kInt)
        v.b = v.i != 0;
      else if (want == K::kInt && v.kind == K::kBool)
        v.i = v.b;
      else if (want == K::kFloat && v.kind == K::kInt)
        v.f = static_cast<float>(v.i);
      else if (want == K::kListInt && v.kind == K::kInt)
        v.ints = {v.i};
      else
        return InvalidArgument("{}: attribute '{}' of {} has the wrong kind", api, a.GetName(), def.GetOpType());
      v.kind = want;
    }
    out->Append(a.GetName(), std::move(v), true);
  }
  return Status::Ok();
}

namespace {

// IR-to-instance map: a required/optional param takes one position, a dynamic one the rest.
Status MapIr(const char* api, const std::string& op, const std::vector<ops::OpParamDef>& params, size_t actual,
             const char* what, std::vector<std::pair<size_t, size_t>>* ir) {
  size_t pos = 0;
  for (size_t p = 0; p < params.size(); ++p) {
    size_t fixed_after = 0;
    for (size_t q = p + 1; q < params.size(); ++q) fixed_after += params[q].GetParamType() != ops::DYNAMIC;
    if (params[p].GetParamType() == ops::DYNAMIC) {
      size_t avail = actual > pos + fixed_after ? actual - pos - fixed_after : 0;
      ir->push_back({pos, avail});
      pos += avail;
    } else if (pos < actual) {
      ir->push_back({pos++, 1});
    } else {
      if (params[p].GetParamType() == ops::REQUIRED)
        return InvalidArgument("{}: operator {} needs {} '{}' (#{}), got {} {}(s)", api, op, what, params[p].GetName(),
                               p, actual, what);
      ir->push_back({pos, 0});
    }
  }
  if (pos < actual) return InvalidArgument("{}: operator {} takes at most {} {}s, got {}", api, op, pos, what, actual);
  return Status::Ok();
}

struct OpCallData {
  std::vector<gert::Tensor> ins, outs;
  gert::OpContextData d;
  gert::TilingData tiling;
};

Status Prepare(const char* api, const std::string& op_type, const std::vector<const Operand*>& inputs,
               const gert::RuntimeAttrs& attrs, size_t num_outputs, const gert::OpImplFunctionsV2** impl_out,
               OpCallData* c) {
  auto registry = gert::DefaultOpImplSpaceRegistryV2::GetInstance().GetSpaceRegistry();
  const auto* impl = registry->GetOpImpl(op_type.c_str());
  if (impl == nullptr) return InvalidArgument("{}: operator type '{}' is not registered", api, op_type);
  *impl_out = impl;
  c->ins.resize(inputs.size());
  c->outs.resize(num_outputs);
  c->d.node_name = op_type.c_str();
  c->d.node_type = op_type.c_str();
  c->d.attrs = &attrs;
  if (impl->op_def) {
    GE_RETURN_IF_ERROR(MapIr(api, op_type, impl->op_def->GetInputs(), inputs.size(), "input", &c->d.input_ir));
    GE_RETURN_IF_ERROR(MapIr(api, op_type, impl->op_def->GetOutputs(), num_outputs, "output", &c->d.output_ir));
    const auto& params = impl->op_def->GetInputs();
    for (size_t p = 0; p < params.size(); ++p)
      if (params[p].GetParamType() == ops::REQUIRED && c->d.input_ir[p].second == 1 &&
          inputs[c->d.input_ir[p].first] == nullptr)
        return InvalidArgument("{}: required input '{}' of {} is null", api, params[p].GetName(), op_type);
  } else {
    for (size_t i = 0; i < inputs.size(); ++i) c->d.input_ir.push_back({i, 1});
    for (size_t i = 0; i < num_outputs; ++i) c->d.output_ir.push_back({i, 1});
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i]) c->ins[i] = inputs[i]->desc;
    c->d.inputs.push_back(inputs[i] ? &c->ins[i] : nullptr);
  }
  for (auto& o : c->outs) c->d.outputs.push_back(&o);
  c->tiling = gert::TilingData(gert::TilingDataCapacity(op_type.c_str(), *impl));
  c->d.tiling = &c->tiling;
  return Status::Ok();
}

std::string Describe(const std::vector<const Operand*>& inputs) {
  std::vector<std::string> parts;
  for (const Operand* o : inputs)
    parts.push_back(
        o ? fmt::format("{}{}", DataTypeName(o->desc.GetDataType()), ShapeToString(o->desc.GetStorageShape()))
          : "<none>");
  return fmt::format("{}", fmt::join(parts, ", "));
}

Status Infer(const char* api, const std::string& op_type, const gert::OpImplFunctionsV2* impl,
             const std::vector<const Operand*>& inputs, OpCallData* c) {
  if (impl->infer_datatype) {
    gert::InferDataTypeContext ctx(&c->d);
    if (impl->infer_datatype(&ctx) != GRAPH_SUCCESS)
      return InvalidArgument("{}: {} rejects the input dtypes ({})", api, op_type, Describe(inputs));
  } else {
    for (auto& o : c->outs) o.SetDataType(c->ins.empty() ? DT_FLOAT : c->ins[0].GetDataType());
  }
  if (impl->infer_shape) {
    gert::InferShapeContext ctx(&c->d);
    ClearRecentErrMsg();
    if (impl->infer_shape(&ctx) != GRAPH_SUCCESS)
      return InvalidArgument("{}: {} rejects the input shapes ({}){}", api, op_type, Describe(inputs), Why());
  } else {
    if (c->ins.empty() || c->d.inputs[0] == nullptr)
      return InvalidArgument("{}: {} has no shape inference", api, op_type);
    for (auto& o : c->outs) o.MutableShape() = c->ins[0].GetShape();
  }
  for (auto& o : c->outs) o.MutableOriginShape() = o.GetStorageShape();
  return Status::Ok();
}

}  // namespace

Status InferRegisteredOp(const char* api, const std::string& op_type, const std::vector<const Operand*>& inputs,
                         const gert::RuntimeAttrs& attrs, size_t num_outputs, std::vector<gert::Tensor>* out_descs) {
  OpCallData c;
  const gert::OpImplFunctionsV2* impl = nullptr;
  GE_RETURN_IF_ERROR(Prepare(api, op_type, inputs, attrs, num_outputs, &impl, &c));
  GE_RETURN_IF_ERROR(Infer(api, op_type, impl, inputs, &c));
  *out_descs = c.outs;
  return Status::Ok();
}

Status AddRegisteredOp(aclOpExecutor* ex, const char* api, const std::string& op_type,
                       const std::vector<const Operand*>& inputs, const std::vector<const Operand*>& outputs,
                       const gert::RuntimeAttrs& attrs) {
  OpCallData c;
  const gert::OpImplFunctionsV2* impl = nullptr;
  GE_RETURN_IF_ERROR(Prepare(api, op_type, inputs, attrs, outputs.size(), &impl, &c));
  if (impl->kernel == nullptr) return Unsupported("{}: operator {} has no kernel to launch", api, op_type);
  GE_RETURN_IF_ERROR(Infer(api, op_type, impl, inputs, &c));
  for (size_t o = 0; o < outputs.size(); ++o) {
    const gert::Tensor& want = c.outs[o];
    const gert::Tensor& got = outputs[o]->desc;
    if (got.GetDataType() != want.GetDataType())
      return InvalidArgument("{}: output {} has dtype {}, {} produces {}", api, o, DataTypeName(got.GetDataType()),
                             op_type, DataTypeName(want.GetDataType()));
    if (got.GetStorageShape() != want.GetStorageShape())
      return InvalidArgument("{}: output {} has shape {}, {} produces {} for inputs ({})", api, o,
                             ShapeToString(got.GetStorageShape()), op_type, ShapeToString(want.GetStorageShape()),
                             Describe(inputs));
    c.outs[o].SetAddr(nullptr);
  }
  c.d.core_num = DeviceCoreNum();
  if (impl->tiling) {
    gert::TilingContext ctx(&c.d);
    ClearRecentErrMsg();
    if (impl->tiling(&ctx) != GRAPH_SUCCESS)
      return InvalidArgument("{}: {} tiling failed for inputs ({}){}", api, op_type, Describe(inputs), Why());
  }
  // Kernel arguments follow the IR positions: an omitted optional input/output (no instance)
  // still takes its slot, as a null address.
  std::vector<ArgRef> args;
  for (const auto& [first, count] : c.d.input_ir) {
    if (count == 0) args.push_back(ArgRef::Addr(nullptr));
    for (size_t k = 0; k < count; ++k)
      args.push_back(inputs[first + k] ? inputs[first + k]->ref : ArgRef::Addr(nullptr));
  }
  for (const auto& [first, count] : c.d.output_ir) {
    if (count == 0) args.push_back(ArgRef::Addr(nullptr));
    for (size_t k = 0; k < count; ++k) args.push_back(outputs[first + k]->ref);
  }
  for (size_t w : c.d.workspace_sizes) args.push_back(ex->AllocWorkspace(w));
  const auto* p = static_cast<const uint8_t*>(c.tiling.GetData());
  ex->AddKernelRaw(op_type, impl->kernel, c.d.block_dim, std::vector<uint8_t>(p, p + c.tiling.GetDataSize()),
                   std::move(args));
  return Status::Ok();
}

}  // namespace ge::opapi
