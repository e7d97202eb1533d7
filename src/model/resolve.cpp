// The one place where model code meets the extractor registry.
#include <string>

#include "core/registry.hpp"
#include "model/model.hpp"
#include "model/text.hpp"

namespace vqx::detail {

Expected<const ExtractorFamily*> find_vqx_family(const ModelFeature& feature,
                                                 std::string_view origin) {
  const ModelFeatureRef ref = find_model_feature(feature.model_name);
  if (ref.family == nullptr) {
    return static_cast<const ExtractorFamily*>(nullptr);
  }
  if (feature.extractor != ref.family->name || ref.base == nullptr || feature.base != ref.base) {
    return Error(Errc::kInternal,
                 std::string(origin) + ": feature \"" + printable(feature.model_name) + "\" is " +
                     feature.extractor + "/" + feature.base + " in libvmaf's table but " +
                     ref.family->name + "/" + (ref.base != nullptr ? ref.base : "(null)") +
                     " in the registry");
  }
  return ref.family;
}

}  // namespace vqx::detail
