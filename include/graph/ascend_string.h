// ge::AscendString: the string type of Ascend's graph and operator APIs (option maps, the
// check-support result). Compiles at C++11.
#ifndef GE_INCLUDE_GRAPH_ASCEND_STRING_H_
#define GE_INCLUDE_GRAPH_ASCEND_STRING_H_

#include <cstddef>
#include <string>
#include <utility>

namespace ge {

class AscendString {
 public:
  AscendString() = default;
  AscendString(const char* s) : s_(s ? s : "") {}  // NOLINT(runtime/explicit): Ascend converts implicitly
  AscendString(const char* s, size_t len) : s_(s ? std::string(s, len) : std::string()) {}
  explicit AscendString(std::string s) : s_(std::move(s)) {}
  const char* GetString() const { return s_.c_str(); }
  size_t GetLength() const { return s_.size(); }
  const std::string& str() const { return s_; }
  bool operator<(const AscendString& o) const { return s_ < o.s_; }
  bool operator>(const AscendString& o) const { return s_ > o.s_; }
  bool operator==(const AscendString& o) const { return s_ == o.s_; }
  bool operator!=(const AscendString& o) const { return s_ != o.s_; }

 private:
  std::string s_;
};

}  // namespace ge

#endif  // GE_INCLUDE_GRAPH_ASCEND_STRING_H_
