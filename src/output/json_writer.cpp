// JSON, laid out as the `vmaf` tool lays it out (two-space indents, one key
// per line). Non-finite numbers are written as null, an absent value leaves
// its key out. One quirk is kept for byte-for-byte equality: after a null
// frame value libvmaf writes no newline, so the next key (or the closing
// brace) follows on the same line. The result is still valid JSON.
#include <string>

#include "output/number_format.hpp"
#include "output/writers.hpp"

namespace vqx::output_detail {

namespace {

// Appends `"name": value` (or null).
void append_member(std::string& s, std::string_view name, double v, int precision) {
  append_json_string(s, name);
  s += ": ";
  if (std::isfinite(v)) {
    append_value(s, v, precision);
  } else {
    s += "null";
  }
}

// The "settings" object (VQX's own key, after the reference's).
void append_settings(std::string& s, const ReportSettings& settings) {
  const auto member = [&s](std::string_view name, std::string_view value) {
    s += ",\n    ";
    append_json_string(s, name);
    s += ": ";
    append_json_string(s, value);
  };
  s += ",\n  \"settings\": {\n    \"program\": ";
  append_json_string(s, settings.program);
  member("version", settings.version);
  member("backend", settings.backend);
  member("device", settings.device);
  s += ",\n    \"subsample\": ";
  append_uint(s, settings.subsample);
  s += ",\n    \"models\": [";
  for (std::size_t i = 0; i < settings.models.size(); ++i) {
    s += i == 0 ? "\n      {\"name\": " : ",\n      {\"name\": ";
    append_json_string(s, settings.models[i].first);
    s += ", \"origin\": ";
    append_json_string(s, settings.models[i].second);
    s += '}';
  }
  s += settings.models.empty() ? "]" : "\n    ]";
  s += ",\n    \"features\": [";
  for (std::size_t i = 0; i < settings.features.size(); ++i) {
    s += i == 0 ? "\n      " : ",\n      ";
    append_json_string(s, settings.features[i]);
  }
  s += settings.features.empty() ? "]" : "\n    ]";
  s += "\n  }";
}

}  // namespace

void write_json(const Report& r, std::ostream& out) {
  std::string s;
  s += "{\n  \"version\": ";
  append_json_string(s, r.version);
  s += ",\n  \"fps\": ";
  if (std::isfinite(r.fps)) {
    append_fixed(s, r.fps, 2);
  } else {
    s += "null";
  }
  s += ",\n  \"frames\": [";

  bool first_frame = true;
  for (std::size_t i = 0; i < r.frame_numbers.size(); ++i) {
    if (!frame_has_values(r, i)) {
      continue;
    }
    s += first_frame ? "\n" : ",\n";
    first_frame = false;
    s += "    {\n      \"frameNum\": ";
    append_uint(s, r.frame_numbers[i]);
    s += ",\n      \"metrics\": {\n";

    std::size_t remaining = 0;
    for (const ReportMetric& m : r.metrics) {
      remaining += std::isnan(m.value(i)) ? 0 : 1;
    }
    for (const ReportMetric& m : r.metrics) {
      const double v = m.value(i);
      if (std::isnan(v)) {
        continue;
      }
      --remaining;
      s += "        ";
      append_member(s, m.name, v, r.precision);
      if (remaining > 0) {
        s += ',';
      }
      if (std::isfinite(v)) {
        s += '\n';  // libvmaf: no newline after null
      }
    }
    s += "      }\n    }";
    if (s.size() > (1u << 16)) {
      out << s;
      s.clear();
    }
  }
  s += "\n  ],\n  \"pooled_metrics\": {";

  bool first_pooled = true;
  for (const ReportPooledMetric& p : r.pooled) {
    s += first_pooled ? "\n" : ",\n";
    first_pooled = false;
    s += "    ";
    append_json_string(s, p.name);
    s += ": {";
    if (p.stats) {
      s += "\n      ";
      append_member(s, "min", p.stats->min, r.precision);
      s += ",\n      ";
      append_member(s, "max", p.stats->max, r.precision);
      s += ",\n      ";
      append_member(s, "mean", p.stats->mean, r.precision);
      s += ",\n      ";
      append_member(s, "harmonic_mean", p.stats->harmonic_mean, r.precision);
    }
    s += "\n    }";
  }
  s += "\n  },\n  \"aggregate_metrics\": {";

  for (std::size_t i = 0; i < r.aggregate.size(); ++i) {
    s += "\n    ";
    append_member(s, r.aggregate[i].first, r.aggregate[i].second, r.precision);
    if (i + 1 < r.aggregate.size()) {
      s += ',';
    }
  }
  s += "\n  }";
  if (!r.backends.empty()) {
    s += ",\n  \"backend\": {\n    \"device\": ";
    append_json_string(s, r.device);
    s += ",\n    \"metrics\": {";
    for (std::size_t i = 0; i < r.backends.size(); ++i) {
      s += i == 0 ? "\n      " : ",\n      ";
      append_json_string(s, r.backends[i].first);
      s += ": ";
      append_json_string(s, r.backends[i].second);
    }
    s += "\n    }\n  }";
  }
  if (r.settings) {
    append_settings(s, *r.settings);
  }
  s += "\n}\n";
  out << s;
}

}  // namespace vqx::output_detail
