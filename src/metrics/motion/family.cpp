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
// When they are written: sad[i] (and integer_motion[i]) during finish(i);
// motion2/motion3 of frames 0 .. L-1 during finish(L); motion2/motion3 of
// frame i - 1 during finish(i) for i > L; in flush() those of the last frame
// (n > L) or of every frame (n <= L, when they are all 0). libvmaf computes
// the same values in its flush() from the stored SAD scores; here they are
// produced as soon as their inputs exist, so that nothing grows per frame.
//
// The two stages (core/extractor.hpp, TemporalStages): sad[i] is a function
// of the reference lumas of frames i - L and i alone, so prepare(i)
// computes it (nearly all the work) from the two pictures, on any thread in
// any order, into the ring; finish(i) hands the ring's sad[i] to the series
// (motion::Series), in order. extract() alone runs both on the caller's
// thread, with a copy of the earlier frames (core/sequential_stages.hpp).
#include <array>
#include <new>
#include <string>
#include <vector>

#include "core/sequential_stages.hpp"
#include "core/twin_ref.hpp"
#include "metrics/families.hpp"
#include "metrics/motion/cpu.hpp"
#include "metrics/motion/gpu.hpp"
#include "metrics/motion/params.hpp"
#include "metrics/motion/series.hpp"

namespace vqx {

namespace {

using motion::Params;

class MotionExtractor final : public Extractor, public TemporalStages {
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
      // With motion_force_zero nothing is compared, so no frame is kept.
      VQX_RETURN_IF_ERROR(sequential_.init(fmt, history()));
      allocate(1, 1);
    } catch (const std::bad_alloc&) {
      return out_of_memory();
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
    VQX_RETURN_IF_ERROR(check_open());
    VQX_RETURN_IF_ERROR(check_frame_order("motion", index, series_.frames()));
    return sequential_.run(*this, ref, dist, index, out);
  }

  Status flush(FeatureWriter& out) override {
    if (!initialised_ || flushed_) {
      return Status::Ok();
    }
    flushed_ = true;
    series_.flush(out);
    return Status::Ok();
  }

  TemporalStages* stages() override { return this; }

  [[nodiscard]] unsigned history() const override { return params_.force_zero ? 0 : lag_; }

  Status reserve(unsigned entries, unsigned lanes) override {
    try {
      allocate(entries, lanes);
    } catch (const std::bad_alloc&) {
      return out_of_memory();
    }
    sequential_.release();
    return Status::Ok();
  }

  // sad[i] into the ring.
  Status prepare(const FrameWindow& w, unsigned lane) override {
    VQX_RETURN_IF_ERROR(check_extract_input("motion", initialised_, fmt_, FormatMatch::kLuma,
                                            *w.ref[0], *w.dist[0], w.index));
    double score = 0.0;
    if (!params_.force_zero && w.index >= lag_) {
      if (w.ref[lag_] == nullptr) {
        return Error(Errc::kInternal, "motion: frame " + std::to_string(w.index) +
                                          " came without the frame " + std::to_string(lag_) +
                                          " before it");
      }
      score = frame_sad(*w.ref[lag_], *w.ref[0], scratch_[lane]);
    }
    sad_[w.index % sad_.size()] = score;
    return Status::Ok();
  }

  // sad[i] to the series, which writes it and what it completes.
  Status finish(unsigned index, FeatureWriter& out) override {
    VQX_RETURN_IF_ERROR(check_open());
    VQX_RETURN_IF_ERROR(check_frame_order("motion", index, series_.frames()));
    series_.add(index, sad_[index % sad_.size()], out);
    return Status::Ok();
  }

 private:
  // `entries` ring entries and `lanes` row buffers for the kernel.
  void allocate(unsigned entries, unsigned lanes) {
    sad_.assign(entries, 0.0);
    scratch_.resize(lanes);
    for (auto& s : scratch_) s.assign(motion::scratch_size(fmt_.width), 0);
  }

  Status out_of_memory() const {
    return Error(Errc::kLimit, "motion: out of memory for a " + std::to_string(fmt_.width) + "x" +
                                   std::to_string(fmt_.height) + " picture");
  }

  Status check_open() const {
    if (flushed_) return Error(Errc::kInternal, "motion: extract() after flush()");
    return Status::Ok();
  }

  // SAD score of the reference luma of a frame against that of the frame
  // `lag_` before it.
  double frame_sad(const Picture& earlier, const Picture& ref,
                   std::vector<std::int32_t>& scratch) const {
    const Plane& kept = earlier.plane(0);
    const Plane& luma = ref.plane(0);
    std::uint64_t sum = 0;
    if (fmt_.bpc == 8) {
      sum = motion::blurred_difference_sad(view<std::uint8_t>(kept), view<std::uint8_t>(luma),
                                           fmt_.width, fmt_.height, scratch);
    } else {
      sum = motion::blurred_difference_sad(view<std::uint16_t>(kept), view<std::uint16_t>(luma),
                                           fmt_.width, fmt_.height, fmt_.bpc, scratch);
    }
    return motion::sad_score(sum, fmt_.width, fmt_.height, params_);
  }

  template <typename Sample>
  static motion::PlaneView<Sample> view(const Plane& p) {
    return {p.row<Sample>(0), static_cast<std::ptrdiff_t>(p.stride_bytes() / sizeof(Sample))};
  }

  Params params_;
  unsigned lag_;
  PictureFormat fmt_;
  SequentialStages sequential_;  // extract()'s copies of the last `lag_` frames
  // The stages' state: the ring of sad[i] (by i % size), each lane's row
  // buffer, and the series (finish() only).
  std::vector<double> sad_;
  std::vector<std::vector<std::int32_t>> scratch_;
  motion::Series series_;  // which frame gets which value
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

// motion::Series's rules (series.cpp): sad(j) compares frames j - lag and
// j; motion2(t) = min(sad(t - lag + 1), sad(t + 1)), in its steady form
// once t >= 2 lag - 1 (before that the first frames' special values);
// motion3(t) reads motion2(t) and, with the moving average, motion2(t - 1)
// (steady from t >= 2 lag). So frame t needs frames t - (2 lag - 1) (2 lag
// with the moving average) to t + 1.
TemporalReach reach(const OptionSet& set) {
  const unsigned lag = set.get_bool("motion_five_frame_window") ? 2U : 1U;
  const bool average = set.get_bool("motion_moving_average");
  return {.before = 2 * lag - (average ? 0U : 1U), .after = 1};
}

}  // namespace

const ExtractorFamily& integer_motion_family() {
  static const ExtractorFamily kFamily = {
      .name = "motion",
      .options = motion::option_defs(),
      .outputs = kOutputs,
      .provides = kProvides,
      .temporal = {TemporalRule::kAlways},
      .reach = reach,
      .luma_only = true,
      .bind = bind_family<Params, read_params, MotionExtractor, VQX_TWIN(&motion::make_twin)>,
  };
  return kFamily;
}

}  // namespace vqx
