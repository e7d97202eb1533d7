#include "core/feature_spec.hpp"

namespace vqx {

Expected<FeatureRequest> parse_feature_spec(std::string_view spec) {
  FeatureRequest req;
  const auto eq = spec.find('=');
  req.name = std::string(spec.substr(0, eq));
  if (req.name.empty()) {
    return Error(Errc::kInvalidArgument, "feature '" + std::string(spec) + "': missing name");
  }
  if (eq == std::string_view::npos) return req;
  std::string_view rest = spec.substr(eq + 1);
  while (!rest.empty()) {
    const auto colon = rest.find(':');
    const std::string_view item = rest.substr(0, colon);
    const auto kv = item.find('=');
    if (kv == std::string_view::npos || kv == 0 || kv + 1 == item.size()) {
      return Error(Errc::kInvalidArgument, "feature '" + req.name + "': bad option '" +
                                               std::string(item) + "' (expected key=value)");
    }
    const std::string key(item.substr(0, kv));
    if (req.options.count(key) != 0) {
      return Error(Errc::kInvalidArgument,
                   "feature '" + req.name + "': option '" + key + "' given twice");
    }
    req.options.emplace(key, std::string(item.substr(kv + 1)));
    if (colon == std::string_view::npos) break;
    rest = rest.substr(colon + 1);
    if (rest.empty()) {
      return Error(Errc::kInvalidArgument, "feature '" + req.name + "': trailing ':'");
    }
  }
  return req;
}

}  // namespace vqx
