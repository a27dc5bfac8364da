// The textual form of ModelOptions::input_shapes (`--input-shape NAME=D0,D1,...`).
#include "base/checked_math.h"
#include "ge/model.h"

namespace ge {

Status ParseInputShapes(const std::vector<std::string>& args, std::map<std::string, std::vector<int64_t>>* out) {
  for (const auto& a : args) {
    const auto eq = a.find('=');
    if (eq == std::string::npos || eq == 0) return InvalidArgument("--input-shape '{}': expected NAME=VALUE", a);
    const std::string k = a.substr(0, eq), v = a.substr(eq + 1);
    std::vector<int64_t> dims;
    size_t pos = 0;
    while (true) {
      size_t comma = v.find(',', pos);
      std::string item = v.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
      auto d = ParseInt64(item);
      if (!d || *d < 0)
        return InvalidArgument("--input-shape {}: '{}' is not a list of dimensions (integers >= 0)", k, v);
      dims.push_back(*d);
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
    (*out)[k] = dims;
  }
  return Status::Ok();
}

}  // namespace ge
