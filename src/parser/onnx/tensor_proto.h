// onnx.TensorProto <-> HostTensor, including raw_data, typed fields, float16/bfloat16 and
// external data stored next to the model.
#ifndef GE_SRC_PARSER_ONNX_TENSOR_PROTO_H_
#define GE_SRC_PARSER_ONNX_TENSOR_PROTO_H_

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "base/status.h"
#include "graph/tensor.h"

namespace ge {

// ONNX TensorProto.DataType -> GE DataType (DT_UNDEFINED when unknown).
DataType FromOnnxDataType(int32_t onnx_type);
int32_t ToOnnxDataType(DataType dt);
// A tensor's raw_data kept outside the message (raw_data_split.h), and where its tensor goes:
// at dest, inside a block that owner keeps alive (all of a graph's large initializers in one
// huge-page mapping), or in a buffer of its own when dest is null.
struct OutsideRawData {
  std::string_view bytes;
  std::shared_ptr<void> owner;
  uint8_t* dest = nullptr;  // room for bytes.size() bytes when set
};
// raw (may be null): use raw->bytes as the tensor's raw_data.
Status TensorFromProto(const onnx::TensorProto& proto, const std::string& base_dir, HostTensor* out,
                       const OutsideRawData* raw = nullptr);

}  // namespace ge

#endif  // GE_SRC_PARSER_ONNX_TENSOR_PROTO_H_
