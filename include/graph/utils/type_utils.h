// ge::TypeUtils: dtype and format names as Ascend spells them ("DT_FLOAT16", "ND", "NCHW"), both
// ways. Header-only; compiles at C++11.
#ifndef GE_INCLUDE_GRAPH_UTILS_TYPE_UTILS_H_
#define GE_INCLUDE_GRAPH_UTILS_TYPE_UTILS_H_

#include <cstddef>
#include <string>

#include "graph/ascend_string.h"
#include "graph/types.h"

namespace ge {

class TypeUtils {
 public:
  static std::string DataTypeToSerialString(DataType dt) {
    for (size_t i = 0; i < kDtypeCount; ++i)
      if (Dtypes()[i].dt == dt) return Dtypes()[i].name;
    return "UNDEFINED";
  }
  // DT_UNDEFINED for an unknown name.
  static DataType SerialStringToDataType(const std::string& s) {
    for (size_t i = 0; i < kDtypeCount; ++i)
      if (s == Dtypes()[i].name) return Dtypes()[i].dt;
    return DT_UNDEFINED;
  }
  static std::string FormatToSerialString(Format f) {
    for (size_t i = 0; i < kFormatCount; ++i)
      if (Formats()[i].f == f) return Formats()[i].name;
    return "RESERVED";
  }
  // FORMAT_RESERVED for an unknown name.
  static Format SerialStringToFormat(const std::string& s) {
    for (size_t i = 0; i < kFormatCount; ++i)
      if (s == Formats()[i].name) return Formats()[i].f;
    return FORMAT_RESERVED;
  }
  static AscendString DataTypeToAscendString(DataType dt) { return AscendString(DataTypeToSerialString(dt).c_str()); }
  static DataType AscendStringToDataType(const AscendString& s) { return SerialStringToDataType(s.GetString()); }
  static AscendString FormatToAscendString(Format f) { return AscendString(FormatToSerialString(f).c_str()); }
  static Format AscendStringToFormat(const AscendString& s) { return SerialStringToFormat(s.GetString()); }
  // Bytes per element; false for DT_UNDEFINED.
  static bool GetDataTypeLength(DataType dt, uint32_t& length) {
    size_t n = GetSizeByDataType(dt);
    length = static_cast<uint32_t>(n);
    return n != 0;
  }

 private:
  struct DtypeName {
    DataType dt;
    const char* name;
  };
  struct FormatName {
    Format f;
    const char* name;
  };
  static const size_t kDtypeCount = 17;
  static const size_t kFormatCount = 15;
  static const DtypeName* Dtypes() {
    static const DtypeName kNames[kDtypeCount] = {
        {DT_FLOAT, "DT_FLOAT"},   {DT_FLOAT16, "DT_FLOAT16"},     {DT_INT8, "DT_INT8"},
        {DT_INT32, "DT_INT32"},   {DT_UINT8, "DT_UINT8"},         {DT_INT16, "DT_INT16"},
        {DT_UINT16, "DT_UINT16"}, {DT_UINT32, "DT_UINT32"},       {DT_INT64, "DT_INT64"},
        {DT_UINT64, "DT_UINT64"}, {DT_DOUBLE, "DT_DOUBLE"},       {DT_BOOL, "DT_BOOL"},
        {DT_STRING, "DT_STRING"}, {DT_COMPLEX64, "DT_COMPLEX64"}, {DT_COMPLEX128, "DT_COMPLEX128"},
        {DT_BF16, "DT_BF16"},     {DT_UNDEFINED, "DT_UNDEFINED"}};
    return kNames;
  }
  static const FormatName* Formats() {
    static const FormatName kNames[kFormatCount] = {{FORMAT_NCHW, "NCHW"},
                                                    {FORMAT_NHWC, "NHWC"},
                                                    {FORMAT_ND, "ND"},
                                                    {FORMAT_NC1HWC0, "NC1HWC0"},
                                                    {FORMAT_FRACTAL_Z, "FRACTAL_Z"},
                                                    {FORMAT_HWCN, "HWCN"},
                                                    {FORMAT_NCDHW, "NCDHW"},
                                                    {FORMAT_NDHWC, "NDHWC"},
                                                    {FORMAT_NCL, "NCL"},
                                                    {FORMAT_NC1HWC0_C04, "NC1HWC0_C04"},
                                                    {FORMAT_FRACTAL_NZ, "FRACTAL_NZ"},
                                                    {FORMAT_NDC1HWC0, "NDC1HWC0"},
                                                    {FORMAT_FRACTAL_Z_3D, "FRACTAL_Z_3D"},
                                                    {FORMAT_NC, "NC"},
                                                    {FORMAT_RESERVED, "RESERVED"}};
    return kNames;
  }
};

}  // namespace ge

#endif  // GE_INCLUDE_GRAPH_UTILS_TYPE_UTILS_H_
