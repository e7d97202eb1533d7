#include <array>

#include "metrics/families.hpp"
#include "metrics/registry.hpp"

namespace vqx {

std::span<const ExtractorFamily* const> all_families() {
  static const auto kFamilies = std::to_array<const ExtractorFamily*>({
      &integer_vif_family(),
      &integer_adm_family(),
      &integer_motion_family(),
      &speed_chroma_family(),
      &speed_temporal_family(),
      &float_ssim_family(),
      &integer_ssim_family(),
      &float_ms_ssim_family(),
      &psnr_family(),
      &float_psnr_family(),
      &float_moment_family(),
      &float_ansnr_family(),
      &cambi_family(),
      &float_adm_family(),
      &float_vif_family(),
      &float_motion_family(),
      &ciede_family(),
      &psnr_hvs_family(),
      &ssimulacra2_family(),
  });
  return kFamilies;
}

const ExtractorFamily* find_family(std::string_view name) {
  for (const ExtractorFamily* f : all_families()) {
    if (name == f->name) return f;
  }
  return nullptr;
}

ModelFeatureRef find_model_feature(std::string_view model_name) {
  for (const ExtractorFamily* f : all_families()) {
    for (const FeatureAlias& a : f->provides) {
      if (model_name == a.model_name) return {f, a.base};
    }
    for (const OutputDef& o : f->outputs) {
      if (o.provided && model_name == o.base) return {f, o.base};
    }
  }
  return {nullptr, nullptr};
}

}  // namespace vqx
