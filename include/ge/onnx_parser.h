// Parsing an ONNX model into a ge::Graph for the Session API (Ascend's parser/onnx_parser.h).
// Return graphStatus as Ascend's do; on failure GEGetErrorMsg() (ge/ge_api.h) has the reason
// (naming the file, and the node and op for node problems).
#ifndef GE_INCLUDE_GE_ONNX_PARSER_H_
#define GE_INCLUDE_GE_ONNX_PARSER_H_

#include <cstddef>
#include <map>

#include "ge/ge_api_types.h"
#include "graph/ge_error_codes.h"

namespace ge {

class Graph;

// parser_params: none are supported yet (an unknown key is an error naming it); give input
// shapes to Session::BuildGraph instead. Custom operator libraries named by GE_CUSTOM_OP_LIB
// (or ge.customOpLib at GEInitialize) are loaded before parsing.
graphStatus aclgrphParseONNX(const char* model_file, const std::map<AscendString, AscendString>& parser_params,
                             Graph& graph);
// The same from a serialized ModelProto in memory.
graphStatus aclgrphParseONNXFromMem(const char* buffer, size_t size,
                                    const std::map<AscendString, AscendString>& parser_params, Graph& graph);

}  // namespace ge

#endif  // GE_INCLUDE_GE_ONNX_PARSER_H_
