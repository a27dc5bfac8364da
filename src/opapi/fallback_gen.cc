// Generated fallback functions. For an operator registered with EnableFallBack(), GE uses
// GeneratedHostExecuteFunc as its op-execute function (the <Op>HostExecuteFunc of the Ascend
// stack; one function serves every operator, keyed by the node's type). It converts the node's
// OpExecuteContext into single-op API values — per OpDef input: required and optional inputs
// (absent = null), dynamic inputs (a tensor list); outputs; attributes as scalars and int arrays
// — and calls the operator's two-phase API: the typed entry where one exists (MatMul ->
// aclnnMatmul, ...), else the generic aclnnOp entry. Workspace comes from the context.
// A hand-written IMPL_OP(Op).OpExecuteFunc(f) replaces the generated one.
#include <map>
#include <memory>

#include "aclnn/aclnn_add.h"
#include "aclnn/aclnn_matmul.h"
#include "aclnn/aclnn_mul.h"
#include "aclnn/aclnn_softmax.h"
#include "base/log.h"
#include "opapi/acl_meta_impl.h"
#include "register/fallback_hook.h"
#include "register/op_def.h"

namespace ge::opapi {
namespace {

// The node's values as single-op API objects, by OpDef IR index.
struct FallbackArgs {
  std::vector<std::unique_ptr<aclTensor>> owned;
  std::vector<std::vector<const aclTensor*>> inputs;     // per IR input; absent optional: {null}
  std::vector<aclTensor*> outputs;                       // per output instance
  std::vector<std::unique_ptr<aclScalar>> scalars;       // per attribute; null unless scalar
  std::vector<std::unique_ptr<aclIntArray>> int_arrays;  // per attribute; null unless an int list
  aclOpAttrs attrs;                                      // every attribute by name (generic entry)

  aclTensor* Wrap(const gert::Tensor* t) {
    if (t == nullptr) return nullptr;
    auto a = std::make_unique<aclTensor>();
    const gert::Shape& s = t->GetStorageShape();
    a->view_dims.assign(s.GetDims(), s.GetDims() + s.GetDimNum());
    a->strides = ContiguousStrides(a->view_dims);
    a->storage_dims = a->view_dims;
    a->dtype = t->GetDataType();
    a->format = t->GetStorageFormat();
    a->data = const_cast<void*>(t->GetAddr());
    owned.push_back(std::move(a));
    return owned.back().get();
  }
};

void ConvertInputs(gert::OpExecuteContext* ctx, const ops::OpDef& def, FallbackArgs* a) {
  const auto& params = def.GetInputs();
  for (size_t p = 0; p < params.size(); ++p) {
    std::vector<const aclTensor*> v;
    switch (params[p].GetParamType()) {
      case ops::DYNAMIC: {
        const auto* info = ctx->GetInputInstanceInfo(p);
        for (size_t r = 0; info && r < info->second; ++r) v.push_back(a->Wrap(ctx->GetDynamicInputTensor(p, r)));
        break;
      }
      case ops::OPTIONAL: v.push_back(a->Wrap(ctx->GetOptionalInputTensor(p))); break;
      default: v.push_back(a->Wrap(ctx->GetRequiredInputTensor(p))); break;
    }
    a->inputs.push_back(std::move(v));
  }
  for (size_t o = 0; o < ctx->GetComputeNodeOutputNum(); ++o) a->outputs.push_back(a->Wrap(ctx->GetOutputTensor(o)));
}

void ConvertAttrs(const gert::RuntimeAttrs* attrs, FallbackArgs* a) {
  for (size_t i = 0; attrs && i < attrs->GetAttrNum(); ++i) {
    gert::RuntimeAttrValue v;
    std::unique_ptr<aclScalar> scalar;
    std::unique_ptr<aclIntArray> ints;
    if (const int64_t* x = attrs->GetInt(i)) {
      v.kind = gert::RuntimeAttrValue::kInt, v.i = *x;
      scalar.reset(new aclScalar{DT_INT64, 0, *x});
    } else if (const float* f = attrs->GetFloat(i)) {
      v.kind = gert::RuntimeAttrValue::kFloat, v.f = *f;
      scalar.reset(new aclScalar{DT_FLOAT, *f, 0});
    } else if (const bool* b = attrs->GetBool(i)) {
      v.kind = gert::RuntimeAttrValue::kBool, v.b = *b;
      scalar.reset(new aclScalar{DT_BOOL, 0, *b ? 1 : 0});
    } else if (const char* s = attrs->GetStr(i)) {
      v.kind = gert::RuntimeAttrValue::kString, v.s = s;
    } else if (const auto* l = attrs->GetListInt(i)) {
      v.kind = gert::RuntimeAttrValue::kListInt;
      v.ints.assign(l->GetData(), l->GetData() + l->GetSize());
      ints.reset(new aclIntArray{v.ints});
    } else if (const auto* lf = attrs->GetListFloat(i)) {
      v.kind = gert::RuntimeAttrValue::kListFloat;
      v.floats.assign(lf->GetData(), lf->GetData() + lf->GetSize());
    } else if (const auto* ls = attrs->GetListStr(i)) {
      v.kind = gert::RuntimeAttrValue::kListString, v.strings = *ls;
    } else if (const auto* lb = attrs->GetListBool(i)) {
      v.kind = gert::RuntimeAttrValue::kListBool, v.bools = *lb;
    } else if (const auto* ll = attrs->GetListListInt(i)) {
      v.kind = gert::RuntimeAttrValue::kListListInt, v.list_ints = *ll;
    }
    if (v.kind != gert::RuntimeAttrValue::kNone) a->attrs.v[attrs->GetName(i)] = std::move(v);
    a->scalars.push_back(std::move(scalar));
    a->int_arrays.push_back(std::move(ints));
  }
}

// A typed two-phase entry, adapted to FallbackArgs.
struct TypedEntry {
  aclnnStatus (*phase1)(const FallbackArgs& a, uint64_t* ws, aclOpExecutor** ex);
  aclnnStatus (*phase2)(void* ws, uint64_t size, aclOpExecutor* ex, aclrtStream stream);
};

const std::map<std::string, TypedEntry, std::less<>>& TypedEntries() {
  static const std::map<std::string, TypedEntry, std::less<>> entries = {
      {"MatMul",
       {[](const FallbackArgs& a, uint64_t* ws, aclOpExecutor** ex) {
          return aclnnMatmulGetWorkspaceSize(a.inputs[0][0], a.inputs[1][0], a.outputs[0], 0, ws, ex);
        },
        aclnnMatmul}},
      {"Add",
       {[](const FallbackArgs& a, uint64_t* ws, aclOpExecutor** ex) {
          aclScalar one{DT_FLOAT, 1.0, 1};
          return aclnnAddGetWorkspaceSize(a.inputs[0][0], a.inputs[1][0], &one, a.outputs[0], ws, ex);
        },
        aclnnAdd}},
      {"Mul",
       {[](const FallbackArgs& a, uint64_t* ws, aclOpExecutor** ex) {
          return aclnnMulGetWorkspaceSize(a.inputs[0][0], a.inputs[1][0], a.outputs[0], ws, ex);
        },
        aclnnMul}},
      {"Softmax",
       {[](const FallbackArgs& a, uint64_t* ws, aclOpExecutor** ex) {
          int64_t dim = a.scalars.empty() || !a.scalars[0] ? -1 : a.scalars[0]->ToInt();
          return aclnnSoftmaxGetWorkspaceSize(a.inputs[0][0], dim, a.outputs[0], ws, ex);
        },
        aclnnSoftmax}},
  };
  return entries;
}

aclnnStatus GenericPhase1(const char* op_type, const FallbackArgs& a, uint64_t* ws, aclOpExecutor** ex) {
  aclTensorList in, out;
  for (const auto& v : a.inputs)
    for (const aclTensor* t : v) in.v.push_back(t);
  // Trailing absent optional inputs are dropped, as a node would list them.
  while (!in.v.empty() && in.v.back() == nullptr) in.v.pop_back();
  for (aclTensor* t : a.outputs) out.v.push_back(t);
  return aclnnOpGetWorkspaceSize(op_type, &in, &out, &a.attrs, ws, ex);
}

graphStatus Fail(gert::OpExecuteContext* ctx, const char* what) {
  GELOGE("node '{}' ({}): fallback {} failed: {}", ctx->GetNodeName(), ctx->GetNodeType(), what, aclGetRecentErrMsg());
  return GRAPH_FAILED;
}

graphStatus GeneratedHostExecuteFunc(gert::OpExecuteContext* ctx) {
  const char* op_type = ctx->GetNodeType();
  auto def = ops::GetOpDef(op_type);
  if (def == nullptr) {
    GELOGE("node '{}' ({}): no OpDef to generate a fallback from", ctx->GetNodeName(), op_type);
    return GRAPH_FAILED;
  }
  FallbackArgs args;
  ConvertInputs(ctx, *def, &args);
  ConvertAttrs(ctx->GetAttrs(), &args);
  const auto& typed = TypedEntries();
  auto it = typed.find(op_type);
  uint64_t ws_size = 0;
  aclOpExecutor* ex = nullptr;
  aclnnStatus rc =
      it != typed.end() ? it->second.phase1(args, &ws_size, &ex) : GenericPhase1(op_type, args, &ws_size, &ex);
  if (rc != ACLNN_SUCCESS) return Fail(ctx, "phase 1 (GetWorkspaceSize)");
  void* ws = ws_size > 0 ? ctx->MallocWorkspace(ws_size) : nullptr;
  if (ws_size > 0 && ws == nullptr) {
    aclDestroyAclOpExecutor(ex);
    GELOGE("node '{}' ({}): fallback cannot allocate a {}-byte workspace", ctx->GetNodeName(), op_type, ws_size);
    return GRAPH_FAILED;
  }
  auto phase2 = it != typed.end() ? it->second.phase2 : aclnnOp;
  rc = phase2(ws, ws_size, ex, ctx->GetStream());
  // The stream runs in order and the caching allocator hands blocks out in stream order, so the
  // workspace may be returned as soon as its kernels are enqueued.
  if (ws) ctx->FreeWorkspace(ws);
  return rc == ACLNN_SUCCESS ? GRAPH_SUCCESS : Fail(ctx, "phase 2 (launch)");
}

gert::OpExecuteFunc Generate(const char* /*op_type*/) { return GeneratedHostExecuteFunc; }

const bool kGeneratorInstalled = (ge::SetFallbackGenerator(Generate), true);

}  // namespace

// For tests: whether `fn` is the generated fallback function.
bool IsGeneratedFallback(gert::OpExecuteFunc fn) { return fn == GeneratedHostExecuteFunc; }

}  // namespace ge::opapi
