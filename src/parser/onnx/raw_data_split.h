// Loading a model without copying its weights into the protobuf message.
//
// Parsed as usual, every initializer's raw_data becomes a std::string of its own: fresh 4 KiB
// pages, each first touched by protobuf (on these VMs ~5 us a page: 0.47 s of resnet50's 0.69 s
// parse). SplitLargeRawData walks the serialized ModelProto with protobuf's CodedInputStream and
// copies it without the main graph's large raw_data fields, which stay where they are in the
// file's buffer (a huge-page mapping, base/page_map.h) and are read from there once, into the
// graph's tensors. Each stripped field leaves a one-byte placeholder so that the ONNX checker
// still sees a value field; TensorFromProto is given the real bytes and checks their size.
#ifndef GE_SRC_PARSER_ONNX_RAW_DATA_SPLIT_H_
#define GE_SRC_PARSER_ONNX_RAW_DATA_SPLIT_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>

namespace ge {

// Initializer name -> its raw_data bytes, outside the message.
using RawDataMap = std::unordered_map<std::string, std::string_view>;

struct SplitModel {
  std::string message;  // the ModelProto without the stripped raw_data fields
  RawDataMap raw;       // views into the bytes given to SplitLargeRawData
};

// Strips the raw_data of the main graph's initializers of at least min_bytes. False when the
// bytes are not a well-formed ModelProto in the parts walked, or when two stripped initializers
// share a name: the caller parses the bytes as they are (and reports what is wrong).
bool SplitLargeRawData(std::string_view model, size_t min_bytes, SplitModel* out);

}  // namespace ge

#endif  // GE_SRC_PARSER_ONNX_RAW_DATA_SPLIT_H_
