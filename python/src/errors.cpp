#include "errors.hpp"

namespace vqx::python {

const char* code_name(Errc code) {
  switch (code) {
    case Errc::kOk:
      return "ok";
    case Errc::kInvalidArgument:
      return "invalid_argument";
    case Errc::kIo:
      return "io";
    case Errc::kParse:
      return "parse";
    case Errc::kUnsupported:
      return "unsupported";
    case Errc::kMismatch:
      return "mismatch";
    case Errc::kLimit:
      return "limit";
    case Errc::kDevice:
      return "device";
    case Errc::kInternal:
      return "internal";
    case Errc::kCancelled:
      return "cancelled";
  }
  return "internal";
}

}  // namespace vqx::python
