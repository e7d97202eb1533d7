// Integer motion: the numbers and options, written once.
//
// The measure (libvmaf's "motion" extractor, integer_motion.c): the luma of
// the reference frame is compared with the reference frame `lag` frames
// earlier. The difference picture is blurred with a separable 5-tap filter in
// fixed point (vertical pass first, then horizontal) and the mean absolute
// value of the result, scaled back to 8-bit sample units, is the frame's SAD
// score. motion2 is the smaller of two neighbouring SAD scores, motion3 a
// blended, clipped (and optionally averaged) motion2. See extractor.cpp for
// which frame each value belongs to.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "core/options.hpp"

namespace vqx::motion {

// Blur taps in Q16 (they sum to 65536). Source: libvmaf
// libvmaf/src/feature/integer_motion.h, `filter`.
inline constexpr std::array<std::int32_t, 5> kTaps = {3571, 16004, 26386, 16004, 3571};
inline constexpr int kRadius = 2;  // half of the 5-tap support
static_assert(kTaps[0] + kTaps[1] + kTaps[2] + kTaps[3] + kTaps[4] == 65536);

// Horizontal pass: round to nearest, then drop the 16 fraction bits of the
// taps. (The vertical pass shifts by the bit depth instead, rounding with
// 1 << (bpc - 1), so its output is the difference in units of 2^-8 of an
// 8-bit sample whatever the depth.) Source: integer_motion.c,
// motion_score_pipeline_8/_16.
inline constexpr int kHorizontalShift = 16;
inline constexpr std::int64_t kHorizontalRound = std::int64_t{1} << (kHorizontalShift - 1);
// The vertical pass's rounding constant, in the type of the sum it rounds.
template <typename T>
[[nodiscard]] constexpr T vertical_round(unsigned bpc) {
  return T{1} << (bpc - 1);
}
// The SAD sum is divided by this and by the pixel count (integer_motion.c,
// extract(): `sad / 256. / (w * h)`).
inline constexpr double kSadDivisor = 256.0;

// After the vertical pass a value's magnitude is at most 65535 at any depth
// ((65536 * (2^bpc - 1) + 2^(bpc-1)) >> bpc), and so is a difference of two
// 16-bit samples: cpu.cpp relies on this bound to stay within int32.
inline constexpr std::int64_t kMaxBlurredMagnitude = 65535;
// Up to this depth a difference of two samples fits int16 (cpu.cpp keeps its
// rows of differences in int16 then).
inline constexpr unsigned kMaxBpcShortDifference = 14;
static_assert((std::int64_t{1} << kMaxBpcShortDifference) - 1 <= INT16_MAX);

// The mirror border (integer_motion.c, mirror(): -1 -> 1, size -> size - 2)
// reaches two samples past each edge, which stays inside the picture only
// from 3 samples on; libvmaf reads outside the picture below that, so VQX
// refuses such pictures instead.
inline constexpr unsigned kMinDimension = 3;

// Options: names, aliases, defaults, bounds and flags as libvmaf's
// integer_motion.c `options[]` (DEFAULT_MOTION_MAX_VAL = 10000.0).
inline constexpr double kDefaultMaxVal = 10000.0;
inline constexpr double kDefaultBlendFactor = 1.0;
inline constexpr double kDefaultBlendOffset = 40.0;
inline constexpr double kDefaultFpsWeight = 1.0;

inline std::span<const OptionDef> option_defs() {
  static const std::array<OptionDef, 8> kDefs = {{
      {"motion_force_zero", "force_0", OptionValue{false}, 0, 0, true},
      {"motion_blend_factor", "mbf", OptionValue{kDefaultBlendFactor}, 0.0, 1.0, true},
      {"motion_blend_offset", "mbo", OptionValue{kDefaultBlendOffset}, 0.0, 1000.0, true},
      {"motion_fps_weight", "mfw", OptionValue{kDefaultFpsWeight}, 0.0, 5.0, true},
      {"motion_max_val", "mmxv", OptionValue{kDefaultMaxVal}, 0.0, 10000.0, true},
      {"motion_five_frame_window", "mffw", OptionValue{false}, 0, 0, true},
      {"motion_moving_average", "mma", OptionValue{false}, 0, 0, true},
      // Not a feature parameter: it adds an output but changes no name.
      {"debug", nullptr, OptionValue{false}, 0, 0, false, kSelectsOutputs},
  }};
  return kDefs;
}

// The parsed options of one configuration.
struct Params {
  bool force_zero = false;
  double blend_factor = kDefaultBlendFactor;
  double blend_offset = kDefaultBlendOffset;
  double fps_weight = kDefaultFpsWeight;
  double max_val = kDefaultMaxVal;
  bool five_frame_window = false;
  bool moving_average = false;
  bool debug = false;

  // Distance in frames between the two pictures compared, which is also the
  // first frame index that has a SAD score and the step of the motion2
  // window: 2 with the five-frame window, else 1.
  [[nodiscard]] unsigned lag() const { return five_frame_window ? 2U : 1U; }
};

}  // namespace vqx::motion
