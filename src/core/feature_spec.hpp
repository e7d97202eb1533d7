// Parses the --feature syntax: "name" or "name=key=value:key=value".
#pragma once

#include <string>
#include <string_view>

#include "core/options.hpp"
#include "vqx/status.hpp"

namespace vqx {

struct FeatureRequest {
  std::string name;
  OptionMap options;
};

Expected<FeatureRequest> parse_feature_spec(std::string_view spec);

}  // namespace vqx
