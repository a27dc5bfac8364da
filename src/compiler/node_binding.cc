// Binding a graph node to its registered operator.
#include "compiler/node_binding.h"

#include <fmt/format.h>

namespace ge {

std::string NodeLabel(const Node& node) { return fmt::format("node '{}' ({})", node.name, node.type); }

bool ToRuntimeAttr(const AttrValue& v, gert::RuntimeAttrValue::Kind kind, gert::RuntimeAttrValue* out) {
  using K = gert::RuntimeAttrValue;
  out->kind = kind;
  switch (kind) {
    case K::kBool:
      if (auto* i = std::get_if<int64_t>(&v)) {
        out->b = *i != 0;
        return true;
      }
      return false;
    case K::kInt:
      if (auto* i = std::get_if<int64_t>(&v)) {
        out->i = *i;
        return true;
      }
      return false;
    case K::kFloat:
      if (auto* f = std::get_if<float>(&v)) {
        out->f = *f;
        return true;
      }
      if (auto* i = std::get_if<int64_t>(&v)) {
        out->f = static_cast<float>(*i);
        return true;
      }
      return false;
    case K::kString:
      if (auto* s = std::get_if<std::string>(&v)) {
        out->s = *s;
        return true;
      }
      return false;
    case K::kListInt:
      if (auto* l = std::get_if<std::vector<int64_t>>(&v)) {
        out->ints = *l;
        return true;
      }
      if (auto* i = std::get_if<int64_t>(&v)) {
        out->ints = {*i};
        return true;
      }
      return false;
    case K::kListFloat:
      if (auto* l = std::get_if<std::vector<float>>(&v)) {
        out->floats = *l;
        return true;
      }
      return false;
    case K::kListBool:
      if (auto* l = std::get_if<std::vector<int64_t>>(&v)) {
        out->bools.assign(l->begin(), l->end());
        return true;
      }
      return false;
    case K::kListString:
      if (auto* l = std::get_if<std::vector<std::string>>(&v)) {
        out->strings = *l;
        return true;
      }
      // A tensor attribute (ConstantOfShape's value): {decimal DataType, raw bytes}.
      if (auto* t = std::get_if<HostTensor>(&v)) {
        out->strings = {std::to_string(static_cast<int>(t->dtype())),
                        std::string(static_cast<const char*>(t->data()), t->NumBytes())};
        return true;
      }
      return false;
    default: return false;
  }
}

namespace {

// Maps the node's actual inputs/outputs onto the OpDef's IR params: a required or optional
// param takes one position; a dynamic param takes all remaining positions not claimed by the
// params after it.
Status MapIr(const Node& node, const std::vector<ops::OpParamDef>& params, size_t actual, const char* what,
             std::vector<std::pair<size_t, size_t>>* ir) {
  size_t fixed_after = 0, pos = 0;
  for (size_t p = 0; p < params.size(); ++p) {
    fixed_after = 0;
    for (size_t q = p + 1; q < params.size(); ++q)
      if (params[q].GetParamType() != ops::DYNAMIC) ++fixed_after;
    if (params[p].GetParamType() == ops::DYNAMIC) {
      size_t avail = actual > pos + fixed_after ? actual - pos - fixed_after : 0;
      ir->push_back({pos, avail});
      pos += avail;
    } else if (pos < actual) {
      ir->push_back({pos, 1});
      ++pos;
    } else {
      if (params[p].GetParamType() == ops::REQUIRED)
        return InvalidArgument("{}: missing required {} '{}' (#{})", NodeLabel(node), what, params[p].GetName(), p);
      ir->push_back({pos, 0});
    }
  }
  if (pos < actual)
    return InvalidArgument("{}: has {} {}s, the operator takes at most {}", NodeLabel(node), actual, what, pos);
  return Status::Ok();
}

Status BindAttrs(const Node& node, const ops::OpDef& def, gert::RuntimeAttrs* attrs) {
  for (const auto& a : def.GetAttrs()) {
    auto it = node.attrs.find(a.GetName());
    if (it == node.attrs.end()) {
      if (a.IsRequired()) return InvalidArgument("{}: missing required attribute '{}'", NodeLabel(node), a.GetName());
      attrs->Append(a.GetName(), a.GetDefault(), false);
      continue;
    }
    gert::RuntimeAttrValue v;
    if (!ToRuntimeAttr(it->second, a.GetDefault().kind, &v))
      return InvalidArgument("{}: attribute '{}' has the wrong type ({})", NodeLabel(node), a.GetName(),
                             AttrValueToString(it->second));
    attrs->Append(a.GetName(), std::move(v), true);
  }
  return Status::Ok();
}

// IMPL_OP_INFERSHAPE(...).InputsDataDependency({ir...}): those inputs' data are needed too.
void MarkDataDependency(NodeBinding* b) {
  for (int32_t ir : b->impl->inputs_data_dependency) {
    if (ir < 0 || static_cast<size_t>(ir) >= b->input_ir.size()) continue;
    const auto& [first, count] = b->input_ir[static_cast<size_t>(ir)];
    for (size_t k = 0; k < count; ++k) b->value_depend[first + k] = true;
  }
}

}  // namespace

Status BindNode(const Node& node, NodeBinding* b) {
  auto registry = gert::DefaultOpImplSpaceRegistryV2::GetInstance().GetSpaceRegistry();
  b->impl = registry->GetOpImpl(node.type.c_str());
  if (b->impl == nullptr) return Unsupported("{}: unsupported operator type '{}'", NodeLabel(node), node.type);
  b->op_def = b->impl->op_def;
  b->value_depend.assign(node.inputs.size(), false);
  if (b->op_def == nullptr) {  // IMPL_OP only: positions are the IR indices
    for (size_t i = 0; i < node.inputs.size(); ++i) b->input_ir.push_back({i, 1});
    for (size_t i = 0; i < node.outputs.size(); ++i) b->output_ir.push_back({i, 1});
    MarkDataDependency(b);
    return Status::Ok();
  }
  GE_RETURN_IF_ERROR(MapIr(node, b->op_def->GetInputs(), node.inputs.size(), "input", &b->input_ir));
  GE_RETURN_IF_ERROR(MapIr(node, b->op_def->GetOutputs(), node.outputs.size(), "output", &b->output_ir));
  for (size_t p = 0; p < b->input_ir.size(); ++p) {
    if (b->op_def->GetInputs()[p].GetValueDepend() == ops::IGNORE) continue;
    for (size_t k = 0; k < b->input_ir[p].second; ++k) b->value_depend[b->input_ir[p].first + k] = true;
  }
  MarkDataDependency(b);
  for (size_t p = 0; p < b->input_ir.size(); ++p) {
    const auto type = b->op_def->GetInputs()[p].GetParamType();
    if (type == ops::OPTIONAL) continue;
    // A required input, and every input of a dynamic (variadic) one, must be given: kernels
    // read them unchecked (an empty name in Mean's inputs reached its tiling as null).
    for (size_t k = 0; k < b->input_ir[p].second; ++k)
      if (node.inputs[b->input_ir[p].first + k] == kNoValue)
        return InvalidArgument("{}: required input '{}'{} is empty", NodeLabel(node),
                               b->op_def->GetInputs()[p].GetName(),
                               type == ops::DYNAMIC ? fmt::format(" #{}", k) : std::string());
  }
  return BindAttrs(node, *b->op_def, &b->attrs);
}

}  // namespace ge
