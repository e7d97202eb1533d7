// SSIM and MS-SSIM (libvmaf's "float_ssim" and "float_ms_ssim"): the
// numbers and options, written once.
//
// Both measures work on the luma plane as floats in 8-bit units (a sample
// divided by 2^(bpc - 8)). SSIM's statistics come from an 11x11 Gaussian
// window applied separably, only where it fits inside the picture (the
// "valid" region, (w - 10) x (h - 10)). float_ssim first box-filters and
// subsamples the picture by a scale factor; float_ms_ssim evaluates five
// scales, each the previous one low-passed (9x9) and subsampled by 2.
//
// Sources: libvmaf src/feature/iqa/ssim_tools.h and ssim_tools.c (window,
// constants, the SSIM terms), src/feature/ssim.c (float_ssim scaling),
// src/feature/ms_ssim.c (low-pass filter, scale weights, size check),
// src/feature/iqa/decimate.c and convolve.c (subsampling, borders),
// src/feature/float_ssim.c and float_ms_ssim.c (options, dB conversion,
// output names), src/feature/picture_copy.c (sample scaling).
#pragma once

#include <array>
#include <span>

#include "core/family.hpp"
#include "core/options.hpp"

namespace vqx::ssim {

// ---------------------------------------------------------------------------
// The SSIM window

// 11-tap Gaussian (sigma 1.5), applied horizontally then vertically.
// Source: ssim_tools.h, g_gaussian_window_h (= g_gaussian_window_v).
inline constexpr int kWindow = 11;
inline constexpr std::array<float, kWindow> kGaussian = {0.001028f, 0.007599f, 0.036001f, 0.109361f,
                                                         0.213006f, 0.266012f, 0.213006f, 0.109361f,
                                                         0.036001f, 0.007599f, 0.001028f};

// Stabilising constants, C1 = (K1 L)^2, C2 = (K2 L)^2, C3 = C2 / 2, computed
// in float with L = 255 whatever the bit depth (samples are scaled to 8-bit
// units first). Source: ssim_tools.c, _iqa_ssim().
inline constexpr float kK1 = 0.01f;
inline constexpr float kK2 = 0.03f;
inline constexpr float kDynamicRange = 255.0f;
inline constexpr float kC1 = (kK1 * kDynamicRange) * (kK1 * kDynamicRange);
inline constexpr float kC2 = (kK2 * kDynamicRange) * (kK2 * kDynamicRange);
inline constexpr float kC3 = kC2 / 2.0f;
// Their float bits, as every compiler of the twins must evaluate them
// (g++ for the CPU twin, nvcc's and hipcc's front ends for the GPU twin).
static_assert(kC1 == 0x1.a028f4p+2f && kC2 == 0x1.d42e12p+5f && kC3 == 0x1.d42e12p+4f);

// What a bpc-bit sample is multiplied by to bring it to 8-bit units:
// 2^-(bpc - 8), exact in float, so the product equals libvmaf's division by
// 4, 16 or 256 (feature/picture_copy.c). Both twins convert so.
[[nodiscard]] constexpr float sample_unit(unsigned bpc) {
  return 1.0f / static_cast<float>(1U << (bpc - 8));
}

// ---------------------------------------------------------------------------
// The order of the sums over the window positions
//
// libvmaf adds the per-position terms in one chain, in row-major order
// (ssim_tools.c, _iqa_ssim), which a GPU cannot follow without running the
// chain on one thread. Both VQX twins add them in this fixed order instead
// (docs/metrics.md, docs/gpu.md): within a row, runs of kSumSegment
// positions each summed in order from 0, the runs of a group of
// kSumGroup positions summed in order from 0, the groups of the row in
// order from 0; then the rows in order from 0, all in double. The means are
// rounded to float, as libvmaf's are, so the order shows only where a sum
// lies within a few double ulps of a float's rounding boundary.
inline constexpr int kSumSegment = 16;
inline constexpr int kSumGroup = 256;
static_assert(kSumGroup % kSumSegment == 0);

// ---------------------------------------------------------------------------
// float_ssim's subsampling

// Automatic scale factor: max(1, round(min(w, h) / 256)), rounding halves
// up. Source: ssim.c, compute_ssim(); math_utils.c, _round().
inline constexpr int kAutoScaleDivisor = 256;
inline constexpr int kMaxScale = 10;  // the "scale" option's bound

// The factor float_ssim subsamples by: the "scale" option when it is given
// (1 to kMaxScale), else the automatic one.
[[nodiscard]] constexpr int scale_factor(int option, unsigned width, unsigned height) {
  if (option > 0) return option;
  const unsigned shorter = width < height ? width : height;
  const unsigned rounded = (shorter + kAutoScaleDivisor / 2) / kAutoScaleDivisor;
  return rounded > 1 ? static_cast<int>(rounded) : 1;
}
static_assert(scale_factor(0, 1920, 1080) == 4 && scale_factor(0, 3840, 2160) == 8 &&
              scale_factor(0, 640, 384) == 2 && scale_factor(0, 640, 383) == 1 &&
              scale_factor(3, 1920, 1080) == 3);

// float_ssim's box filter: factor x factor taps, each 1 / factor^2 rounded
// to float (ssim.c builds it so).
[[nodiscard]] constexpr float box_tap(int factor) {
  return 1.0f / static_cast<float>(factor * factor);
}
static_assert(box_tap(3) == 0x1.c71c72p-4f && box_tap(10) == 0x1.47ae14p-7f);

// ---------------------------------------------------------------------------
// MS-SSIM

inline constexpr int kScales = 5;  // ssim_tools.h, SCALES

// The 9x9 low-pass filter applied before each subsampling by 2 (the 9/7
// biorthogonal wavelet's analysis low-pass, as a 2-D table; libvmaf uses the
// table, not the product of its 1-D taps). Row by row, 9 taps per row.
// Source: ms_ssim.c, g_lpf.
inline constexpr int kLpfSize = 9;
inline constexpr int kLpfFactor = 2;  // the subsampling after it, per scale
inline constexpr int kLpfTaps = kLpfSize * kLpfSize;
inline constexpr std::array<float, kLpfTaps> kLowPass = {
    0.000714f, -0.000450f, -0.002090f, 0.007132f,  0.016114f,  0.007132f,  -0.002090f, -0.000450f,
    0.000714f, -0.000450f, 0.000283f,  0.001316f,  -0.004490f, -0.010146f, -0.004490f, 0.001316f,
    0.000283f, -0.000450f, -0.002090f, 0.001316f,  0.006115f,  -0.020867f, -0.047149f, -0.020867f,
    0.006115f, 0.001316f,  -0.002090f, 0.007132f,  -0.004490f, -0.020867f, 0.071207f,  0.160885f,
    0.071207f, -0.020867f, -0.004490f, 0.007132f,  0.016114f,  -0.010146f, -0.047149f, 0.160885f,
    0.363505f, 0.160885f,  -0.047149f, -0.010146f, 0.016114f,  0.007132f,  -0.004490f, -0.020867f,
    0.071207f, 0.160885f,  0.071207f,  -0.020867f, -0.004490f, 0.007132f,  -0.002090f, 0.001316f,
    0.006115f, -0.020867f, -0.047149f, -0.020867f, 0.006115f,  0.001316f,  -0.002090f, -0.000450f,
    0.000283f, 0.001316f,  -0.004490f, -0.010146f, -0.004490f, 0.001316f,  0.000283f,  -0.000450f,
    0.000714f, -0.000450f, -0.002090f, 0.007132f,  0.016114f,  0.007132f,  -0.002090f, -0.000450f,
    0.000714f,
};

// Exponents of the luminance, contrast and structure terms per scale
// (Wang, Simoncelli and Bovik 2003). Source: ms_ssim.c, g_alphas, g_betas,
// g_gammas.
inline constexpr std::array<float, kScales> kAlphas = {0.0000f, 0.0000f, 0.0000f, 0.0000f, 0.1333f};
inline constexpr std::array<float, kScales> kBetas = {0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f};
inline constexpr std::array<float, kScales> kGammas = {0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f};

// libvmaf refuses a picture unless each side, halved (rounding down) once
// per scale below the last, still holds the window: floor(side / 16) >= 11,
// i.e. side >= 176 (ms_ssim.c: "error: scale below 1x1!"). The scales it
// then computes halve rounding up, so they are never smaller than that.
inline constexpr unsigned kMsSsimMinSide = kWindow << (kScales - 1);
static_assert(kMsSsimMinSide == 176);

// ---------------------------------------------------------------------------
// Options and outputs (float_ssim.c, float_ms_ssim.c: options[]). None is a
// feature parameter, so none renames the outputs.

inline constexpr const char* kOptEnableLcs = "enable_lcs";
inline constexpr const char* kOptEnableDb = "enable_db";
inline constexpr const char* kOptClipDb = "clip_db";
inline constexpr const char* kOptScale = "scale";

inline std::span<const OptionDef> ssim_option_defs() {
  static const std::array<OptionDef, 4> kDefs = {{
      {kOptEnableLcs, nullptr, OptionValue{false}, 0, 0, false, kSelectsOutputs},
      {kOptEnableDb, nullptr, OptionValue{false}, 0, 0, false},
      {kOptClipDb, nullptr, OptionValue{false}, 0, 0, false},
      // 0 = automatic, 1 = full resolution, 2..10 = that factor.
      {kOptScale, nullptr, OptionValue{0}, 0, kMaxScale, false},
  }};
  return kDefs;
}

inline std::span<const OptionDef> ms_ssim_option_defs() {
  static const std::array<OptionDef, 3> kDefs = {{
      {kOptEnableLcs, nullptr, OptionValue{false}, 0, 0, false, kSelectsOutputs},
      {kOptEnableDb, nullptr, OptionValue{false}, 0, 0, false},
      {kOptClipDb, nullptr, OptionValue{false}, 0, 0, false},
  }};
  return kDefs;
}

// Outputs in slot order: the score, then with enable_lcs the means of the
// luminance, contrast and structure terms (MS-SSIM: per scale).
inline constexpr std::array<OutputDef, 4> kSsimOutputs = {{
    {"float_ssim"},
    {.base = "float_ssim_l", .when = {kOptEnableLcs}},
    {.base = "float_ssim_c", .when = {kOptEnableLcs}},
    {.base = "float_ssim_s", .when = {kOptEnableLcs}},
}};
inline constexpr std::array<OutputDef, 1 + 3 * kScales> kMsSsimOutputs = {{
    {"float_ms_ssim"},
    {.base = "float_ms_ssim_l_scale0", .when = {kOptEnableLcs}},
    {.base = "float_ms_ssim_l_scale1", .when = {kOptEnableLcs}},
    {.base = "float_ms_ssim_l_scale2", .when = {kOptEnableLcs}},
    {.base = "float_ms_ssim_l_scale3", .when = {kOptEnableLcs}},
    {.base = "float_ms_ssim_l_scale4", .when = {kOptEnableLcs}},
    {.base = "float_ms_ssim_c_scale0", .when = {kOptEnableLcs}},
    {.base = "float_ms_ssim_c_scale1", .when = {kOptEnableLcs}},
    {.base = "float_ms_ssim_c_scale2", .when = {kOptEnableLcs}},
    {.base = "float_ms_ssim_c_scale3", .when = {kOptEnableLcs}},
    {.base = "float_ms_ssim_c_scale4", .when = {kOptEnableLcs}},
    {.base = "float_ms_ssim_s_scale0", .when = {kOptEnableLcs}},
    {.base = "float_ms_ssim_s_scale1", .when = {kOptEnableLcs}},
    {.base = "float_ms_ssim_s_scale2", .when = {kOptEnableLcs}},
    {.base = "float_ms_ssim_s_scale3", .when = {kOptEnableLcs}},
    {.base = "float_ms_ssim_s_scale4", .when = {kOptEnableLcs}},
}};

// Model feature names (libvmaf provided_features; no alias in alias.c).
inline constexpr std::array<FeatureAlias, 1> kSsimProvides = {{{"float_ssim", "float_ssim"}}};
inline constexpr std::array<FeatureAlias, 1> kMsSsimProvides = {
    {{"float_ms_ssim", "float_ms_ssim"}}};

}  // namespace vqx::ssim
