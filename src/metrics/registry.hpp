// The table of extractor families. It is constant: no global mutable state.
#pragma once

#include <span>
#include <string_view>

#include "core/family.hpp"

namespace vqx {

std::span<const ExtractorFamily* const> all_families();
// By --feature name ("adm", "vif", "motion", ...); nullptr if unknown.
const ExtractorFamily* find_family(std::string_view name);

struct ModelFeatureRef {
  const ExtractorFamily* family;
  const char* base;  // output base name, e.g. "integer_adm2"
};
// By a model's feature name ("VMAF_integer_feature_adm2_score"); family is
// nullptr if no family provides it.
ModelFeatureRef find_model_feature(std::string_view model_name);

}  // namespace vqx
