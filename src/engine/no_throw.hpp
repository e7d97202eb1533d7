// Running extractor code without letting an exception escape.
#pragma once

#include <exception>
#include <new>
#include <string>

#include "vqx/status.hpp"

namespace vqx {

// Runs extractor code, turning an exception (std::bad_alloc when memory runs
// out) into an error Status: thrown on a worker thread it would end the
// process (docs/reliability.md).
template <typename F>
Status no_throw(const char* doing, F&& f) noexcept {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return Error(Errc::kLimit, std::string("out of memory ") + doing);
  } catch (const std::exception& e) {
    return Error(Errc::kInternal, std::string("internal error ") + doing + ": " + e.what());
  } catch (...) {
    return Error(Errc::kInternal, std::string("internal error ") + doing);
  }
}

}  // namespace vqx
