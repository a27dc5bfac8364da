// AttrValue: a node attribute of the graph IR (int, float, string, lists, tensor, subgraph).
#ifndef GE_INCLUDE_GE_ATTR_VALUE_H_
#define GE_INCLUDE_GE_ATTR_VALUE_H_

#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "ge/tensor.h"

namespace ge {

class Graph;

using AttrValue =
    std::variant<int64_t, float, std::string, std::vector<int64_t>, std::vector<float>, std::vector<std::string>,
                 HostTensor, std::shared_ptr<Graph>, std::vector<std::shared_ptr<Graph>>>;
using AttrMap = std::map<std::string, AttrValue>;

std::string AttrValueToString(const AttrValue& v);  // short form for printers

}  // namespace ge

#endif  // GE_INCLUDE_GE_ATTR_VALUE_H_
