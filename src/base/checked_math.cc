#include "base/checked_math.h"

#include <charconv>
#include <limits>

namespace ge {

std::optional<int64_t> CheckedElementCount(const int64_t* dims, size_t rank) {
  int64_t n = 1;
  for (size_t i = 0; i < rank; ++i)
    if (dims[i] < 0 || !CheckedMul(n, dims[i], &n)) return std::nullopt;
  return n;
}

std::optional<size_t> CheckedByteSize(int64_t elements, size_t elem_size) {
  int64_t bytes = 0;
  if (elements < 0 || elem_size > static_cast<size_t>(std::numeric_limits<int64_t>::max()) ||
      !CheckedMul(elements, static_cast<int64_t>(elem_size), &bytes))
    return std::nullopt;
  return static_cast<size_t>(bytes);
}

std::optional<size_t> CheckedTensorBytes(const std::vector<int64_t>& dims, size_t elem_size) {
  auto n = CheckedElementCount(dims);
  return n ? CheckedByteSize(*n, elem_size) : std::nullopt;
}

std::optional<int64_t> ParseInt64(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  if (s.empty()) return std::nullopt;
  int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace ge
