#include "base/shape.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ge {

bool Shape::IsStatic() const {
  if (unknown_rank_) return false;
  for (int64_t d : dims_)
    if (d < 0) return false;
  return true;
}

int64_t Shape::GetShapeSize() const {
  if (!IsStatic()) return -1;
  int64_t n = 1;
  for (int64_t d : dims_)
    if (__builtin_mul_overflow(n, d, &n)) return -1;
  return n;
}

std::string Shape::ToString() const {
  if (unknown_rank_) return "[?]";
  return fmt::format("[{}]", fmt::join(dims_, ", "));
}

}  // namespace ge
