#include "output/number_format.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <system_error>

#include "output/report.hpp"

namespace vqx::output_detail {

bool reference_wants_16_decimals(double v) {
  const double a = std::fabs(v);
  // NaN fails this comparison too. Beyond int range libvmaf's (int) cast
  // leaves a "fractional part" >= 1, i.e. zero leading zeros.
  if (!(a < 2147483648.0)) {
    return false;
  }
  double frac = a - std::trunc(a);  // exact
  int zeros = 0;
  while (frac < 1.0 && frac != 0.0) {
    frac *= 10.0;
    if (++zeros > 6) {
      return true;
    }
  }
  return false;
}

namespace {

// Large enough for "%.16f" of the largest double (309 integer digits).
using NumberBuffer = std::array<char, 400>;

void append_chars(std::string& out, double v, std::chars_format fmt, int precision) {
  NumberBuffer buf{};
  const auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), v, fmt, precision);
  if (ec == std::errc()) {
    out.append(buf.data(), end);
  } else {  // cannot happen: the buffer fits any double
    out += "nan";
  }
}

}  // namespace

void append_fixed(std::string& out, double v, int decimals) {
  append_chars(out, v, std::chars_format::fixed, decimals);
}

void append_value(std::string& out, double v, int precision) {
  if (precision == kPrecisionMax) {
    append_chars(out, v, std::chars_format::general, 17);
  } else if (precision >= 0) {
    append_fixed(out, v, precision);
  } else {
    append_fixed(out, v, reference_wants_16_decimals(v) ? 16 : 6);
  }
}

void append_uint(std::string& out, unsigned long long v) {
  std::array<char, 24> buf{};
  const auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  (void)ec;  // 24 chars always suffice
  out.append(buf.data(), end);
}

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (const char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          std::array<char, 8> esc{};
          std::snprintf(esc.data(), esc.size(), "\\u%04x", static_cast<unsigned>(c));
          out += esc.data();
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

void append_xml_attr_text(std::string& out, std::string_view s) {
  for (const char c : s) {
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
      default:
        out += c;
    }
  }
}

}  // namespace vqx::output_detail
