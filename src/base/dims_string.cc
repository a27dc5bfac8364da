#include "base/dims_string.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ge {

std::string DimsToString(const int64_t* dims, size_t n) { return fmt::format("[{}]", fmt::join(dims, dims + n, ", ")); }

}  // namespace ge
