// AttrValue: a node attribute (int, float, string, lists, tensor, subgraph).
#ifndef GE_SRC_GRAPH_ATTR_VALUE_H_
#define GE_SRC_GRAPH_ATTR_VALUE_H_

#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "graph/tensor.h"

namespace ge {

class Graph;

using AttrValue =
    std::variant<int64_t, float, std::string, std::vector<int64_t>, std::vector<float>, std::vector<std::string>,
                 HostTensor, std::shared_ptr<Graph>, std::vector<std::shared_ptr<Graph>>>;
using AttrMap = std::map<std::string, AttrValue>;

std::string AttrValueToString(const AttrValue& v);  // short form for printers

}  // namespace ge

#endif  // GE_SRC_GRAPH_ATTR_VALUE_H_
