// The integer motion feature extractor ("motion", libvmaf's
// integer_motion.c): options, per-context state, output names and the
// temporal bookkeeping.
//
// Which frame gets which value (n frames, lag L = 2 with
// motion_five_frame_window, else 1; sad[i] is frame i's SAD score):
//   sad[i]     = 0 for i < L, else the SAD of the reference luma of frame i
//                against that of frame i - L, scaled and clipped to
//                motion_max_val (0 for every frame with motion_force_zero).
//   motion2[i] = 0                                      for i < L
//              = sad[i]                                 for i = n - 1 >= L
//              = min(sad[i - L + 1], sad[i + 1])        when i - L + 1 >= L
//              = sad[i + 1]                             otherwise
//              (L = 1: min(sad[i], sad[i + 1]); L = 2: min(sad[i - 1], sad[i + 1]))
//   motion3[i] = stamp = n > L ? clip(blend(sad[L])) : 0   for i < L
//              = clip(blend(motion2[i])), or with motion_moving_average the
//                mean of that and the previous frame's (the stamp for i = L).
//   integer_motion[i] (debug only) = sad[i].
// When they are written: sad[i] (and integer_motion[i]) during extract(i);
// motion2/motion3 of frames 0 .. L-1 during extract(L); motion2/motion3 of
// frame i - 1 during extract(i) for i > L; in flush() those of the last frame
// (n > L) or of every frame (n <= L, when they are all 0). libvmaf computes
// the same values in its flush() from the stored SAD scores; here they are
// produced as soon as their inputs exist, so that nothing grows per frame.
#include <array>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "metrics/families.hpp"
#include "metrics/motion/cpu.hpp"
#include "metrics/motion/gpu.hpp"
#include "metrics/motion/params.hpp"
#include "metrics/motion/series.hpp"

namespace vqx {

namespace {

using motion::Params;

class MotionExtractor final : public Extractor {
 public:
  explicit MotionExtractor(const Params& params)
      : params_(params), lag_(params.lag()), series_(params) {}

  Status init(const PictureFormat& fmt) override {
    VQX_RETURN_IF_ERROR(validate(fmt));
    if (fmt.width < motion::kMinDimension || fmt.height < motion::kMinDimension) {
      return Error(Errc::kUnsupported, "motion: picture " + std::to_string(fmt.width) + "x" +
                                           std::to_string(fmt.height) + " is too small (at least " +
                                           std::to_string(motion::kMinDimension) + "x" +
                                           std::to_string(motion::kMinDimension) + " is needed)");
    }
    fmt_ = fmt;
    try {
      scratch_.assign(motion::scratch_size(fmt.width), 0);
      history_.clear();
      // With motion_force_zero nothing is compared, so no frame is kept.
      if (!params_.force_zero) {
        for (unsigned i = 0; i < lag_; ++i) {
          history_.emplace_back(fmt.width, fmt.height, fmt.bytes_per_sample());
        }
      }
    } catch (const std::bad_alloc&) {
      return Error(Errc::kLimit, "motion: out of memory for a " + std::to_string(fmt.width) + "x" +
                                     std::to_string(fmt.height) + " picture");
    }
    series_.reset();
    initialised_ = true;
    flushed_ = false;
    return Status::Ok();
  }

  Status extract(const Picture& ref, const Picture& dist, unsigned index,
                 FeatureWriter& out) override {
    VQX_RETURN_IF_ERROR(
        check_extract_input("motion", initialised_, fmt_, FormatMatch::kLuma, ref, dist, index));
    if (flushed_) {
      return Error(Errc::kInternal, "motion: extract() after flush()");
    }
    VQX_RETURN_IF_ERROR(check_frame_order("motion", index, series_.frames()));

    const double sad = params_.force_zero ? 0.0 : frame_sad(ref, index);
    series_.add(index, sad, out);
    return Status::Ok();
  }

  Status flush(FeatureWriter& out) override {
    if (!initialised_ || flushed_) {
      return Status::Ok();
    }
    flushed_ = true;
    series_.flush(out);
    return Status::Ok();
  }

 private:
  // SAD score of frame `index` from the kept luma of frame index - lag.
  // Then keeps this frame's luma in place of that one.
  double frame_sad(const Picture& ref, unsigned index) {
    Plane& kept = history_[index % lag_];
    const Plane& luma = ref.plane(0);
    double score = 0.0;
    if (index >= lag_) {
      std::uint64_t sum = 0;
      if (fmt_.bpc == 8) {
        sum = motion::blurred_difference_sad(view<std::uint8_t>(kept), view<std::uint8_t>(luma),
                                             fmt_.width, fmt_.height, scratch_);
      } else {
        sum = motion::blurred_difference_sad(view<std::uint16_t>(kept), view<std::uint16_t>(luma),
                                             fmt_.width, fmt_.height, fmt_.bpc, scratch_);
      }
      score = motion::sad_score(sum, fmt_.width, fmt_.height, params_);
    }
    const std::size_t row_bytes = std::size_t{fmt_.width} * fmt_.bytes_per_sample();
    for (unsigned y = 0; y < fmt_.height; ++y) {
      std::memcpy(kept.row<std::uint8_t>(y), luma.row<std::uint8_t>(y), row_bytes);
    }
    return score;
  }

  template <typename Sample>
  static motion::PlaneView<Sample> view(const Plane& p) {
    return {p.row<Sample>(0), static_cast<std::ptrdiff_t>(p.stride_bytes() / sizeof(Sample))};
  }

  Params params_;
  unsigned lag_;
  PictureFormat fmt_;
  std::vector<Plane> history_;         // luma of the last `lag_` frames, by index % lag_
  std::vector<std::int32_t> scratch_;  // the kernel's row buffer
  motion::Series series_;              // which frame gets which value
  bool initialised_ = false;
  bool flushed_ = false;
};

// Outputs in slot order (slots_for).
constexpr std::array<OutputDef, 4> kOutputs = {{
    {"VMAF_integer_feature_motion_sad_score"},
    {.base = "integer_motion", .when = {"debug"}},
    {"integer_motion2"},
    {"integer_motion3"},
}};

constexpr std::array<FeatureAlias, 4> kProvides = {{
    // libvmaf feature/alias.c, and the extractor's provided_features.
    {"VMAF_integer_feature_motion_score", "integer_motion"},
    {"VMAF_integer_feature_motion2_score", "integer_motion2"},
    {"VMAF_integer_feature_motion3_score", "integer_motion3"},
    {"VMAF_integer_feature_motion_sad_score", "VMAF_integer_feature_motion_sad_score"},
}};

Expected<Params> read_params(const OptionSet& set) {
  Params p;
  p.force_zero = set.get_bool("motion_force_zero");
  p.blend_factor = set.get_double("motion_blend_factor");
  p.blend_offset = set.get_double("motion_blend_offset");
  p.fps_weight = set.get_double("motion_fps_weight");
  p.max_val = set.get_double("motion_max_val");
  p.five_frame_window = set.get_bool("motion_five_frame_window");
  p.moving_average = set.get_bool("motion_moving_average");
  p.debug = set.get_bool("debug");
  return p;
}

}  // namespace

const ExtractorFamily& integer_motion_family() {
  static const ExtractorFamily kFamily = {
      .name = "motion",
      .options = motion::option_defs(),
      .outputs = kOutputs,
      .provides = kProvides,
      .temporal = {TemporalRule::kAlways},
      .luma_only = true,
      .bind = bind_family<Params, read_params, MotionExtractor, VQX_TWIN(&motion::make_twin)>,
  };
  return kFamily;
}

}  // namespace vqx
