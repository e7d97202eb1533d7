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
//
// The two stages (core/extractor.hpp, TemporalStages): prepare(t) converts
// and blurs frame t's planes (nearly all the work; it depends on frame t
// alone) into the ring, on any thread in any order; finish(t) takes s(t)
// from the blurred planes of frames t and t - 1 in the ring and writes the
// values, in order.
#include <algorithm>
#include <array>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/sequential_stages.hpp"
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

// One plane's sizes and its halver (motion_add_scale1).
struct PlaneGeometry {
  unsigned width = 0;
  unsigned height = 0;
  unsigned half_width = 0;
  unsigned half_height = 0;
  float_common::Resampler halver;
};

// A ring entry: a frame's blurred planes (and their half-size versions
// with motion_add_scale1), luma then chroma.
struct Blurred {
  std::vector<FloatImage> full;
  std::vector<FloatImage> half;
};

// A lane's scratch: each plane's float samples and filter_image's row buffer.
struct Lane {
  std::vector<FloatImage> samples;
  std::vector<float> scratch;
};

class FloatMotionExtractor final : public Extractor, public TemporalStages {
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
    scratch_size_ = 0;
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
      PlaneGeometry& g = planes_[p];
      g.width = w;
      g.height = h;
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
        g.halver.init(float_common::ScaleMethod::kBilinear, w, h, hw, hh);
        g.half_width = hw;
        g.half_height = hh;
      }
      scratch_size_ = std::max(
          scratch_size_, float_common::filter_scratch_size(w, static_cast<unsigned>(taps_.size())));
    }
    // extract() alone: this frame's entry and the one before it, one lane.
    allocate(1 + kept_entries(), 1);
    frames_ = 0;
    flushed_ = false;
    initialised_ = true;
    return Status::Ok();
  }

  Status extract(const Picture& ref, const Picture& dist, unsigned index,
                 FeatureWriter& out) override {
    VQX_RETURN_IF_ERROR(check_extract_input("float_motion", initialised_, fmt_, FormatMatch::kExact,
                                            ref, dist, index));
    VQX_RETURN_IF_ERROR(check_order(index));
    return sequential_.run(*this, ref, dist, index, out);
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

  TemporalStages* stages() override { return this; }
  [[nodiscard]] unsigned history() const override { return 0; }
  // finish(t) compares frame t's blurred planes with frame t - 1's.
  [[nodiscard]] unsigned kept_entries() const override { return 1; }

  Status reserve(unsigned entries, unsigned lanes) override {
    allocate(entries, lanes);
    return Status::Ok();
  }

  // Frame t's planes converted and blurred into its entry.
  Status prepare(const FrameWindow& w, unsigned lane) override {
    VQX_RETURN_IF_ERROR(check_extract_input("float_motion", initialised_, fmt_, FormatMatch::kExact,
                                            *w.ref[0], *w.dist[0], w.index));
    if (!params_.force_zero) blur(*w.ref[0], ring_[w.index % ring_.size()], lanes_[lane]);
    return Status::Ok();
  }

  Status finish(unsigned index, FeatureWriter& out) override {
    VQX_RETURN_IF_ERROR(check_order(index));
    ++frames_;

    if (params_.force_zero) {
      // libvmaf writes zeros for every frame and nothing at the end.
      out.write(slots_.motion2, index, 0.0);
      out.write(slots_.motion3, index, 0.0);
      if (params_.debug) out.write(slots_.motion, index, 0.0);
      return Status::Ok();
    }

    if (index == 0) {
      out.write(slots_.motion2, 0, 0.0);
      if (params_.debug) out.write(slots_.motion, 0, 0.0);
      return Status::Ok();
    }

    const std::size_t n = ring_.size();
    const double score = frame_score(ring_[index % n], ring_[(index - 1) % n]);
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

 private:
  // `entries` ring entries and `lanes` lanes (none with motion_force_zero,
  // which blurs nothing).
  void allocate(unsigned entries, unsigned lanes) {
    if (params_.force_zero) entries = lanes = 0;
    ring_.resize(entries);
    for (Blurred& b : ring_) {
      b.full.resize(planes_.size());
      b.half.resize(params_.add_scale1 ? planes_.size() : 0);
      for (std::size_t p = 0; p < planes_.size(); ++p) {
        b.full[p].resize(planes_[p].width, planes_[p].height);
        if (params_.add_scale1) b.half[p].resize(planes_[p].half_width, planes_[p].half_height);
      }
    }
    lanes_.resize(lanes);
    for (Lane& l : lanes_) {
      l.samples.resize(planes_.size());
      for (std::size_t p = 0; p < planes_.size(); ++p) {
        l.samples[p].resize(planes_[p].width, planes_[p].height);
      }
      l.scratch.assign(scratch_size_, 0.0f);
    }
  }

  Status check_order(unsigned index) const {
    if (flushed_) return Error(Errc::kInternal, "float_motion: extract() after flush()");
    return check_frame_order("float_motion", index, frames_);
  }

  // Converts and blurs every plane of `ref` into `out`.
  void blur(const Picture& ref, Blurred& out, Lane& lane) const {
    for (unsigned p = 0; p < planes_.size(); ++p) {
      float_common::plane_to_float(ref.plane(p), fmt_.bpc, lane.samples[p]);
      float_common::filter_image(taps_, lane.samples[p], out.full[p], lane.scratch);
      if (params_.add_scale1) planes_[p].halver.run(out.full[p], out.half[p]);
    }
  }

  // libvmaf compute_motion() per plane, luma then chroma added in double.
  double frame_score(const Blurred& cur, const Blurred& prev) const {
    double score = 0.0;
    for (std::size_t p = 0; p < planes_.size(); ++p) {
      float v = float_motion::mean_abs_difference(prev.full[p], cur.full[p]);
      if (params_.add_scale1) v = v + float_motion::mean_abs_difference(prev.half[p], cur.half[p]);
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
  std::vector<PlaneGeometry> planes_;  // luma, then chroma with motion_add_uv
  std::size_t scratch_size_ = 0;       // filter_image's row buffer, in floats
  SequentialStages sequential_;        // extract() alone (nothing kept: history 0)
  std::vector<Blurred> ring_;          // frame t's blurred planes at t % size
  std::vector<Lane> lanes_;
  // The ordered state (finish() and flush()).
  unsigned frames_ = 0;      // frames finished = the next index expected
  double last_score_ = 0.0;  // s(frames_ - 1)
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
