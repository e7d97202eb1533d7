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

// The log2 values of the model are in Q11 (log2(x) * 2048).
inline constexpr int kLogFracBits = 11;

// Every side of every scale must exceed the half width of the filters that
// run on it, or the mirrored border would need samples that do not exist
// (libvmaf then reads whatever lies in its padding). Scale 3 is the eighth
// of the picture and runs a 3-tap filter, so 16 is the smallest side.
inline constexpr unsigned kMinSide = 16;

// Options, named as libvmaf names them.
inline constexpr const char* kOptDebug = "debug";
inline constexpr const char* kOptGainLimit = "vif_enhn_gain_limit";
inline constexpr const char* kOptSkipScale0 = "vif_skip_scale0";
inline constexpr double kDefaultGainLimit = 100.0;  // DEFAULT_VIF_ENHN_GAIN_LIMIT

// libvmaf src/feature/integer_vif.c, options[]: name, alias, default, min,
// max and whether a non-default value renames the outputs.
inline std::span<const OptionDef> option_defs() {
  static const std::array<OptionDef, 3> kDefs = {{
      {kOptDebug, nullptr, OptionValue{false}, 0, 0, false},
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
