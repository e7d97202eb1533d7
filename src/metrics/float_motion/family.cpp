// The "float_motion" extractor family: libvmaf's float motion
// (feature/float_motion.c): motion2 and motion3, and, with debug=true (the
// default), motion.
//
// Which frame gets which value (as libvmaf writes them): frame t's score
// s(t) compares the blurred luma of frames t and t - 1 (s(0) is not
// defined). motion(t) = clip(s(t)), motion(0) = 0. motion2(0) = 0;
// motion2(t) = clip(min(s(t), s(t + 1))) for 0 < t < last, and
// clip(s(last)) for the last frame. motion3(t) = clip(blend(that motion2's
// unclipped value)) for t >= 1, motion3(0) = clip(blend(s(1))), and 0 for a
// one-frame video. clip(x) = min(x * fps_weight, max_val), blend as in
// libvmaf's motion_blend(). libvmaf computes s(t) again for motion2(t) one
// frame later; the absolute difference is symmetric, so the kept s(t) is
// the same number.
#include <algorithm>
#include <array>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "metrics/families.hpp"
#include "metrics/float_common/convert.hpp"
#include "metrics/float_common/convolve.hpp"
#include "metrics/float_common/image.hpp"
#include "metrics/float_common/resample.hpp"
#include "metrics/float_motion/params.hpp"
#include "metrics/float_motion/sad.hpp"

namespace vqx {

namespace {

using float_common::FloatImage;
using float_motion::Params;

// min(x, limit) as libvmaf's MIN macro: x unless limit is smaller.
double clip_max(double x, double limit) { return x < limit ? x : limit; }

// libvmaf motion_blend_tools.h, motion_blend().
double blend(double score, double factor, double offset) {
  return score * factor + (1 - factor) * clip_max(offset, score);
}

// The side of a plane as libvmaf sees it: chroma halved with truncation
// (libvmaf picture.c, w >> ss_hor), so for odd sizes libvmaf leaves out the
// last chroma column or row; VQX uses the same top-left part.
unsigned libvmaf_plane_side(unsigned luma, unsigned plane) {
  return plane == luma ? luma : luma / 2;
}

// Output slots: motion (only with debug), motion2, motion3.
struct Slots {
  std::size_t motion = 0;
  std::size_t motion2 = 0;
  std::size_t motion3 = 0;
};

Slots slots_for(bool debug) { return debug ? Slots{0, 1, 2} : Slots{0, 0, 1}; }

// One plane's working images: the float samples, then the blurred planes
// of the current and previous frame (and their half-size versions with
// motion_add_scale1), indexed by frame parity.
struct PlaneState {
  FloatImage samples;
  std::array<FloatImage, 2> blurred;
  std::array<FloatImage, 2> half;
  float_common::Resampler halver;
};

class FloatMotionExtractor final : public Extractor {
 public:
  explicit FloatMotionExtractor(Params p)
      : params_(p), slots_(slots_for(p.debug)), taps_(float_motion::blur_filter(p.filter_size)) {}

  Status init(const PictureFormat& fmt) override {
    fmt_ = fmt;
    const unsigned planes = params_.add_uv ? 3U : 1U;
    if (params_.add_uv && fmt.plane_count() < 3) {
      return Error(Errc::kUnsupported,
                   "float_motion: motion_add_uv needs chroma planes (the input is 4:0:0)");
    }
    const unsigned min_side = float_common::min_side_for_taps(static_cast<unsigned>(taps_.size()));
    std::size_t scratch = 0;
    planes_.resize(planes);
    for (unsigned p = 0; p < planes; ++p) {
      const unsigned w = libvmaf_plane_side(fmt.width, fmt.plane_width(p));
      const unsigned h = libvmaf_plane_side(fmt.height, fmt.plane_height(p));
      if (w < min_side || h < min_side) {
        return Error(Errc::kUnsupported, "float_motion: plane " + std::to_string(p) + " is " +
                                             std::to_string(w) + "x" + std::to_string(h) +
                                             ", below the " + std::to_string(min_side) + "x" +
                                             std::to_string(min_side) + " the " +
                                             std::to_string(taps_.size()) + "-tap blur needs");
      }
      PlaneState& s = planes_[p];
      s.samples.resize(w, h);
      for (FloatImage& b : s.blurred) b.resize(w, h);
      if (params_.add_scale1) {
        // libvmaf: (int)(w * 0.5 + 0.5), and it refuses what its bilinear
        // scaler cannot hold.
        const auto hw = static_cast<unsigned>(static_cast<int>(w * 0.5 + 0.5));
        const auto hh = static_cast<unsigned>(static_cast<int>(h * 0.5 + 0.5));
        if (hw > float_common::kBilinearMaxWidth) {
          return Error(Errc::kUnsupported, "float_motion: motion_add_scale1 scales to " +
                                               std::to_string(hw) +
                                               " columns, over libvmaf's limit of " +
                                               std::to_string(float_common::kBilinearMaxWidth));
        }
        s.halver.init(float_common::ScaleMethod::kBilinear, w, h, hw, hh);
        for (FloatImage& b : s.half) b.resize(hw, hh);
      }
      scratch = std::max(scratch,
                         float_common::filter_scratch_size(w, static_cast<unsigned>(taps_.size())));
    }
    scratch_.assign(scratch, 0.0f);
    frames_ = 0;
    flushed_ = false;
    initialised_ = true;
    return Status::Ok();
  }

  Status extract(const Picture& ref, const Picture& dist, unsigned index,
                 FeatureWriter& out) override {
    VQX_RETURN_IF_ERROR(check_extract_input("float_motion", initialised_, fmt_, FormatMatch::kExact,
                                            ref, dist, index));
    if (flushed_) return Error(Errc::kInternal, "float_motion: extract() after flush()");
    VQX_RETURN_IF_ERROR(check_frame_order("float_motion", index, frames_));
    ++frames_;

    if (params_.force_zero) {
      // libvmaf writes zeros for every frame and nothing at the end.
      out.write(slots_.motion2, index, 0.0);
      out.write(slots_.motion3, index, 0.0);
      if (params_.debug) out.write(slots_.motion, index, 0.0);
      return Status::Ok();
    }

    blur(ref, index % 2);
    if (index == 0) {
      out.write(slots_.motion2, 0, 0.0);
      if (params_.debug) out.write(slots_.motion, 0, 0.0);
      return Status::Ok();
    }

    const double score = frame_score(index % 2, (index + 1) % 2);
    if (params_.debug) out.write(slots_.motion, index, clip(score));
    if (index == 1) {
      out.write(slots_.motion3, 0, clip_max(weighted_blend(score), params_.max_val));
    } else {
      const double m2 = last_score_ < score ? last_score_ : score;
      write_motion2_3(index - 1, m2, out);
    }
    last_score_ = score;
    return Status::Ok();
  }

  Status flush(FeatureWriter& out) override {
    if (!initialised_ || flushed_) return Status::Ok();
    flushed_ = true;
    if (params_.force_zero || frames_ == 0) return Status::Ok();
    if (frames_ == 1) {
      out.write(slots_.motion3, 0, 0.0);
    } else {
      write_motion2_3(frames_ - 1, last_score_, out);
    }
    return Status::Ok();
  }

 private:
  // Converts and blurs every plane of `ref` into slot `slot`.
  void blur(const Picture& ref, unsigned slot) {
    for (unsigned p = 0; p < planes_.size(); ++p) {
      PlaneState& s = planes_[p];
      float_common::plane_to_float(ref.plane(p), fmt_.bpc, s.samples);
      float_common::filter_image(taps_, s.samples, s.blurred[slot], scratch_);
      if (params_.add_scale1) s.halver.run(s.blurred[slot], s.half[slot]);
    }
  }

  // libvmaf compute_motion() per plane, luma then chroma added in double.
  double frame_score(unsigned cur, unsigned prev) const {
    double score = 0.0;
    for (const PlaneState& s : planes_) {
      float v = float_motion::mean_abs_difference(s.blurred[prev], s.blurred[cur]);
      if (params_.add_scale1) v = v + float_motion::mean_abs_difference(s.half[prev], s.half[cur]);
      score += static_cast<double>(v);
    }
    return score;
  }

  [[nodiscard]] double clip(double score) const {
    return clip_max(score * params_.fps_weight, params_.max_val);
  }
  [[nodiscard]] double weighted_blend(double score) const {
    return blend(score * params_.fps_weight, params_.blend_factor, params_.blend_offset);
  }

  void write_motion2_3(unsigned frame, double m2, FeatureWriter& out) const {
    out.write(slots_.motion2, frame, clip(m2));
    out.write(slots_.motion3, frame, clip_max(weighted_blend(m2), params_.max_val));
  }

  Params params_;
  Slots slots_;
  std::span<const float> taps_;
  PictureFormat fmt_;
  std::vector<PlaneState> planes_;  // luma, then chroma with motion_add_uv
  std::vector<float> scratch_;      // filter_image's row buffer
  unsigned frames_ = 0;             // frames extracted = the next index expected
  double last_score_ = 0.0;         // s(frames_ - 1)
  bool initialised_ = false;
  bool flushed_ = false;
};

Expected<Params> read_params(const OptionSet& set) {
  Params p;
  p.debug = set.get_bool(float_motion::kOptDebug);
  p.force_zero = set.get_bool(float_motion::kOptForceZero);
  p.fps_weight = set.get_double(float_motion::kOptFpsWeight);
  p.blend_factor = set.get_double(float_motion::kOptBlendFactor);
  p.blend_offset = set.get_double(float_motion::kOptBlendOffset);
  p.add_scale1 = set.get_bool(float_motion::kOptAddScale1);
  p.filter_size = set.get_int(float_motion::kOptFilterSize);
  p.add_uv = set.get_bool(float_motion::kOptAddUv);
  p.max_val = set.get_double(float_motion::kOptMaxVal);
  return p;
}

}  // namespace

const ExtractorFamily& float_motion_family() {
  static const ExtractorFamily kFamily = {
      .name = "float_motion",
      .options = float_motion::option_defs(),
      .outputs = float_motion::kOutputs,
      .provides = float_motion::kProvides,
      .temporal = {TemporalRule::kAlways},
      .chroma = {ChromaRule::kWhenSet, float_motion::kOptAddUv},
      .bind = bind_family<Params, read_params, FloatMotionExtractor>,
  };
  return kFamily;
}

}  // namespace vqx
