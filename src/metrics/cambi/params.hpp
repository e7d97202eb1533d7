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

// max_log_contrast is at most 5 (its bound in option_defs()), so at most
// 32 level differences are compared.
inline constexpr unsigned kMaxLogContrast = 5;
inline constexpr unsigned kMaxDiffs = 1U << kMaxLogContrast;
static_assert(kContrastWeights.size() == kMaxDiffs);

// CAMBI works on 10-bit luma whatever the input depth.
inline constexpr unsigned kWorkBitDepth = 10;
// Limited-range 10-bit luma: black and white levels (luminance_tools.c,
// range_foot_head: 16 and 235 scaled by 2^(10-8)).
inline constexpr int kLumaFoot = 16 << 2;
inline constexpr int kLumaHead = 235 << 2;
inline constexpr int kMaxWorkValue = (1 << kWorkBitDepth) - 1;

// The band of counted levels (contrast.hpp) ends at a visibility
// threshold (at most 1023) plus num_diffs, so it has at most this many.
inline constexpr unsigned kMaxBandSize = kMaxWorkValue + 1 + kMaxDiffs;

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
// So the widest window is 65 (odd, and 65 * 65 < 4226 <= 67 * 67), with a
// radius of 32.
inline constexpr unsigned kMaxWindow = 65;
inline constexpr unsigned kMaxRadius = kMaxWindow / 2;
static_assert(kMaxWindow * kMaxWindow < kReciprocalLutSize &&
              (kMaxWindow + 2) * (kMaxWindow + 2) >= kReciprocalLutSize);

// Pooling (pooling.hpp, pointwise.hpp). Every contrast value is 0 or a
// float of at least 0.5 (the smallest is 1 * 1 * 1 * reciprocal(2) = 0.5),
// whose ulp is at least 2^-24, and at most 9 * 4225 / 4 = 9506.25 < 2^14:
// value * 2^24 is an integer below 2^38 ("units"), and up to 2^25 such
// values (7680 x 4320) sum below 2^64.
inline constexpr unsigned kValueUnitBits = 24;
inline constexpr float kValueUnitScale = static_cast<float>(1U << kValueUnitBits);
// While the sum of a scale's values stays below 2^29 every partial sum is
// exact in double (2^29 / 2^-24 = 2^53), so any order gives libvmaf's bits;
// from there on libvmaf's order of addition is followed.
inline constexpr double kExactSumLimit = 536870912.0;  // 2^29
inline constexpr std::uint64_t kExactUnitsLimit = std::uint64_t{1} << 53;
static_assert(static_cast<double>(kExactUnitsLimit) / kValueUnitScale == kExactSumLimit);
// The k largest values are found by buckets of the top 16 bits of their
// float representation (sign, exponent, 7 mantissa bits), from just below
// 0.5's (0x3F00) on, then within one bucket by the low 16 bits.
inline constexpr unsigned kLowBits = 16;
inline constexpr std::uint32_t kLowCounts = std::uint32_t{1} << kLowBits;
inline constexpr std::uint32_t kBucketOrigin = 0x3EFF;
inline constexpr std::uint32_t kBucketCount = 2048;  // up past 30000

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
// `options[]`, in the same order (options.cpp: out of line, as nvcc 13
// fails on a constant table of string-valued options in a header that GPU
// sources include).
std::span<const OptionDef> option_defs();

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
