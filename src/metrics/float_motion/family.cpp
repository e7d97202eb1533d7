// The "float_motion" extractor family: libvmaf's float motion
// (feature/float_motion.c): motion2 and motion3, and, with debug=true (the
// default), motion.
//
// Which frame gets which value: series.hpp (shared with the GPU twin).
// libvmaf computes s(t) again for motion2(t) one frame later; the absolute
// difference is symmetric, so the kept s(t) is the same number.
//
// The two stages (core/extractor.hpp, TemporalStages): prepare(t) converts
// and blurs frame t's planes (nearly all the work; it depends on frame t
// alone) into an entry of the ring, on any thread in any order; finish(t)
// takes s(t) from the blurred planes of frames t and t - 1 and writes the
// values, in order.
#include <algorithm>
#include <array>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "core/sequential_stages.hpp"
#include "core/twin_ref.hpp"
#include "metrics/families.hpp"
#include "metrics/float_common/convolve.hpp"
#include "metrics/float_common/image.hpp"
#include "metrics/float_common/resample.hpp"
#include "metrics/float_common/rows.hpp"
#include "metrics/float_motion/geometry.hpp"
#include "metrics/float_motion/gpu.hpp"
#include "metrics/float_motion/params.hpp"
#include "metrics/float_motion/sad.hpp"
#include "metrics/float_motion/series.hpp"

namespace vqx {

namespace {

using float_common::FloatImage;
using float_motion::Params;
using float_motion::PlaneGeometry;

// A ring entry: a frame's blurred planes (and their half-size versions
// with motion_add_scale1), luma then chroma.
struct Blurred {
  std::vector<FloatImage> full;
  std::vector<FloatImage> half;
};

// A lane's scratch: each plane's rows as float (converted as the blur reads
// them) and filter_image's row buffer.
struct Lane {
  std::vector<float_common::FloatRows> samples;
  std::vector<float> scratch;
};

class FloatMotionExtractor final : public Extractor, public TemporalStages {
 public:
  explicit FloatMotionExtractor(Params p)
      : params_(p), taps_(float_motion::blur_filter(p.filter_size)), series_(p) {}

  Status init(const PictureFormat& fmt) override {
    fmt_ = fmt;
    VQX_ASSIGN_OR_RETURN(planes_, float_motion::plane_geometry(fmt, params_));
    scratch_size_ = 0;
    for (const PlaneGeometry& g : planes_) {
      scratch_size_ = std::max(scratch_size_, float_common::filter_scratch_size(
                                                  g.width, static_cast<unsigned>(taps_.size())));
    }
    // extract() alone: this frame's entry and the one before it, one lane.
    allocate(1 + kept_entries(), 1);
    frames_ = 0;
    series_.reset();
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
    series_.flush(out);
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
    if (!params_.force_zero) {
      const unsigned e = take_entry();
      entry_[w.index % entry_.size()] = e;
      blur(*w.ref[0], ring_[e], lanes_[lane]);
    }
    return Status::Ok();
  }

  Status finish(unsigned index, FeatureWriter& out) override {
    VQX_RETURN_IF_ERROR(check_order(index));
    ++frames_;
    double score = 0.0;
    if (!params_.force_zero && index > 0) {
      const std::size_t n = entry_.size();
      const unsigned previous = entry_[(index - 1) % n];
      score = frame_score(ring_[entry_[index % n]], ring_[previous]);
      give_back(previous);  // frame index - 1 has no later reader
    }
    series_.add(index, score, out);
    return Status::Ok();
  }

 private:
  // `entries` ring entries and `lanes` lanes (none with motion_force_zero,
  // which blurs nothing).
  void allocate(unsigned entries, unsigned lanes) {
    if (params_.force_zero) entries = lanes = 0;
    ring_.resize(entries);
    entry_.assign(entries, 0);
    free_.clear();
    for (unsigned e = entries; e > 0; --e) free_.push_back(e - 1);  // entry 0 first
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
        l.samples[p].reserve(planes_[p].width, static_cast<unsigned>(taps_.size()));
      }
      l.scratch.assign(scratch_size_, 0.0f);
    }
  }

  // A free entry of the ring: the most recently given back, whose pages
  // are already in memory. At most `entries` frames (the scheduler's bound
  // plus the one kept) hold one at a time, so one is always free.
  unsigned take_entry() {
    std::lock_guard lock(free_mutex_);
    const unsigned e = free_.back();
    free_.pop_back();
    return e;
  }
  void give_back(unsigned e) {
    std::lock_guard lock(free_mutex_);
    free_.push_back(e);
  }

  Status check_order(unsigned index) const {
    if (flushed_) return Error(Errc::kInternal, "float_motion: extract() after flush()");
    return check_frame_order("float_motion", index, frames_);
  }

  // Converts and blurs every plane of `ref` into `out`.
  void blur(const Picture& ref, Blurred& out, Lane& lane) const {
    for (unsigned p = 0; p < planes_.size(); ++p) {
      lane.samples[p].read_plane(ref.plane(p), fmt_.bpc, planes_[p].width, planes_[p].height);
      float_common::filter_image(taps_, lane.samples[p], out.full[p], lane.scratch);
      if (params_.add_scale1) planes_[p].halver.run(out.full[p], out.half[p]);
    }
  }

  // libvmaf compute_motion() per plane, luma then chroma added in double.
  double frame_score(const Blurred& cur, const Blurred& prev) const {
    double score = 0.0;
    for (std::size_t p = 0; p < planes_.size(); ++p) {
      const float full = float_motion::mean_abs_difference(prev.full[p], cur.full[p]);
      const float half =
          params_.add_scale1 ? float_motion::mean_abs_difference(prev.half[p], cur.half[p]) : 0.0f;
      score += static_cast<double>(float_motion::plane_value(full, half, params_.add_scale1));
    }
    return score;
  }

  Params params_;
  std::span<const float> taps_;
  PictureFormat fmt_;
  std::vector<PlaneGeometry> planes_;  // luma, then chroma with motion_add_uv
  std::size_t scratch_size_ = 0;       // filter_image's row buffer, in floats
  SequentialStages sequential_;        // extract() alone (nothing kept: history 0)
  // The ring: a blurred frame per frame that the scheduler may hold between
  // prepare() and the next frame's finish() (2 x threads + 1 in a context:
  // 33 at 16 threads, 1.1 GB at 4K). Frame t's is ring_[entry_[t % size]];
  // entries are taken most recently freed first, so a run touches (and the
  // kernel zeroes) only as many as it holds at once, about one per thread,
  // not the bound.
  std::vector<Blurred> ring_;
  std::vector<unsigned> entry_;
  std::vector<unsigned> free_;  // under free_mutex_
  std::mutex free_mutex_;
  std::vector<Lane> lanes_;
  // The ordered state (finish() and flush()).
  unsigned frames_ = 0;  // frames finished = the next index expected
  float_motion::Series series_;
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

// Series (series.hpp): s(t) compares frames t - 1 and t; motion2(t) =
// min(s(t), s(t + 1)) and motion3(t) its blend, for t >= 1 (frame 0 has its
// own rule). So frame t needs frames t - 1 to t + 1.
TemporalReach reach(const OptionSet& /*options*/) { return {.before = 1, .after = 1}; }

}  // namespace

const ExtractorFamily& float_motion_family() {
  static const ExtractorFamily kFamily = {
      .name = "float_motion",
      .options = float_motion::option_defs(),
      .outputs = float_motion::kOutputs,
      .provides = float_motion::kProvides,
      .temporal = {TemporalRule::kAlways},
      .reach = reach,
      .chroma = {ChromaRule::kWhenSet, float_motion::kOptAddUv},
      .bind = bind_family<Params, read_params, FloatMotionExtractor,
                          VQX_TWIN(&float_motion::make_twin)>,
  };
  return kFamily;
}

}  // namespace vqx
