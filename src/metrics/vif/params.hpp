// Constants of the integer VIF feature ("vif" in libvmaf): the Gaussian
// filter of each scale in 16-bit fixed point, the noise variance, the output
// names, the option table and the names models use.
//
// The numbers are facts of libvmaf's integer VIF and must stay exactly as
// they are for bit-exact results; they come from libvmaf
// src/feature/integer_vif.h (vif_filter1d_table, vif_filter1d_width,
// DEFAULT_VIF_ENHN_GAIN_LIMIT) and src/feature/integer_vif.c (sigma_nsq,
// the options table, provided_features) and src/feature/alias.c.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "core/family.hpp"
#include "core/options.hpp"

namespace vqx::vif {

inline constexpr int kScaleCount = 4;

// One symmetric 1-D filter: `half` taps either side of the centre tap.
// Every filter's taps sum to 65536 (unity gain in Q16).
struct Filter {
  std::span<const std::uint16_t> taps;  // 2 * half + 1 taps
  int half;
};

// Source: libvmaf src/feature/integer_vif.h, vif_filter1d_table.
inline constexpr std::array<std::uint16_t, 17> kTaps0 = {489,  935,  1640, 2640, 3896, 5274,
                                                         6547, 7455, 7784, 7455, 6547, 5274,
                                                         3896, 2640, 1640, 935,  489};
inline constexpr std::array<std::uint16_t, 9> kTaps1 = {1244,  3663, 7925, 12590, 14692,
                                                        12590, 7925, 3663, 1244};
inline constexpr std::array<std::uint16_t, 5> kTaps2 = {3571, 16004, 26386, 16004, 3571};
inline constexpr std::array<std::uint16_t, 3> kTaps3 = {10904, 43728, 10904};

// The statistics of scale s use filter s; the image of scale s + 1 is
// filter s + 1 applied to scale s, then every second row and column.
inline constexpr std::array<Filter, kScaleCount> kFilters = {{
    {kTaps0, 8},
    {kTaps1, 4},
    {kTaps2, 2},
    {kTaps3, 1},
}};
inline constexpr int kMaxHalf = 8;

// The additive noise variance of the model, 2.0 in Q16.
inline constexpr std::int32_t kSigmaNsq = 2 * 65536;
// Its log2: the den terms log2(1 + sigma1^2 / sigma_nsq) are taken as
// log2(sigma_nsq + sigma1^2) - 17 (integer_vif.c, vif_statistic_8 etc.).
inline constexpr int kLog2SigmaNsq = 17;
static_assert(kSigmaNsq == 1 << kLog2SigmaNsq);

// The log2 values of the model are in Q11 (log2(x) * 2048).
inline constexpr int kLogFracBits = 11;
inline constexpr std::int32_t kLogOne = 1 << kLogFracBits;  // log2(2) in Q11
// The log2 table (log2_q11_table() in cpu.hpp) is indexed by the top 16
// significant bits of a value; each bit dropped below them adds kLogOne.
inline constexpr int kLog2TableBits = 16;
// The layout of an IEEE 754 double, from which the CPU kernels read the log2
// of an integer they hold exactly (vif/cpu.cpp, simd.cpp, simd_reference.cpp).
inline constexpr int kDoubleMantissaBits = 52;
inline constexpr int kDoubleExponentBias = 1023;

// The gain g = sigma12 / (sigma1^2 + eps), with libvmaf's eps (1e-10 in
// the units of the Q16 variances).
inline constexpr double kGainEps = 65536 * 1.0e-10;

// --- Fixed-point roundings, the same in both twins -------------------------
// (cpu.cpp and gpu.cu; integer_vif.c for every one of them.)

// The taps are Q16, so a filter sum of 16-bit values comes back to 16 bits
// by a rounded shift of kTapBits: (v + 2^15) >> 16, in v's type.
inline constexpr int kTapBits = 16;
inline constexpr std::uint32_t kTapHalf = 1U << (kTapBits - 1);
template <typename T>
[[nodiscard]] constexpr T round_taps(T v) {
  return (v + T{kTapHalf}) >> kTapBits;
}

// The product of two 16-bit means, rounded to its top 32 bits
// (mu1 * mu1, mu2 * mu2 and mu1 * mu2 of the variances).
[[nodiscard]] constexpr std::uint32_t mean_product(std::uint64_t a, std::uint64_t b) {
  return static_cast<std::uint32_t>((a * b + 0x80000000U) >> 32);
}

// A rounded right shift: (v + add) >> shift.
struct Rounding {
  std::uint32_t add;
  int shift;
};

// How the vertical pass of scale `scale`'s filter brings its sums back to
// 16 bits. Scale 0 comes in at bpc bits, so its means shift by bpc (the
// filter gain is 2^16) and its second moments by 2 * (bpc - 8): 8-bit
// squares are kept whole (shift 0, nothing added). The other scales are
// 16-bit already and shift by kTapBits. The means' rounding is also the
// vertical rounding of the filter that makes scale + 1 from scale.
[[nodiscard]] constexpr Rounding mean_rounding(int scale, unsigned bpc) {
  if (scale > 0) return {kTapHalf, kTapBits};
  return {1U << (bpc - 1), static_cast<int>(bpc)};
}
[[nodiscard]] constexpr Rounding square_rounding(int scale, unsigned bpc) {
  if (scale > 0) return {kTapHalf, kTapBits};
  const int shift = 2 * (static_cast<int>(bpc) - 8);
  return {shift == 0 ? 0U : 1U << (shift - 1), shift};
}

// Every side of every scale must exceed the half width of the filters that
// run on it, or the mirrored border would need samples that do not exist
// (libvmaf then reads whatever lies in its padding). Scale 3 is the eighth
// of the picture and runs a 3-tap filter, so 16 is the smallest side.
inline constexpr unsigned kMinSide = 16;
// The sample depths VIF takes (as libvmaf's integer VIF).
inline constexpr unsigned kMinBpc = 8;
inline constexpr unsigned kMaxBpc = 16;

// Options, named as libvmaf names them.
inline constexpr const char* kOptDebug = "debug";
inline constexpr const char* kOptGainLimit = "vif_enhn_gain_limit";
inline constexpr const char* kOptSkipScale0 = "vif_skip_scale0";
inline constexpr double kDefaultGainLimit = 100.0;  // DEFAULT_VIF_ENHN_GAIN_LIMIT

// libvmaf src/feature/integer_vif.c, options[]: name, alias, default, min,
// max and whether a non-default value renames the outputs.
inline std::span<const OptionDef> option_defs() {
  static const std::array<OptionDef, 3> kDefs = {{
      {kOptDebug, nullptr, OptionValue{false}, 0, 0, false, kSelectsOutputs},
      {kOptGainLimit, "egl", OptionValue{kDefaultGainLimit}, 1.0, kDefaultGainLimit, true},
      {kOptSkipScale0, "ssclz", OptionValue{false}, 0, 0, true},
  }};
  return kDefs;
}

// Outputs in slot order: the four scale scores, then (debug only) the
// combined score, its numerator and denominator, and each scale's numerator
// and denominator.
inline constexpr std::array<OutputDef, 15> kOutputs = {{
    {"integer_vif_scale0"},
    {"integer_vif_scale1"},
    {"integer_vif_scale2"},
    {"integer_vif_scale3"},
    {.base = "integer_vif", .when = {kOptDebug}, .provided = true},
    {.base = "integer_vif_num", .when = {kOptDebug}, .provided = true},
    {.base = "integer_vif_den", .when = {kOptDebug}, .provided = true},
    {.base = "integer_vif_num_scale0", .when = {kOptDebug}, .provided = true},
    {.base = "integer_vif_den_scale0", .when = {kOptDebug}, .provided = true},
    {.base = "integer_vif_num_scale1", .when = {kOptDebug}, .provided = true},
    {.base = "integer_vif_den_scale1", .when = {kOptDebug}, .provided = true},
    {.base = "integer_vif_num_scale2", .when = {kOptDebug}, .provided = true},
    {.base = "integer_vif_den_scale2", .when = {kOptDebug}, .provided = true},
    {.base = "integer_vif_num_scale3", .when = {kOptDebug}, .provided = true},
    {.base = "integer_vif_den_scale3", .when = {kOptDebug}, .provided = true},
}};

// The names models use for the scale scores (libvmaf src/feature/alias.c;
// the debug outputs are provided under their own names).
inline constexpr std::array<FeatureAlias, 4> kProvides = {{
    {"VMAF_integer_feature_vif_scale0_score", "integer_vif_scale0"},
    {"VMAF_integer_feature_vif_scale1_score", "integer_vif_scale1"},
    {"VMAF_integer_feature_vif_scale2_score", "integer_vif_scale2"},
    {"VMAF_integer_feature_vif_scale3_score", "integer_vif_scale3"},
}};

}  // namespace vqx::vif
