#include <array>
#include <string>

#include "metrics/cambi/params.hpp"

namespace vqx::cambi {

// Names, aliases, defaults, bounds and flags as libvmaf's cambi.c
// `options[]`, in the same order. A default outside the bounds (0 for the
// sizes and the bit depth: "take the picture's") can only be had by leaving
// the option out, as in libvmaf.
std::span<const OptionDef> option_defs() {
  static const std::array<OptionDef, 17> kDefs = {{
      {"cambi_max_val", "cmxv", OptionValue{kDefaultMaxVal}, 0.0, 1000.0, true},
      {"enc_width", "encw", OptionValue{0}, 180, 7680, true},
      {"enc_height", "ench", OptionValue{0}, 150, 7680, true},
      {"enc_bitdepth", "encbd", OptionValue{0}, 6, 16, true},
      {"src_width", "srcw", OptionValue{0}, 320, 7680, true},
      {"src_height", "srch", OptionValue{0}, 200, 4320, true},
      {"window_size", "ws", OptionValue{kDefaultWindowSize}, 15, 127, true},
      {"topk", nullptr, OptionValue{kDefaultTopk}, 0.0001, 1.0, true},
      {"cambi_topk", "ctpk", OptionValue{kDefaultTopk}, 0.0001, 1.0, true},
      {"tvi_threshold", "tvit", OptionValue{kDefaultTvi}, 0.0001, 1.0, true},
      {"cambi_vis_lum_threshold", "vlt", OptionValue{kDefaultVlt}, 0.0, 300.0, true},
      {"max_log_contrast", "mlc", OptionValue{kDefaultMaxLogContrast}, 0, kMaxLogContrast, true},
      // heatmaps_path and full_ref are no feature parameters: they change
      // no output name.
      {"heatmaps_path", nullptr, OptionValue{std::string()}, 0, 0, false, kSelectsOutputs},
      {"full_ref", nullptr, OptionValue{false}, 0, 0, false, kSelectsOutputs},
      {"eotf", nullptr, OptionValue{std::string(kDefaultEotf)}, 0, 0, true},
      {"cambi_eotf", "ceot", OptionValue{std::string(kDefaultEotf)}, 0, 0, true},
      {"cambi_high_res_speedup", "hrs", OptionValue{0}, 0, 2160, true},
  }};
  return kDefs;
}

}  // namespace vqx::cambi
