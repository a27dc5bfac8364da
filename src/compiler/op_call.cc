#include "compiler/op_call.h"

#include "base/checked_math.h"
#include "base/error_message.h"
#include "graph/operator.h"
#include "register/op_def.h"
#include "register/tiling_capacity.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ge {

void OpCall::Prepare(const Node& node, const NodeBinding& binding) {
  node_ = &node;
  binding_ = &binding;
  inputs_.assign(node.inputs.size(), gert::Tensor());
  outputs_.assign(node.outputs.size(), gert::Tensor());
  data_.node_name = node.name.c_str();
  data_.node_type = node.type.c_str();
  data_.compute_node = &node;
  data_.attrs = &binding.attrs;
  data_.input_ir = binding.input_ir;
  data_.output_ir = binding.output_ir;
  data_.inputs.resize(inputs_.size());
  for (size_t i = 0; i < inputs_.size(); ++i) data_.inputs[i] = node.inputs[i] == kNoValue ? nullptr : &inputs_[i];
  data_.outputs.resize(outputs_.size());
  for (size_t i = 0; i < outputs_.size(); ++i) data_.outputs[i] = &outputs_[i];
  const size_t capacity = gert::TilingDataCapacity(node.type.c_str(), *binding.impl);
  if (tiling_.GetCapacity() < capacity) tiling_ = gert::TilingData(capacity);
  data_.tiling = &tiling_;
}

std::string OpCall::DescribeInputs() const {
  std::vector<std::string> parts;
  for (size_t i = 0; i < inputs_.size(); ++i) {
    if (data_.inputs[i] == nullptr) {
      parts.push_back("<none>");
      continue;
    }
    parts.push_back(
        fmt::format("{}{}", DataTypeName(inputs_[i].GetDataType()), ShapeToString(inputs_[i].GetStorageShape())));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

Status OpCall::InferDataType() {
  const auto* impl = binding_->impl;
  if (impl->infer_datatype == nullptr) {
    DataType dt = !inputs_.empty() && data_.inputs[0] ? inputs_[0].GetDataType() : DT_FLOAT;
    for (auto& o : outputs_) o.SetDataType(dt);
    return Status::Ok();
  }
  gert::InferDataTypeContext ctx(&data_);
  ClearRecentErrMsg();
  if (impl->infer_datatype(&ctx) != GRAPH_SUCCESS) {
    const std::string why = RecentErrMsg();
    return InvalidArgument("{}: data type inference failed for inputs ({}){}{}", NodeLabel(*node_), DescribeInputs(),
                           why.empty() ? "" : ": ", why);
  }
  return Status::Ok();
}

namespace {
// A dim no shape may have: gert::Shape::AppendDim marks a shape above 25 dims so.
bool HasInvalidDim(const gert::Shape& s) {
  for (size_t d = 0; d < s.GetDimNum(); ++d)
    if (s.GetDim(d) == gert::Shape::kInvalidDimValue) return true;
  return false;
}
}  // namespace

Status OpCall::InferShape() {
  const auto* impl = binding_->impl;
  if (impl->infer_shape == nullptr) {
    if (inputs_.empty() || data_.inputs[0] == nullptr)
      return Internal("{}: operator has no shape inference", NodeLabel(*node_));
    for (auto& o : outputs_) o.MutableShape() = inputs_[0].GetShape();
    return Status::Ok();
  }
  for (size_t i = 0; i < inputs_.size(); ++i)
    if (data_.inputs[i] != nullptr && HasInvalidDim(inputs_[i].GetStorageShape()))
      return InvalidArgument("{}: input {} has more than {} dims (the most GE supports)", NodeLabel(*node_), i,
                             gert::Shape::kMaxDimNum);
  gert::InferShapeContext ctx(&data_);
  ClearRecentErrMsg();
  if (impl->infer_shape(&ctx) != GRAPH_SUCCESS) {
    const std::string why = RecentErrMsg();
    return InvalidArgument("{}: shape inference failed for inputs ({}){}{}", NodeLabel(*node_), DescribeInputs(),
                           why.empty() ? "" : ": ", why);
  }
  for (size_t i = 0; i < outputs_.size(); ++i) {
    gert::Tensor& o = outputs_[i];
    o.MutableOriginShape() = o.GetStorageShape();
    const gert::Shape& s = o.GetStorageShape();
    if (HasInvalidDim(s))
      return InvalidArgument("{}: output {} would have more than {} dims (the most GE supports)", NodeLabel(*node_), i,
                             gert::Shape::kMaxDimNum);
    bool known = true;
    for (size_t d = 0; d < s.GetDimNum(); ++d) known = known && s.GetDim(d) >= 0;
    if (!known) continue;  // unknown dims (static inference of a dynamic graph)
    auto n = CheckedElementCount(s.GetDims(), s.GetDimNum());
    if (!n || !CheckedByteSize(*n, std::max<size_t>(GetSizeByDataType(o.GetDataType()), 1)))
      return InvalidArgument("{}: output {} shape {} is too large (its byte size overflows 64 bits)", NodeLabel(*node_),
                             i, ShapeToString(s));
  }
  return Status::Ok();
}

namespace {
// The op's check-support function (SetCheckSupport, else one registered by OpCheckFuncHelper)
// when it asks for it: the device's AI-core config says so, or, without one, any config does.
optiling::OP_CHECK_FUNC CheckSupportFunc(const ops::OpDef& def) {
  optiling::OP_CHECK_FUNC f = def.GetAICore().GetCheckSupport();
  if (f == nullptr) f = optiling::GetRegisteredOpCheckFunc(FUNC_CHECK_SUPPORTED, def.GetOpType().c_str());
  if (f == nullptr) return nullptr;
  if (const ops::OpAICoreConfig* dev = def.GetAICore().GetDeviceConfig())
    return dev->GetFlag("needCheckSupport.flag", false) ? f : nullptr;
  for (const auto& [soc, cfg] : def.GetAICore().GetConfigs())
    if (cfg.GetFlag("needCheckSupport.flag", false)) return f;
  return nullptr;
}

// The value of `"key": "value"` in a check-support result (Ascend's JSON), or "".
std::string JsonField(const std::string& json, const std::string& key) {
  size_t k = json.find("\"" + key + "\"");
  if (k == std::string::npos) return "";
  size_t colon = json.find(':', k), open = json.find('"', colon == std::string::npos ? k : colon);
  if (colon == std::string::npos || open == std::string::npos) return "";
  size_t close = json.find('"', open + 1);
  return close == std::string::npos ? "" : json.substr(open + 1, close - open - 1);
}

TensorDesc ToDesc(const gert::Tensor& t) {
  const gert::Shape& s = t.GetStorageShape();
  return TensorDesc{t.GetDataType(), t.GetStorageFormat(),
                    Shape(std::vector<int64_t>(s.GetDims(), s.GetDims() + s.GetDimNum()))};
}
}  // namespace

// Ascend calls the check-support function while selecting the op's implementation; GE has one
// implementation, so "not supported" (ret_code "0", or a failed call) is an error with its reason.
Status OpCall::CheckSupport() const {
  optiling::OP_CHECK_FUNC check = binding_->op_def ? CheckSupportFunc(*binding_->op_def) : nullptr;
  if (check == nullptr) return Status::Ok();
  std::vector<TensorDesc> ins, outs;
  for (size_t i = 0; i < inputs_.size(); ++i) ins.push_back(data_.inputs[i] ? ToDesc(inputs_[i]) : TensorDesc());
  for (const auto& o : outputs_) outs.push_back(ToDesc(o));
  Operator op(node_->name, node_->type, std::move(ins), std::move(outs), data_.attrs);
  AscendString result;
  graphStatus st = check(op, result);
  const std::string json = result.GetString(), code = JsonField(json, "ret_code");
  if (st != GRAPH_SUCCESS || code == "0")
    return InvalidArgument("{}: not supported by {} for inputs ({}): {}", NodeLabel(*node_), node_->type,
                           DescribeInputs(), JsonField(json, "reason").empty() ? json : JsonField(json, "reason"));
  return Status::Ok();
}

Status OpCall::Tiling(uint32_t core_num) {
  data_.block_dim = 1;
  data_.tiling_key = 0;
  data_.workspace_sizes.clear();
  data_.core_num = core_num;
  tiling_.SetDataSize(0);
  if (binding_->impl->tiling == nullptr) return Status::Ok();
  GE_RETURN_IF_ERROR(CheckSupport());
  if (binding_->impl->tiling_parse != nullptr && gert::GetOpCompileInfo(node_->type.c_str(), core_num) == nullptr)
    return InvalidArgument("{}: the TilingParse function of {} failed", NodeLabel(*node_), node_->type);
  gert::TilingContext ctx(&data_);
  ClearRecentErrMsg();
  if (binding_->impl->tiling(&ctx) != GRAPH_SUCCESS) {
    const std::string why = RecentErrMsg();  // what the tiling function said (InferFail), if anything
    return InvalidArgument("{}: tiling failed for inputs ({}){}{}", NodeLabel(*node_), DescribeInputs(),
                           why.empty() ? "" : ": ", why);
  }
  return Status::Ok();
}

}  // namespace ge
