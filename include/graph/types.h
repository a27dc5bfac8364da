// DataType and Format, with the Ascend GE enumerator values, plus size/name helpers.
#ifndef GE_INCLUDE_GRAPH_TYPES_H_
#define GE_INCLUDE_GRAPH_TYPES_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace ge {

enum DataType : int32_t {
  DT_FLOAT = 0,
  DT_FLOAT16 = 1,
  DT_INT8 = 2,
  DT_INT32 = 3,
  DT_UINT8 = 4,
  DT_INT16 = 6,
  DT_UINT16 = 7,
  DT_UINT32 = 8,
  DT_INT64 = 9,
  DT_UINT64 = 10,
  DT_DOUBLE = 11,
  DT_BOOL = 12,
  DT_STRING = 13,
  DT_COMPLEX64 = 16,
  DT_COMPLEX128 = 17,
  DT_BF16 = 27,
  DT_UNDEFINED = 28,
  DT_MAX = 29,
};

enum Format : int32_t {
  FORMAT_NCHW = 0,
  FORMAT_NHWC = 1,
  FORMAT_ND = 2,
  FORMAT_NC1HWC0 = 3,
  FORMAT_FRACTAL_Z = 4,
  FORMAT_NC1HWC0_C04 = 12,
  FORMAT_HWCN = 16,
  FORMAT_FRACTAL_NZ = 29,
  FORMAT_NDC1HWC0 = 32,
  FORMAT_FRACTAL_Z_3D = 33,
  FORMAT_NC = 35,
  FORMAT_NCDHW = 30,
  FORMAT_NDHWC = 27,
  FORMAT_NCL = 47,
  FORMAT_RESERVED = 40,
  FORMAT_MAX = 0xff,
};

// A DT_STRING element: a NUL-terminated string in a fixed slot (longer strings are rejected).
constexpr size_t kStringSlotBytes = 64;

// Bytes per element (kStringSlotBytes for DT_STRING); 0 for DT_UNDEFINED.
size_t GetSizeByDataType(DataType dt);
const char* DataTypeName(DataType dt);  // "float32", "int64", ... (ONNX spelling)
const char* FormatName(Format f);

}  // namespace ge

#endif  // GE_INCLUDE_GRAPH_TYPES_H_
