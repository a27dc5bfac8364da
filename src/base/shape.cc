#include "base/shape.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/checked_math.h"

namespace ge {

bool Shape::IsStatic() const {
  if (unknown_rank_) return false;
  for (int64_t d : dims_)
    if (d < 0) return false;
  return true;
}

int64_t Shape::GetShapeSize() const {
  if (unknown_rank_) return -1;
  return CheckedElementCount(dims_).value_or(-1);
}

std::string Shape::ToString() const {
  if (unknown_rank_) return "[?]";
  return fmt::format("[{}]", fmt::join(dims_, ", "));
}

}  // namespace ge
