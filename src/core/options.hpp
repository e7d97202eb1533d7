// Typed extractor options, parsed from "key=value" strings, and the output
// name suffixes that non-default options add (libvmaf's naming rule: every
// non-default option marked as a feature parameter appends "_<alias>_<value>",
// in alphabetical order of the option names; a bool appends "_<alias>").
#pragma once

#include <map>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "vqx/status.hpp"

namespace vqx {

using OptionValue = std::variant<bool, int, double, std::string>;

struct OptionDef {
  const char* name;
  const char* alias;  // used in the name suffix; nullptr means use name
  OptionValue default_value;
  double min = 0;  // bounds for int and double options
  double max = 0;
  bool feature_param = false;  // a non-default value changes the output names
  // The option only adds or removes outputs (debug=true, enable_mse=true)
  // or writes side files: every output written with either value has the
  // same values with both. Two requests of one family that differ only in
  // such options may share output names (engine/registration.cpp); any
  // other difference between them is a clash where the names are equal.
  // tests/unit/output_names_test.cpp holds every such option to it.
  bool selects_outputs = false;
};
// For OptionDef tables: the value of `selects_outputs`.
inline constexpr bool kSelectsOutputs = true;

// Options as given by the user: key -> text.
using OptionMap = std::map<std::string, std::string>;

class OptionSet {
 public:
  // Parses `given` against `defs`. An unknown key, a malformed value or a
  // value out of bounds is an error naming the extractor, key and value.
  static Expected<OptionSet> parse(std::string_view extractor, std::span<const OptionDef> defs,
                                   const OptionMap& given);

  [[nodiscard]] bool get_bool(std::string_view name) const;
  [[nodiscard]] int get_int(std::string_view name) const;
  [[nodiscard]] double get_double(std::string_view name) const;
  [[nodiscard]] const std::string& get_string(std::string_view name) const;
  // A bool option that is true, or a string option that is not empty.
  [[nodiscard]] bool is_set(std::string_view name) const;

  // "_egl_1" style suffix for output names (empty when every feature
  // parameter has its default value).
  [[nodiscard]] std::string name_suffix() const;
  // Canonical text of every value, for telling two configurations apart.
  [[nodiscard]] std::string canonical() const;
  // The options that differ from their defaults, as a user writes them
  // ("reduced_hbd_peak=true:min_sse=0.5", in declaration order); empty
  // when every option has its default.
  [[nodiscard]] std::string given_text() const;
  // The options whose values differ between this set and `other`, which
  // must have been parsed against the same definitions.
  [[nodiscard]] std::vector<const OptionDef*> differences(const OptionSet& other) const;

 private:
  [[nodiscard]] const OptionValue& find(std::string_view name) const;
  std::span<const OptionDef> defs_;
  std::vector<OptionValue> values_;  // parallel to defs_
};

// Formats a double as C's "%g" does (the form libvmaf uses in names).
std::string format_g(double v);

}  // namespace vqx
