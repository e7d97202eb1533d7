#include "output/html/html_text.hpp"

#include <array>
#include <charconv>
#include <cmath>

#include "output/number_format.hpp"

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
  std::string s;
  output_detail::append_fixed(s, v, decimals);  // the C locale's "%.*f": a point always
  if (s.size() >= 64) {                         // a huge value: its exponent form ("%g")
    std::array<char, 32> buf{};
    const auto [end, ec] =
        std::to_chars(buf.data(), buf.data() + buf.size(), v, std::chars_format::general, 6);
    s.assign(buf.data(), ec == std::errc() ? end : buf.data());
  }
  return s;
}

}  // namespace vqx::html
