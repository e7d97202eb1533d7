// How the library's failures leave the binding: a Status becomes a C++
// Failure, which the module turns into a Python vqx.Error carrying the
// library's one-line message and, as `code`, the kind of error
// (code_name(), errors.cpp; the translation is registered in module.cpp).
#pragma once

#include <exception>
#include <utility>

#include "vqx/status.hpp"

namespace vqx::python {

class Failure : public std::exception {
 public:
  explicit Failure(Status status) : status_(std::move(status)) {}
  [[nodiscard]] const char* what() const noexcept override { return status_.message().c_str(); }
  [[nodiscard]] const Status& status() const { return status_; }

 private:
  Status status_;
};

inline void check(const Status& s) {
  if (!s.ok()) throw Failure(s);
}

template <typename T>
T take(Expected<T> e) {
  if (!e.ok()) throw Failure(e.status());
  return std::move(e).value();
}

// "invalid_argument", "io", ...: vqx.Error.code, one name per vqx::Errc.
const char* code_name(Errc code);

}  // namespace vqx::python
