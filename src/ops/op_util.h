// Helpers shared by operator files: the kernel-support layer (src/kernels: dtype dispatch, block
// ranges, broadcasting, strided views, 16-bit floats) under the names op files use, plus what
// only operators need: a compact tensor-meta record for tiling data, attribute readers with
// defaults, index semantics, error reporting, ONNX dtype codes, OpDef dtype lists.
#ifndef GE_SRC_OPS_OP_UTIL_H_
#define GE_SRC_OPS_OP_UTIL_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "base/dims_string.h"
#include "exe_graph/runtime/infer_shape_context.h"
#include "exe_graph/runtime/tiling_context.h"
#include "kernels/block_range.h"
#include "kernels/broadcast.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/float16.h"
#include "kernels/strided_view.h"
#include "register/op_def_registry.h"

namespace ge::ops_util {

using kernels::Bf16ToFloat;
using kernels::BFloat16;
using kernels::BlockRange;
using kernels::BroadcastShape;
using kernels::BroadcastShapes;
using kernels::BroadcastStrides;
using kernels::ChooseBlockDim;
using kernels::CoalesceView;
using kernels::ComputeT;
using kernels::ContiguousStrides;
using kernels::Dispatch;
using kernels::DtypeEntry;
using kernels::DtypeSet;
using kernels::FloatToBf16;
using kernels::FloatToHalf;
using kernels::ForEachBroadcast;
using kernels::GetTiling;
using kernels::Half;
using kernels::HalfToFloat;
using kernels::kMaxRank;
using kernels::SetTiling;
using kernels::SetViewTiling;
using kernels::StridedCopy;
using kernels::StridedView;
using kernels::StridedViewKernel;
using kernels::TypeOf;

// Shape and dtype of one tensor as a POD, for tiling data.
struct TensorMeta {
  int32_t dtype;
  int32_t rank;
  int64_t dims[kMaxRank];
  int64_t Numel() const {
    int64_t n = 1;
    for (int i = 0; i < rank; ++i) n *= dims[i];
    return n;
  }
};

// Fills meta from a shape; false when the rank exceeds kMaxRank.
bool ToMeta(const gert::Shape& s, ge::DataType dt, TensorMeta* meta);

// Normalizes a possibly negative axis into [0, rank); false if out of range.
bool NormalizeAxis(int64_t axis, int64_t rank, int64_t* out);

// Copies input shape `in` to output `out` (the default for same-shape ops).
ge::graphStatus InferShapeSameAsInput0(gert::InferShapeContext* ctx);
ge::graphStatus InferDataTypeSameAsInput0(gert::InferDataTypeContext* ctx);
// The same, after checking that inputs 0 and 1 (a product's A and B) share a dtype: the kernels
// read both as input 0's type.
ge::graphStatus InferDataTypeSameAsAB(gert::InferDataTypeContext* ctx);

// Reads any integer tensor's values as int64 (for value-depend inputs); false if no data.
bool ReadInt64s(const gert::Tensor* t, std::vector<int64_t>* out);
// Reads a one-element tensor of any dtype in kAllTypes as double (a scalar operand: OneHot's
// depth, Range's bounds, Dropout's ratio). False if it is absent, has no data yet, or does not
// hold exactly one element (an empty tensor's "first element" is another tensor's bytes). A bool
// is true for any nonzero byte: a single-op caller's bool may hold 190, which loaded as C++ bool
// is undefined behaviour.
bool ReadScalar(const gert::Tensor* t, double* v);

// ge::DataType for an ONNX TensorProto.DataType code; DT_UNDEFINED when unknown.
ge::DataType FromOnnxDtype(int64_t onnx_dtype);

// Shape as a vector, and from a vector.
std::vector<int64_t> DimsOf(const gert::Shape& s);
void SetDims(gert::Shape* s, const std::vector<int64_t>& dims);

// Attributes by declaration index, with a default when absent.
int64_t AttrInt(const gert::RuntimeAttrs* a, size_t i, int64_t dflt);
float AttrFloat(const gert::RuntimeAttrs* a, size_t i, float dflt);
std::string AttrStr(const gert::RuntimeAttrs* a, size_t i, const char* dflt);
std::vector<int64_t> AttrInts(const gert::RuntimeAttrs* a, size_t i);
std::vector<float> AttrFloats(const gert::RuntimeAttrs* a, size_t i);

// ONNX index semantics: v in [-dim, dim), a negative index counted once from the end. Returns
// the index in [0, dim), or -1 when v is out of range.
inline int64_t WrapIndex(int64_t v, int64_t dim) {
  if (v < 0) v += dim;
  return v >= 0 && v < dim ? v : -1;
}
// Index element i of an int32 or int64 index tensor.
inline int64_t RawIndex(const void* p, int32_t dt, int64_t i) {
  return dt == ge::DT_INT32 ? static_cast<const int32_t*>(p)[i] : static_cast<const int64_t*>(p)[i];
}
// Reports an index out of range from a kernel: the run fails with "<node>: input '<input>' value
// <value> is out of range [-dim, dim-1]" (aclrtReportKernelError). Returns false.
bool ReportBadIndex(const aclrtKernelArgs* args, const char* input, int64_t value, int64_t dim);
// Reports any other invalid input data from a kernel ("<node>: <msg>"). Returns false.
bool ReportBadData(const aclrtKernelArgs* args, const std::string& msg);
// Shape inference or tiling failure with a reason (the compiler shows it after "shape inference
// failed ..." / "tiling failed ..."): returns GRAPH_FAILED. An empty reason sets none (a helper
// that failed without one).
ge::graphStatus InferFail(const std::string& why);

// Inline variables, so that they are initialized before the OpDefs that copy them (OP_ADD runs
// at static initialization; an `extern` list defined in another file could still be empty then,
// and an empty list means "any dtype").
inline const std::vector<ge::DataType> kAllTypes = kernels::AllTypes::List();  // numeric + 16-bit floats + bool
inline const std::vector<ge::DataType> kFloatTypes = kernels::FloatsAnd16::List();

}  // namespace ge::ops_util

#endif  // GE_SRC_OPS_OP_UTIL_H_
