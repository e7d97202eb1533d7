// Float VIF ("float_vif" in libvmaf): the numbers and options.
//
// The measure (libvmaf/src/feature/float_vif.c, vif.c, vif_tools.c): the
// luma planes, as float samples minus 128 and optionally rescaled, are
// compared at four scales. At each scale a Gaussian filter gives local
// means and (co)variances of reference and distorted; every pixel adds a
// log2 information term to a numerator and a denominator; scale s + 1 is
// scale s filtered with the Gaussian of scale s + 1 and decimated by 2. A
// scale's score is its numerator over its denominator.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "core/family.hpp"
#include "core/options.hpp"

namespace vqx::float_vif {

inline constexpr int kScales = 4;

// The Gaussian filters (vif_tools.c, vif_get_filter_size and
// vif_get_filter): scale s has (2^(4 - s) + 1) * kernelscale taps rounded up
// to an odd count (at least 3) and a standard deviation of taps / 5.
inline constexpr int kFilterBaseExponent = 4;
inline constexpr unsigned kMinFilterTaps = 3;
inline constexpr float kTapsPerSigma = 5.0f;

// The kernel scales libvmaf accepts (vif_tools.h, valid_kernelscales: a
// float array, these expressions evaluated in float), and how close a
// requested one must be (vif_validate_kernelscale: |ks - v| < 1e-3).
inline constexpr std::array<float, 21> kValidKernelScales = {static_cast<float>(1.0),
                                                             1.0f / 2.0f,
                                                             3.0f / 2.0f,
                                                             2.0f,
                                                             2.0f / 3.0f,
                                                             24.0f / 10.0f,
                                                             360.0f / 97.0f,
                                                             4.0f / 3.0f,
                                                             3.5f / 3.0f,
                                                             3.75f / 3.0f,
                                                             4.25f / 3.0f,
                                                             5.0f / 3.0f,
                                                             3.0f,
                                                             1.0f / 2.25f,
                                                             1.4746f,
                                                             1.54f,
                                                             1.6f,
                                                             1.06667f,
                                                             0.711111f,
                                                             0.740740f,
                                                             1.111111f};
inline constexpr double kKernelScaleTolerance = 1e-3;

// The statistic (vif_tools.c, vif_statistic_s, "matching_matlab" mode):
// variances below kEps count as zero.
inline constexpr float kEps = 1.0e-10f;
// The flat-area term 1 - sigma2^2 * sigma_nsq^2 / 255^2 (sigma_max_inv).
inline constexpr double kMaxSampleSquared = 255.0 * 255.0;

// log2 as libvmaf approximates it (VIF_OPT_FAST_LOG2, log2f_approx): the
// exponent plus a degree-8 polynomial of the mantissa minus 1 (Horner, in
// float; coefficients from log2_poly_s, highest degree first).
inline constexpr std::array<float, 9> kLog2Poly = {static_cast<float>(-0.012671635276421),
                                                   static_cast<float>(0.064841182402670),
                                                   static_cast<float>(-0.157048836463065),
                                                   static_cast<float>(0.257167726303123),
                                                   static_cast<float>(-0.353800560300520),
                                                   static_cast<float>(0.480131410397451),
                                                   static_cast<float>(-0.721314327952201),
                                                   static_cast<float>(1.442694803896991),
                                                   0.0f};

// The float format's fields, as log2f_approx reads them.
inline constexpr std::uint32_t kExponentMask = 0x7F800000U;
inline constexpr std::uint32_t kMantissaMask = 0x007FFFFFU;
inline constexpr std::uint32_t kOneBits = 0x3F800000U;  // 1.0f
inline constexpr int kExponentBias = 127;
inline constexpr int kMantissaBits = 23;

// Option names as libvmaf spells them (float_vif.c, options[]).
inline constexpr const char* kOptDebug = "debug";
inline constexpr const char* kOptGainLimit = "vif_enhn_gain_limit";
inline constexpr const char* kOptKernelScale = "vif_kernelscale";
inline constexpr const char* kOptPrescale = "vif_prescale";
inline constexpr const char* kOptScale1MinVal = "vif_scale1_min_val";
inline constexpr const char* kOptScale2MinVal = "vif_scale2_min_val";
inline constexpr const char* kOptScale3MinVal = "vif_scale3_min_val";
inline constexpr const char* kOptPrescaleMethod = "vif_prescale_method";
inline constexpr const char* kOptSigmaNsq = "vif_sigma_nsq";
inline constexpr const char* kOptSkipScale0 = "vif_skip_scale0";

// The parsed options, with libvmaf's defaults (vif_options.h:
// DEFAULT_VIF_ENHN_GAIN_LIMIT, DEFAULT_VIF_KERNELSCALE,
// DEFAULT_VIF_PRESCALE, DEFAULT_VIF_PRESCALE_METHOD; float_vif.c:
// DEFAULT_VIF_MIN_VAL and the sigma_nsq default).
struct Params {
  bool debug = false;
  double gain_limit = 100.0;
  double kernelscale = 1.0;
  double prescale = 1.0;
  std::array<double, 3> min_val = {0.0, 0.0, 0.0};  // scales 1, 2, 3
  std::string prescale_method = "nearest";
  double sigma_nsq = 2.0;
  bool skip_scale0 = false;
};

// libvmaf float_vif.c, options[]: name, alias, default, min, max and
// whether a non-default value renames the outputs.
inline std::span<const OptionDef> option_defs() {
  static const Params d;
  static const std::array<OptionDef, 10> kDefs = {{
      {kOptDebug, nullptr, OptionValue{d.debug}, 0, 0, false, kSelectsOutputs},
      {kOptGainLimit, "egl", OptionValue{d.gain_limit}, 1.0, 100.0, true},
      {kOptKernelScale, "ks", OptionValue{d.kernelscale}, 0.1, 4.0, true},
      {kOptPrescale, "ps", OptionValue{d.prescale}, 0.1, 4.0, true},
      {kOptScale1MinVal, "s1miv", OptionValue{d.min_val[0]}, 0.0, 1.0, true},
      {kOptScale2MinVal, "s2miv", OptionValue{d.min_val[1]}, 0.0, 1.0, true},
      {kOptScale3MinVal, "s3miv", OptionValue{d.min_val[2]}, 0.0, 1.0, true},
      {kOptPrescaleMethod, "pm", OptionValue{d.prescale_method}, 0, 0, true},
      {kOptSigmaNsq, "snsq", OptionValue{d.sigma_nsq}, 0.0, 5.0, true},
      {kOptSkipScale0, "ssclz", OptionValue{d.skip_scale0}, 0, 0, true},
  }};
  return kDefs;
}

// Outputs in slot order (float_vif.c extract(), renamed by alias.c): the
// four scale scores, then with debug=true the combined score, its numerator
// and denominator and each scale's (provided to models under their own
// names, as libvmaf's extractor lists them).
inline constexpr std::array<OutputDef, 15> kOutputs = {{
    {"vif_scale0"},
    {"vif_scale1"},
    {"vif_scale2"},
    {"vif_scale3"},
    {.base = "vif", .when = {kOptDebug}, .provided = true},
    {.base = "vif_num", .when = {kOptDebug}, .provided = true},
    {.base = "vif_den", .when = {kOptDebug}, .provided = true},
    {.base = "vif_num_scale0", .when = {kOptDebug}, .provided = true},
    {.base = "vif_den_scale0", .when = {kOptDebug}, .provided = true},
    {.base = "vif_num_scale1", .when = {kOptDebug}, .provided = true},
    {.base = "vif_den_scale1", .when = {kOptDebug}, .provided = true},
    {.base = "vif_num_scale2", .when = {kOptDebug}, .provided = true},
    {.base = "vif_den_scale2", .when = {kOptDebug}, .provided = true},
    {.base = "vif_num_scale3", .when = {kOptDebug}, .provided = true},
    {.base = "vif_den_scale3", .when = {kOptDebug}, .provided = true},
}};

// The names models use for the scale scores (float_vif.c
// provided_features, alias.c).
inline constexpr std::array<FeatureAlias, 4> kProvides = {{
    {"VMAF_feature_vif_scale0_score", "vif_scale0"},
    {"VMAF_feature_vif_scale1_score", "vif_scale1"},
    {"VMAF_feature_vif_scale2_score", "vif_scale2"},
    {"VMAF_feature_vif_scale3_score", "vif_scale3"},
}};

}  // namespace vqx::float_vif
