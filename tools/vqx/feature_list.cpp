#include "feature_list.hpp"

#include <cstdio>

namespace vqx::cli {

namespace {

std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string joined(const std::vector<std::string>& items, const char* separator) {
  std::string s;
  for (const std::string& item : items) s += (s.empty() ? "" : separator) + item;
  return s;
}

// A JSON string: names and defaults are plain ASCII, but quote what needs it.
std::string quoted(const std::string& text) {
  std::string q = "\"";
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      q += '\\';
      q += c;
    } else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      q += buf;
    } else {
      q += c;
    }
  }
  return q + "\"";
}

std::string quoted_list(const std::vector<std::string>& items) {
  std::vector<std::string> q;
  q.reserve(items.size());
  for (const std::string& item : items) q.push_back(quoted(item));
  return "[" + joined(q, ", ") + "]";
}

// A default as JSON: bools and numbers bare, strings quoted.
std::string json_value(const FeatureOptionInfo& o) {
  return o.type == "string" ? quoted(o.default_value) : o.default_value;
}

}  // namespace

std::string features_text(const std::vector<FeatureInfo>& features) {
  std::string s =
      "Features (--feature NAME[=OPTION=VALUE:...]), their options and outputs, and the "
      "backends of this build that compute them:\n";
  for (const FeatureInfo& f : features) {
    s += "\n" + f.name + "  [backends: " + joined(f.backends, ", ") + "]";
    if (f.temporal != "never") s += "  [temporal: " + f.temporal + "]";
    if (!f.from_libvmaf) s += "  [not in libvmaf]";
    s += "\n  options:";
    if (f.options.empty()) s += " none";
    s += "\n";
    for (const FeatureOptionInfo& o : f.options) {
      s += "    " + o.name;
      if (!o.alias.empty()) s += " (" + o.alias + ")";
      s += "  " + o.type + ", default " +
           (o.type == "string" ? "'" + o.default_value + "'" : o.default_value);
      if (o.min && o.max) s += ", from " + number(*o.min) + " to " + number(*o.max);
      if (o.renames_outputs) s += ", renames the outputs";
      s += "\n";
    }
    s += "  outputs:\n";
    for (const FeatureOutputInfo& o : f.outputs) {
      s += "    " + o.name;
      if (o.whole_video) s += "  (whole video)";
      if (!o.when.empty()) s += "  (with " + joined(o.when, " and ") + ")";
      s += "\n";
    }
  }
  return s;
}

std::string features_json(const std::vector<FeatureInfo>& features) {
  std::string s = "{\n  \"features\": [";
  bool first = true;
  for (const FeatureInfo& f : features) {
    s += first ? "\n" : ",\n";
    first = false;
    s += "    {\"name\": " + quoted(f.name) + ", \"backends\": " + quoted_list(f.backends) +
         ", \"temporal\": " + quoted(f.temporal) +
         ", \"from_libvmaf\": " + (f.from_libvmaf ? "true" : "false") + ",\n     \"options\": [";
    for (std::size_t i = 0; i < f.options.size(); ++i) {
      const FeatureOptionInfo& o = f.options[i];
      s += std::string(i == 0 ? "\n" : ",\n") + "       {\"name\": " + quoted(o.name) +
           ", \"alias\": " + (o.alias.empty() ? "null" : quoted(o.alias)) +
           ", \"type\": " + quoted(o.type) + ", \"default\": " + json_value(o);
      if (o.min && o.max) s += ", \"min\": " + number(*o.min) + ", \"max\": " + number(*o.max);
      s += std::string(", \"renames_outputs\": ") + (o.renames_outputs ? "true" : "false") + "}";
    }
    s += std::string(f.options.empty() ? "" : "\n     ") + "],\n     \"outputs\": [";
    for (std::size_t i = 0; i < f.outputs.size(); ++i) {
      const FeatureOutputInfo& o = f.outputs[i];
      s += std::string(i == 0 ? "\n" : ",\n") + "       {\"name\": " + quoted(o.name) +
           ", \"when\": " + quoted_list(o.when) +
           ", \"whole_video\": " + (o.whole_video ? "true" : "false") + "}";
    }
    s += "\n     ]}";
  }
  return s + "\n  ]\n}\n";
}

}  // namespace vqx::cli
