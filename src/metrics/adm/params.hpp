// Integer ADM (Additive/Detail-loss Metric): options, their defaults and the
// fixed numbers of the algorithm. Everything here must agree with libvmaf's
// integer ADM extractor ("adm" on its command line); the source of every
// number is named next to it (paths relative to libvmaf/src/feature/).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "core/family.hpp"
#include "core/kernel_build.hpp"
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

// --- Fixed-point arithmetic, the same in both twins ------------------------
// (dwt.cpp, decouple.cpp, masking.cpp and gpu.cu; integer_adm.c for every
// number.)

// libvmaf's C code does these on int32_t and relies on the hardware
// wrapping in the (pathological) cases where they overflow; these give the
// same bits without undefined behaviour.
[[nodiscard]] constexpr std::int32_t wrap_abs(std::int32_t v) {
  return v < 0 ? static_cast<std::int32_t>(0U - static_cast<std::uint32_t>(v)) : v;
}
[[nodiscard]] constexpr std::int32_t wrap_add(std::int32_t a, std::int32_t b) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}
[[nodiscard]] constexpr std::int32_t wrap_sub(std::int32_t a, std::int32_t b) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) - static_cast<std::uint32_t>(b));
}
[[nodiscard]] constexpr std::int32_t wrap_shl(std::int32_t v, int s) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(v) << s);
}

// The wavelet transform, scale 0 (adm_dwt2_8, adm_dwt2_16): the vertical
// pass centres the bpc-bit samples on zero and rounds, in 32-bit unsigned
// arithmetic: the low-pass sum gets half - kDb2LoSum * half added, the
// high-pass sum half (its taps sum to zero), half = 2^(bpc - 1), before the
// shift by bpc. The horizontal pass: (sum + 2^15) >> 16.
struct Dwt0Bias {
  std::uint32_t lo;
  std::uint32_t hi;
};
[[nodiscard]] constexpr Dwt0Bias dwt0_bias(int bpc) {
  const std::uint32_t half = 1U << (bpc - 1);
  return {half - static_cast<std::uint32_t>(kDb2LoSum) * half, half};
}
inline constexpr std::int32_t kDwt0HorzAdd = 1 << 15;
inline constexpr int kDwt0HorzShift = 16;

// Scales 1..3 (adm_dwt2_s123_combined): each pass's sums, in int64, become
// (sum + add) >> shift; the vertical pass keeps full precision at scale 1.
struct DwtRounding {
  std::int64_t vert_add;
  int vert_shift;
  std::int64_t horz_add;
  int horz_shift;
};
inline constexpr std::array<DwtRounding, 3> kDwtRoundings = {{
    {0, 0, 16384, 15},
    {32768, 16, 32768, 16},
    {32768, 16, 16384, 15},
}};
[[nodiscard]] constexpr DwtRounding dwt_rounding(int scale) {  // scale 1..3
  return kDwtRoundings[static_cast<std::size_t>(scale - 1)];
}

// Decoupling (adm_decouple, adm_decouple_s123): k = t / o in Q15, clamped
// to [0, 1] (1 where o = 0), and the restored coefficient r = k * o rounded
// back from Q15. Scales 1..3 first round a denominator of 2^15 or more to
// its 15 leading bits (get_best15_from32).
inline constexpr int kRatioFracBits = 15;
inline constexpr std::int32_t kRatioOne = 1 << kRatioFracBits;
inline constexpr std::int32_t kRatioHalf = kRatioOne / 2;
inline constexpr int kDivisorBits = 15;
template <typename W>
[[nodiscard]] constexpr W restore_product(W k, W o) {
  return (k * o + kRatioHalf) >> kRatioFracBits;
}
// The angle test divides the dot products (rounded to float) by 4096.
inline constexpr double kAngleScale = 4096.0;

// v >> s, arithmetic, for a signed 64-bit v and 0 <= s < 64. On the CPU
// written as a logical shift of the value biased by 2^63 (then unbiased):
// AVX2 has no 64-bit arithmetic shift, and the vectoriser gives up on loops
// that need one. A GPU shifts plainly (the bias cost the ADM twin's kernels
// a dozen instructions each).
[[nodiscard]] VQX_FORCE_INLINE constexpr std::int64_t shift_right(std::int64_t v, int s) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return v >> s;
#else
  constexpr std::uint64_t kBias = std::uint64_t{1} << 63;
  return static_cast<std::int64_t>(((static_cast<std::uint64_t>(v) ^ kBias) >> s) - (kBias >> s));
#endif
}

// CSF weighting. Scale 0 (adm_csf): the product of a coefficient and its
// weight, h and v in Q21, shifted by 15 with 2^14 added, d in Q23 shifted by
// 17 with libvmaf's 65535 added; each truncated to int16.
[[nodiscard]] constexpr std::int16_t csf0_hv(std::int32_t product) {
  return static_cast<std::int16_t>((product + 16384) >> 15);
}
[[nodiscard]] constexpr std::int16_t csf0_d(std::int32_t product) {
  return static_cast<std::int16_t>((product + 65535) >> 17);
}
// Scales 1..3 (i4_adm_csf): a Q32 weight times the coefficient, kept in
// Q28 units: (product + kCsfNAdd) >> kCsfNShift, in int64.
inline constexpr std::int64_t kCsfNAdd = std::int64_t{1} << 27;
inline constexpr int kCsfNShift = 28;
[[nodiscard]] VQX_FORCE_INLINE constexpr std::int32_t csf_n(std::int64_t product) {
  return static_cast<std::int32_t>(shift_right(product + kCsfNAdd, kCsfNShift));
}

// The masking filter's terms |c| / 30 and |c| / 15. Scale 0: the Q12
// reciprocals, rounded, truncated to 16 bits.
[[nodiscard]] constexpr std::int16_t div30_q12(std::int32_t m) {
  return static_cast<std::int16_t>((kOneBy30Q12 * m + 2048) >> 12);
}
[[nodiscard]] constexpr std::int16_t div15_q12(std::int32_t m) {
  return static_cast<std::int16_t>((kOneBy15Q12 * m + 2048) >> 12);
}
// Scales 1..3: the Q32 reciprocals times m, plus kQ32Bias, shifted by 32
// (in int64). libvmaf's rounding constant here is (1u << 31) stored in an
// int32_t, i.e. -2^31: the quotient is rounded down from one half below, and
// that is what must be reproduced.
inline constexpr std::int64_t kQ32Bias = -(std::int64_t{1} << 31);
inline constexpr int kQ32Shift = 32;

[[nodiscard]] VQX_FORCE_INLINE constexpr std::int32_t div30_q32(std::int32_t m) {
  return static_cast<std::int32_t>(shift_right(kOneBy30Q32 * m + kQ32Bias, kQ32Shift));
}
[[nodiscard]] VQX_FORCE_INLINE constexpr std::int32_t div15_q32(std::int32_t m) {
  return static_cast<std::int32_t>(shift_right(kOneBy15Q32 * m + kQ32Bias, kQ32Shift));
}

// Rounding of the cube x^3 in the numerator, per band (adm_cm, i4_adm_cm;
// the values per scale: sum_consts() in cpu.hpp).
struct CubeRounding {
  int thr_shift;  // threshold is brought to the Q format of x (scale 0)
  std::int64_t sq_add;
  int sq_shift;  // x^2 is rounded to 32 bits
  std::int64_t cub_add;
  int cub_shift;  // x^2 * x is rounded before summing
};
// max(|x| - thr, 0)^3 with those roundings.
[[nodiscard]] VQX_FORCE_INLINE constexpr std::int64_t masked_cube(std::int32_t x, std::int32_t thr,
                                                                  const CubeRounding& r) {
  std::int32_t m = wrap_sub(wrap_abs(x), wrap_shl(thr, r.thr_shift));
  m = m < 0 ? 0 : m;
  const auto sq =
      static_cast<std::int32_t>(shift_right(std::int64_t{m} * m + r.sq_add, r.sq_shift));
  return shift_right(std::int64_t{sq} * m + r.cub_add, r.cub_shift);
}

// The denominator's cube |o|^3 at scales 1..3 (adm_csf_den_s123): x^2 and
// then x^3 rounded, in uint64.
struct RefCubeRounding {
  std::uint64_t sq_add;
  int sq_shift;
  std::uint64_t cub_add;
  int cub_shift;
};
[[nodiscard]] constexpr std::uint64_t rounded_cube(std::uint64_t m, std::uint64_t sq_add,
                                                   int sq_shift, std::uint64_t cub_add,
                                                   int cub_shift) {
  return ((((m * m) + sq_add) >> sq_shift) * m + cub_add) >> cub_shift;
}

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
      {kOptDebug, nullptr, OptionValue{d.debug}, 0, 0, false, kSelectsOutputs},
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
