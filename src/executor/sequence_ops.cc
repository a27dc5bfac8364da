// Sequence and optional operators (SequenceEmpty/Construct/Insert/At/Erase/Length,
// SplitToSequence, ConcatFromSequence, SequenceMap, Optional, OptionalHasElement,
// OptionalGetElement), host-executed on packed sequences (ge/tensor_seq.h).
#include <cstring>

#include "executor/host_op_util.h"
#include "ge/tensor_seq.h"
#include "register/op_impl_registry.h"

namespace ge {
namespace {
using namespace host_op;

#define GE_SEQ_TRY(expr)                                                         \
  do {                                                                           \
    Status _st = (expr);                                                         \
    if (!_st.ok()) return Fail(ctx, _st.Prepend(NodeLabel(NodeOf(ctx)) + ": ")); \
  } while (0)

Status InputSeq(gert::OpExecuteContext* ctx, size_t i, TensorSeq* seq) { return UnpackSeq(InputToHost(ctx, i), seq); }

// One int32 or int64 element (an empty or float position was read as int64: a null read,
// onnx_model harness).
Status ScalarInt(const HostTensor& t, int64_t* v) {
  if ((t.dtype() != DT_INT32 && t.dtype() != DT_INT64) || t.NumElements() != 1)
    return InvalidArgument("position must be one int32 or int64 value, got {}", t.desc().ToString());
  *v = t.dtype() == DT_INT32 ? t.data_as<int32_t>()[0] : t.data_as<int64_t>()[0];
  return Status::Ok();
}

// Position input (may be negative); `extra` allows position == size (insert at end).
Status Position(gert::OpExecuteContext* ctx, size_t i, int64_t size, bool extra, int64_t dflt, int64_t* pos) {
  const gert::Tensor* t = ctx->GetInputTensor(i);
  int64_t p = dflt;
  if (t && t->GetAddr()) GE_RETURN_IF_ERROR(ScalarInt(InputToHost(ctx, i), &p));
  if (p < 0) p += size;
  if (p < 0 || p > size || (!extra && p == size))
    return InvalidArgument("position {} out of range for {} elements", p, size);
  *pos = p;
  return Status::Ok();
}

graphStatus SequenceEmpty(gert::OpExecuteContext* ctx) {
  auto* dt = NodeOf(ctx).GetAttr<int64_t>("dtype");
  TensorSeq seq;
  seq.elem_dtype = dt ? static_cast<DataType>(*dt) : DT_FLOAT;
  return SetOutput(ctx, 0, PackSeq(seq));
}

graphStatus SequenceConstruct(gert::OpExecuteContext* ctx) {
  TensorSeq seq;
  for (size_t i = 0; i < ctx->GetComputeNodeInputNum(); ++i) seq.elems.push_back(InputToHost(ctx, i));
  if (!seq.elems.empty()) seq.elem_dtype = seq.elems[0].dtype();
  return SetOutput(ctx, 0, PackSeq(seq));
}

graphStatus SequenceInsert(gert::OpExecuteContext* ctx) {
  TensorSeq seq;
  GE_SEQ_TRY(InputSeq(ctx, 0, &seq));
  int64_t pos;
  GE_SEQ_TRY(
      Position(ctx, 2, static_cast<int64_t>(seq.elems.size()), true, static_cast<int64_t>(seq.elems.size()), &pos));
  seq.elems.insert(seq.elems.begin() + pos, InputToHost(ctx, 1));
  return SetOutput(ctx, 0, PackSeq(seq));
}

graphStatus SequenceAt(gert::OpExecuteContext* ctx) {
  TensorSeq seq;
  GE_SEQ_TRY(InputSeq(ctx, 0, &seq));
  int64_t pos;
  GE_SEQ_TRY(Position(ctx, 1, static_cast<int64_t>(seq.elems.size()), false, 0, &pos));
  return SetOutput(ctx, 0, seq.elems[pos]);
}

graphStatus SequenceErase(gert::OpExecuteContext* ctx) {
  TensorSeq seq;
  GE_SEQ_TRY(InputSeq(ctx, 0, &seq));
  int64_t pos;
  GE_SEQ_TRY(Position(ctx, 1, static_cast<int64_t>(seq.elems.size()), false, static_cast<int64_t>(seq.elems.size()) - 1,
                      &pos));
  seq.elems.erase(seq.elems.begin() + pos);
  return SetOutput(ctx, 0, PackSeq(seq));
}

graphStatus SequenceLength(gert::OpExecuteContext* ctx) {
  TensorSeq seq;
  GE_SEQ_TRY(InputSeq(ctx, 0, &seq));
  HostTensor n(DT_INT64, Shape());
  *n.mutable_data_as<int64_t>() = static_cast<int64_t>(seq.elems.size());
  return SetOutput(ctx, 0, n);
}

graphStatus SplitToSequence(gert::OpExecuteContext* ctx) {
  const Node& node = NodeOf(ctx);
  HostTensor in = InputToHost(ctx, 0);
  int64_t rank = static_cast<int64_t>(in.shape().GetDimNum());
  int64_t axis = node.GetAttr<int64_t>("axis") ? *node.GetAttr<int64_t>("axis") : 0;
  bool keepdims = node.GetAttr<int64_t>("keepdims") ? *node.GetAttr<int64_t>("keepdims") != 0 : true;
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) return Fail(ctx, InvalidArgument("{}: axis out of range", NodeLabel(node)));
  int64_t len = in.shape().GetDim(axis);
  std::vector<int64_t> sizes;
  const gert::Tensor* split = ctx->GetInputTensor(1);
  if (split && split->GetAddr()) {
    HostTensor s = InputToHost(ctx, 1);
    if (s.shape().GetDimNum() == 0) {
      int64_t chunk = 0;
      if (Status st = ScalarInt(s, &chunk); !st.ok()) return Fail(ctx, st.Prepend(NodeLabel(node) + ": split: "));
      if (chunk <= 0)
        return Fail(ctx, InvalidArgument("{}: split {} must be a positive chunk size", NodeLabel(node), chunk));
      for (int64_t off = 0; off < len; off += chunk) sizes.push_back(std::min(chunk, len - off));
    } else {
      sizes = s.ToInt64Vector();
      int64_t sum = 0;
      bool bad = false;
      for (int64_t sz : sizes) {
        if (sz < 0 || sz > len - sum) {
          bad = true;
          break;
        }
        sum += sz;
      }
      if (bad || sum != len)
        return Fail(ctx, InvalidArgument("{}: split sizes {} must be >= 0 and sum to the axis length {}",
                                         NodeLabel(node), Shape(sizes).ToString(), len));
    }
  } else {
    sizes.assign(len, 1);
  }
  TensorSeq seq;
  seq.elem_dtype = in.dtype();
  int64_t outer = 1, inner = 1, off = 0;
  for (int64_t d = 0; d < axis; ++d) outer *= in.shape().GetDim(d);
  for (int64_t d = axis + 1; d < rank; ++d) inner *= in.shape().GetDim(d);
  size_t es = GetSizeByDataType(in.dtype());
  for (int64_t sz : sizes) {
    std::vector<int64_t> dims = in.shape().GetDims();
    dims[axis] = sz;
    if (!keepdims && !(split && split->GetAddr())) dims.erase(dims.begin() + axis);
    HostTensor part(in.dtype(), Shape(dims));
    // An empty part has no buffer: memcpy from or to null is undefined even for 0 bytes (an empty
    // X split in parts: UBSan, onnx_model harness).
    for (int64_t o = 0; o < outer && sz * inner > 0; ++o)
      std::memcpy(part.mutable_data_as<uint8_t>() + o * sz * inner * es,
                  in.data_as<uint8_t>() + (o * len + off) * inner * es, sz * inner * es);
    seq.elems.push_back(std::move(part));
    off += sz;
  }
  return SetOutput(ctx, 0, PackSeq(seq));
}

graphStatus ConcatFromSequence(gert::OpExecuteContext* ctx) {
  const Node& node = NodeOf(ctx);
  TensorSeq seq;
  GE_SEQ_TRY(InputSeq(ctx, 0, &seq));
  if (seq.elems.empty()) return Fail(ctx, InvalidArgument("{}: empty sequence", NodeLabel(node)));
  const int64_t* axis_attr = node.GetAttr<int64_t>("axis");
  if (axis_attr == nullptr) return Fail(ctx, InvalidArgument("{}: attribute axis is required", NodeLabel(node)));
  int64_t axis = *axis_attr;
  bool new_axis = node.GetAttr<int64_t>("new_axis") && *node.GetAttr<int64_t>("new_axis") != 0;
  int64_t rank = static_cast<int64_t>(seq.elems[0].shape().GetDimNum()) + (new_axis ? 1 : 0);
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank)
    return Fail(ctx, InvalidArgument("{}: axis {} out of range for rank {}", NodeLabel(node), *axis_attr, rank));
  if (new_axis) {
    HostTensor stacked;
    GE_SEQ_TRY(StackAxis(seq.elems, axis, seq.elems[0].dtype(), &stacked));
    return SetOutput(ctx, 0, stacked);
  }
  // Every element: the first's dtype and rank, the same dims but along the axis.
  for (const auto& e : seq.elems) {
    bool same = e.dtype() == seq.elems[0].dtype() && e.shape().GetDimNum() == seq.elems[0].shape().GetDimNum();
    for (int64_t d = 0; same && d < rank; ++d)
      same = d == axis || e.shape().GetDim(d) == seq.elems[0].shape().GetDim(d);
    if (!same)
      return Fail(ctx, InvalidArgument("{}: cannot concatenate {} {} with {} {} along axis {}", NodeLabel(node),
                                       DataTypeName(seq.elems[0].dtype()), seq.elems[0].shape().ToString(),
                                       DataTypeName(e.dtype()), e.shape().ToString(), axis));
  }
  std::vector<int64_t> dims = seq.elems[0].shape().GetDims();
  int64_t outer = 1, inner = 1, total = 0;
  for (int64_t d = 0; d < axis; ++d) outer *= dims[d];
  for (size_t d = axis + 1; d < dims.size(); ++d) inner *= dims[d];
  for (const auto& e : seq.elems) total += e.shape().GetDim(axis);
  dims[axis] = total;
  HostTensor out(seq.elems[0].dtype(), Shape(dims));
  size_t es = GetSizeByDataType(out.dtype());
  int64_t off = 0;
  for (const auto& e : seq.elems) {
    int64_t len = e.shape().GetDim(axis);
    for (int64_t o = 0; o < outer && len * inner > 0; ++o)  // an empty element has no buffer
      std::memcpy(out.mutable_data_as<uint8_t>() + (o * total + off) * inner * es,
                  e.data_as<uint8_t>() + o * len * inner * es, len * inner * es);
    off += len;
  }
  return SetOutput(ctx, 0, out);
}

// SequenceMap: runs `body` once per position; sequence inputs give their element, tensor
// inputs are passed whole; each body output is collected into an output sequence.
graphStatus SequenceMap(gert::OpExecuteContext* ctx) {
  const Node& node = NodeOf(ctx);
  auto* body = node.GetAttr<std::shared_ptr<Graph>>("body");
  size_t explicit_inputs = node.inputs.size() - NumOuterRefs(node);
  std::vector<TensorSeq> seqs(explicit_inputs);
  std::vector<bool> is_seq(explicit_inputs, false);
  size_t len = 0;
  for (size_t i = 0; i < explicit_inputs; ++i) {
    HostTensor t = InputToHost(ctx, i);
    if (IsPacked(t)) {
      GE_SEQ_TRY(UnpackSeq(t, &seqs[i]));
      is_seq[i] = true;
      len = seqs[i].elems.size();
    } else {
      seqs[i].elems = {t};
    }
  }
  std::vector<TensorSeq> outs(node.outputs.size());
  for (size_t k = 0; k < len; ++k) {
    std::vector<HostTensor> formal;
    for (size_t i = 0; i < explicit_inputs; ++i) formal.push_back(is_seq[i] ? seqs[i].elems[k] : seqs[i].elems[0]);
    std::vector<HostTensor> res;
    GE_SEQ_TRY(RunSubgraph(ctx, *body, std::move(formal), &res));
    for (size_t o = 0; o < outs.size() && o < res.size(); ++o) outs[o].elems.push_back(std::move(res[o]));
  }
  for (size_t o = 0; o < outs.size(); ++o)
    if (SetOutput(ctx, o, PackSeq(outs[o])) != GRAPH_SUCCESS) return GRAPH_FAILED;
  return GRAPH_SUCCESS;
}

graphStatus Optional(gert::OpExecuteContext* ctx) {
  TensorSeq opt;
  opt.kind = ValueKind::kOptional;
  const gert::Tensor* in = ctx->GetInputTensor(0);
  if (in && in->GetAddr()) opt.elems.push_back(InputToHost(ctx, 0));
  return SetOutput(ctx, 0, PackSeq(opt));
}

graphStatus OptionalHasElement(gert::OpExecuteContext* ctx) {
  HostTensor out(DT_BOOL, Shape());
  const gert::Tensor* in = ctx->GetInputTensor(0);
  bool has = false;
  if (in && in->GetAddr()) {
    TensorSeq opt;
    HostTensor t = InputToHost(ctx, 0);
    has = !IsPacked(t) || (UnpackSeq(t, &opt).ok() && (opt.kind != ValueKind::kOptional || !opt.elems.empty()));
  }
  *out.mutable_data_as<uint8_t>() = has;
  return SetOutput(ctx, 0, out);
}

graphStatus OptionalGetElement(gert::OpExecuteContext* ctx) {
  HostTensor t = InputToHost(ctx, 0);
  TensorSeq opt;
  if (!IsPacked(t) || !UnpackSeq(t, &opt).ok() || opt.kind != ValueKind::kOptional)
    return SetOutput(ctx, 0, t);  // a plain tensor or a sequence: returned as is
  if (opt.elems.empty()) return Fail(ctx, InvalidArgument("{}: the optional is empty", NodeLabel(NodeOf(ctx))));
  return SetOutput(ctx, 0, opt.elems[0]);
}

}  // namespace
}  // namespace ge

IMPL_OP(SequenceEmpty).OpExecuteFunc(ge::SequenceEmpty).OutputsByExecute();
IMPL_OP(SequenceConstruct).OpExecuteFunc(ge::SequenceConstruct).OutputsByExecute();
IMPL_OP(SequenceInsert).OpExecuteFunc(ge::SequenceInsert).OutputsByExecute();
IMPL_OP(SequenceAt).OpExecuteFunc(ge::SequenceAt).OutputsByExecute();
IMPL_OP(SequenceErase).OpExecuteFunc(ge::SequenceErase).OutputsByExecute();
IMPL_OP(SequenceLength).OpExecuteFunc(ge::SequenceLength).OutputsByExecute();
IMPL_OP(SplitToSequence).OpExecuteFunc(ge::SplitToSequence).OutputsByExecute();
IMPL_OP(ConcatFromSequence).OpExecuteFunc(ge::ConcatFromSequence).OutputsByExecute();
IMPL_OP(SequenceMap).OpExecuteFunc(ge::SequenceMap).OutputsByExecute();
IMPL_OP(Optional).OpExecuteFunc(ge::Optional).OutputsByExecute();
IMPL_OP(OptionalHasElement).OpExecuteFunc(ge::OptionalHasElement).OutputsByExecute();
IMPL_OP(OptionalGetElement).OpExecuteFunc(ge::OptionalGetElement).OutputsByExecute();
