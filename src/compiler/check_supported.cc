// Every node's op type must be registered before anything is compiled for it.
#include "compiler/check_supported.h"

#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/error_message.h"
#include "compiler/node_binding.h"
#include "register/op_impl_registry.h"

namespace ge {

Status CheckSupported(const Graph& graph) {
  auto registry = gert::DefaultOpImplSpaceRegistryV2::GetInstance().GetSpaceRegistry();
  std::vector<std::string> missing;
  for (size_t n = 0; n < graph.num_nodes(); ++n) {
    const Node& node = graph.node(n);
    if (registry->GetOpImpl(node.type.c_str()) == nullptr) missing.push_back(NodeLabel(node));
  }
  if (missing.empty()) return Status::Ok();
  return Unsupported("{} unsupported node(s): {}", missing.size(), fmt::join(missing, ", "));
}

}  // namespace ge
