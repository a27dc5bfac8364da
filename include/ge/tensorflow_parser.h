// Parsing a frozen TensorFlow GraphDef (.pb binary or .pbtxt text) into a ge::Graph for the
// Session API (Ascend's parser/tensorflow_parser.h). Returns graphStatus as Ascend's do; on
// failure GEGetErrorMsg() (ge/ge_api.h) has the reason (naming the file, and the node and op for
// node problems).
#ifndef GE_INCLUDE_GE_TENSORFLOW_PARSER_H_
#define GE_INCLUDE_GE_TENSORFLOW_PARSER_H_

#include <map>

#include "ge/ge_api_types.h"
#include "graph/ge_error_codes.h"

namespace ge {

class Graph;

graphStatus aclgrphParseTensorFlow(const char* model_file, Graph& graph);
// parser_params: "out_nodes" = "node[:k];node[:k];..." picks the graph outputs (default: the
// outputs of the nodes nothing consumes); any other key is an error naming it.
graphStatus aclgrphParseTensorFlow(const char* model_file, const std::map<AscendString, AscendString>& parser_params,
                                   Graph& graph);

}  // namespace ge

#endif  // GE_INCLUDE_GE_TENSORFLOW_PARSER_H_
