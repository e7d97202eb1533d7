// vqx/features.hpp: the registry's families as plain descriptions.
#include <string>
#include <type_traits>
#include <variant>

#include "core/family.hpp"
#include "core/options.hpp"
#include "gpu/pipeline.hpp"
#include "metrics/registry.hpp"
#include "vqx/features.hpp"

namespace vqx {

namespace {

FeatureOptionInfo describe(const OptionDef& def) {
  FeatureOptionInfo o;
  o.name = def.name;
  o.alias = def.alias != nullptr ? def.alias : "";
  o.renames_outputs = def.feature_param;
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) {
          o.type = "bool";
          o.default_value = v ? "true" : "false";
        } else if constexpr (std::is_same_v<T, int>) {
          o.type = "int";
          o.default_value = std::to_string(v);
        } else if constexpr (std::is_same_v<T, double>) {
          o.type = "double";
          o.default_value = format_g(v);
        } else {
          o.type = "string";
          o.default_value = v;
        }
        if constexpr (std::is_same_v<T, int> || std::is_same_v<T, double>) {
          o.min = def.min;  // OptionSet::parse holds every int and double to them
          o.max = def.max;
        }
      },
      def.default_value);
  return o;
}

FeatureOutputInfo describe(const OutputDef& def, bool whole_video) {
  FeatureOutputInfo o;
  o.name = def.base;
  for (const char* option : def.when) {
    if (option != nullptr) o.when.emplace_back(option);
  }
  o.whole_video = whole_video;
  return o;
}

// Whether the family has a GPU twin in this build: its code, given the
// default options, makes one (empty without a backend: VQX_TWIN).
bool has_twin(const ExtractorFamily& family) {
  auto options = OptionSet::parse(family.name, family.options, {});
  if (!options.ok()) return false;
  auto factories = family.bind(*options);
  return factories.ok() && static_cast<bool>(factories->gpu);
}

std::string temporal_text(const TemporalRule& rule) {
  switch (rule.kind) {
    case TemporalRule::kAlways:
      return "always";
    case TemporalRule::kWhenSet:
      return std::string("when ") + rule.option;
    case TemporalRule::kNever:
      break;
  }
  return "never";
}

}  // namespace

std::vector<FeatureInfo> list_features() {
  std::vector<FeatureInfo> all;
  const char* gpu = gpu::compiled_backend();
  for (const ExtractorFamily* family : all_families()) {
    FeatureInfo f;
    f.name = family->name;
    for (const OptionDef& def : family->options) f.options.push_back(describe(def));
    for (const OutputDef& def : family->outputs) f.outputs.push_back(describe(def, false));
    for (const OutputDef& def : family->aggregates) f.outputs.push_back(describe(def, true));
    f.backends = {"cpu"};
    if (gpu != nullptr && has_twin(*family)) f.backends.emplace_back(gpu);
    f.temporal = temporal_text(family->temporal);
    f.from_libvmaf = family->from_libvmaf;
    all.push_back(std::move(f));
  }
  return all;
}

}  // namespace vqx
