// CSV as the `vmaf` tool writes it: a header "Frame,<name>,<name>,...," and
// one row "<frameNum>,<value>,<value>,...," per frame; every line ends in a
// comma. No pooled or aggregate values. An absent value is an empty field
// (libvmaf drops it, misaligning the row). A name holding a comma, quote or
// line break is quoted (RFC 4180); libvmaf's names never do.
#include <string>

#include "output/number_format.hpp"
#include "output/writers.hpp"

namespace vqx::output_detail {

namespace {

void append_csv_field(std::string& s, std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) {
    s += text;
    return;
  }
  s += '"';
  for (const char c : text) {
    if (c == '"') {
      s += '"';
    }
    s += c;
  }
  s += '"';
}

}  // namespace

void write_csv(const Report& r, std::ostream& out) {
  std::string s = "Frame,";
  for (const ReportMetric& m : r.metrics) {
    append_csv_field(s, m.name);
    s += ',';
  }
  s += '\n';

  for (std::size_t i = 0; i < r.frame_numbers.size(); ++i) {
    if (!frame_has_values(r, i)) {
      continue;
    }
    append_uint(s, r.frame_numbers[i]);
    s += ',';
    for (const ReportMetric& m : r.metrics) {
      if (!std::isnan(m.value(i))) {
        append_value(s, m.value(i), r.precision);
      }
      s += ',';
    }
    s += '\n';
    if (s.size() > (1u << 16)) {
      out << s;
      s.clear();
    }
  }
  out << s;
}

}  // namespace vqx::output_detail
