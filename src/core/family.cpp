#include "core/family.hpp"

#include <string>

namespace vqx {

namespace {

bool enabled(const OutputDef& o, const OptionSet& set) {
  for (const char* option : o.when) {
    if (option != nullptr && !set.get_bool(option)) return false;
  }
  return true;
}

std::vector<ExtractorOutput> outputs_of(std::span<const OutputDef> defs, const OptionSet& set,
                                        const std::string& suffix) {
  std::vector<ExtractorOutput> out;
  for (const OutputDef& o : defs) {
    if (enabled(o, set)) out.push_back({o.base, o.suffixed ? o.base + suffix : o.base});
  }
  return out;
}

bool is_temporal(const TemporalRule& rule, const OptionSet& set) {
  switch (rule.kind) {
    case TemporalRule::kNever:
      return false;
    case TemporalRule::kAlways:
      return true;
    case TemporalRule::kWhenSet:
      return set.is_set(rule.option);
  }
  return false;
}

bool reads_chroma(const ChromaRule& rule, const OptionSet& set) {
  switch (rule.kind) {
    case ChromaRule::kNever:
      return false;
    case ChromaRule::kAlways:
      return true;
    case ChromaRule::kWhenSet:
      return set.get_bool(rule.option);
  }
  return false;
}

}  // namespace

Expected<ExtractorSpec> ExtractorFamily::make_spec(const OptionMap& given) const {
  VQX_ASSIGN_OR_RETURN(OptionSet set, OptionSet::parse(name, options, given));
  VQX_ASSIGN_OR_RETURN(Factories factories, bind(set));
  const std::string suffix = set.name_suffix();
  ExtractorSpec spec;
  spec.family = name;
  spec.key = std::string(name) + ":" + set.canonical();
  const std::string changed = set.given_text();
  spec.request = changed.empty() ? std::string(name) : std::string(name) + "=" + changed;
  spec.temporal = is_temporal(temporal, set);
  if (!spec.temporal) {
    spec.reach = TemporalReach{};
  } else if (reach != nullptr) {
    spec.reach = reach(set);
  }
  spec.reads_chroma = reads_chroma(chroma, set);
  spec.luma_only = luma_only;
  spec.outputs = outputs_of(outputs, set, suffix);
  spec.aggregates = outputs_of(aggregates, set, suffix);
  spec.make_cpu = std::move(factories.cpu);
  spec.make_twin = std::move(factories.gpu);
  spec.options = std::move(set);
  return spec;
}

}  // namespace vqx
