// libvmaf's names for the features a model can ask for. A model JSON names a
// feature as libvmaf's extractors "provide" it (e.g.
// "VMAF_integer_feature_adm2_score"); libvmaf finds the first extractor whose
// provided-feature list contains that name, and the value is written under an
// alias ("integer_adm2") plus the option suffix.
//
// This table is a fact about libvmaf, independent of which extractors VQX has
// implemented, so a model loads (and its overloads apply) even when VQX has no
// extractor for a feature yet. The context later resolves the extractor family
// through the registry (see resolve_model_feature in model.hpp).
#pragma once

#include <string_view>

namespace vqx {

struct LibvmafFeatureName {
  std::string_view model_name;  // as written in a model's "feature_names"
  std::string_view extractor;   // libvmaf extractor (= VQX family) name, e.g. "adm"
  std::string_view base;        // output name without option suffix, e.g. "integer_adm2"
};

// nullptr if no libvmaf extractor provides `model_name`.
const LibvmafFeatureName* find_libvmaf_feature(std::string_view model_name);

}  // namespace vqx
