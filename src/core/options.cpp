#include "core/options.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace vqx {

std::string format_g(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

namespace {

Status bad_value(std::string_view extractor, std::string_view key, std::string_view text,
                 std::string_view why) {
  return Error(Errc::kInvalidArgument, std::string(extractor) + ": option " + std::string(key) +
                                           "=" + std::string(text) + ": " + std::string(why));
}

Expected<OptionValue> parse_value(std::string_view extractor, const OptionDef& def,
                                  const std::string& text) {
  return std::visit(
      [&](const auto& dflt) -> Expected<OptionValue> {
        using T = std::decay_t<decltype(dflt)>;
        if constexpr (std::is_same_v<T, bool>) {
          if (text == "true" || text == "1") return OptionValue{true};
          if (text == "false" || text == "0") return OptionValue{false};
          return bad_value(extractor, def.name, text, "expected true or false");
        } else if constexpr (std::is_same_v<T, int>) {
          int v = 0;
          auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
          if (ec != std::errc() || p != text.data() + text.size()) {
            return bad_value(extractor, def.name, text, "expected an integer");
          }
          if (v < def.min || v > def.max) {
            return bad_value(extractor, def.name, text,
                             "out of range [" + format_g(def.min) + ", " + format_g(def.max) + "]");
          }
          return OptionValue{v};
        } else if constexpr (std::is_same_v<T, double>) {
          double v = 0;
          auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
          if (ec != std::errc() || p != text.data() + text.size() || !std::isfinite(v)) {
            return bad_value(extractor, def.name, text, "expected a number");
          }
          if (v < def.min || v > def.max) {
            return bad_value(extractor, def.name, text,
                             "out of range [" + format_g(def.min) + ", " + format_g(def.max) + "]");
          }
          return OptionValue{v};
        } else {
          return OptionValue{text};
        }
      },
      def.default_value);
}

std::string value_text(const OptionValue& v) {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, bool>) {
          return x ? "true" : "false";
        } else if constexpr (std::is_same_v<T, int>) {
          return std::to_string(x);
        } else if constexpr (std::is_same_v<T, double>) {
          return format_g(x);
        } else {
          return x;
        }
      },
      v);
}

}  // namespace

Expected<OptionSet> OptionSet::parse(std::string_view extractor, std::span<const OptionDef> defs,
                                     const OptionMap& given) {
  OptionSet set;
  set.defs_ = defs;
  for (const auto& d : defs) set.values_.push_back(d.default_value);
  for (const auto& entry : given) {
    const std::string& key = entry.first;
    const std::string& text = entry.second;
    auto it = std::find_if(defs.begin(), defs.end(), [&](const OptionDef& d) {
      return key == d.name || (d.alias != nullptr && key == d.alias);
    });
    if (it == defs.end()) {
      return Error(Errc::kInvalidArgument,
                   std::string(extractor) + ": unknown option '" + key + "'");
    }
    VQX_ASSIGN_OR_RETURN(set.values_[it - defs.begin()], parse_value(extractor, *it, text));
  }
  return set;
}

const OptionValue& OptionSet::find(std::string_view name) const {
  for (std::size_t i = 0; i < defs_.size(); ++i) {
    if (name == defs_[i].name) return values_[i];
  }
  throw std::logic_error("vqx: option not declared: " + std::string(name));
}

bool OptionSet::get_bool(std::string_view name) const { return std::get<bool>(find(name)); }
int OptionSet::get_int(std::string_view name) const { return std::get<int>(find(name)); }
double OptionSet::get_double(std::string_view name) const { return std::get<double>(find(name)); }
const std::string& OptionSet::get_string(std::string_view name) const {
  return std::get<std::string>(find(name));
}

bool OptionSet::is_set(std::string_view name) const {
  const OptionValue& v = find(name);
  if (const bool* b = std::get_if<bool>(&v)) return *b;
  return !std::get<std::string>(v).empty();
}

std::string OptionSet::name_suffix() const {
  std::vector<std::size_t> order(defs_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::string_view(defs_[a].name) < std::string_view(defs_[b].name);
  });
  std::string out;
  for (std::size_t i : order) {
    const OptionDef& d = defs_[i];
    if (!d.feature_param || values_[i] == d.default_value) continue;
    const char* key = d.alias != nullptr ? d.alias : d.name;
    out += "_";
    out += key;
    if (!std::holds_alternative<bool>(values_[i])) {
      out += '_';
      out += value_text(values_[i]);
    }
  }
  return out;
}

std::string OptionSet::canonical() const {
  std::string out;
  for (std::size_t i = 0; i < defs_.size(); ++i) {
    std::string text = value_text(values_[i]);
    if (const double* d = std::get_if<double>(&values_[i])) {
      char buf[32];  // every digit: values that differ past %g's six must not share a key
      std::snprintf(buf, sizeof buf, "%.17g", *d);
      text = buf;
    }
    out += std::string(defs_[i].name) + "=" + text + ";";
  }
  return out;
}

std::string OptionSet::given_text() const {
  std::string out;
  for (std::size_t i = 0; i < defs_.size(); ++i) {
    if (values_[i] == defs_[i].default_value) continue;
    if (!out.empty()) out += ':';
    out += std::string(defs_[i].name) + "=" + value_text(values_[i]);
  }
  return out;
}

std::vector<const OptionDef*> OptionSet::differences(const OptionSet& other) const {
  std::vector<const OptionDef*> out;
  for (std::size_t i = 0; i < defs_.size() && i < other.values_.size(); ++i) {
    if (!(values_[i] == other.values_[i])) out.push_back(&defs_[i]);
  }
  return out;
}

}  // namespace vqx
