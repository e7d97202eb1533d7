// libvmaf's names for the features a model can ask for: a fact about libvmaf
// that every family's definition must agree with (family_test.cpp). A model
// JSON names a feature as libvmaf's extractors provide it (e.g.
// "VMAF_integer_feature_adm2_score"); libvmaf finds the extractor whose
// provided-feature list contains that name, and the value is written under
// an alias ("integer_adm2") plus the option suffix.
#pragma once

#include <span>
#include <string_view>

namespace vqx::test {

struct LibvmafFeatureName {
  std::string_view model_name;  // as written in a model's "feature_names"
  std::string_view extractor;   // libvmaf extractor (= VQX family name), e.g. "adm"
  std::string_view base;        // output name without option suffix, e.g. "integer_adm2"
};

std::span<const LibvmafFeatureName> libvmaf_feature_names();

}  // namespace vqx::test
