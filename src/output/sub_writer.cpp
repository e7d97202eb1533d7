// SUB (MicroDVD subtitles), as the `vmaf` tool writes it: one line per frame,
// "{N}{N+1}frame: N|<name>: <value>|<name>: <value>|", shown during that
// frame. An absent value is left out. No pooled or aggregate values.
#include <string>

#include "output/number_format.hpp"
#include "output/writers.hpp"

namespace vqx::output_detail {

void write_sub(const Report& r, std::ostream& out) {
  std::string s;
  for (std::size_t i = 0; i < r.frame_numbers.size(); ++i) {
    if (!frame_has_values(r, i)) {
      continue;
    }
    const unsigned n = r.frame_numbers[i];
    s += '{';
    append_uint(s, n);
    s += "}{";
    append_uint(s, n + 1ull);
    s += "}frame: ";
    append_uint(s, n);
    s += '|';
    for (const ReportMetric& m : r.metrics) {
      if (std::isnan(m.value(i))) {
        continue;
      }
      s += m.name;
      s += ": ";
      append_value(s, m.value(i), r.precision);
      s += '|';
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
