// Integer ADM (Additive/Detail-loss Metric): options, their defaults and the
// fixed numbers of the algorithm. Everything here must agree with libvmaf's
// integer ADM extractor ("adm" on its command line); the source of every
// number is named next to it (paths relative to libvmaf/src/feature/).
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "core/family.hpp"
#include "core/options.hpp"

namespace vqx::adm {

// Which contrast sensitivity function weights the wavelet bands
// (option adm_csf_mode; enum ADM_CSF_MODE in integer_adm.h).
enum class CsfMode : int {
  kWatson97 = 0,              // noise-floor model of Watson et al. 1997
  kBarten = 1,                // Barten's CSF as simplified in HDR-VDP-2
  kBartenWatsonBlend = 2,     // tabulated blend (vmaf_v1.0.16 models)
  kBartenWatsonBlendMae = 3,  // tabulated blend, L1-fitted variant
};

// Every option of the extractor, with libvmaf's defaults (integer_adm.c,
// options[], and integer_adm.h, DEFAULT_ADM_*).
struct AdmParams {
  bool debug = false;
  double csf_scale = 1.0;                 // adm_csf_scale (scf), Barten only
  double csf_diag_scale = 1.0;            // adm_csf_diag_scale (scfd), Barten only
  double dlm_weight = 0.5;                // adm_dlm_weight (dlmw)
  double enhn_gain_limit = 100.0;         // adm_enhn_gain_limit (egl)
  double norm_view_dist = 3.0;            // adm_norm_view_dist (nvd)
  int ref_display_height = 1080;          // adm_ref_display_height (rdh)
  CsfMode csf_mode = CsfMode::kWatson97;  // adm_csf_mode (csf)
  double noise_weight = 0.03125;          // adm_noise_weight (nw)
  bool skip_aim = false;                  // adm_skip_aim
  bool skip_scale0 = false;               // adm_skip_scale0 (ssz)
  double min_val = 0.0;                   // adm_min_val (min)
};

inline constexpr int kScales = 4;

// Share of the band discarded on each side when summing (ADM_BORDER_FACTOR).
inline constexpr double kBorderFactor = 0.1;

// The product norm_view_dist * ref_display_height below which libvmaf refuses
// to run (its 16-bit scale-0 pipeline cannot represent the weights).
inline constexpr double kMinViewDistTimesHeight = 3.0 * 1080;

// Luminance (cd/m^2) at which the Barten CSF is evaluated (DEFAULT_ADM_CSF_LUM).
inline constexpr double kBartenLuminance = 100.0;

// Daubechies-2 analysis filters in Q15 (integer_adm.h, dwt2_db2_coeffs_lo/hi)
// and the sum of the low-pass taps, used to centre 0..N samples on zero.
inline constexpr std::array<std::int32_t, 4> kDb2Lo = {15826, 27411, 7345, -4240};
inline constexpr std::array<std::int32_t, 4> kDb2Hi = {-4240, -7345, 27411, -15826};
inline constexpr std::int32_t kDb2LoSum = 46342;

// Reciprocals used by the masking stage (integer_adm.h / integer_adm.c):
// 1/15 and 1/30 in Q12 at scale 0, and in Q32 at scales 1..3.
inline constexpr std::int32_t kOneBy15Q12 = 8738;       // ONE_BY_15
inline constexpr std::int32_t kOneBy30Q12 = 4369;       // FIX_ONE_BY_30 (adm_csf)
inline constexpr std::int64_t kOneBy15Q32 = 286331153;  // I4_ONE_BY_15
inline constexpr std::int64_t kOneBy30Q32 = 143165577;  // FIX_ONE_BY_30 (i4_adm_csf)

// Scale-0 CSF weights libvmaf hard-codes for the default viewing condition
// (Watson, 3 x 1080): h and v in Q21, d in Q23 (adm_csf, adm_cm).
inline constexpr std::array<std::uint16_t, 3> kDefaultScale0Weights = {36453, 36453, 49417};

// libvmaf divides by n through the reciprocal floor(2^30 / n) (div_Q_factor
// and div_lookup in integer_adm.h); VQX computes it rather than looks it up.
inline constexpr std::int32_t kRecipNumerator = 1 << 30;

// --- Options, outputs and model names ------------------------------------

// Option names as libvmaf spells them (integer_adm.c, options[]).
inline constexpr const char* kOptDebug = "debug";
inline constexpr const char* kOptCsfScale = "adm_csf_scale";
inline constexpr const char* kOptCsfDiagScale = "adm_csf_diag_scale";
inline constexpr const char* kOptDlmWeight = "adm_dlm_weight";
inline constexpr const char* kOptEnhnGainLimit = "adm_enhn_gain_limit";
inline constexpr const char* kOptNormViewDist = "adm_norm_view_dist";
inline constexpr const char* kOptRefDisplayHeight = "adm_ref_display_height";
inline constexpr const char* kOptCsfMode = "adm_csf_mode";
inline constexpr const char* kOptNoiseWeight = "adm_noise_weight";
inline constexpr const char* kOptSkipAim = "adm_skip_aim";
inline constexpr const char* kOptSkipScale0 = "adm_skip_scale0";
inline constexpr const char* kOptMinVal = "adm_min_val";

// libvmaf integer_adm.c, options[]: name, alias, default, min, max and
// whether a non-default value renames the outputs (FEATURE_PARAM).
inline std::span<const OptionDef> option_defs() {
  static const AdmParams d;
  static const std::array<OptionDef, 12> kDefs = {{
      {kOptDebug, nullptr, OptionValue{d.debug}, 0, 0, false},
      {kOptCsfScale, "scf", OptionValue{d.csf_scale}, 0.0, 50.0, true},
      {kOptCsfDiagScale, "scfd", OptionValue{d.csf_diag_scale}, 0.0, 50.0, true},
      {kOptDlmWeight, "dlmw", OptionValue{d.dlm_weight}, 0.0, 1.0, true},
      {kOptEnhnGainLimit, "egl", OptionValue{d.enhn_gain_limit}, 1.0, 100.0, true},
      {kOptNormViewDist, "nvd", OptionValue{d.norm_view_dist}, 0.75, 24.0, true},
      {kOptRefDisplayHeight, "rdh", OptionValue{d.ref_display_height}, 1, 4320, true},
      {kOptCsfMode, "csf", OptionValue{static_cast<int>(d.csf_mode)}, 0, 3, true},
      {kOptNoiseWeight, "nw", OptionValue{d.noise_weight}, 0.0, 1500.0, true},
      {kOptSkipAim, nullptr, OptionValue{d.skip_aim}, 0, 0, false},
      {kOptSkipScale0, "ssz", OptionValue{d.skip_scale0}, 0, 0, true},
      {kOptMinVal, "min", OptionValue{d.min_val}, 0.0, 1.0, true},
  }};
  return kDefs;
}

// Outputs in slot order, as libvmaf writes them (extract() in
// integer_adm.c, renamed by alias.c): the scores, then with debug=true the
// combined score, its numerator and denominator and each scale's (which
// libvmaf's extractor provides to models under their own names).
inline constexpr std::array<OutputDef, 18> kOutputs = {{
    {"integer_adm2"},
    {"integer_aim"},
    {"integer_adm3"},
    {"integer_adm_scale0"},
    {"integer_adm_scale1"},
    {"integer_adm_scale2"},
    {"integer_adm_scale3"},
    {.base = "integer_adm", .when = {kOptDebug}, .provided = true},
    {.base = "integer_adm_num", .when = {kOptDebug}, .provided = true},
    {.base = "integer_adm_den", .when = {kOptDebug}, .provided = true},
    {.base = "integer_adm_num_scale0", .when = {kOptDebug}, .provided = true},
    {.base = "integer_adm_den_scale0", .when = {kOptDebug}, .provided = true},
    {.base = "integer_adm_num_scale1", .when = {kOptDebug}, .provided = true},
    {.base = "integer_adm_den_scale1", .when = {kOptDebug}, .provided = true},
    {.base = "integer_adm_num_scale2", .when = {kOptDebug}, .provided = true},
    {.base = "integer_adm_den_scale2", .when = {kOptDebug}, .provided = true},
    {.base = "integer_adm_num_scale3", .when = {kOptDebug}, .provided = true},
    {.base = "integer_adm_den_scale3", .when = {kOptDebug}, .provided = true},
}};

// The other feature names models use (provided_features[] in
// integer_adm.c), with their output names (alias.c).
inline constexpr std::array<FeatureAlias, 7> kProvides = {{
    {"VMAF_integer_feature_adm2_score", "integer_adm2"},
    {"VMAF_integer_feature_aim_score", "integer_aim"},
    {"VMAF_integer_feature_adm3_score", "integer_adm3"},
    {"integer_adm_scale0", "integer_adm_scale0"},
    {"integer_adm_scale1", "integer_adm_scale1"},
    {"integer_adm_scale2", "integer_adm_scale2"},
    {"integer_adm_scale3", "integer_adm_scale3"},
}};

}  // namespace vqx::adm
