// The one place where model code meets the extractor registry.
#include <string>

#include "core/registry.hpp"
#include "model/model.hpp"

namespace vqx {

Expected<const ExtractorFamily*> resolve_model_feature(const Model& model, const ModelFeature& feature) {
  const ModelFeatureRef ref = find_model_feature(feature.model_name);
  if (ref.family == nullptr) {
    return Error(Errc::kUnsupported, "model " + model.name() + " (" + model.origin() + "): feature \"" +
                                         feature.model_name + "\" needs libvmaf's \"" + feature.family +
                                         "\" extractor, which VQX does not provide");
  }
  if (feature.family != ref.family->name || feature.base != ref.base) {
    return Error(Errc::kInternal, "model " + model.name() + ": feature \"" + feature.model_name +
                                      "\" maps to " + feature.family + "/" + feature.base +
                                      " in the model table but to " + ref.family->name + "/" +
                                      ref.base + " in the registry");
  }
  return ref.family;
}

}  // namespace vqx
