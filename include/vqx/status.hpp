// Status and Expected<T>: how every VQX function reports failure. The library
// never aborts or exits on bad input; it returns one of these instead.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace vqx {

enum class Errc {
  kOk = 0,
  kInvalidArgument,  // a bad option, name or value given by the caller
  kIo,               // a file could not be opened, read or written
  kParse,            // malformed or truncated input data
  kUnsupported,      // well-formed input that VQX does not handle
  kMismatch,         // reference and distorted disagree (size, depth, count)
  kLimit,            // a resource limit (dimensions, memory) would be exceeded
  kDevice,           // a GPU error
  kInternal,
  kCancelled,  // the caller stopped the work (a callback said stop; a signal)
};

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Errc code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return {}; }
  [[nodiscard]] bool ok() const { return code_ == Errc::kOk; }
  [[nodiscard]] Errc code() const { return code_; }
  [[nodiscard]] const std::string& message() const { return message_; }

 private:
  Errc code_ = Errc::kOk;
  std::string message_;
};

inline Status Error(Errc code, std::string message) { return {code, std::move(message)}; }

// A value or the Status that explains why there is none.
template <typename T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : v_(std::move(value)) {}         // NOLINT(google-explicit-constructor)
  Expected(Status status) : v_(std::move(status)) {}  // NOLINT(google-explicit-constructor)

  [[nodiscard]] bool ok() const { return std::holds_alternative<T>(v_); }
  [[nodiscard]] const Status& status() const {
    static const Status kOkStatus;
    return ok() ? kOkStatus : std::get<Status>(v_);
  }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace vqx

#define VQX_CONCAT_INNER(a, b) a##b
#define VQX_CONCAT(a, b) VQX_CONCAT_INNER(a, b)

#define VQX_RETURN_IF_ERROR(expr)              \
  do {                                         \
    ::vqx::Status vqx_status_ = (expr);        \
    if (!vqx_status_.ok()) return vqx_status_; \
  } while (0)

#define VQX_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                              \
  if (!tmp.ok()) return tmp.status();             \
  lhs = std::move(tmp).value()

#define VQX_ASSIGN_OR_RETURN(lhs, expr) \
  VQX_ASSIGN_OR_RETURN_IMPL(VQX_CONCAT(vqx_expected_, __LINE__), lhs, expr)
