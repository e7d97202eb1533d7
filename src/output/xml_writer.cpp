// XML, the `vmaf` tool's default format:
//
// <VMAF version="3.2.0">
//   <params qualityWidth="576" qualityHeight="324" />
//   <fyi fps="5.25" />
//   <frames>
//     <frame frameNum="0" psnr_y="30.878388" vmaf="76.668905" />
//   </frames>
//   <pooled_metrics>
//     <metric name="psnr_y" min="..." max="..." mean="..." harmonic_mean="..." />
//   </pooled_metrics>
//   <aggregate_metrics apsnr_y="..." />
// </VMAF>
//
// No XML declaration; an absent value leaves its attribute out; non-finite
// values are written as printf writes them ("inf", "nan").
#include <string>

#include "output/number_format.hpp"
#include "output/writers.hpp"

namespace vqx::output_detail {

namespace {

void append_attr(std::string& s, std::string_view name, double v, int precision) {
  s += name;
  s += "=\"";
  append_value(s, v, precision);
  s += "\" ";
}

}  // namespace

void write_xml(const Report& r, std::ostream& out) {
  std::string s;
  s += "<VMAF version=\"";
  append_xml_attr_text(s, r.version);
  s += "\">\n  <params qualityWidth=\"";
  append_uint(s, r.width);
  s += "\" qualityHeight=\"";
  append_uint(s, r.height);
  s += "\" />\n  <fyi fps=\"";
  append_fixed(s, r.fps, 2);
  s += "\" />\n  <frames>\n";

  for (std::size_t i = 0; i < r.frame_numbers.size(); ++i) {
    if (!frame_has_values(r, i)) {
      continue;
    }
    s += "    <frame frameNum=\"";
    append_uint(s, r.frame_numbers[i]);
    s += "\" ";
    for (const ReportMetric& m : r.metrics) {
      if (!std::isnan(m.value(i))) {
        append_attr(s, m.name, m.value(i), r.precision);
      }
    }
    s += "/>\n";
    if (s.size() > (1u << 16)) {
      out << s;
      s.clear();
    }
  }
  s += "  </frames>\n  <pooled_metrics>\n";

  for (const ReportPooledMetric& p : r.pooled) {
    s += "    <metric name=\"";
    append_xml_attr_text(s, p.name);
    s += "\" ";
    if (p.stats) {
      append_attr(s, "min", p.stats->min, r.precision);
      append_attr(s, "max", p.stats->max, r.precision);
      append_attr(s, "mean", p.stats->mean, r.precision);
      append_attr(s, "harmonic_mean", p.stats->harmonic_mean, r.precision);
    }
    s += "/>\n";
  }
  s += "  </pooled_metrics>\n  <aggregate_metrics ";

  for (const auto& [name, value] : r.aggregate) {
    append_attr(s, name, value, r.precision);
  }
  s += "/>\n";
  if (!r.backends.empty()) {
    s += "  <backend device=\"";
    append_xml_attr_text(s, r.device);
    s += "\">\n";
    for (const auto& [name, backend] : r.backends) {
      s += "    <metric name=\"";
      append_xml_attr_text(s, name);
      s += "\" backend=\"";
      append_xml_attr_text(s, backend);
      s += "\" />\n";
    }
    s += "  </backend>\n";
  }
  s += "</VMAF>\n";
  out << s;
}

}  // namespace vqx::output_detail
