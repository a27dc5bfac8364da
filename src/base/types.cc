// Element sizes and printable names of DataType and Format.
#include "graph/types.h"

namespace ge {

size_t GetSizeByDataType(DataType dt) {
  switch (dt) {
    case DT_BOOL:
    case DT_INT8:
    case DT_UINT8: return 1;
    case DT_FLOAT16:
    case DT_BF16:
    case DT_INT16:
    case DT_UINT16: return 2;
    case DT_FLOAT:
    case DT_INT32:
    case DT_UINT32: return 4;
    case DT_DOUBLE:
    case DT_INT64:
    case DT_UINT64:
    case DT_COMPLEX64: return 8;
    case DT_COMPLEX128: return 16;
    case DT_STRING: return kStringSlotBytes;
    default: return 0;
  }
}

const char* DataTypeName(DataType dt) {
  switch (dt) {
    case DT_FLOAT: return "float32";
    case DT_FLOAT16: return "float16";
    case DT_BF16: return "bfloat16";
    case DT_DOUBLE: return "float64";
    case DT_INT8: return "int8";
    case DT_INT16: return "int16";
    case DT_INT32: return "int32";
    case DT_INT64: return "int64";
    case DT_UINT8: return "uint8";
    case DT_UINT16: return "uint16";
    case DT_UINT32: return "uint32";
    case DT_UINT64: return "uint64";
    case DT_BOOL: return "bool";
    case DT_STRING: return "string";
    case DT_COMPLEX64: return "complex64";
    case DT_COMPLEX128: return "complex128";
    default: return "undefined";
  }
}

const char* FormatName(Format f) {
  switch (f) {
    case FORMAT_NCHW: return "NCHW";
    case FORMAT_NHWC: return "NHWC";
    case FORMAT_ND: return "ND";
    case FORMAT_NC1HWC0: return "NC1HWC0";
    case FORMAT_FRACTAL_Z: return "FRACTAL_Z";
    case FORMAT_HWCN: return "HWCN";
    case FORMAT_NCDHW: return "NCDHW";
    case FORMAT_NDHWC: return "NDHWC";
    case FORMAT_NCL: return "NCL";
    case FORMAT_NC1HWC0_C04: return "NC1HWC0_C04";
    case FORMAT_FRACTAL_NZ: return "FRACTAL_NZ";
    case FORMAT_NDC1HWC0: return "NDC1HWC0";
    case FORMAT_FRACTAL_Z_3D: return "FRACTAL_Z_3D";
    case FORMAT_NC: return "NC";
    default: return "RESERVED";
  }
}

}  // namespace ge
