#include "output/html/html_text.hpp"

#include <array>
#include <cmath>
#include <cstdio>

namespace vqx::html {

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          out += "&#xFFFD;";
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string number(double v, int decimals) {
  if (std::isnan(v)) return "n/a";  // absent, or a null in the file
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  std::array<char, 64> buf{};
  const int n = std::snprintf(buf.data(), buf.size(), "%.*f", decimals, v);
  std::string s(buf.data(), n > 0 && static_cast<std::size_t>(n) < buf.size() ? n : 0);
  if (s.empty()) {  // beyond 64 characters: a huge value
    std::snprintf(buf.data(), buf.size(), "%g", v);
    s = buf.data();
  }
  // A locale with a decimal comma: the page always uses a point.
  for (char& c : s) {
    if (c == ',') c = '.';
  }
  return s;
}

}  // namespace vqx::html
