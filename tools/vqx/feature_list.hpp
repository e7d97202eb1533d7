// vqx --list-features: every feature of this build (vqx/features.hpp) as
// text for a person, or as JSON with --json.
#pragma once

#include <string>
#include <vector>

#include "vqx/features.hpp"

namespace vqx::cli {

std::string features_text(const std::vector<FeatureInfo>& features);
std::string features_json(const std::vector<FeatureInfo>& features);

}  // namespace vqx::cli
