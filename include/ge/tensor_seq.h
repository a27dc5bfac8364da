// Packed sequences and optionals: a list of tensors serialized into one byte buffer, so that a
// sequence value is an ordinary uint8[n] tensor to the memory planner and the executors.
// Layout: header {magic, kind, count}, then per element {dtype, rank, dims[kMaxRank], offset,
// bytes}, then the element data. An element may itself be a packed sequence (dtype kPackedElem).
#ifndef GE_INCLUDE_GE_TENSOR_SEQ_H_
#define GE_INCLUDE_GE_TENSOR_SEQ_H_

#include <vector>

#include "ge/status.h"
#include "ge/tensor.h"

namespace ge {

struct TensorSeq {
  ValueKind kind = ValueKind::kSequence;  // kOptional: 0 elements = none, 1 = some
  DataType elem_dtype = DT_UNDEFINED;     // for empty sequences
  std::vector<HostTensor> elems;          // a nested sequence is stored packed (IsPacked)
};

HostTensor PackSeq(const TensorSeq& seq);
// Fails with a message when the bytes are not a packed sequence.
Status UnpackSeq(const HostTensor& packed, TensorSeq* seq);
bool IsPacked(const HostTensor& t);

}  // namespace ge

#endif  // GE_INCLUDE_GE_TENSOR_SEQ_H_
