// ge::Status: an error code with a message a user can act on, what the C++ API returns (the
// engine's own code too; operator functions keep Ascend's graphStatus), and its formatting
// constructors (fmt, which libge links publicly).
#ifndef GE_INCLUDE_GE_STATUS_H_
#define GE_INCLUDE_GE_STATUS_H_

#include <fmt/format.h>

#include <string>
#include <utility>

namespace ge {

class Status {
 public:
  enum Code {
    kOk = 0,
    kInvalidArgument,
    kNotFound,
    kUnsupported,
    kOutOfMemory,
    kInternal,
    kFailedPrecondition,
    kCancelled,         // the caller cancelled the run (RunOptions::cancel)
    kDeadlineExceeded,  // the run passed its time limit (RunOptions::timeout_s)
  };

  Status() = default;
  Status(Code code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return Status(); }
  bool ok() const { return code_ == kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }

  // Prefixes context ("while loading model.onnx: ") to the message.
  Status& Prepend(const std::string& context) {
    message_ = context + message_;
    return *this;
  }

 private:
  Code code_ = kOk;
  std::string message_;
};

template <typename... Args>
Status Error(Status::Code code, fmt::format_string<Args...> f, Args&&... args) {
  return Status(code, fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
Status InvalidArgument(fmt::format_string<Args...> f, Args&&... args) {
  return Status(Status::kInvalidArgument, fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
Status Internal(fmt::format_string<Args...> f, Args&&... args) {
  return Status(Status::kInternal, fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
Status Unsupported(fmt::format_string<Args...> f, Args&&... args) {
  return Status(Status::kUnsupported, fmt::format(f, std::forward<Args>(args)...));
}

}  // namespace ge

#define GE_RETURN_IF_ERROR(expr)     \
  do {                               \
    ::ge::Status _ge_st = (expr);    \
    if (!_ge_st.ok()) return _ge_st; \
  } while (0)

#endif  // GE_INCLUDE_GE_STATUS_H_
