// CAMBI (Contrast Aware Multiscale Banding Index, libvmaf's "cambi"
// extractor): the numbers and options, written once.
//
// The measure, on the luma of one picture (the distorted one; with full_ref
// also the reference): convert to 10 bits (resampled to the encoding size
// when that is smaller; 2x2 anti-dithering average when the encode had fewer
// than 10 bits); mark "flat" pixels (more than a threshold of the 7x7
// neighbours with zero horizontal and vertical derivative); then at 5 scales
// (each the previous one decimated by 2, after a 3x3 mode filter) give every
// flat pixel a contrast value from the counts of its own and of nearby luma
// levels in a window around it, and average the largest topk of them. The
// score is the weighted sum of the 5 averages over the window's pixel count.
//
// Sources: libvmaf src/feature/cambi.c (defines, g_scale_weights,
// g_contrast_weights, options[], init(), adjust_window_size(),
// get_mask_index()), src/feature/cambi.h (reciprocal_lut) and
// src/feature/luminance_tools.c (BT.1886 and PQ constants, luma range).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "core/options.hpp"

namespace vqx::cambi {

inline constexpr unsigned kScaleCount = 5;
// Weight of each scale's pooled score (cambi.c, g_scale_weights).
inline constexpr std::array<int, kScaleCount> kScaleWeights = {16, 8, 4, 2, 1};

// Suprathreshold contrast response: the weight of a level difference of
// d + 1 (cambi.c, g_contrast_weights). max_log_contrast <= 5 uses at most 32.
inline constexpr std::array<int, 32> kContrastWeights = {
    1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};

// CAMBI works on 10-bit luma whatever the input depth.
inline constexpr unsigned kWorkBitDepth = 10;
// Limited-range 10-bit luma: black and white levels (luminance_tools.c,
// range_foot_head: 16 and 235 scaled by 2^(10-8)).
inline constexpr int kLumaFoot = 16 << 2;
inline constexpr int kLumaHead = 235 << 2;
inline constexpr int kMaxWorkValue = (1 << kWorkBitDepth) - 1;

// Anti-dithering applies when the encode had fewer bits than this.
inline constexpr unsigned kAntiDitherBelowBitDepth = 10;

// The flatness mask: a pixel is flat when more than
// (7 * 7 + 3 * (ceil_log2((w >> 6) * (h >> 6)) - 11) - 1) >> 1 pixels of its
// 7x7 neighbourhood have zero derivative (cambi.c, MASK_FILTER_SIZE,
// get_mask_index()).
inline constexpr int kMaskFilterSize = 7;
inline constexpr int kMaskRadius = kMaskFilterSize / 2;
inline constexpr unsigned kMaskSizeShift = 6;
inline constexpr int kMaskLogOffset = 11;
inline constexpr int kMaskLogFactor = 3;

// CAMBI refuses pictures whose encoding width and height are both below this
// (cambi.c, CAMBI_MIN_WIDTH_HEIGHT).
inline constexpr unsigned kMinDimension = 216;

// The window is given for 4K and scaled by (w + h) / (3840 + 2160):
// ((window * (w + h)) / 375) >> 4, since 375 * 16 = 6000 (cambi.c,
// adjust_window_size()); halved (rounding up) with the high-resolution
// speed-up, then made odd.
inline constexpr unsigned kWindowDivisor = 375;
inline constexpr unsigned kWindowShift = 4;

// High-resolution speed-up thresholds in pixels (cambi.c,
// CAMBI_HIGH_RES_SPEEDUP_THRESHOLD_*): hrs=1080 applies from 1920x1080 up,
// and so on; any other value turns it off.
inline constexpr long kHrsPixels1080 = 1920L * 1080L;
inline constexpr long kHrsPixels1440 = 2560L * 1440L;
inline constexpr long kHrsPixels2160 = 3840L * 2160L;

// libvmaf divides by the sum of two window counts through a table of
// reciprocals of this size, and refuses windows whose pixel count does not
// fit it (cambi.h, CAMBI_RECIPROCAL_LUT_SIZE; cambi.c, init()).
inline constexpr int kReciprocalLutSize = 4226;
// The table's entries are 1 / i written with this many significant digits
// and read back as float (cambi.h, reciprocal_lut); that differs from
// 1.0f / i at 42 of the indices.
inline constexpr int kReciprocalDigits = 9;

// BT.1886 EOTF (luminance_tools.c, BT1886_GAMMA, BT1886_LW, BT1886_LB).
inline constexpr double kBt1886Gamma = 2.4;
inline constexpr double kBt1886White = 300.0;
inline constexpr double kBt1886Black = 0.01;
// SMPTE ST 2084 (PQ) EOTF (luminance_tools.c, vmaf_luminance_pq_eotf).
inline constexpr double kPqM1 = 0.1593017578125;
inline constexpr double kPqM2 = 78.84375;
inline constexpr double kPqC1 = 0.8359375;
inline constexpr double kPqC2 = 18.8515625;
inline constexpr double kPqC3 = 18.6875;
inline constexpr double kPqPeak = 10000.0;

// Option defaults (cambi.c, DEFAULT_CAMBI_*).
inline constexpr double kDefaultMaxVal = 1000.0;
inline constexpr int kDefaultWindowSize = 65;
inline constexpr double kDefaultTopk = 0.6;
inline constexpr double kDefaultTvi = 0.019;
inline constexpr double kDefaultVlt = 0.0;
inline constexpr int kDefaultMaxLogContrast = 2;
inline constexpr const char* kDefaultEotf = "bt1886";

// Names, aliases, defaults, bounds and flags as libvmaf's cambi.c
// `options[]`, in the same order. A default outside the bounds (0 for the
// sizes and the bit depth: "take the picture's") can only be had by leaving
// the option out, as in libvmaf.
inline std::span<const OptionDef> option_defs() {
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
      {"max_log_contrast", "mlc", OptionValue{kDefaultMaxLogContrast}, 0, 5, true},
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

enum class Eotf { kBt1886, kPq };

// The parsed options of one configuration, with libvmaf's precedence rules
// already applied (a non-default topk wins over cambi_topk; a non-default
// cambi_eotf wins over eotf).
struct Params {
  double max_val = kDefaultMaxVal;
  unsigned enc_width = 0;  // 0: the picture's
  unsigned enc_height = 0;
  unsigned enc_bitdepth = 0;  // 0: the picture's
  unsigned src_width = 0;     // 0: the picture's
  unsigned src_height = 0;
  unsigned window_size = kDefaultWindowSize;
  double topk = kDefaultTopk;
  double tvi_threshold = kDefaultTvi;
  double vis_lum_threshold = kDefaultVlt;
  unsigned max_log_contrast = kDefaultMaxLogContrast;
  std::string heatmaps_path;  // empty: no heatmaps
  bool full_ref = false;
  Eotf eotf = Eotf::kBt1886;
  unsigned high_res_speedup = 0;  // as given; init() decides whether it applies

  // Level differences 1 .. num_diffs() are compared.
  [[nodiscard]] unsigned num_diffs() const { return 1U << max_log_contrast; }
};

}  // namespace vqx::cambi
