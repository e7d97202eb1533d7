// Quoting text from model files and --model values in error messages.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

namespace vqx {

// `s` for a one-line message: control characters escaped (\n, \xNN) and
// anything beyond `max` characters cut to "...".
inline std::string printable(std::string_view s, std::size_t max = 60) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i == max) {
      out += "...";
      break;
    }
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '\n') {
      out += "\\n";
    } else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(c));
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace vqx
