// Loading custom operator libraries (built with cmake/GeCustomOp.cmake): dlopen runs the
// library's OP_ADD / IMPL_OP registrations into GE's registries (the library links libge.so).
#ifndef GE_SRC_REGISTER_CUSTOM_OP_LOADER_H_
#define GE_SRC_REGISTER_CUSTOM_OP_LOADER_H_

#include <string>

#include "base/status.h"

namespace ge {
// Loads each library of a ':'-separated list; a library already loaded is not loaded again.
Status LoadCustomOpLibs(const std::string& paths);
// Loads GE_CUSTOM_OP_LIB's libraries once per process (later calls return the first result).
Status LoadCustomOpLibsFromEnv();
}  // namespace ge

#endif  // GE_SRC_REGISTER_CUSTOM_OP_LOADER_H_
