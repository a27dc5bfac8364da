// The graph IR's tensor types (public: ge/tensor.h) and their bridge to the gert::Shape that
// operator functions see.
#ifndef GE_SRC_GRAPH_TENSOR_H_
#define GE_SRC_GRAPH_TENSOR_H_

#include "exe_graph/runtime/shape.h"
#include "ge/tensor.h"

namespace ge {

// Between the IR's Shape and the gert::Shape operator functions see (unknown dims stay -1).
gert::Shape ToGertShape(const Shape& s);
Shape FromGertShape(const gert::Shape& s);

}  // namespace ge

#endif  // GE_SRC_GRAPH_TENSOR_H_
