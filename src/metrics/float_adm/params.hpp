// Float ADM ("float_adm" in libvmaf): options, their defaults and the fixed
// numbers of the algorithm. Everything here must agree with libvmaf's
// float ADM (libvmaf/src/feature/float_adm.c, adm.c, adm_tools.c,
// adm_tools.h, adm_options.h, adm_csf_tools.h, barten_csf_tools.h); the
// source of every number is named next to it.
//
// The measure: the luma planes, as float samples minus 128, go through four
// levels of a Daubechies-2 wavelet transform. At each level the distorted
// detail bands are split into the part explained by the reference
// (restored, "r") and the rest (additive, "a"); both are weighted by a
// contrast sensitivity function; each masks the other; the masked values'
// 3-norms give the detail-loss numerator (DLM, adm2) and the additive
// impairment (AIM), over the reference's own 3-norm (the denominator).
#pragma once

#include <array>
#include <span>

#include "core/family.hpp"
#include "core/options.hpp"

namespace vqx::float_adm {

inline constexpr int kScales = 4;

// Which contrast sensitivity function weights the bands (adm_csf_mode;
// enum ADM_CSF_MODE in adm_options.h). Values 3..9 are accepted by libvmaf
// and behave as Watson.
enum class CsfMode : int { kWatson97 = 0, kBarten = 1, kAdmNative = 2 };

// The parsed options, with libvmaf's defaults (float_adm.c options[],
// adm_options.h DEFAULT_ADM_*).
struct Params {
  bool debug = false;
  double enhn_gain_limit = 100.0;  // adm_enhn_gain_limit (egl)
  double norm_view_dist = 3.0;     // adm_norm_view_dist (nvd)
  double noise_weight = 0.03125;   // adm_noise_weight (nw)
  double csf_scale = 1.0;          // adm_csf_scale (scf), Barten only
  double csf_diag_scale = 1.0;     // adm_csf_diag_scale (scfd), Barten only
  int ref_display_height = 1080;   // adm_ref_display_height (rdf)
  int csf_mode = 0;                // adm_csf_mode (csf), see CsfMode
  int bypass_cm = 0;               // adm_bypass_cm (bcm): no contrast masking
  bool adm3_apply_hm = false;      // adm_adm3_apply_hm (aah)
  double p_norm = 3.0;             // adm_p_norm (apn)
  double dlm_weight = 0.5;         // adm_dlm_weight (dlmw)
  double min_val = 0.0;            // adm_min_val (min)
  // adm_f1s0..3 and adm_f2s0..3 (f1sN, f2sN): when >= 0, replace the CSF
  // weight of the h/v bands (f1) or the d band (f2) at scale N.
  std::array<double, kScales> f1 = {-1.0, -1.0, -1.0, -1.0};
  std::array<double, kScales> f2 = {-1.0, -1.0, -1.0, -1.0};
  int skip_aim_scale = -1;   // adm_skip_aim_scale (sasc): leave out of AIM
  bool skip_scale0 = false;  // adm_skip_scale0 (ssz)
};

// Share of the band discarded on each side when summing (ADM_BORDER_FACTOR).
inline constexpr double kBorderFactor = 0.1;

// Luminance (cd/m^2) at which the Barten CSF is evaluated
// (DEFAULT_ADM_CSF_LUMINANCE_LEVEL; float_adm.c always passes it).
inline constexpr double kLuminanceLevel = 100.0;

// Daubechies-2 analysis filters (adm_tools.c, dwt2_db2_coeffs_lo_s and
// dwt2_db2_coeffs_hi_s: float arrays initialised from these literals).
inline constexpr std::array<float, 4> kDb2Lo = {
    static_cast<float>(0.482962913144690), static_cast<float>(0.836516303737469),
    static_cast<float>(0.224143868041857), static_cast<float>(-0.129409522550921)};
inline constexpr std::array<float, 4> kDb2Hi = {
    static_cast<float>(-0.129409522550921), static_cast<float>(-0.224143868041857),
    static_cast<float>(0.836516303737469), static_cast<float>(-0.482962913144690)};

// Masking weights (adm_tools.c, FLOAT_ONE_BY_30 and FLOAT_ONE_BY_15): double
// literals, so libvmaf multiplies by them in double.
inline constexpr double kOneBy30 = 0.0333333351;
inline constexpr double kOneBy15 = 0.0666666701;

// Decoupling (adm_tools.c, adm_decouple_s): the division guard, and the
// angle test threshold cos(1 degree)^2 (ADM_OPT_AVOID_ATAN).
inline constexpr float kDecoupleEps = 1e-30f;
inline constexpr double kAngleDegrees = 1.0;

// The sums' lower limit, per 1920x1080 pixels (adm.c, numden_limit; the
// double-precision value, ADM_OPT_SINGLE_PRECISION being unset).
inline constexpr double kNumDenLimit = 1e-10;
inline constexpr double kNumDenLimitPixels = 1920.0 * 1080.0;

// adm_skip_scale0: the denominator libvmaf gives the skipped scale (adm.c,
// "avoid divide by zero"), stored in a float.
inline constexpr float kSkippedScaleDen = static_cast<float>(1e-10);

// Watson et al. 1997 noise floor model for the Y channel (adm_tools.h,
// dwt_7_9_YCbCr_threshold[0] and dwt_7_9_basis_function_amplitudes; float
// fields initialised from these literals).
struct WatsonParams {
  float a, k, f0;
  std::array<float, 4> g;
};
inline constexpr WatsonParams kWatsonY = {static_cast<float>(0.495),
                                          static_cast<float>(0.466),
                                          static_cast<float>(0.401),
                                          {static_cast<float>(1.501), static_cast<float>(1.0),
                                           static_cast<float>(0.534), static_cast<float>(1.0)}};
inline constexpr std::array<std::array<float, 4>, 6> kBasisAmplitudes = {{
    {static_cast<float>(0.62171), static_cast<float>(0.67234), static_cast<float>(0.72709),
     static_cast<float>(0.67234)},
    {static_cast<float>(0.34537), static_cast<float>(0.41317), static_cast<float>(0.49428),
     static_cast<float>(0.41317)},
    {static_cast<float>(0.18004), static_cast<float>(0.22727), static_cast<float>(0.28688),
     static_cast<float>(0.22727)},
    {static_cast<float>(0.091401), static_cast<float>(0.11792), static_cast<float>(0.15214),
     static_cast<float>(0.11792)},
    {static_cast<float>(0.045943), static_cast<float>(0.059758), static_cast<float>(0.077727),
     static_cast<float>(0.059758)},
    {static_cast<float>(0.023013), static_cast<float>(0.030018), static_cast<float>(0.039156),
     static_cast<float>(0.030018)},
}};
// The orientations adm_csf_s uses: theta 1 (vertical) for h and v, 2
// (diagonal) for d.
inline constexpr int kWatsonThetaHv = 1;
inline constexpr int kWatsonThetaDiag = 2;

// Barten's CSF as simplified in HDR-VDP-2 (barten_csf_tools.h): the
// luminance anchors, the parameters at each anchor (columns 1..4 used),
// the rod-cone sensitivity and the MTF terms.
inline constexpr std::array<float, 6> kBartenAnchors = {
    static_cast<float>(0.002), static_cast<float>(0.02), static_cast<float>(0.2),
    static_cast<float>(2),     static_cast<float>(20),   static_cast<float>(150)};
inline constexpr std::array<std::array<float, 5>, 6> kBartenParams = {{
    {static_cast<float>(0.0160737), static_cast<float>(0.991265), static_cast<float>(3.74038),
     static_cast<float>(0.50722), static_cast<float>(4.46044)},
    {static_cast<float>(0.383873), static_cast<float>(0.800889), static_cast<float>(3.54104),
     static_cast<float>(0.682505), static_cast<float>(4.94958)},
    {static_cast<float>(0.929301), static_cast<float>(0.476505), static_cast<float>(4.37453),
     static_cast<float>(0.750315), static_cast<float>(5.28678)},
    {static_cast<float>(1.29776), static_cast<float>(0.405782), static_cast<float>(4.40602),
     static_cast<float>(0.935314), static_cast<float>(5.61425)},
    {static_cast<float>(1.49222), static_cast<float>(0.334278), static_cast<float>(3.79542),
     static_cast<float>(1.07327), static_cast<float>(6.4635)},
    {static_cast<float>(1.46213), static_cast<float>(0.394533), static_cast<float>(2.7755),
     static_cast<float>(1.16577), static_cast<float>(7.45665)},
}};
inline constexpr std::array<float, 4> kBartenSa = {
    static_cast<float>(30.162), static_cast<float>(4.0627), static_cast<float>(1.6596),
    static_cast<float>(0.2712)};
inline constexpr std::array<float, 4> kBartenMtfA = {
    static_cast<float>(0.424838596301290), static_cast<float>(0.572435103936480),
    static_cast<float>(0.000167576239164937), static_cast<float>(0.00255872352306433)};
inline constexpr std::array<float, 4> kBartenMtfB = {
    static_cast<float>(0.028), static_cast<float>(0.37), static_cast<float>(37),
    static_cast<float>(360)};

// The DLM paper's CSF (adm_csf_tools.h, adm_native_csf): (0.31 + 0.69 f)
// exp(-0.29 f), with the diagonal frequency divided by 0.7.
inline constexpr double kNativeCsfA = 0.31;
inline constexpr double kNativeCsfB = 0.69;
inline constexpr double kNativeCsfC = -0.29;
inline constexpr double kNativeCsfOblique = 0.7;

// --- Options, outputs and model names ------------------------------------

inline constexpr const char* kOptDebug = "debug";
inline constexpr const char* kOptEnhnGainLimit = "adm_enhn_gain_limit";
inline constexpr const char* kOptNormViewDist = "adm_norm_view_dist";
inline constexpr const char* kOptNoiseWeight = "adm_noise_weight";
inline constexpr const char* kOptCsfScale = "adm_csf_scale";
inline constexpr const char* kOptCsfDiagScale = "adm_csf_diag_scale";
inline constexpr const char* kOptRefDisplayHeight = "adm_ref_display_height";
inline constexpr const char* kOptCsfMode = "adm_csf_mode";
inline constexpr const char* kOptBypassCm = "adm_bypass_cm";
inline constexpr const char* kOptAdm3ApplyHm = "adm_adm3_apply_hm";
inline constexpr const char* kOptPNorm = "adm_p_norm";
inline constexpr const char* kOptDlmWeight = "adm_dlm_weight";
inline constexpr const char* kOptMinVal = "adm_min_val";
inline constexpr std::array<const char*, kScales> kOptF1 = {"adm_f1s0", "adm_f1s1", "adm_f1s2",
                                                            "adm_f1s3"};
inline constexpr std::array<const char*, kScales> kOptF2 = {"adm_f2s0", "adm_f2s1", "adm_f2s2",
                                                            "adm_f2s3"};
inline constexpr const char* kOptSkipAimScale = "adm_skip_aim_scale";
inline constexpr const char* kOptSkipScale0 = "adm_skip_scale0";

// libvmaf float_adm.c, options[]: name, alias, default, min, max and
// whether a non-default value renames the outputs. (adm_skip_aim_scale's
// default, -1, is below its minimum: it can only be set to 0..3.)
inline std::span<const OptionDef> option_defs() {
  static const Params d;
  static const std::array<OptionDef, 23> kDefs = {{
      {kOptDebug, nullptr, OptionValue{d.debug}, 0, 0, false, kSelectsOutputs},
      {kOptEnhnGainLimit, "egl", OptionValue{d.enhn_gain_limit}, 1.0, 100.0, true},
      {kOptNormViewDist, "nvd", OptionValue{d.norm_view_dist}, 0.75, 24.0, true},
      {kOptNoiseWeight, "nw", OptionValue{d.noise_weight}, 0.0, 1500.0, true},
      {kOptCsfScale, "scf", OptionValue{d.csf_scale}, 0.0, 50.0, true},
      {kOptCsfDiagScale, "scfd", OptionValue{d.csf_diag_scale}, 0.0, 50.0, true},
      {kOptRefDisplayHeight, "rdf", OptionValue{d.ref_display_height}, 1, 4320, true},
      {kOptCsfMode, "csf", OptionValue{d.csf_mode}, 0, 9, true},
      {kOptBypassCm, "bcm", OptionValue{d.bypass_cm}, 0, 1, true},
      {kOptAdm3ApplyHm, "aah", OptionValue{d.adm3_apply_hm}, 0, 0, true},
      {kOptPNorm, "apn", OptionValue{d.p_norm}, 1.0, 20.0, true},
      {kOptDlmWeight, "dlmw", OptionValue{d.dlm_weight}, 0.0, 1.0, true},
      {kOptMinVal, "min", OptionValue{d.min_val}, 0.0, 1.0, true},
      {kOptF1[0], "f1s0", OptionValue{d.f1[0]}, -1.0, 10.0, true},
      {kOptF1[1], "f1s1", OptionValue{d.f1[1]}, -1.0, 10.0, true},
      {kOptF1[2], "f1s2", OptionValue{d.f1[2]}, -1.0, 10.0, true},
      {kOptF1[3], "f1s3", OptionValue{d.f1[3]}, -1.0, 10.0, true},
      {kOptF2[0], "f2s0", OptionValue{d.f2[0]}, -1.0, 10.0, true},
      {kOptF2[1], "f2s1", OptionValue{d.f2[1]}, -1.0, 10.0, true},
      {kOptF2[2], "f2s2", OptionValue{d.f2[2]}, -1.0, 10.0, true},
      {kOptF2[3], "f2s3", OptionValue{d.f2[3]}, -1.0, 10.0, true},
      {kOptSkipAimScale, "sasc", OptionValue{d.skip_aim_scale}, 0, 3, true},
      {kOptSkipScale0, "ssz", OptionValue{d.skip_scale0}, 0, 0, true},
  }};
  return kDefs;
}

// Outputs in slot order (float_adm.c extract(), renamed by alias.c): the
// scores, then with debug=true the combined score, its numerator and
// denominator and each scale's. The combined score "adm" never takes the
// option suffix, and models cannot name it: libvmaf names outputs through
// its provided-features list, which lacks "adm" but has the others under
// their own names.
inline constexpr std::array<OutputDef, 18> kOutputs = {{
    {"adm2"},
    {"aim"},
    {"adm3"},
    {"adm_scale0"},
    {"adm_scale1"},
    {"adm_scale2"},
    {"adm_scale3"},
    {.base = "adm", .when = {kOptDebug}, .suffixed = false},
    {.base = "adm_num", .when = {kOptDebug}, .provided = true},
    {.base = "adm_den", .when = {kOptDebug}, .provided = true},
    {.base = "adm_num_scale0", .when = {kOptDebug}, .provided = true},
    {.base = "adm_den_scale0", .when = {kOptDebug}, .provided = true},
    {.base = "adm_num_scale1", .when = {kOptDebug}, .provided = true},
    {.base = "adm_den_scale1", .when = {kOptDebug}, .provided = true},
    {.base = "adm_num_scale2", .when = {kOptDebug}, .provided = true},
    {.base = "adm_den_scale2", .when = {kOptDebug}, .provided = true},
    {.base = "adm_num_scale3", .when = {kOptDebug}, .provided = true},
    {.base = "adm_den_scale3", .when = {kOptDebug}, .provided = true},
}};

// The other feature names models use (float_adm.c provided_features,
// alias.c). "adm_scale0" is listed by libvmaf beside the scale-0 score's
// own name.
inline constexpr std::array<FeatureAlias, 8> kProvides = {{
    {"VMAF_feature_adm2_score", "adm2"},
    {"VMAF_feature_aim_score", "aim"},
    {"VMAF_feature_adm3_score", "adm3"},
    {"VMAF_feature_adm_scale0_score", "adm_scale0"},
    {"VMAF_feature_adm_scale1_score", "adm_scale1"},
    {"VMAF_feature_adm_scale2_score", "adm_scale2"},
    {"VMAF_feature_adm_scale3_score", "adm_scale3"},
    {"adm_scale0", "adm_scale0"},
}};

}  // namespace vqx::float_adm
