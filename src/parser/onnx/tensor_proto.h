// onnx.TensorProto <-> HostTensor, including raw_data, typed fields, float16/bfloat16 and
// external data stored next to the model.
#ifndef GE_SRC_PARSER_ONNX_TENSOR_PROTO_H_
#define GE_SRC_PARSER_ONNX_TENSOR_PROTO_H_

#include <onnx/onnx_pb.h>

#include <string>

#include "base/status.h"
#include "graph/tensor.h"

namespace ge {

// ONNX TensorProto.DataType -> GE DataType (DT_UNDEFINED when unknown).
DataType FromOnnxDataType(int32_t onnx_type);
int32_t ToOnnxDataType(DataType dt);
Status TensorFromProto(const onnx::TensorProto& proto, const std::string& base_dir, HostTensor* out);

}  // namespace ge

#endif  // GE_SRC_PARSER_ONNX_TENSOR_PROTO_H_
