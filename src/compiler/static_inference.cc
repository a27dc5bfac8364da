#include "compiler/static_inference.h"

#include <algorithm>
#include <new>

#include "base/log.h"
#include "compiler/op_call.h"
#include "compiler/partial_values.h"
#include "compiler/passes/shape_folding.h"
#include "runtime/kernel_error.h"

namespace ge {
namespace {

// Runs the node's kernel block by block on this thread, writing into host buffers.
Status FoldNode(Graph* g, const Node& node, OpCall& call, std::vector<HostTensor>* outs) {
  const auto* impl = call.binding().impl;
  GE_RETURN_IF_ERROR(call.Tiling(1));
  std::vector<std::vector<uint8_t>> workspaces;
  std::vector<void*> addrs;
  for (size_t i = 0; i < call.num_inputs(); ++i)
    addrs.push_back(call.data().inputs[i] ? const_cast<void*>(call.input(i).GetAddr()) : nullptr);
  for (size_t o = 0; o < call.num_outputs(); ++o) {
    try {
      outs->emplace_back(call.output(o).GetDataType(), FromGertShape(call.output(o).GetStorageShape()));
    } catch (const std::bad_alloc&) {
      return Error(Status::kOutOfMemory, "{}: out of host memory for output {} ({} bytes) while folding it",
                   NodeLabel(node), o, call.output(o).GetSize());
    }
    addrs.push_back(outs->back().NumBytes() ? outs->back().mutable_data() : nullptr);
  }
  for (size_t w : call.data().workspace_sizes) {
    workspaces.emplace_back(std::max<size_t>(w, 1));
    addrs.push_back(workspaces.back().data());
  }
  static uint8_t dummy[64];
  for (auto& a : addrs)
    if (a == nullptr) a = dummy;  // empty tensors still get an address, as on the device
  for (size_t i = 0; i < call.num_inputs(); ++i)
    if (!call.data().inputs[i]) addrs[i] = nullptr;
  const std::string label = NodeLabel(node);
  rt::KernelErrorSlot slot;
  const rt::KernelErrorTag tag{&slot, label.c_str()};
  for (uint32_t b = 0; b < call.data().block_dim; ++b) {
    aclrtKernelArgs args{addrs.data(),
                         static_cast<uint32_t>(addrs.size()),
                         call.tiling().GetData(),
                         static_cast<uint32_t>(call.tiling().GetDataSize()),
                         b,
                         call.data().block_dim,
                         &tag};
    impl->kernel(&args);
  }
  std::string msg;
  if (slot.Take(&msg)) return InvalidArgument("{}", msg);
  return Status::Ok();
}

bool Foldable(const Graph& g, const Node& node, const NodeBinding& b, const StaticInferenceOptions& opt) {
  if (!opt.fold_constants || b.impl->kernel == nullptr || node.outputs.empty()) return false;
  for (ValueId v : node.inputs)
    if (v != kNoValue && !g.value(v).constant) return false;
  for (ValueId v : node.inputs)
    if (v != kNoValue && g.value(v).constant->dtype() == DT_STRING) return false;
  return true;
}

// Rejects an input whose dtype the OpDef does not list for that input (its DataType list, or
// its DataTypeList when it declares one instead).
Status CheckInputTypes(const Graph& g, const Node& node, const NodeBinding& b) {
  if (b.op_def == nullptr) return Status::Ok();
  const auto& params = b.op_def->GetInputs();
  for (size_t p = 0; p < b.input_ir.size() && p < params.size(); ++p) {
    const auto& allowed = params[p].GetDataTypes().empty() ? params[p].GetDataTypeList() : params[p].GetDataTypes();
    if (allowed.empty()) continue;
    for (size_t k = 0; k < b.input_ir[p].second; ++k) {
      ValueId v = node.inputs[b.input_ir[p].first + k];
      if (v == kNoValue) continue;
      DataType dt = g.value(v).desc.dtype;
      if (dt == DT_UNDEFINED || std::find(allowed.begin(), allowed.end(), dt) != allowed.end()) continue;
      std::string names;
      for (DataType a : allowed) names += std::string(names.empty() ? "" : ", ") + DataTypeName(a);
      return InvalidArgument("{}: input '{}' ('{}') has dtype {}, expected one of {}", NodeLabel(node),
                             params[p].GetName(), g.value(v).name, DataTypeName(dt), names);
    }
  }
  return Status::Ok();
}

// Infers one node; sets the outputs' descs; folds it when possible (returns true in *folded).
Status InferNode(Graph* g, NodeId n, const StaticInferenceOptions& opt, PartialValues* partial, bool* folded,
                 bool* shape_folded) {
  Node& node = g->node(n);
  *folded = *shape_folded = false;
  NodeBinding binding;
  GE_RETURN_IF_ERROR(BindNode(node, &binding));
  GE_RETURN_IF_ERROR(CheckInputTypes(*g, node, binding));
  if (binding.impl->outputs_by_execute) return Status::Ok();  // known only by running it
  OpCall call;
  call.Prepare(node, binding);
  bool all_known = true, ranks_known = true;
  for (size_t i = 0; i < node.inputs.size(); ++i) {
    if (node.inputs[i] == kNoValue) continue;
    const Value& v = g->value(node.inputs[i]);
    gert::StorageShape ss;
    ss.SetShape(ToGertShape(v.desc.shape));
    // An empty constant has no bytes; it still has a (known, empty) value: give it an address.
    static int64_t empty_constant_storage = 0;
    void* data = v.constant ? const_cast<void*>(v.constant->data()) : nullptr;
    if (v.constant && data == nullptr && v.constant->NumElements() == 0) data = &empty_constant_storage;
    call.input(i) = gert::Tensor(ss, v.desc.dtype, FORMAT_ND, data);
    if (v.desc.shape.IsUnknownRank()) ranks_known = false;
    if (!v.desc.shape.IsStatic() || (binding.value_depend[i] && !v.constant)) all_known = false;
  }
  Status st = call.InferDataType();
  if (!st.ok()) return st;
  for (size_t o = 0; o < node.outputs.size(); ++o)
    if (node.outputs[o] != kNoValue) g->value(node.outputs[o]).desc.dtype = call.output(o).GetDataType();
  // Outputs the op's inference leaves of unknown rank may still be known from partial values
  // (a Reshape to Concat(Shape(x)[0], 4, 64) has rank 3); then the partial value of the output.
  auto from_partials = [&]() {
    if (!opt.fold_shapes) return Status::Ok();
    if (node.outputs.size() == 1 && node.outputs[0] != kNoValue && !g->value(node.outputs[0]).desc.shape.IsStatic()) {
      Shape& y = g->value(node.outputs[0]).desc.shape;
      if (auto s = partial->OutputShape(*g, node)) {
        if (y.IsUnknownRank()) {
          y = *s;
        } else if (s->GetDimNum() == y.GetDimNum()) {  // fills the dims the op's inference left unknown
          for (size_t i = 0; i < y.GetDimNum(); ++i)
            if (y.GetDim(i) < 0 && s->GetDim(i) >= 0) y.MutableDims()[i] = s->GetDim(i);
        }
      }
    }
    bool all_constant = true;  // then ordinary constant folding computes it
    for (ValueId v : node.inputs) all_constant &= v == kNoValue || g->value(v).constant.has_value();
    if (all_constant || !partial->Propagate(*g, node)) return Status::Ok();
    auto p = partial->Get(*g, node.outputs[0]);
    const DataType dt = g->value(node.outputs[0]).desc.dtype;
    if (!p || !p->AllKnown() || node.outputs.size() != 1 || (dt != DT_INT64 && dt != DT_INT32)) return Status::Ok();
    HostTensor t = PartialValueConstant(*p, g->value(node.outputs[0]).desc.dtype);
    GELOGD("shape folding: {} -> constant {} (partial values)", NodeLabel(node), t.desc().ToString());
    g->value(node.outputs[0]).desc = t.desc();
    g->value(node.outputs[0]).constant = std::move(t);
    *folded = *shape_folded = true;
    return Status::Ok();
  };
  if (!ranks_known) return from_partials();  // outputs stay unknown rank unless partial values say more
  st = call.InferShape();
  if (!st.ok()) {
    if (all_known) return st;
    return from_partials();  // dynamic dims the op cannot reason about: outputs stay unknown
  }
  for (size_t o = 0; o < node.outputs.size(); ++o) {
    if (node.outputs[o] == kNoValue) continue;
    Shape s = FromGertShape(call.output(o).GetStorageShape());
    if (!all_known && s.IsStatic()) {
      // A static result from dynamic inputs is trusted only if no value-depend input is unknown.
      for (size_t i = 0; i < node.inputs.size(); ++i)
        if (binding.value_depend[i] && node.inputs[i] != kNoValue && !g->value(node.inputs[i]).constant)
          s = Shape::UnknownRank();
    }
    g->value(node.outputs[o]).desc.shape = s;
  }
  if (opt.fold_shapes) {
    if (auto t = FoldShapeOf(*g, node)) {
      GELOGD("shape folding: {} -> constant {}", NodeLabel(node), t->desc().ToString());
      g->value(node.outputs[0]).desc = t->desc();
      g->value(node.outputs[0]).constant = std::move(*t);
      *folded = *shape_folded = true;
      return Status::Ok();
    }
  }
  GE_RETURN_IF_ERROR(from_partials());
  if (*folded) return Status::Ok();
  if (all_known && Foldable(*g, node, binding, opt)) {
    int64_t bytes = 0;
    for (size_t o = 0; o < call.num_outputs(); ++o) bytes += call.output(o).GetSize();
    if (bytes > opt.max_fold_bytes) return Status::Ok();
    std::vector<HostTensor> outs;
    GE_RETURN_IF_ERROR(FoldNode(g, node, call, &outs));
    for (size_t o = 0; o < node.outputs.size(); ++o)
      if (node.outputs[o] != kNoValue) g->value(node.outputs[o]).constant = std::move(outs[o]);
    *folded = true;
    GELOGD("constant folding: {} -> constant", NodeLabel(node));
  }
  return Status::Ok();
}

}  // namespace

void PadOptionalIo(Node* node) {
  NodeBinding b;
  if (!BindNode(*node, &b).ok() || b.op_def == nullptr) return;
  auto fixed = [](const std::vector<ops::OpParamDef>& params, size_t* n) {
    for (const auto& p : params)
      if (p.GetParamType() == ops::DYNAMIC) return false;
    *n = params.size();
    return true;
  };
  size_t n = 0;
  if (fixed(b.op_def->GetInputs(), &n) && node->inputs.size() < n) node->inputs.resize(n, kNoValue);
  if (fixed(b.op_def->GetOutputs(), &n) && node->outputs.size() < n) node->outputs.resize(n, kNoValue);
}

bool IsStaticNode(const Graph& g, const Node& node) {
  for (ValueId v : node.inputs)
    if (v != kNoValue && !g.value(v).desc.shape.IsStatic()) return false;
  for (ValueId v : node.outputs)
    if (v != kNoValue && !g.value(v).desc.shape.IsStatic()) return false;
  return true;
}

Status RunStaticInference(Graph* g, const StaticInferenceOptions& opt, StaticInferenceStats* stats) {
  std::vector<NodeId> order;
  GE_RETURN_IF_ERROR(g->TopologicalOrder(&order));
  std::vector<bool> keep(g->num_nodes(), true);
  StaticInferenceStats local;
  PartialValues partial;
  for (NodeId n : order) PadOptionalIo(&g->node(n));
  // Readers per value, so that a constant whose last reader folds (a weight replaced by its
  // packed copy) frees its bytes at once: the peak holds one of the two, not both. Not where a
  // subgraph may read outer constants by name.
  std::vector<int32_t> readers(g->num_values(), 0);
  bool outer_refs = false;
  for (NodeId n : order) {
    for (ValueId v : g->node(n).inputs)
      if (v != kNoValue) ++readers[v];
    outer_refs |= g->node(n).attrs.count("__outer_refs") > 0;
  }
  for (ValueId v : g->outputs()) ++readers[v];
  for (NodeId n : order) {
    bool folded = false, shape_folded = false;
    GE_RETURN_IF_ERROR(InferNode(g, n, opt, &partial, &folded, &shape_folded));
    if (!folded && opt.fold_shapes) partial.PropagateDimSymbols(*g, g->node(n));
    if (folded) {
      keep[n] = false;
      ++local.folded;
      local.shapes_folded += shape_folded;
      for (ValueId v : g->node(n).outputs)
        if (v != kNoValue) g->value(v).producer = -1;
      for (ValueId v : g->node(n).inputs)
        if (v != kNoValue && --readers[v] == 0 && !outer_refs && g->value(v).constant && g->value(v).producer < 0)
          g->value(v).constant->ReleaseBytes();
    }
  }
  g->RemoveNodes(keep);
  for (size_t n = 0; n < g->num_nodes(); ++n)
    (IsStaticNode(*g, g->node(n)) ? local.static_nodes : local.dynamic_nodes)++;
  GELOGD("static inference of '{}': {} folded ({} Shape/Size), {} static, {} dynamic nodes", g->name(), local.folded,
         local.shapes_folded, local.static_nodes, local.dynamic_nodes);
  if (stats) *stats = local;
  return Status::Ok();
}

}  // namespace ge
