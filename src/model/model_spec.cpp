// The --model option syntax (libvmaf tools/cli_parse.c: parse_model_config)
// and libvmaf's option-value normalisation.
#include <array>
#include <charconv>
#include <set>
#include <utility>

#include "model/model.hpp"
#include "model/text.hpp"

namespace vqx {

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

}  // namespace

std::string normalize_option_value(std::string_view value) {
  // libvmaf: sscanf("%f %c") decides whether the text is a number (one float,
  // optional surrounding white space); if so strtof() and "%g".
  std::string_view t = value;
  while (!t.empty() && is_space(t.front())) {
    t.remove_prefix(1);
  }
  while (!t.empty() && is_space(t.back())) {
    t.remove_suffix(1);
  }
  if (t.size() > 1 && t.front() == '+' && t[1] != '-' && t[1] != '+') {
    t.remove_prefix(1);
  }
  if (t.empty()) {
    return std::string(value);
  }
  float f = 0;
  const char* end = t.data() + t.size();
  auto [p, ec] = std::from_chars(t.data(), end, f, std::chars_format::general);
  if (ec != std::errc() || p != end) {
    return std::string(value);
  }
  std::array<char, 64> buf{};
  auto [q, ec2] = std::to_chars(buf.data(), buf.data() + buf.size(), static_cast<double>(f),
                                std::chars_format::general, 6);
  if (ec2 != std::errc()) {
    return std::string(value);
  }
  return {buf.data(), q};
}

Expected<ModelSpec> ModelSpec::parse(std::string_view spec) {
  auto bad = [&](const std::string& what) {
    return Error(Errc::kInvalidArgument,
                 printable("--model \"" + std::string(spec) + "\": " + what, 600));
  };
  if (spec.empty()) {
    return bad("empty");
  }

  ModelSpec out;
  bool have_name = false, have_clip = false, have_transform = false;
  std::set<std::pair<std::string, std::string>> overloaded;
  std::string_view rest = spec;
  for (;;) {
    const std::size_t colon = rest.find(':');
    const std::string_view item = rest.substr(0, colon);
    if (item.empty()) {
      return bad("empty item (a leading, trailing or doubled ':')");
    }

    const std::size_t eq = item.find('=');
    const std::string key(item.substr(0, eq));
    const bool has_value = eq != std::string_view::npos;
    const std::string value = has_value ? std::string(item.substr(eq + 1)) : std::string();
    if (key.empty()) {
      return bad("item \"" + std::string(item) + "\" has no name before '='");
    }

    if (key == "version" || key == "path" || key == "name") {
      if (!has_value || value.empty()) {
        return bad(key + "= needs a value");
      }
      std::string& dst = key == "version" ? out.version
                         : key == "path"  ? out.path
                                          : out.config.name;
      if ((key == "name" && have_name) || (key != "name" && !dst.empty())) {
        return bad(key + "= given twice");
      }
      if (key == "name") {
        have_name = true;
      }
      dst = value;
    } else if (key == "disable_clip" || key == "enable_transform") {
      bool& seen = key == "disable_clip" ? have_clip : have_transform;
      if (seen) {
        return bad(key + " given twice");
      }
      seen = true;
      bool on = true;  // the bare word means true
      if (has_value) {
        if (value == "true") {
          on = true;
        } else if (value == "false") {
          on = false;
        } else {
          return bad(key + "=" + value + ": expected true or false");
        }
      }
      (key == "disable_clip" ? out.config.disable_clip : out.config.enable_transform) = on;
    } else {
      const std::size_t dot = key.find('.');
      if (dot == std::string::npos) {
        return bad("unknown item \"" + std::string(item) +
                   "\" (expected version=, path=, name=, disable_clip, enable_transform or "
                   "extractor.option=value)");
      }
      FeatureOverload o{key.substr(0, dot), key.substr(dot + 1), ""};
      if (o.family.empty() || o.option.empty() || o.option.find('.') != std::string::npos) {
        return bad("\"" + key +
                   "\": expected extractor.option=value, e.g. vif.vif_enhn_gain_limit=1.0");
      }
      if (!has_value || value.empty()) {
        return bad(key + " needs a value (extractor.option=value)");
      }
      if (!overloaded.emplace(o.family, o.option).second) {
        return bad(key + " given twice");
      }
      o.value = normalize_option_value(value);
      out.config.overloads.push_back(std::move(o));
    }

    if (colon == std::string_view::npos) {
      break;
    }
    rest.remove_prefix(colon + 1);
  }

  if (!out.version.empty() && !out.path.empty()) {
    return bad("give version= or path=, not both");
  }
  if (out.version.empty() && out.path.empty()) {
    return bad("needs version= (a built-in model) or path= (a JSON file)");
  }
  return out;
}

Expected<Model> parse_model_spec(std::string_view spec) {
  VQX_ASSIGN_OR_RETURN(ModelSpec parsed, ModelSpec::parse(spec));
  return Model::load(parsed);
}

}  // namespace vqx
